import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../cli/common';
import { runGenerate } from '../../cli/generate';
import type { ScoutDb } from '@/lib/store/db';
import { runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { HostGate } from '@/lib/crawl/host-gate';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import type { CrawlSettings } from '@/lib/crawl/settings';
import { crawlSite } from '@/lib/headless/crawl-site';
import { getJob } from '@/lib/store/queries';
import { until } from './background-helpers';
import { perTest } from '../fixtures/per-test';
import { loopbackFetch, type FixtureSite, type Route } from '../fixtures/server';

const HOST = 'docs.acme.test';
const html = (title: string, links: string[] = []): Route => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>All about ${title}, explained at some length for readers of these docs.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`,
});
const forbidden: Route = { status: 403, headers: { 'content-type': 'text/html' }, body: '<h1>Access denied</h1><p>Your request was blocked by the firewall.</p>' };
const sitemap = (paths: string[]): Route => ({
  headers: { 'content-type': 'application/xml' },
  body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>http://${HOST}:PORT${p}</loc></url>`).join('')}</urlset>`,
});

const made = perTest('good-guest');
/** The current test's database (startSite makes it). */
let db: ScoutDb | undefined;

function runner(jobId: string, fetchFn = loopbackFetch()) {
  if (!db) throw new Error('no db');
  return new CrawlRunner({ db, fetch: fetchFn, process: nodePipeline({ fetch: fetchFn }).process, timeoutMs: 3000 }, jobId);
}

async function startSite(site: FixtureSite) {
  db = made.db();
  return made.serve({ [HOST]: site });
}

describe('a site that refuses the crawl', () => {
  it('answering 403 to every page (its sitemap listing 300) pauses the crawl within 30 requests, with the reason; resumed, it goes on', async () => {
    const pages = Array.from({ length: 300 }, (_, i) => `/docs/page-${i}.html`);
    const srv = await startSite({
      routes: {
        '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: `User-agent: *\nAllow: /\nSitemap: http://${HOST}:PORT/sitemap.xml\n` },
        '/sitemap.xml': (req) => ({ ...sitemap(pages), body: String(sitemap(pages).body).replaceAll('PORT', String(new URL(`http://${req.headers.host}`).port)) }),
      },
      fallback: () => forbidden,
    });
    if (!db) throw new Error('no db');
    const start = srv.url(HOST, '/docs/');
    // Default settings: seeds from the site's discovery (its sitemap), as the panel does.
    await runDiscoveryJob(db, { jobId: 'disc', pageUrl: start, fetch: loopbackFetch() });
    const before = srv.requests.length;
    const job = await createCrawlJob(db, start, {});
    const state = await runner(job.id).run();
    const spent = srv.requests.length - before;
    const paused = await getJob(db, job.id, 'crawl');
    expect(state).toBe('paused');
    expect(spent).toBeLessThanOrEqual(30);
    expect(paused?.message).toMatch(/^Paused: the site refused (\d+ of )?the first \d+ pages \(\d+ × HTTP 403\)\. It may block crawlers, or the pages may need you to log in/);
    expect(paused?.message).toMatch(/resume to go on anyway/);
    expect(paused?.stoppedOnRefusals).toBe(true);
    console.log(`403 site: paused after ${spent} crawl requests (${before} for discovery); message: ${paused?.message}`);

    // The user chose to go on: the crawl carries on past the first pages (it is not stopped again).
    await db.jobs.update(job.id, { state: 'running' });
    const goOn = runner(job.id);
    const resumed = goOn.run();
    await until(async () => srv.requests.length - before > 60);
    goOn.cancel();
    expect(await resumed).toBe('cancelled');
  }, 30_000);

  it('answering 429 with Retry-After: 1 to every page: paused within 30 requests, nothing left in flight', async () => {
    const links = Array.from({ length: 100 }, (_, i) => `/p${i}`);
    const srv = await startSite({
      routes: { '/': html('Home', links) },
      fallback: (req) => (req.path === '/robots.txt' ? null : { status: 429, headers: { 'retry-after': '1', 'content-type': 'text/plain' }, body: 'Slow down' }),
    });
    if (!db) throw new Error('no db');
    const job = await createCrawlJob(db, srv.url(HOST, '/'), { useSeeds: false });
    const t0 = Date.now();
    expect(await runner(job.id).run()).toBe('paused');
    const asked = srv.requests.filter((r) => r.path.startsWith('/p'));
    console.log(`429 site: paused after ${asked.length} page requests in ${Date.now() - t0} ms`);
    expect(asked.length).toBeLessThanOrEqual(30);
    const paused = await getJob(db, job.id, 'crawl');
    expect(paused?.message).toMatch(/refused (\d+ of )?the first \d+ pages \(\d+ × HTTP 429\)\. It is limiting how fast it may be read/);
    // Nothing was left in flight: what was being asked when the crawl stopped is queued again.
    expect(paused?.counters.inflight).toBe(0);
  }, 30_000);

  it('a start page that loads and links pages that are all refused: paused after a handful, not walked to the end', async () => {
    const links = Array.from({ length: 100 }, (_, i) => `/p${i}`);
    const srv = await startSite({ routes: { '/': html('Home', links) }, fallback: (req) => (req.path === '/robots.txt' ? null : { status: 401, body: 'Log in first' }) });
    if (!db) throw new Error('no db');
    const job = await createCrawlJob(db, srv.url(HOST, '/'), { useSeeds: false });
    expect(await runner(job.id).run()).toBe('paused');
    const asked = srv.requests.filter((r) => r.path.startsWith('/p')).length;
    expect(asked).toBeLessThanOrEqual(12);
    expect((await getJob(db, job.id, 'crawl'))?.message).toMatch(/refused (\d+ of )?the first \d+ pages \(\d+ × HTTP 401\)/);
  });

  it('a few refused pages among good ones do not stop the crawl', async () => {
    const links = Array.from({ length: 12 }, (_, i) => `/p${i}`);
    const routes: FixtureSite['routes'] = { '/': html('Home', links) };
    links.forEach((l, i) => (routes[l] = i % 4 === 0 ? forbidden : html(`Page ${i}`)));
    const srv = await startSite({ routes });
    if (!db) throw new Error('no db');
    const job = await createCrawlJob(db, srv.url(HOST, '/'), { useSeeds: false });
    expect(await runner(job.id).run()).toBe('done');
  });
});

  it('in the headless engine (scout generate), the same stop says it stopped and builds from what it read, with no word of resuming', async () => {
    const links = Array.from({ length: 100 }, (_, i) => `/p${i}`);
    const srv = await startSite({ routes: { '/': html('Home', links) }, fallback: (req) => (req.path === '/robots.txt' ? null : forbidden) });
    if (!db) throw new Error('no db');
    const result = await crawlSite({ db, startUrl: srv.url(HOST, '/'), fetch: loopbackFetch(), settings: { useSeeds: false } });
    expect(result.crawlState).toBe('paused');
    expect(srv.requests.filter((r) => r.path.startsWith('/p')).length).toBeLessThanOrEqual(12);
    expect(result.job.message).toMatch(/^Stopped: the site refused (\d+ of )?the first \d+ pages \(\d+ × HTTP 403\)\. It may block crawlers, or the pages may need you to log in\. /);
    expect(result.job.message).not.toMatch(/resum/i);
    // The home page was read, so there is still something to publish.
    expect(result.generated?.output.llmsTxt).toContain('# ');
  });

  it('scout generate on such a site exits 1 with the stop in words, and still writes what it read', async () => {
    const srv = await startSite({ routes: { '/': html('Home', Array.from({ length: 50 }, (_, i) => `/p${i}`)) }, fallback: (req) => (req.path === '/robots.txt' ? null : forbidden) });
    const out = await mkdtemp(join(tmpdir(), 'scout-refused-'));
    const lines: string[] = [];
    try {
      const code = await runGenerate({ input: srv.url(HOST, '/'), out, cleanUrls: false, settings: { useSeeds: false }, output: {}, json: false }, { out: (l) => lines.push(l), progress: () => undefined }, loopbackFetch());
      expect(code).toBe(EXIT.failed);
      expect(lines.join('\n')).toMatch(/^Stopped: the site refused/);
      expect(await readFile(join(out, 'llms.txt'), 'utf8')).toContain('# ');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

describe('Retry-After slows the whole host', () => {
  it('after a 429 with Retry-After: 1, no new request goes to the host for that second', async () => {
    const links = Array.from({ length: 12 }, (_, i) => `/p${i}`);
    let answered429At = 0;
    const routes: FixtureSite['routes'] = { '/': html('Home', links) };
    links.forEach((l, i) => (routes[l] = i === 0
      ? () => {
          if (answered429At) return html('Page 0');
          answered429At = Date.now();
          return { status: 429, headers: { 'retry-after': '1', 'content-type': 'text/plain' }, body: 'Slow down' };
        }
      : { ...html(`Page ${i}`), delayMs: 30 }));
    const srv = await startSite({ routes });
    if (!db) throw new Error('no db');
    const job = await createCrawlJob(db, srv.url(HOST, '/'), { useSeeds: false, perHostConcurrency: 4 });
    expect(await runner(job.id).run()).toBe('done');
    expect(answered429At).toBeGreaterThan(0);
    // Requests already in flight when the 429 came may finish; none may start inside the pause.
    const startedInPause = srv.requests.filter((r) => r.at > answered429At + 50 && r.at < answered429At + 950);
    expect(startedInPause.map((r) => r.path)).toEqual([]);
    expect((await db.pages.where('jobId').equals(job.id).count())).toBe(13);
  }, 20_000);
});

describe('Crawl-delay', () => {
  const robots = (delay: number): FixtureSite => ({ routes: { '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: `User-agent: *\nCrawl-delay: ${delay}\n` } } });

  it('is honoured up to the 30 s cap, and in full when the user lifts the cap', async () => {
    const srv = await startSite(robots(3600));
    const origin = srv.origin(HOST);
    const capped = new HostGate(4, loopbackFetch(), 2000);
    await capped.loadRobots(origin);
    const t0 = Date.now();
    capped.acquire(HOST);
    expect((capped.nextFreeAt(t0) ?? 0) - t0).toBeGreaterThanOrEqual(29_000);
    expect((capped.nextFreeAt(t0) ?? 0) - t0).toBeLessThanOrEqual(31_000);
    expect(capped.paces()).toEqual([{ host: HOST, askedS: 3600, usedS: 30 }]);

    const lifted = new HostGate(4, loopbackFetch(), 2000, null);
    await lifted.loadRobots(origin);
    lifted.acquire(HOST);
    expect((lifted.nextFreeAt(t0) ?? 0) - t0).toBeGreaterThanOrEqual(3_599_000);
    expect(lifted.paces()).toEqual([{ host: HOST, askedS: 3600, usedS: 3600 }]);
  });

  it('a crawl of a Crawl-delay: 3600 site reports what is asked, what Scout waits and what is queued', async () => {
    const links = Array.from({ length: 40 }, (_, i) => `/p${i}`);
    const routes: FixtureSite['routes'] = { ...robots(3600).routes, '/': html('Home', links) };
    const srv = await startSite({ routes });
    if (!db) throw new Error('no db');
    const job = await createCrawlJob(db, srv.url(HOST, '/'), { useSeeds: false } satisfies Partial<CrawlSettings>);
    const r = runner(job.id);
    const running = r.run();
    // Claimed ahead of the pace, queued URLs show as in flight: the card counts both as queued.
    await until(async () => {
      const c = (await getJob(db as ScoutDb, job.id, 'crawl'))?.counters;
      return (c?.pending ?? 0) + (c?.inflight ?? 0) >= 40 && c?.crawlDelayUsed !== undefined;
    }, 5000);
    const c = (await getJob(db, job.id, 'crawl'))?.counters;
    r.cancel();
    await running;
    expect(c).toMatchObject({ crawlDelayAsked: 3600, crawlDelayUsed: 30 });
    // One page in 30 s: only the start page (and robots.txt) was asked for meanwhile.
    expect(srv.requests.filter((q) => q.path.startsWith('/p'))).toHaveLength(0);
  });

  it('a site without Crawl-delay gets no pace and no wait', async () => {
    const srv = await startSite({ routes: { '/robots.txt': { body: 'User-agent: *\nAllow: /\n' } } });
    const gate = new HostGate(4, loopbackFetch(), 2000);
    await gate.loadRobots(srv.origin(HOST));
    gate.acquire(HOST);
    expect(gate.paces()).toEqual([]);
    expect(gate.nextFreeAt()).toBeNull();
    expect(gate.canStart(HOST)).toBe(true);
  });
});
