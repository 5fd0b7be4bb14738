import type { Page } from '@playwright/test';
import { expect } from './fixtures';

export interface CrawlOptions {
  maxPages?: number;
  maxDepth?: number;
  render?: 'auto' | 'always' | 'never';
}

/** What a user does to crawl: the Generate tab, the settings they change, Start; then progress shows. */
export async function startCrawl(panel: Page, options: CrawlOptions = {}): Promise<void> {
  await panel.getByRole('tab', { name: 'Generate' }).click();
  if (options.maxPages !== undefined) await panel.getByTestId('max-pages').fill(String(options.maxPages));
  if (options.maxDepth !== undefined) await panel.getByTestId('max-depth').fill(String(options.maxDepth));
  if (options.render) await panel.getByTestId('render-mode').selectOption(options.render);
  await panel.getByTestId('start-crawl').click();
  await expect(panel.getByTestId('crawl-progress')).toBeVisible();
}

/** Starts a crawl and waits until the panel shows it done. */
export async function crawlToEnd(panel: Page, options: CrawlOptions & { timeout?: number } = {}): Promise<void> {
  await startCrawl(panel, options);
  await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: options.timeout ?? 30_000 });
}
