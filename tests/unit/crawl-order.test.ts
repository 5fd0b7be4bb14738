import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { convertBody, withoutSelfLinks } from '@/lib/pipeline/steps';
import { CrawlRunner } from '@/lib/crawl/runner';
import type { CrawlSettings } from '@/lib/crawl/settings';
import { InOrder } from '@/lib/crawl/in-order';
import { linkedomAdapter } from '@/lib/convert/dom';
import { createPagePipeline, type ConversionLanes } from '@/lib/pipeline/page-pipeline';
import { frontierOf } from '@/lib/store/queries';
import { loopbackFetch, startFixtureServer, type FixtureServer, type FixtureSite, type Route } from '../fixtures/server';

// What a crawl stores must not depend on which fetch finishes first: the same site gives the same
// pages, the same duplicates and, at the page limit, the same set — whatever the server's timing.

const page = (title: string, links: string[] = [], extra = ''): Route => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>All about ${title}, explained at some length for the readers of this page.</p>${extra}${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`,
});

let db: ScoutDb | undefined;
let server: FixtureServer | undefined;
afterEach(async () => {
  await db?.delete();
  await server?.close();
  db = undefined;
  server = undefined;
});

async function crawl(site: FixtureSite, settings: Partial<CrawlSettings> = {}) {
  db = createDb(`t-${Math.random()}`);
  server = await startFixtureServer({ 'docs.example.test': site });
  const fetchFn = loopbackFetch();
  const job = await createCrawlJob(db, server.url('docs.example.test', '/'), { useSeeds: false, ...settings });
  const state = await new CrawlRunner({ db, fetch: fetchFn, process: nodePipeline({ fetch: fetchFn }).process, timeoutMs: 5000 }, job.id).run();
  const pages = await db.pages.where('[jobId+state]').between([job.id, ''], [job.id, '\uffff']).toArray();
  const path = (u: string) => new URL(u).pathname;
  const stored = pages.filter((p) => p.state === 'stored').map((p) => path(p.url)).sort();
  const duplicates = pages.filter((p) => p.state === 'duplicate').map((p) => `${path(p.url)} = ${path(p.duplicateOf ?? '')}`).sort();
  await server.close();
  server = undefined;
  return { state, stored, duplicates };
}

describe('one page at two addresses', () => {
  it('is one page: its links to itself are read as its fragments', () => {
    const md = '- [Install](https://x.test/#install)\n- [Top](https://x.test/)\n[Guide](https://x.test/guide.html) [Home](https://x.test/index.html#a "Home")';
    expect(withoutSelfLinks(md, ['https://x.test/'])).toBe('- [Install](#install)\n- [Top](#)\n[Guide](https://x.test/guide.html) [Home](#a "Home")');
    expect(withoutSelfLinks(md.replaceAll('https://x.test/#', 'https://x.test/index.html#'), ['https://x.test/index.html'])).toBe(withoutSelfLinks(md, ['https://x.test/']));
  });

  it('stores `/` and `/index.html` once, whichever answers first, keeping the one the crawl meets first', async () => {
    // An in-page table of contents: its links resolve to each address the file is served at.
    const toc = '<nav><a href="#install">Install</a> <a href="#usage">Usage</a></nav><h2 id="install">Install</h2><p>Run the installer with the defaults.</p><h2 id="usage">Usage</h2><p>Call it from your code.</p>';
    for (const slow of ['/', '/index.html']) {
      const home = page('Home', ['/index.html', '/guide'], toc);
      const routes: FixtureSite['routes'] = { '/': home, '/index.html': home, '/guide': page('Guide', ['/', '/index.html']) };
      routes[slow] = { ...home, delayMs: 150 };
      const { stored, duplicates } = await crawl({ routes });
      expect(stored, `slow ${slow}`).toEqual(['/', '/guide']);
      expect(duplicates, `slow ${slow}`).toEqual(['/index.html = /']);
    }
  });
});

describe('the page limit', () => {
  // `/` links to ten sections; each links to six pages of its own and to the last page of the next
  // section (a link two sections share, first seen from the earlier one); /s3 serves /s1's file.
  function site(delayOf: (path: string) => number): FixtureSite {
    const routes: Record<string, Route> = {};
    const sections = Array.from({ length: 10 }, (_, i) => `/s${i}`);
    routes['/'] = page('Home', sections);
    for (const [i, s] of sections.entries()) {
      const children = Array.from({ length: 6 }, (_, j) => `${s}/p${j}`);
      const body = i === 3 ? (routes['/s1'] as Route) : page(`Section ${i}`, [...children, `/s${(i + 1) % 10}/p5`]);
      routes[s] = { ...body, delayMs: delayOf(s) };
      for (const c of children) routes[c] = { ...page(`Page ${c}`), delayMs: delayOf(c) };
    }
    return { routes };
  }
  // Two timings that finish pages in opposite orders.
  const early = (path: string) => (path.split('').reduce((n, ch) => n + ch.charCodeAt(0), 0) % 7) * 12;
  const late = (path: string) => 84 - early(path);

  it('admits the same pages whichever fetches finish first: breadth-first, in link order', async () => {
    const a = await crawl(site(early), { maxPages: 30, perHostConcurrency: 4 });
    const b = await crawl(site(late), { maxPages: 30, perHostConcurrency: 4 });
    // The start, its sections (/s3 a duplicate), then the sections' pages in the order the
    // sections link them — not the pages of whichever section answered first.
    const children = (i: number, from = 0, to = 5) => Array.from({ length: to - from + 1 }, (_, j) => `/s${i}/p${from + j}`);
    const expected = ['/', '/s0', '/s1', '/s2', '/s4', '/s5', '/s6', '/s7', '/s8', '/s9', ...children(0), '/s1/p5', ...children(1, 0, 4), '/s2/p5', ...children(2, 0, 4), '/s3/p5', '/s4/p0'];
    expect(expected).toHaveLength(30);
    expect(a.stored).toEqual(expected.sort());
    expect(b.stored).toEqual(a.stored);
    expect(a.duplicates).toEqual(['/s3 = /s1']);
    expect(b.duplicates).toEqual(a.duplicates);
  });
});

describe('a very big page', () => {
  // "/" links /a, /big and /b; /big (over a megabyte of HTML) links /x; /a and /b link a page each,
  // and /a's links one more.
  const site: FixtureSite = {
    routes: {
      '/': page('Home', ['/a', '/big', '/b']),
      '/a': page('A', ['/a1']),
      '/big': page('Big', ['/x'], `<p>${'Every function of the library, listed with its signature. '.repeat(20_000)}</p>`),
      '/b': page('B', ['/b1']),
      '/a1': page('A1', ['/a1x']),
      '/b1': page('B1'),
      '/x': page('X'),
      '/a1x': page('A1X'),
    },
  };

  // Converts in this thread as the CLI does, with `capacity` lanes; each big page awaits `hold` first.
  const lanesHoldingBig = (capacity: number, hold: () => Promise<void>): ConversionLanes => ({
    capacity,
    convert: async (job, _signal, taken) => {
      taken?.();
      if (job.bytes.byteLength > 1_000_000) await hold();
      return { ...convertBody(job, linkedomAdapter), ms: 0 };
    },
  });

  /** Crawls the fixture server's site with those lanes; the job's state and id. */
  async function crawlOn(store: ScoutDb, fixture: FixtureServer, lanes: ConversionLanes, settings: Partial<CrawlSettings> = {}) {
    const fetchFn = loopbackFetch();
    const job = await createCrawlJob(store, fixture.url('docs.example.test', '/'), { useSeeds: false, ...settings });
    const process = createPagePipeline({ fetch: fetchFn, convert: { lanes } }).process;
    const state = await new CrawlRunner({ db: store, fetch: fetchFn, process, converters: lanes.capacity, timeoutMs: 5000 }, job.id).run();
    return { state, jobId: job.id };
  }

  // Converts as the CLI does, but the big page waits `delayMs` first, as on a busy conversion
  // worker; records how many pages were stored when it was done (waiting up to 3 s for 3).
  // `answerDelays` hold pages' answers (ms by path).
  async function crawlWith(delayMs: number, answerDelays: Record<string, number> = {}) {
    db = createDb(`t-${Math.random()}`);
    const routes = Object.fromEntries(Object.entries(site.routes ?? {}).map(([path, route]) => [path, { ...(route as Route), delayMs: answerDelays[path] ?? 0 }]));
    server = await startFixtureServer({ 'docs.example.test': { routes } });
    const store = db;
    const storedWhenDone: number[] = [];
    const lanes = lanesHoldingBig(2, async () => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      for (const t0 = Date.now(); delayMs > 0 && (await store.pages.count()) < 3 && Date.now() - t0 < 3000; ) await new Promise((resolve) => setTimeout(resolve, 20));
      storedWhenDone.push(await store.pages.count());
    });
    const { state, jobId } = await crawlOn(db, server, lanes);
    const frontier = await frontierOf(db, jobId).toArray();
    await server.close();
    server = undefined;
    await db.delete();
    db = undefined;
    const seq = (path: string) => frontier.find((f) => new URL(f.url).pathname === path)?.seq ?? -1;
    return { state, seq, storedWhenDone, numbered: frontier.map((f) => `${new URL(f.url).pathname}@${f.depth}#${f.seq}:${f.state}`).sort() };
  }

  it('converts apart from its place: the pages after it are written meanwhile, and its links still queue before those of any deeper page', async () => {
    const { state, seq, storedWhenDone } = await crawlWith(300);
    expect(state).toBe('done');
    // "/", "/a" and "/b" were stored while it converted (held behind it, "/b" was not).
    expect(storedWhenDone).toEqual([3]);
    // Its link /x is numbered after its siblings' links, and before the link of a deeper page.
    expect([seq('/a1'), seq('/b1'), seq('/x'), seq('/a1x')].every((n, i, all) => n >= 0 && (i === 0 || n > (all[i - 1] as number)))).toBe(true);
  });

  it('a level of big pages is fetched no faster than it converts', async () => {
    db = createDb(`t-${Math.random()}`);
    const bigPages = Array.from({ length: 16 }, (_, i) => `/big${i}`);
    const routes: Record<string, Route> = { '/': page('Home', bigPages) };
    for (const path of bigPages) routes[path] = site.routes?.['/big'] as Route;
    server = await startFixtureServer({ 'docs.example.test': { routes } });
    const fixture = server;
    // One converter, stuck on the first big page for 600 ms: how many big pages were fetched by then.
    const fetchedMeanwhile: number[] = [];
    const lanes = lanesHoldingBig(1, async () => {
      if (fetchedMeanwhile.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 600));
      fetchedMeanwhile.push(fixture.requests.filter((r) => r.path.startsWith('/big')).length);
    });
    const { state } = await crawlOn(db, server, lanes, { perHostConcurrency: 4 });
    expect(state).toBe('done');
    // Converting (4 for one converter), waiting for it (2) and in flight (4): not the whole level.
    expect(fetchedMeanwhile[0]).toBeLessThanOrEqual(10);
    expect(await db.pages.count()).toBe(17);
  });

  it('numbers every link the same however long it takes to fetch or convert', async () => {
    const quick = await crawlWith(0);
    const slow = await crawlWith(300);
    expect(slow.numbered).toEqual(quick.numbered);
    // Fetched after the deeper pages started, it still takes its place before theirs; fetched
    // long before, it waits for them.
    const late = await crawlWith(0, { '/big': 500 });
    expect(late.numbered).toEqual(quick.numbered);
    const early = await crawlWith(0, { '/a': 300, '/b': 300 });
    expect(early.numbered).toEqual(quick.numbered);
    expect(quick.numbered.filter((f) => f.endsWith(':done'))).toHaveLength(8);
  });
});

