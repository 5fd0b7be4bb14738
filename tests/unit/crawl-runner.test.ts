import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { frontierWindow } from '@/lib/crawl/frontier-view';
import { CrawlRunner } from '@/lib/crawl/runner';
import type { CrawlSettings } from '@/lib/crawl/settings';
import { getJob } from '@/lib/store/queries';
import { freezingFetch, until } from './background-helpers';
import { loopbackFetch, startFixtureServer, type FixtureServer, type FixtureSite } from '../fixtures/server';

const demoDir = fileURLToPath(new URL('../fixtures/sites/demo-docs/', import.meta.url));
const html = (title: string, links: string[] = [], body = '') => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${body || `All about ${title}, explained at some length for readers.`}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`,
});

let db: ScoutDb;
let server: FixtureServer;
afterEach(async () => {
  await db?.delete();
  await server?.close();
});

async function crawl(sites: Record<string, FixtureSite>, host: string, path: string, settings: Partial<CrawlSettings> = {}, fetchFn: typeof fetch = loopbackFetch()) {
  db = createDb(`t-${Math.random()}`);
  server = await startFixtureServer(sites);
  const job = await createCrawlJob(db, server.url(host, path), { useSeeds: false, ...settings });
  const state = await new CrawlRunner({ db, fetch: fetchFn, process: nodePipeline({ fetch: fetchFn }).process, timeoutMs: 2000 }, job.id).run();
  const frontier = await frontierWindow(db, job.id, 'all', 0, 100_000);
  const pages = await db.pages.where('[jobId+state]').between([job.id, ''], [job.id, '\uffff']).toArray();
  const path_ = (u: string) => new URL(u).pathname;
  return { job: await getJob(db, job.id, 'crawl'), state, frontier, pages, paths: pages.map((p) => path_(p.url)).sort(), at: (p: string) => frontier.find((f) => path_(f.url) === p) };
}

describe('crawl runner', () => {
  it('has the processor prepare its converters as the crawl starts, before robots.txt and the first page', async () => {
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({ 'docs.example.test': { routes: { '/': html('Home', ['/a']), '/a': html('A') } } });
    const fetchFn = loopbackFetch();
    const events: string[] = [];
    const seen: typeof fetch = (input, init) => {
      events.push(`fetch ${new URL(input instanceof Request ? input.url : String(input)).pathname}`);
      return fetchFn(input, init);
    };
    const pipeline = nodePipeline({ fetch: seen });
    const job = await createCrawlJob(db, server.url('docs.example.test', '/'), { useSeeds: false });
    const state = await new CrawlRunner({ db, fetch: seen, process: pipeline.process, prepare: () => events.push('prepare'), timeoutMs: 2000 }, job.id).run();
    expect(state).toBe('done');
    expect(events.filter((e) => e === 'prepare')).toHaveLength(1);
    expect(events[0]).toBe('prepare');
    expect(events).toContain('fetch /robots.txt');
    expect(events).toContain('fetch /a');
  });

  it('crawls breadth-first with depth accounting and stops at maxDepth', async () => {
    const { state, frontier, at, paths } = await crawl(
      { 'docs.example.test': { routes: { '/': html('Home', ['/a', '/b']), '/a': html('A', ['/a/1']), '/b': html('B', ['/b/1']), '/a/1': html('A1', ['/a/1/x']), '/b/1': html('B1'), '/a/1/x': html('Deep') } } },
      'docs.example.test', '/', { maxDepth: 2 },
    );
    expect(state).toBe('done');
    expect(paths).toEqual(['/', '/a', '/a/1', '/b', '/b/1']);
    expect([at('/')?.depth, at('/a')?.depth, at('/a/1')?.depth]).toEqual([0, 1, 2]);
    // Breadth-first: every depth-1 URL was queued before any depth-2 URL.
    const seqOf = (p: string) => at(p)?.seq ?? -1;
    expect(Math.max(seqOf('/a'), seqOf('/b'))).toBeLessThan(Math.min(seqOf('/a/1'), seqOf('/b/1')));
    expect(at('/a/1/x')).toBeUndefined();
    expect(frontier.every((f) => f.state !== 'pending' && f.state !== 'inflight')).toBe(true);
  });

  it('stops at maxPages and says so', async () => {
    const routes: FixtureSite['routes'] = { '/': html('Home', Array.from({ length: 20 }, (_, i) => `/p${i}`)) };
    for (let i = 0; i < 20; i++) routes[`/p${i}`] = html(`Page ${i}`);
    const { pages, job } = await crawl({ 'docs.example.test': { routes } }, 'docs.example.test', '/', { maxPages: 5 });
    expect(pages.filter((p) => p.state === 'stored')).toHaveLength(5);
    expect(job?.message).toMatch(/^Stopped at the 5-page limit: 5 pages stored · \d+ queued URLs not crawled$/);
  });

  it('keeps to the scope, records skipped URLs with reasons, and never queues non-web links', async () => {
    const { at, frontier } = await crawl(
      {
        'docs.example.test': { routes: { '/docs/': html('Docs', ['/docs/a', '/blog/x', 'http://api.example.test:PORT/ref', 'http://other.test/x', 'mailto:a@b.c', 'javascript:alert(1)', '/docs/file.pdf', '/llms.txt', '/docs/private/p']), '/docs/a': html('A'), '/robots.txt': { body: 'User-agent: *\nDisallow: /docs/private/\n' } } },
      },
      'docs.example.test', '/docs/', { scope: 'path', exclude: ['/docs/a'] },
    );
    expect(at('/blog/x')).toMatchObject({ state: 'skipped', reason: 'Outside /docs/' });
    expect(at('/docs/a')).toMatchObject({ state: 'skipped', reason: 'Excluded by pattern /docs/a' });
    expect(at('/docs/file.pdf')).toMatchObject({ state: 'skipped', reason: 'Binary file (.pdf)' });
    expect(at('/docs/private/p')).toMatchObject({ state: 'skipped', reason: 'Disallowed by robots.txt' });
    expect(frontier.some((f) => /^(mailto|javascript):/.test(f.url))).toBe(false);
    expect(server.requests.some((r) => r.path.startsWith('/docs/private'))).toBe(false);
    expect(server.requests.some((r) => r.host === 'other.test')).toBe(false);
  });

  it('records duplicates once and counts them apart', async () => {
    const same = html('Same', [], 'Identical body text that two URLs serve for the very same page.');
    const { pages, job } = await crawl({ 'docs.example.test': { routes: { '/': html('Home', ['/x', '/y']), '/x': same, '/y': same } } }, 'docs.example.test', '/');
    const dups = pages.filter((p) => p.state === 'duplicate');
    expect(dups).toHaveLength(1);
    expect(dups[0]?.duplicateOf).toMatch(/\/(x|y)$/);
    expect(job?.counters.duplicates).toBe(1);
  });

  it('resumes after the worker dies mid-crawl: nothing lost, nothing stored twice', async () => {
    const routes: FixtureSite['routes'] = { '/': html('Home', Array.from({ length: 30 }, (_, i) => `/p${i}`)) };
    for (let i = 0; i < 30; i++) routes[`/p${i}`] = html(`Page ${i}`, [`/p${(i + 1) % 30}`], `Body of page ${i} with its own words.`);
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({ 'docs.example.test': { routes } });
    const job = await createCrawlJob(db, server.url('docs.example.test', '/'), { useSeeds: false, respectRobots: false });
    // After 10 requests the "worker" freezes: requests never answer, as when MV3 kills the worker.
    const dying = freezingFetch(10);
    const first = new CrawlRunner({ db, fetch: dying.fetch, process: nodePipeline({ fetch: dying.fetch }).process, timeoutMs: 60_000 }, job.id);
    const firstRun = first.run();
    await expect.poll(() => db.frontier.where('[jobId+state]').equals([job.id, 'inflight']).count(), { timeout: 5000 }).toBeGreaterThan(0);
    await expect.poll(dying.calls, { timeout: 5000 }).toBeGreaterThan(10);
    first.pause(); // stops it claiming; its hung requests never finish, like a dead worker's
    const before = await db.pages.where('[jobId+state]').equals([job.id, 'stored']).count();
    expect(before).toBeLessThan(31);

    const second = await new CrawlRunner({ db, fetch: loopbackFetch(), process: nodePipeline({ fetch: loopbackFetch() }).process }, job.id).run();
    expect(second).toBe('done');
    const pages = await db.pages.where('[jobId+state]').equals([job.id, 'stored']).toArray();
    expect(pages.map((p) => new URL(p.url).pathname).sort()).toEqual(['/', ...Array.from({ length: 30 }, (_, i) => `/p${i}`)].sort());
    expect((await db.jobs.get(job.id))?.counters).toMatchObject({ stored: 31, done: 31, pending: 0, inflight: 0, duplicates: 0 });
    // The frozen runner is still waiting on its hung requests: end it while its database exists,
    // or it wakes after the test and writes to a deleted one (a DatabaseClosedError in a later test).
    first.cancel();
    await firstRun;
  });

  it('crawls the demo site from its llms.txt and sitemap seeds, preferring Markdown twins', async () => {
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({ 'docs.scout-demo.test': { dir: demoDir } });
    const start = server.url('docs.scout-demo.test', '/guide/');
    await runDiscoveryJob(db, { jobId: 'd', pageUrl: start, fetch: loopbackFetch() });
    const job = await createCrawlJob(db, start, {});
    expect(await new CrawlRunner({ db, fetch: loopbackFetch(), process: nodePipeline({ fetch: loopbackFetch() }).process }, job.id).run()).toBe('done');
    const pages = await db.pages.where('[jobId+state]').equals([job.id, 'stored']).toArray();
    const byPath = new Map(pages.map((p) => [new URL(p.url).pathname, p]));
    expect(pages).toHaveLength(14);
    expect(byPath.get('/guide/installation.html')).toMatchObject({ format: 'markdown', twinUrl: expect.stringMatching(/\/guide\/installation(\.html)?\.md$/) });
    expect(byPath.get('/api/database.html')).toMatchObject({ format: 'html', title: expect.stringMatching(/Database/) });
    const frontier = await frontierWindow(db, job.id, 'all', 0, 100_000);
    expect(frontier.find((f) => f.url.endsWith('/drafts/secret-roadmap.html'))).toMatchObject({ state: 'skipped', reason: 'Disallowed by robots.txt' });
    expect(frontier.find((f) => f.url.endsWith('/llms.txt'))).toMatchObject({ state: 'skipped' });
    expect(server.requests.some((r) => r.path.startsWith('/drafts/'))).toBe(false);
    // The rules came from the discovery's robots.txt: the crawl did not ask for it again.
    expect(server.requests.filter((r) => r.path === '/robots.txt')).toHaveLength(1);
  });

  it('asks for robots.txt itself when the site’s discovery is older than half an hour', async () => {
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({ 'docs.scout-demo.test': { dir: demoDir } });
    const start = server.url('docs.scout-demo.test', '/guide/');
    await runDiscoveryJob(db, { jobId: 'd', pageUrl: start, fetch: loopbackFetch() });
    await db.jobs.update('d', { endedAt: Date.now() - 31 * 60_000 });
    const job = await createCrawlJob(db, start, {});
    expect(await new CrawlRunner({ db, fetch: loopbackFetch(), process: nodePipeline({ fetch: loopbackFetch() }).process }, job.id).run()).toBe('done');
    expect(server.requests.filter((r) => r.path === '/robots.txt')).toHaveLength(2);
    const frontier = await frontierWindow(db, job.id, 'all', 0, 100_000);
    expect(frontier.find((f) => f.url.endsWith('/drafts/secret-roadmap.html'))).toMatchObject({ state: 'skipped', reason: 'Disallowed by robots.txt' });
  });

  it('waits for the discovery still running when Generate is pressed, and seeds from what it finds', async () => {
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({ 'docs.scout-demo.test': { dir: demoDir } });
    const start = server.url('docs.scout-demo.test', '/guide/');
    // The panel opened a moment ago: its discovery is under way (each of its answers 150 ms late).
    const slow: typeof fetch = async (input, init) => {
      await new Promise((r) => setTimeout(r, 150));
      return loopbackFetch()(input, init);
    };
    const discovery = runDiscoveryJob(db, { jobId: 'd', pageUrl: start, fetch: slow });
    await until(async () => (await getJob(db, 'd', 'discovery'))?.state === 'running');
    const job = await createCrawlJob(db, start, {});
    expect(await new CrawlRunner({ db, fetch: loopbackFetch(), process: nodePipeline({ fetch: loopbackFetch() }).process }, job.id).run()).toBe('done');
    expect((await discovery).state).toBe('done');
    const pages = await db.pages.where('[jobId+state]').equals([job.id, 'stored']).toArray();
    // The llms.txt's pages came in as seeds (read from their Markdown twins), as in the crawl after a finished discovery.
    expect(pages).toHaveLength(14);
    expect(pages.find((p) => p.url.endsWith('/guide/installation.html'))).toMatchObject({ format: 'markdown' });
  });
});

