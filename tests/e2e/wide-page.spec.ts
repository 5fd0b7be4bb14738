import { generatedSite } from '../fixtures/generated-site';
import { startFixtureServer } from '../fixtures/server';
import { latestCrawl, readStore } from './extension-db';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

// A page with 1,500 links: the crawl keeps them as one link block (lib/crawl/link-blocks.ts) and
// makes rows only of the ones it claims. The person sees no difference: the counters count every
// URL, and the Queued list lists every one, down to the last link of the page.
test('a page with 1,500 links: every found URL counted and listed, though only the crawled ones are rows', async ({ openPanel }) => {
  const wide = await startFixtureServer({ 'wide.example.test': generatedSite(40, { wideLinks: 1500 }) });
  try {
    const panel = await openPanel(wide.url('wide.example.test', '/'));
    await crawlToEnd(panel, { maxPages: 25 });
    // 40 pages of the tree and 1,500 leaves found; 25 stored, the rest queued.
    await expect(panel.getByTestId('count-stored')).toContainText('25');
    await expect(panel.getByTestId('count-pending')).toHaveText('1,515');
    const { job } = await latestCrawl(panel);
    const blocks = (await readStore<{ jobId: string; urls: string[] }>(panel, 'linkBlocks')).filter((b) => b.jobId === job?.id);
    expect(blocks.map((b) => b.urls.length)).toEqual([1508]);
    const rows = (await readStore<{ jobId: string }>(panel, 'frontier')).filter((r) => r.jobId === job?.id);
    expect(rows.length).toBeLessThan(100);

    await panel.getByRole('button', { name: 'Queued', exact: true }).click();
    await expect(panel.getByTestId('list-total')).toHaveText('1,515');
    // The page's last link is listed near the end: breadth-first, only the deepest pages found
    // after the wide page come later (how many depends on the order pages were written). From the
    // bottom, look up a screen at a time.
    const scroller = panel.getByTestId('page-scroller');
    const last = panel.getByTestId('page-row').filter({ hasText: '/docs/w1499.html' });
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    for (let screen = 0; screen < 20; screen++) {
      const shown = await expect(last).toHaveCount(1, { timeout: 1500 }).then(() => true, () => false);
      if (shown) break;
      await scroller.evaluate((el) => el.scrollBy(0, -el.clientHeight * 0.8));
    }
    await expect(last).toHaveAttribute('data-state', 'pending');
  } finally {
    await wide.close();
  }
});
