import { startFixtureServer, type FixtureSite } from '../fixtures/server';
import { latestCrawl } from './extension-db';
import { expect, test } from './fixtures';
import { startCrawl } from './steps';

const HOST = 'busy.example.test';
const PAGES = 12;

/**
 * Every page but the home page answers 503 with Retry-After: 3, so each fetch spends most of its
 * time waiting to retry. Cancel has to reach every one of those waits, in whichever thread the
 * page pipeline fetches (lib/pipeline/).
 */
function busySite(): FixtureSite {
  const links = Array.from({ length: PAGES }, (_, i) => `<li><a href="/docs/p${i}.html">Page ${i}</a></li>`).join('');
  return {
    routes: { '/': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: `<!doctype html><title>Busy docs</title><main><h1>Busy docs</h1><p>Docs on a server that is having a bad day.</p><ul>${links}</ul></main>` } },
    fallback: (req) => (req.path.startsWith('/docs/') ? { status: 503, headers: { 'retry-after': '3', 'content-type': 'text/plain' }, body: 'Busy, come back later' } : null),
  };
}

test('Cancel stops every request at once, in the offscreen document too: none reaches the site a second after it', async ({ openPanel }) => {
  const site = await startFixtureServer({ [HOST]: busySite() });
  try {
    const pageRequests = () => site.requests.filter((r) => r.host === HOST && r.path.startsWith('/docs/'));
    const panel = await openPanel(site.url(HOST, '/'));
    await startCrawl(panel);
    // Several requests are waiting out a Retry-After at once.
    await expect.poll(() => pageRequests().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    await panel.waitForTimeout(500);

    const cancelledAt = Date.now();
    await panel.getByTestId('cancel').click();
    await expect(panel.getByTestId('crawl-state')).toHaveText('cancelled', { timeout: 20_000 });
    // Past the 3 s Retry-After, when a fetch that missed the cancel would try again.
    await panel.waitForTimeout(Math.max(0, cancelledAt + 5000 - Date.now()));

    const late = pageRequests().filter((r) => r.at > cancelledAt + 1000);
    expect(late.map((r) => `${r.path} at +${r.at - cancelledAt} ms`)).toEqual([]);
    // The job ends when its requests end: Cancel does not wait out the server's Retry-After.
    const { job } = await latestCrawl(panel);
    expect(job?.state).toBe('cancelled');
    expect((job?.endedAt ?? Infinity) - cancelledAt).toBeLessThan(1000);
  } finally {
    await site.close();
  }
});
