/**
 * The crawler and discovery against a site that fails in every way at once (tests/fixtures/fault-site.ts).
 * One crawl runs in beforeAll; each failure class is asserted in its own test, from the frontier
 * rows (state + the reason the user sees), the stored pages and the server's request log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { createDb, type CrawlJob, type FrontierRecord, type PageRecord, type ScoutDb } from '@/lib/store/db';
import { discover } from '@/lib/discovery/discover';
import { HTML_NOT_SITEMAP } from '@/lib/discovery/sitemap';
import type { DiscoverySummary } from '@/lib/discovery/types';
import { FAULT_HOST, FAULT_PATHS as P, faultSite, HUGE_BYTES, LLMS_HUB_HOST, manyLlmsSite, OTHER_HOST, otherSite, type FaultSite } from '../fixtures/fault-site';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';
import { frontierOf, getJob } from '@/lib/store/queries';

const fetch = loopbackFetch();
const TIMEOUT_MS = 1500;
const MAX_PAGES = 200;
const MAX_DEPTH = 6;
/** fetchPage's default retries after the first attempt. */
const MAX_RETRIES = 3;

describe('crawling the fault site', () => {
  let server: FixtureServer;
  let site: FaultSite;
  let db: ScoutDb;
  let state: string;
  let job: CrawlJob | undefined;
  let frontier: FrontierRecord[];
  let pages: PageRecord[];
  let crawlMs: number;

  beforeAll(async () => {
    site = faultSite({ hangMs: TIMEOUT_MS * 4 });
    server = await startFixtureServer({ [FAULT_HOST]: site, [OTHER_HOST]: otherSite() });
    db = createDb(`faults-${Math.random()}`);
    const created = await createCrawlJob(db, server.url(FAULT_HOST, '/'), { maxPages: MAX_PAGES, maxDepth: MAX_DEPTH, useSeeds: false });
    const started = Date.now();
    state = await new CrawlRunner({ db, fetch, process: nodePipeline({ fetch: fetch }).process, timeoutMs: TIMEOUT_MS }, created.id).run();
    crawlMs = Date.now() - started;
    job = await getJob(db, created.id, 'crawl');
    frontier = await frontierOf(db, created.id).toArray();
    pages = await db.pages.where('[jobId+state]').between([created.id, ''], [created.id, '\uffff']).toArray();
  }, 60_000);
  afterAll(async () => {
    await db?.delete();
    await server?.close();
  });

  const row = (path: string) => frontier.find((f) => f.url === server.url(FAULT_HOST, path));
  const pageAt = (path: string) => pages.find((p) => p.url === server.url(FAULT_HOST, path));
  const hits = (path: string) => server.requests.filter((r) => r.host === FAULT_HOST && r.path === path);

  it('ends done, within its limits, with counters that add up and a reason on every unfetched URL', () => {
    expect(state).toBe('done');
    expect(job?.message).toMatch(/^Done: \d+ pages stored · \d+ failed · \d+ skipped$/);
    expect(crawlMs).toBeLessThan(30_000);
    const c = job?.counters ?? {};
    expect((c.stored ?? 0) + (c.duplicates ?? 0)).toBe(pages.length);
    expect(c.stored).toBeLessThanOrEqual(MAX_PAGES);
    expect((c.done ?? 0) + (c.failed ?? 0) + (c.skipped ?? 0) + (c.pending ?? 0) + (c.inflight ?? 0)).toBe(c.discovered);
    expect(c.discovered).toBe(frontier.length);
    for (const s of ['done', 'failed', 'skipped'] as const) expect(c[s]).toBe(frontier.filter((f) => f.state === s).length);
    expect(frontier.filter((f) => f.state === 'pending' || f.state === 'inflight')).toEqual([]);
    expect(frontier.filter((f) => f.state !== 'done' && !f.reason)).toEqual([]);
    // No URL lost: every done row has its page, and every fault the home page links has a row.
    expect(frontier.filter((f) => f.state === 'done').every((f) => pages.some((p) => p.key === f.key))).toBe(true);
    for (const path of Object.values(P)) expect(row(path), path).toBeDefined();
  });

  it('fails a 404 with its reason and does not retry it', () => {
    expect(row(P.notFound)).toMatchObject({ state: 'failed', reason: 'Not found (HTTP 404)' });
    expect(hits(P.notFound)).toHaveLength(1);
  });

  it('fails a 410 with its reason and does not retry it', () => {
    expect(row(P.gone)).toMatchObject({ state: 'failed', reason: 'Gone (HTTP 410)' });
    expect(hits(P.gone)).toHaveLength(1);
  });

  it('fails a permanent 500 after a bounded number of retries', () => {
    expect(row(P.serverError)).toMatchObject({ state: 'failed', reason: `Server error (HTTP 500) — gave up after ${MAX_RETRIES} retries`, retries: MAX_RETRIES });
    expect(hits(P.serverError).length).toBeGreaterThan(1);
    expect(hits(P.serverError).length).toBeLessThanOrEqual(1 + MAX_RETRIES);
  });

  it('retries a 503 after its Retry-After seconds and stores the page', () => {
    const [first, second, ...more] = hits(P.unavailable);
    expect(more).toEqual([]);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(row(P.unavailable)).toMatchObject({ state: 'done', retries: 1 });
    expect(pageAt(P.unavailable)?.markdown).toContain('Served on the second try after a 503.');
  });

  it('retries a 429 after its Retry-After date and stores the page', () => {
    const [first, second, ...more] = hits(P.throttled);
    expect(more).toEqual([]);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(row(P.throttled)).toMatchObject({ state: 'done', retries: 1 });
    expect(pageAt(P.throttled)?.markdown).toContain('Served after a 429 with a Retry-After date.');
  });

  it('fails a page that never answers with a timeout reason', () => {
    expect(row(P.hang)).toMatchObject({ state: 'failed', reason: `No answer within ${TIMEOUT_MS / 1000} s — gave up after ${MAX_RETRIES} retries` });
    expect(hits(P.hang).length).toBeLessThanOrEqual(1 + MAX_RETRIES);
  });

  it('fails a connection reset mid-body with a network reason', () => {
    expect(row(P.reset)).toMatchObject({ state: 'failed' });
    // Node's fetch words it "other side closed"; the point is that it does not say "could not connect".
    expect(row(P.reset)?.reason).toMatch(/^The connection broke while reading the page: \S.* — gave up after \d retr/);
    expect(hits(P.reset).length).toBeLessThanOrEqual(1 + MAX_RETRIES);
  });

  it('fails a redirect loop with a redirect reason, without retrying it', () => {
    expect(row(P.loop)).toMatchObject({ state: 'failed', reason: expect.stringMatching(/^Redirect loop: /) });
    // Each of the two URLs was asked once; the loop is noticed on the way back.
    expect(hits(P.loop)).toHaveLength(1);
    expect(hits('/loop-b')).toHaveLength(1);
  });

  it('skips a redirect to another site as out of scope, without sending it a request', () => {
    const target = server.url(OTHER_HOST, '/landing');
    expect(row(P.offsite)).toMatchObject({ state: 'skipped', reason: `Redirected out of scope to ${target} (Outside the site (${OTHER_HOST}))` });
    expect(server.requests.filter((r) => r.host === OTHER_HOST)).toEqual([]);
    expect(pageAt(P.offsite)).toBeUndefined();
  });

  it('skips a 20 MB page streamed without a length at the size limit, and stops reading it', () => {
    expect(row(P.huge)).toMatchObject({ state: 'skipped', reason: 'Larger than 5 MB' });
    expect(pageAt(P.huge)).toBeUndefined();
    expect(site.streams[P.huge]).toMatchObject({ requests: 1, finished: false });
    expect(site.streams[P.huge]?.sent).toBeLessThan(HUGE_BYTES);
  });

  it('skips a 20 MB page with a Content-Length before reading it', () => {
    expect(row(P.hugeDeclared)).toMatchObject({ state: 'skipped', reason: 'Larger than 5 MB' });
    expect(pageAt(P.hugeDeclared)).toBeUndefined();
    expect(site.streams[P.hugeDeclared]).toMatchObject({ requests: 1, finished: false });
  });

  it('skips a PNG served as text/html by its magic bytes', () => {
    expect(row(P.png)).toMatchObject({ state: 'skipped', reason: 'Binary content served as text/html' });
    expect(hits(P.png)).toHaveLength(1);
  });

  it('skips a PDF served as text/html by its magic bytes', () => {
    expect(row(P.pdf)).toMatchObject({ state: 'skipped', reason: 'Binary content served as text/html' });
    expect(hits(P.pdf)).toHaveLength(1);
  });

  it('decodes windows-1252 declared in the Content-Type header', () => {
    expect(row(P.cp1252)?.state).toBe('done');
    expect(pageAt(P.cp1252)?.markdown).toContain('The café “smart quotes” cost 5 € each');
  });

  it('decodes Shift_JIS declared only by <meta charset>', () => {
    expect(row(P.shiftJis)?.state).toBe('done');
    expect(pageAt(P.shiftJis)?.markdown).toContain('日本語 documentation: こんにちは.');
  });

  it('converts malformed HTML with all its text', () => {
    const markdown = pageAt(P.malformed)?.markdown ?? '';
    expect(row(P.malformed)?.state).toBe('done');
    expect(pageAt(P.malformed)?.title).toBe('Broken markup');
    for (const text of ['Broken markup survives', 'First paragraph with', 'italics', 'a dead link', 'item two', 'cell beta', 'Trailing text after an unclosed table']) {
      expect(markdown).toContain(text);
    }
  });

  it('bounds the infinite calendar by maxDepth', () => {
    const calendar = frontier.filter((f) => new URL(f.url).pathname.startsWith('/calendar/'));
    // From depth 1 (2026/01) one month further each way per level, up to maxDepth.
    expect(calendar).toHaveLength(2 * MAX_DEPTH - 1);
    expect(Math.max(...calendar.map((f) => f.depth))).toBe(MAX_DEPTH);
    expect(row('/calendar/2025/08')).toMatchObject({ state: 'done', depth: MAX_DEPTH });
    expect(row('/calendar/2026/06')).toMatchObject({ state: 'done', depth: MAX_DEPTH });
    expect(row('/calendar/2026/07')).toBeUndefined();
    expect(server.requests.filter((r) => r.path.startsWith('/calendar/'))).toHaveLength(2 * MAX_DEPTH - 1);
  });

  it('decodes a gzip Content-Encoding', () => {
    expect(row(P.gzip)?.state).toBe('done');
    expect(pageAt(P.gzip)?.markdown).toContain('Compressed with gzip on the wire.');
  });

  it('decodes a brotli Content-Encoding', () => {
    expect(row(P.brotli)?.state).toBe('done');
    expect(pageAt(P.brotli)?.markdown).toContain('Compressed with brotli on the wire.');
  });

  it('reads the malformed robots.txt once and is not blocked by its colon-less "Disallow /"', () => {
    expect(hits('/robots.txt')).toHaveLength(1);
    expect(frontier.filter((f) => f.reason === 'Disallowed by robots.txt')).toEqual([]);
  });
});