describe('InOrder', () => {
  it('hands results on in the order started, skipping work that gave none', () => {
    const out: string[] = [];
    const ordered = new InOrder<string>((item) => out.push(item));
    const [a, b, c, d] = [ordered.ticket(), ordered.ticket(), ordered.ticket(), ordered.ticket()];
    ordered.settle(c, 'c');
    ordered.settle(b, null);
    expect(out).toEqual([]);
    expect(ordered.held).toBe(2);
    ordered.settle(a, 'a');
    expect(out).toEqual(['a', 'c']);
    ordered.settle(d, 'd');
    expect(out).toEqual(['a', 'c', 'd']);
    expect(ordered.held).toBe(0);
    expect(() => ordered.settle(a, 'again')).toThrow(/twice/);
  });

  it('takes a place just before an issued ticket, and holds that ticket until the place is settled', () => {
    const out: string[] = [];
    const ordered = new InOrder<string>((item) => out.push(item));
    const [a, b, c] = [ordered.ticket(), ordered.ticket(), ordered.ticket()];
    const x = ordered.ticketBefore(c);
    const y = ordered.ticketBefore(c);
    ordered.settle(a, 'a');
    ordered.settle(c, 'c');
    ordered.settle(b, 'b');
    expect(out).toEqual(['a', 'b']);
    ordered.settle(y, 'y');
    expect(out).toEqual(['a', 'b']);
    ordered.settle(x, 'x');
    expect(out).toEqual(['a', 'b', 'x', 'y', 'c']);
    expect(ordered.held).toBe(0);
    expect(() => ordered.settle(x, 'again')).toThrow(/twice/);
    expect(() => ordered.ticketBefore(c)).toThrow(/no place/);
  });
});
