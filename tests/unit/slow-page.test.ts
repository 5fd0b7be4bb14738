import { afterEach, describe, expect, it } from 'vitest';
import { linkedomAdapter } from '@/lib/convert/dom';
import { ConversionQueue } from '@/lib/pipeline/conversion-queue';
import { createCrawlJob } from '@/lib/crawl/jobs';
import type { PageProcessor } from '@/lib/crawl/processor';
import { convertBody } from '@/lib/pipeline/steps';
import { createPagePipeline } from '@/lib/pipeline/page-pipeline';
import { CrawlRunner } from '@/lib/crawl/runner';
import { InOrder } from '@/lib/crawl/in-order';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { loopbackFetch, startFixtureServer, type FixtureServer, type FixtureSite } from '../fixtures/server';

const html = (title: string, links: string[] = []) => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>All about ${title}, explained at some length for readers.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`,
});

let db: ScoutDb;
let server: FixtureServer;
afterEach(async () => {
  await db?.delete();
  await server?.close();
});

const FAST = 12;

describe('queue runner: a slow page does not hold back the pages behind it', () => {
  it('keeps fetching and converting later pages while two pages take long after conversion, and writes in start order', async () => {
    // The start page links two slow pages first, then FAST others; each page links a child of its
    // own, so the order the writer numbers the children in is the order it got their parents.
    const slow = ['/slow1', '/slow2'];
    const fast = Array.from({ length: FAST }, (_, i) => `/p${i}`);
    const routes: FixtureSite['routes'] = { '/': html('Home', [...slow, ...fast]) };
    for (const path of [...slow, ...fast]) {
      routes[path] = html(`Page ${path}`, [`${path}-child`]);
      routes[`${path}-child`] = html(`Child of ${path}`);
    }
    server = await startFixtureServer({ 'docs.example.test': { routes } });
    db = createDb(`t-${Math.random()}`);
    const job = await createCrawlJob(db, server.url('docs.example.test', '/'), { useSeeds: false, respectRobots: false, perHostConcurrency: 2 });

    // What a slow step after conversion does (a page rendered in a tab): the slow pages wait until
    // every fast page has converted, or at most 3 s, so a runner that waits on them still ends.
    const converted: string[] = [];
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
      setTimeout(resolve, 3000);
    });
    let convertedBeforeOpen = -1;
    void gate.then(() => (convertedBeforeOpen = converted.filter((u) => /\/p\d+$/.test(u)).length));
    const queue = new ConversionQueue([
      {
        name: 'one',
        capacity: 1,
        convert: async (j) => {
          converted.push(new URL(j.finalUrl).pathname);
          if (converted.filter((u) => /\/p\d+$/.test(u)).length === FAST) open();
          return convertBody(j, linkedomAdapter);
        },
      },
    ]);
    const fetchFn = loopbackFetch();
    const inner = createPagePipeline({ fetch: fetchFn, convert: { lanes: queue } }).process;
    const process: PageProcessor = async (request, signal) => {
      const result = await inner(request, signal);
      if (slow.includes(new URL(request.entry.url).pathname)) await gate;
      return result;
    };
    expect(await new CrawlRunner({ db, fetch: fetchFn, process, converters: 1, timeoutMs: 5000 }, job.id).run()).toBe('done');
    expect(await db.pages.where('[jobId+state]').equals([job.id, 'stored']).count()).toBe(1 + 2 * (slow.length + FAST));
    // Every fast page was fetched and converted while the slow ones were still held up.
    expect(convertedBeforeOpen).toBe(FAST);
    // ...and still written in the order the pages started: the children are numbered in that order.
    const children = (await db.frontier.where('jobId').equals(job.id).toArray()).filter((f) => f.url.endsWith('-child')).sort((a, b) => a.seq - b.seq);
    expect(children.map((f) => new URL(f.url).pathname)).toEqual([...slow, ...fast].map((p) => `${p}-child`));
  });
});

describe('InOrder: what the held results weigh', () => {
  it('adds a result’s weight while it waits and takes it off once it is handed on', () => {
    const out: string[] = [];
    const ordered = new InOrder<string>((item) => out.push(item), (item) => item.length);
    const [a, b, c] = [ordered.ticket(), ordered.ticket(), ordered.ticket()];
    ordered.settle(c, 'ccc');
    ordered.settle(b, 'bb');
    expect(ordered.heldWeight).toBe(5);
    ordered.settle(a, null);
    expect(out).toEqual(['bb', 'ccc']);
    expect(ordered.heldWeight).toBe(0);
  });
});
