import { mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

test('search the crawled pages from the Output tab: results as you type, a result opens its page', async ({ openPanel, server }) => {
  const panel = await openPanel(server.url('docs.scout-demo.test', '/guide/'));
  await panel.setViewportSize({ width: 360, height: 800 });
  await expect(panel.locator('[data-testid=file-row]').first()).toBeVisible({ timeout: 30_000 });

  // Before any crawl there is nothing to search, and the card says so.
  await panel.getByRole('tab', { name: 'Output' }).click();
  await expect(panel.getByTestId('search-status')).toHaveText(/No crawled pages to search yet/);
  await expect(panel.getByTestId('search-input')).toBeDisabled();

  await crawlToEnd(panel, { timeout: 20_000 });
  await panel.getByTestId('see-output').click();
  await expect(panel.getByTestId('output')).toBeVisible({ timeout: 15_000 });
  const input = panel.getByTestId('search-input');
  await expect(panel.getByTestId('search-status')).toHaveText(/^\d+ pages indexed/, { timeout: 15_000 });

  // Typed key by key, as a person types: the answer is the page about durability, under its heading.
  await input.pressSequentially('writes lost on power failure', { delay: 20 });
  const first = panel.getByTestId('search-result').first();
  await expect(first).toContainText('Configuration');
  await expect(first.locator('.search-hit__heading')).toHaveText('Durability');
  await expect(first.locator('.search-hit__snippet')).toContainText('power failure');
  // The words searched are marked where a word starts with them; the stop word "on" is not.
  await expect(first.locator('.search-hit__snippet mark').first()).toHaveText(/^(writes|lost|power|failure)$/i);
  expect(await first.locator('mark').allInnerTexts()).not.toContain('on');
  mkdirSync('/tmp/shots', { recursive: true });
  // The card's top just under the sticky header: the field and the first results in view.
  await panel.evaluate(() => {
    const card = document.querySelector('[data-testid=page-search]');
    const header = document.querySelector<HTMLElement>('.site-header');
    if (card) window.scrollTo(0, card.getBoundingClientRect().top + window.scrollY - (header?.offsetHeight ?? 0) - 8);
  });
  await panel.screenshot({ path: '/tmp/shots/panel-search.png' });

  // A click opens the page's stored Markdown; closing it comes back to the results.
  await first.click();
  const preview = panel.getByTestId('page-preview');
  await expect(preview).toContainText('Configuration');
  await expect(preview.getByTestId('page-markdown')).toContainText('## Durability');
  await preview.getByRole('button', { name: 'Close preview' }).click();
  await expect(panel.getByTestId('search-result').first()).toContainText('Configuration');

  // Enter opens the first result of what was typed.
  await input.fill('roll back a manual transaction');
  await expect(panel.getByTestId('search-result').first()).toContainText('Transaction');
  const title = await panel.getByTestId('search-result').first().locator('.search-hit__title').innerText();
  await input.press('Enter');
  await expect(preview.locator('.preview__title strong')).toHaveText(title);

  // Words no page has: said in words, no results listed.
  await input.fill('zxqvbnm');
  await expect(panel.getByTestId('search-status')).toHaveText('Nothing found for “zxqvbnm”. Try other words, or fewer.');
  await expect(panel.getByTestId('search-result')).toHaveCount(0);

  // An empty field shows nothing.
  await input.fill('');
  await expect(panel.getByTestId('search-results')).toHaveCount(0);
});