describe('discovery on the fault site', () => {
  let server: FixtureServer;
  let summary: DiscoverySummary;
  let hub: DiscoverySummary;

  beforeAll(async () => {
    server = await startFixtureServer({ [FAULT_HOST]: faultSite(), [LLMS_HUB_HOST]: manyLlmsSite(10_000) });
    summary = await discover({ pageUrl: server.url(FAULT_HOST, '/'), fetch });
    hub = await discover({ pageUrl: server.url(LLMS_HUB_HOST, '/'), fetch });
  }, 30_000);
  afterAll(() => server?.close());

  const at = (path: string) => summary.results.find((r) => r.url === server.url(FAULT_HOST, path));

  it('gives a reason for every location it did not find', () => {
    expect(summary.results.filter((r) => r.status !== 'found' && !r.reason)).toEqual([]);
  });

  it('reads a malformed robots.txt: one real rule, both Sitemap lines', () => {
    expect(at('/robots.txt')).toMatchObject({ status: 'found', kind: 'robots', linkCount: 1, urlCount: 2 });
    // "Sitemap: ::not a url" resolves as a relative path, which the site does not have.
    expect(at('/::not%20a%20url')).toMatchObject({ kind: 'sitemap', status: 'missing', reason: 'Not found (HTTP 404)' });
  });

  it('reports each malformed sitemap with its reason', () => {
    // Relative and javascript: locs are dropped, the self-reference is fetched once, the cut-off last loc is not guessed.
    expect(at('/sitemap.xml')).toMatchObject({ status: 'found', kind: 'sitemap', urlCount: 5 });
    expect(at('/sitemap-cut.xml')).toMatchObject({ status: 'found', urlCount: 1, depth: 1 });
    expect(at('/sitemap-rss.xml')).toMatchObject({ status: 'error', reason: 'Not a sitemap: the XML has no <urlset> or <sitemapindex> (its root element is <rss>)' });
    expect(at('/sitemap-html.xml')).toMatchObject({ status: 'missing', reason: HTML_NOT_SITEMAP });
    expect(at('/sitemap-garbage.xml')).toMatchObject({ status: 'error', reason: 'Not a sitemap: the XML has no <urlset> or <sitemapindex>' });
    expect(server.requests.filter((r) => r.host === FAULT_HOST && r.path === '/sitemap.xml')).toHaveLength(1);
    expect(server.requests.some((r) => r.path.includes('sitemap-never') || r.path.includes('relative-sitemap'))).toBe(false);
  });

  it('reads a malformed llms.txt and lists its warnings', () => {
    const llms = at('/llms.txt');
    expect(llms).toMatchObject({ status: 'found', kind: 'llms' });
    expect(llms?.warningCount).toBeGreaterThanOrEqual(3);
    expect(summary.bestUrl).toBe(server.url(FAULT_HOST, '/llms.txt'));
  });

  it('caps the llms files followed from a 10 000-link llms.txt', () => {
    const linked = hub.results.filter((r) => r.sources.includes('linked'));
    expect(linked).toHaveLength(50);
    expect(linked.every((r) => r.status === 'found')).toBe(true);
    expect(hub.overCap).toBe(10_000 - 50);
    expect(server.requests.filter((r) => r.host === LLMS_HUB_HOST && r.path.startsWith('/p/')).length).toBeLessThanOrEqual(50);
  });
});
