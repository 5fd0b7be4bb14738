import { afterEach, describe, expect, it } from 'vitest';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { frontierWindow } from '@/lib/crawl/frontier-view';
import { SKIPPED_BLOCK_MIN } from '@/lib/crawl/link-blocks';
import { CrawlRunner } from '@/lib/crawl/runner';
import { nodePipeline } from '@/lib/pipeline/node';
import { queueRowsIn } from '@/lib/store/crawl-report';
import { discardDb, scratchDb, type FrontierRecord } from '@/lib/store/db';
import { rowsInState } from '@/lib/store/frontier';
import { countPages, getJob } from '@/lib/store/queries';
import { blocksOf } from '@/lib/store/link-blocks';
import { MemoryStore, type Store } from '@/lib/store/store';
import { loopbackFetch, startFixtureServer, type FixtureServer, type FixtureSite } from '../fixtures/server';

// A real crawl over HTTP where pages link out in bulk (a changelog's bug tracker, an index's
// source links): each page's many skipped links are one record, and every list, count and report
// still shows each skipped URL once, with its reason, after a worker's death and a resume.
let server: FixtureServer;
let dexie: ReturnType<typeof scratchDb> | undefined;
afterEach(async () => {
  if (dexie) await discardDb(dexie);
  dexie = undefined;
  await server?.close();
});

const html = (title: string, links: string[]) => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>All about ${title}, explained at length.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`,
});

const issues = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `https://bugs.example.org/issue${from + k}`);
const SOURCES = ['https://github.example.com/repo/blob/main/a.py', 'https://github.example.com/repo/blob/main/b.py'];

function site(): FixtureSite {
  return {
    routes: {
      // 30 outside links and a PDF on the home page (a block), one on /guide and one on /api
      // (rows), 40 on /changelog: 20 seen on / already, 20 new (a block).
      '/': html('Home', ['/guide', '/changelog', '/api', ...issues(0, 30), '/manual.pdf']),
      '/guide': html('Guide', ['/guide/one', SOURCES[0] as string]),
      '/changelog': html('Changelog', [...issues(10, 50), '/api']),
      '/api': html('API', ['/guide', SOURCES[1] as string]),
    },
    fallback: (req) => html(`Page ${req.path}`, ['/']),
  };
}

const stores: Array<[string, () => Store]> = [
  ['Dexie', () => (dexie = scratchDb('skipped-blocks'))],
  ['the memory store', () => new MemoryStore()],
];

describe.each(stores)('a crawl whose pages link out in bulk (%s)', (_, makeStore) => {
  it('keeps each page’s many skipped links as one record, and lists, counts and reports every one with its reason', async () => {
    const db = makeStore();
    server = await startFixtureServer({ 'docs.example.test': site() });
    const job = await createCrawlJob(db, server.url('docs.example.test', '/'), { useSeeds: false, respectRobots: false, maxPages: 20, perHostConcurrency: 1 });
    const real = loopbackFetch();
    let calls = 0;
    // After 3 requests the worker "dies": requests never answer.
    const dying: typeof fetch = (input, init) => (++calls > 3 ? new Promise(() => undefined) : real(input, init));
    const first = new CrawlRunner({ db, fetch: dying, process: nodePipeline({ fetch: dying }).process, timeoutMs: 60_000 }, job.id);
    void first.run();
    await expect.poll(() => calls, { timeout: 10_000 }).toBeGreaterThan(3);
    // It dies once the two pages it read (/ and /guide) are written: a dead
    // worker writes nothing after, and the next runner numbers on from what it finds.
    await expect.poll(() => countPages(db, job.id), { timeout: 10_000 }).toBe(2);
    first.pause();
    expect(await new CrawlRunner({ db, fetch: real, process: nodePipeline({ fetch: real }).process }, job.id).run()).toBe('done');

    // 50 issues + 2 sources + 1 PDF: each once, however many pages link to it and across the resume.
    const expected = [...issues(0, 50), ...SOURCES, server.url('docs.example.test', '/manual.pdf')].sort();
    const counters = (await getJob(db, job.id, 'crawl'))?.counters;
    expect(counters).toMatchObject({ skipped: expected.length, inflight: 0, pending: 0 });

    // The home page's 30 issues and its PDF, and the changelog's 20 new issues, are blocks; a page's one outside link is a row.
    const blocks = (await blocksOf(db, job.id)).filter((b) => b.state === 'skipped');
    expect(blocks.map((b) => b.urls.length).sort((a, b) => a - b)).toEqual([20, 31]);
    expect(Math.min(...blocks.map((b) => b.urls.length))).toBeGreaterThanOrEqual(SKIPPED_BLOCK_MIN);

    const urls = (rows: FrontierRecord[]) => rows.map((r) => r.url);
    const listed = await frontierWindow(db, job.id, 'skipped', 0, 500);
    expect(urls(listed).sort()).toEqual(expected);
    // Breadth-first: depth, then the order found.
    expect(listed.map((r) => [r.depth, r.seq])).toEqual([...listed].sort((a, b) => a.depth - b.depth || a.seq - b.seq).map((r) => [r.depth, r.seq]));
    expect(listed.find((r) => r.url === 'https://bugs.example.org/issue45')).toMatchObject({ state: 'skipped', reason: 'Outside the site (bugs.example.org)', depth: 2 });
    expect(listed.every((r) => r.reason && r.reason.length > 0)).toBe(true);
    // Any window of the list is the same slice of it.
    for (const [offset, limit] of [[0, 7], [25, 10], [48, 20]] as const) {
      expect(urls(await frontierWindow(db, job.id, 'skipped', offset, limit))).toEqual(urls(listed).slice(offset, offset + limit));
    }

    // The whole list holds every URL the counters count, once each.
    const all = await frontierWindow(db, job.id, 'all', 0, 500);
    expect(all).toHaveLength(counters?.discovered ?? -1);
    expect(new Set(all.map((r) => r.key)).size).toBe(all.length);
    expect(all.filter((r) => r.state === 'skipped')).toHaveLength(expected.length);

    // What the variants card and the command line's report read.
    const inState = await rowsInState(db, job.id, 'skipped');
    expect(urls(inState).sort()).toEqual(expected);
    expect(inState.every((r) => r.reason)).toBe(true);
    const report = await queueRowsIn(db, job.id, ['failed', 'skipped']);
    expect(report.filter((r) => r.state === 'skipped').map((r) => r.key)).toEqual(expected);
  });
});
