import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { loopbackFetch, startFixtureServer, type FixtureServer, type FixtureSite } from '../fixtures/server';

// A real crawl over HTTP meets a page with 800 links (a link block): it stores the same pages in
// the same breadth-first order as a crawl that made a row of every link, counts every URL it
// found, and a second runner after a worker's death carries on with nothing fetched twice.
let db: ScoutDb;
let server: FixtureServer;
afterEach(async () => {
  await db?.delete();
  await server?.close();
});

const html = (title: string, links: string[]) => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>All about ${title}, explained at length.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`,
});

function site(): FixtureSite {
  const leaves = Array.from({ length: 800 }, (_, k) => `/leaf/${k}`);
  return {
    routes: { '/': html('Home', ['/wide', '/small', '/away.pdf', 'https://elsewhere.test/x']), '/wide': html('Wide', leaves), '/small': html('Small', ['/small/1', '/small/2']) },
    fallback: (req) => html(`Page ${req.path}`, ['/']),
  };
}

describe('a crawl that meets a page of 800 links', () => {
  it('queues them as one block, stores breadth-first, counts every URL, and resumes after a death with nothing fetched twice', async () => {
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({ 'docs.example.test': site() });
    const job = await createCrawlJob(db, server.url('docs.example.test', '/'), { useSeeds: false, respectRobots: false, maxPages: 40, perHostConcurrency: 2 });
    const real = loopbackFetch();
    let calls = 0;
    // After 12 requests the worker "dies": requests never answer.
    const dying: typeof fetch = (input, init) => (++calls > 12 ? new Promise(() => undefined) : real(input, init));
    const first = new CrawlRunner({ db, fetch: dying, process: nodePipeline({ fetch: dying }).process, timeoutMs: 60_000 }, job.id);
    void first.run();
    await expect.poll(() => calls, { timeout: 10_000 }).toBeGreaterThan(12);
    first.pause();
    // One block of pending links (/wide's leaves); the home page's two skipped links are a block of their own.
    expect((await db.linkBlocks.toArray()).map((b) => b.state ?? 'pending').sort()).toEqual(['pending', 'skipped']);

    expect(await new CrawlRunner({ db, fetch: real, process: nodePipeline({ fetch: real }).process }, job.id).run()).toBe('done');
    const pages = await db.pages.where('[jobId+state]').equals([job.id, 'stored']).toArray();
    const stored = pages.map((p) => new URL(p.url).pathname).sort();
    // Depth 0 and 1 first (/, /wide, /small), then depth 2 in the order found: /wide's leaves come before /small's links.
    expect(stored).toEqual(['/', '/small', '/wide', ...Array.from({ length: 37 }, (_, k) => `/leaf/${k}`)].sort());
    const fetched = server.requests.map((r) => r.path).filter((p) => p.startsWith('/leaf/'));
    // Every leaf fetched once, but those the dead worker held in flight.
    expect(fetched.length - new Set(fetched).size).toBeLessThanOrEqual(2);
    const counters = (await db.jobs.get(job.id))?.counters;
    // 3 pages + 800 leaves + 2 small links queued, a PDF and another site skipped.
    expect(counters).toMatchObject({ stored: 40, discovered: 3 + 800 + 2 + 2, skipped: 2, pending: 805 - 40, inflight: 0 });
    // Rows only for what was claimed (and the few URLs of small pages): not one per leaf.
    expect(await db.frontier.where('[jobId+seq]').between([job.id, 0], [job.id, Infinity]).count()).toBeLessThan(60);
  });
});
