import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { readStore } from './extension-db';
import type { JobRecord } from '@/lib/store/db';

const STORES = ['sites', 'jobs', 'discovered', 'frontier', 'linkBlocks', 'pages', 'artifacts', 'pageVersions', 'descriptions', 'renderTabs', 'plans'];

/** Every row of every store that names the origin (its own field, a job id's rows, a URL). */
async function rowsNaming(panel: Page, origin: string, jobIds: string[]): Promise<Array<[string, unknown]>> {
  const found: Array<[string, unknown]> = [];
  for (const store of STORES) {
    for (const row of await readStore<unknown>(panel, store)) {
      const text = JSON.stringify(row);
      if (text.includes(origin) || jobIds.some((id) => text.includes(id))) found.push([store, row]);
    }
  }
  return found;
}

const crawlsOf = async (panel: Page) => (await readStore<JobRecord>(panel, 'jobs')).filter((j) => j.kind === 'crawl');

test('three Generates keep the last two crawls; the Storage card shows the site’s data and deletes all of it', async ({ openPanel, server }) => {
  const url = server.url('docs.scout-demo.test', '/');
  const origin = server.origin('docs.scout-demo.test');
  const panel = await openPanel(url);
  await panel.getByRole('tab', { name: 'Generate' }).click();
  for (let i = 0; i < 3; i++) {
    if (i > 0) await panel.getByTestId('new-crawl').click();
    // The setting the user sees, at its default.
    await panel.getByText('More options').click();
    await expect(panel.getByTestId('keep-crawls')).toHaveValue('2');
    await panel.getByTestId('start-crawl').click();
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  }
  // The first crawl and its pages went when the third ended.
  await expect.poll(async () => (await crawlsOf(panel)).length, { timeout: 15_000 }).toBe(2);
  const kept = (await crawlsOf(panel)).map((j) => j.id);
  const pages = await readStore<{ jobId: string }>(panel, 'pages');
  expect(pages.length).toBeGreaterThan(0);
  expect(pages.filter((p) => !kept.includes(p.jobId))).toEqual([]);

  await panel.getByRole('tab', { name: 'History' }).click();
  const card = panel.getByTestId('storage-card');
  await card.locator('summary').click();
  await expect(card.getByTestId('storage-site')).toContainText('This site:');
  await expect(card.getByTestId('storage-tables').locator('tr[data-table="pages"]')).toContainText(String(pages.length));
  await panel.setViewportSize({ width: 380, height: 900 });
  await card.screenshot({ path: 'screenshots/storage-card.png' });

  const jobIds = (await readStore<JobRecord>(panel, 'jobs')).filter((j) => j.origin === origin).map((j) => j.id);
  expect((await rowsNaming(panel, origin, jobIds)).length).toBeGreaterThan(0);
  await card.getByTestId('delete-site-data-start').click();
  // A confirm step first: nothing is deleted until the user says so.
  await expect(card.getByTestId('delete-site-data-confirm')).toBeVisible();
  expect((await crawlsOf(panel)).length).toBe(2);
  await card.getByTestId('delete-site-data-confirm').click();
  await expect(card.getByTestId('delete-site-data-result')).toContainText('Nothing of this site is left', { timeout: 15_000 });
  expect(await rowsNaming(panel, origin, jobIds)).toEqual([]);
});

test('a crawl paused on a full store offers the deletion; after Delete old crawls, Resume finishes it', async ({ openPanel, server, worker }) => {
  const url = server.url('docs.scout-demo.test', '/');
  const panel = await openPanel(url);
  await panel.getByRole('tab', { name: 'Generate' }).click();
  await panel.getByTestId('start-crawl').click();
  await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await panel.getByTestId('new-crawl').click();
  await panel.getByTestId('start-crawl').click();
  await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  const [first, second] = (await crawlsOf(panel)).sort((a, b) => a.createdAt - b.createdAt);
  const perCrawl = (await readStore<{ jobId: string }>(panel, 'pages')).filter((p) => p.jobId === first?.id).length;
  expect(perCrawl).toBeGreaterThan(4);

  // The disk fills: room for the two crawls' pages and 3 more (the E2E build's test hook).
  await worker.evaluate((room) => (globalThis as unknown as { chrome: typeof browser }).chrome.storage.local.set({ e2eStorageRoom: room }), 2 * perCrawl + 3);
  await panel.getByTestId('new-crawl').click();
  await panel.getByTestId('start-crawl').click();
  const progress = panel.getByTestId('crawl-progress');
  await expect(progress).toHaveAttribute('data-state', 'paused', { timeout: 30_000 });
  await expect(progress.getByTestId('crawl-message')).toContainText('storage is full');
  const full = progress.getByTestId('storage-full');
  await expect(full.getByTestId('delete-old-crawls-start')).toBeVisible();
  await expect(full.getByTestId('delete-site-data-start')).toBeVisible();
  await panel.setViewportSize({ width: 380, height: 900 });
  await progress.screenshot({ path: 'screenshots/storage-full-pause.png' });

  await full.getByTestId('delete-old-crawls-start').click();
  await expect(full.getByTestId('delete-old-crawls-result')).toContainText('Deleted one old crawl');
  // The oldest crawl went; the one the outputs come from and the paused one stay.
  const left = (await crawlsOf(panel)).map((j) => j.id);
  expect(left).not.toContain(first?.id);
  expect(left).toContain(second?.id);

  await progress.getByTestId('resume').click();
  await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  const third = left.find((id) => id !== second?.id);
  expect((await readStore<{ jobId: string }>(panel, 'pages')).filter((p) => p.jobId === third).length).toBe(perCrawl);
});
