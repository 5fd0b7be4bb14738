import { afterEach, describe, expect, it } from 'vitest';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { createDb, type JobRecord, type ScoutDb } from '@/lib/store/db';
import { generateForSite, KEEP_VERSIONS } from '@/lib/generate/run-generate';
import { outputsAfterRefresh } from '@/lib/refresh/after-refresh';
import { createRefreshJob } from '@/lib/refresh/jobs';
import { RefreshRunner } from '@/lib/refresh/runner';
import { similarity } from '@/lib/refresh/similarity';
import { DIFF_LIMITS, lineDiff } from '@/lib/refresh/line-diff';
import { recordSiteOpened } from '@/lib/sites';
import { changingSite, prose, sixPages } from '../fixtures/changing-site';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

const HOST = 'docs.example.test';
const initialPages = sixPages;

let db: ScoutDb;
let server: FixtureServer;
afterEach(async () => {
  await db?.delete();
  await server?.close();
});

const fetchFn = loopbackFetch();
const processor = nodePipeline({ fetch: fetchFn }).process;

async function crawlSite(validators?: Parameters<typeof changingSite>[1]) {
  const site = changingSite(initialPages(), validators);
  db = createDb(`t-${Math.random()}`);
  server = await startFixtureServer({ [HOST]: site.site });
  await recordSiteOpened(db, server.url(HOST, '/'));
  const crawl = await createCrawlJob(db, server.url(HOST, '/'), { useSeeds: false });
  expect(await new CrawlRunner({ db, fetch: fetchFn, process: processor, timeoutMs: 2000 }, crawl.id).run()).toBe('done');
  await generateForSite(db, server.origin(HOST));
  return { site, crawl, origin: server.origin(HOST) };
}

async function refresh(origin: string): Promise<JobRecord> {
  const job = await createRefreshJob(db, origin);
  if ('error' in job) throw new Error(job.error);
  const before = server.requests.length;
  expect(await new RefreshRunner({ db, fetch: fetchFn, process: processor, timeoutMs: 2000 }, job.id).run()).toBe('done');
  const done = await db.jobs.get(job.id);
  if (!done) throw new Error('job vanished');
  return Object.assign(done, { requests: server.requests.slice(before) });
}

const path = (u: string) => new URL(u).pathname;

describe('similarity', () => {
  const page = prose('Streams');
  it('is 1 for the same words, whatever the whitespace and Markdown punctuation', () => {
    expect(similarity(page, `  ${page.replaceAll(' ', '\n ')}`)).toBe(1);
    expect(similarity(`# Title\n\n${page}`, `Title\n\n**${page}**`)).toBe(1);
  });
  it('stays high for a one-word fix and drops for a rewrite or a reorder', () => {
    const fix = similarity(page, page.replace('plain words', 'simple words'));
    expect(fix).toBeGreaterThan(0.9);
    expect(fix).toBeLessThan(1);
    expect(similarity(page, prose('Sockets and pipes, rewritten from scratch'))).toBeLessThan(0.9);
    const sentences = page.split('. ');
    expect(similarity(page, sentences.reverse().join('. '))).toBeLessThan(0.95);
    expect(similarity(page, 'Completely different text about cooking pasta at home.')).toBe(0);
  });
});

describe('refresh', () => {
  it('gets 304s with ETags: nothing downloaded, nothing changed, no new llms.txt version', async () => {
    const { origin } = await crawlSite({ etag: true, lastModified: false });
    const job = (await refresh(origin)) as JobRecord & { requests: FixtureServer['requests'] };
    expect(job.counters).toMatchObject({ total: 6, checked: 6, unchanged: 6, changed: 0, removed: 0, failed: 0, bytes: 0 });
    // Every page request carried the stored ETag; robots.txt is the only other request.
    const pageRequests = job.requests.filter((r) => r.path !== '/robots.txt');
    expect(pageRequests).toHaveLength(6);
    expect(pageRequests.every((r) => typeof r.headers['if-none-match'] === 'string' && r.headers['if-modified-since'] === undefined)).toBe(true);
    const versions = await db.pageVersions.where('[jobId+change]').equals([job.id, 'unchanged']).toArray();
    expect(versions.map((v) => v.reason)).toEqual(Array(6).fill('Not modified (HTTP 304)'));
    expect(await outputsAfterRefresh(db, job.id)).toBeNull();
    expect(await db.artifacts.count()).toBe(3); // still version 1 (llms, llms-full and the files to publish)
  });

  it('gets 304s with Last-Modified alone (If-Modified-Since)', async () => {
    const { origin } = await crawlSite({ etag: false, lastModified: true });
    const job = (await refresh(origin)) as JobRecord & { requests: FixtureServer['requests'] };
    expect(job.counters).toMatchObject({ checked: 6, unchanged: 6, bytes: 0 });
    const pageRequests = job.requests.filter((r) => r.path !== '/robots.txt');
    expect(pageRequests.every((r) => r.headers['if-modified-since'] === 'Thu, 01 Jan 2026 00:00:00 GMT' && r.headers['if-none-match'] === undefined)).toBe(true);
  });

  it('finds 2 changed and 1 removed, keeps the rest, and makes one new version whose diff is exactly that', async () => {
    const { site, crawl, origin } = await crawlSite();
    const v1 = await db.artifacts.where('[origin+kind+version]').equals([origin, 'llms', 1]).first();
    site.change('/install', 'Installing now needs Node 22. Run the new installer script and follow its prompts; the old tarball route is gone and unsupported.');
    site.change('/api', 'The API was rewritten around streams. Every call now returns an async iterator, and callbacks were dropped entirely in this release.');
    site.remove('/old');

    const job = await refresh(origin);
    expect(job.counters).toMatchObject({ checked: 6, unchanged: 3, changed: 2, removed: 1, failed: 0, minor: 0 });
    expect(job.message).toBe('Refreshed: 6 checked · 3 unchanged · 2 changed · 1 removed · 0 failed');
    const versions = await db.pageVersions.filter((v) => v.jobId === job.id).toArray();
    const byPath = Object.fromEntries(versions.map((v) => [path(v.url), v]));
    expect(byPath['/install']).toMatchObject({ change: 'changed', changedEnough: true, reason: expect.stringMatching(/^Similarity 0\.\d\d < 0\.90$/) });
    expect(byPath['/install']?.fingerprint).not.toBe(byPath['/install']?.previousFingerprint);
    expect(byPath['/old']).toMatchObject({ change: 'removed', reason: 'Not found (HTTP 404)' });
    // The sidebar lost its /old link, so every page's HTML (and ETag) changed — but not its text.
    expect(byPath['/faq']).toMatchObject({ change: 'unchanged', reason: 'Same text', similarity: 1 });

    const pages = await db.pages.where('[jobId+state]').between([crawl.id, ''], [crawl.id, '\uffff']).toArray();
    expect(pages.find((p) => path(p.url) === '/old')?.state).toBe('removed');
    expect(pages.find((p) => path(p.url) === '/install')?.markdown).toContain('needs Node 22');

    expect(await outputsAfterRefresh(db, job.id)).toEqual({ version: 2 });
    const v2 = await db.artifacts.where('[origin+kind+version]').equals([origin, 'llms', 2]).first();
    expect(v2?.refreshJobId).toBe(job.id);
    const before = new Set(v1?.text.split('\n'));
    const after = new Set(v2?.text.split('\n'));
    const removed = [...before].filter((l) => !after.has(l));
    const added = [...after].filter((l) => !before.has(l));
    expect(removed.filter((l) => l.startsWith('- ')).map((l) => l.match(/\]\(([^)]+)\)/)?.[1]).map((u) => path(u ?? '')).sort()).toEqual(['/api', '/install', '/old']);
    expect(added.filter((l) => l.startsWith('- ')).map((l) => l.match(/\]\(([^)]+)\)/)?.[1]).map((u) => path(u ?? '')).sort()).toEqual(['/api', '/install']);
    // Besides the entries, only the "from N pages" line moves (6 → 5 pages).
    expect(added.filter((l) => !l.startsWith('- '))).toEqual([expect.stringContaining('from 5 pages')]);
  });

  it('scores crafted edits against the per-site threshold: a one-word fix is minor at 0.9 but counts at 0.99', async () => {
    const { site, crawl, origin } = await crawlSite();
    site.change('/config', prose('The configuration file').replace('plain words', 'simple words'));
    let job = await refresh(origin);
    expect(job.counters).toMatchObject({ minor: 1, changed: 0, unchanged: 5 });
    const minor = await db.pageVersions.where('[jobId+change]').equals([job.id, 'minor']).first();
    expect(minor?.similarity).toBeGreaterThanOrEqual(0.9);
    expect(minor?.similarity).toBeLessThan(1);
    // The stored page and its validators stay the baseline: the next refresh fetches it in full again.
    const page = await db.pages.get([crawl.id, server.url(HOST, '/config')]);
    expect(page?.markdown).toContain('plain words');
    expect(await outputsAfterRefresh(db, job.id)).toBeNull();

    await db.sites.update(origin, { monitor: { everyHours: 0, threshold: 0.99 } });
    job = await refresh(origin);
    expect(job.counters).toMatchObject({ changed: 1, minor: 0, unchanged: 5 });
    expect((await db.pages.get([crawl.id, server.url(HOST, '/config')]))?.markdown).toContain('simple words');
  });

  it('brings a removed page back when it returns, and keeps failing pages as they were', async () => {
    const { site, crawl, origin } = await crawlSite();
    site.remove('/faq');
    expect((await refresh(origin)).counters).toMatchObject({ removed: 1 });
    expect((await refresh(origin)).counters).toMatchObject({ removed: 0, unchanged: 6 });
    site.site.routes = { '/faq': { body: prose('Frequently asked questions'), headers: { 'content-type': 'text/html' } }, '/api': { status: 500, body: 'down' } };
    const job = await refresh(origin);
    expect(job.counters).toMatchObject({ restored: 1, failed: 1 });
    const failed = await db.pageVersions.where('[jobId+change]').equals([job.id, 'failed']).first();
    expect(failed?.reason).toMatch(/^Server error \(HTTP 500\) — gave up after 3 retries — the stored version is kept$/);
    expect((await db.pages.get([crawl.id, server.url(HOST, '/api')]))?.state).toBe('stored');
  });

  it('resumes a paused refresh without checking any page twice', async () => {
    const { origin } = await crawlSite();
    const job = await createRefreshJob(db, origin);
    if ('error' in job) throw new Error(job.error);
    let seen = 0;
    const counting: typeof fetch = async (input, init) => {
      if (!String(input).endsWith('/robots.txt') && ++seen === 2) runner.pause();
      return fetchFn(input, init);
    };
    const runner = new RefreshRunner({ db, fetch: counting, process: nodePipeline({ fetch: counting }).process }, job.id);
    expect(await runner.run()).toBe('paused');
    const firstPart = await db.pageVersions.filter((v) => v.jobId === job.id).count();
    expect(firstPart).toBeGreaterThan(0);
    expect(firstPart).toBeLessThan(6);
    await db.jobs.update(job.id, { state: 'running' });
    expect(await new RefreshRunner({ db, fetch: fetchFn, process: processor }, job.id).run()).toBe('done');
    const versions = await db.pageVersions.filter((v) => v.jobId === job.id).toArray();
    expect(versions.map((v) => v.key).sort()).toEqual([...new Set(versions.map((v) => v.key))].sort());
    expect(versions).toHaveLength(6);
    expect((await db.jobs.get(job.id))?.counters).toMatchObject({ checked: 6, unchanged: 6 });
  });

  it(`keeps the last ${KEEP_VERSIONS} versions as refreshes change the site`, async () => {
    const { site, origin } = await crawlSite();
    for (let i = 0; i < 6; i++) {
      site.change('/api', `Release ${i}: ${prose(`API generation ${i} with entirely different words number ${i}`)}`);
      const job = await refresh(origin);
      expect(await outputsAfterRefresh(db, job.id)).toEqual({ version: i + 2 });
    }
    const kept = await db.artifacts.where('[origin+kind+version]').between([origin, 'llms', 0], [origin, 'llms', Infinity]).toArray();
    expect(kept.map((a) => a.version)).toEqual([3, 4, 5, 6, 7]);
  });

  it('refuses to start without a crawl, or while one is running', async () => {
    db = createDb(`t-${Math.random()}`);
    expect(await createRefreshJob(db, 'http://docs.example.test')).toEqual({ error: 'Nothing to refresh yet: crawl the site first.' });
  });
});

describe('line diff', () => {
  it('numbers both sides, counts changes and folds unchanged runs to the context', () => {
    const older = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const newer = older.replace('line 5', 'line five').replace('line 18\n', '');
    const d = lineDiff(older, newer, 1);
    expect([d.added, d.removed]).toEqual([1, 2]);
    expect(d.rows.map((r) => (r.kind === 'gap' ? `…${r.hidden}` : `${r.kind[0]}${r.oldLine ?? ''}/${r.newLine ?? ''} ${r.text}`))).toEqual([
      '…3',
      's4/4 line 4',
      'r5/ line 5',
      'a/5 line five',
      's6/6 line 6',
      '…10',
      's17/17 line 17',
      'r18/ line 18',
      's19/18 line 19',
      '…1',
    ]);
  });

  it('two versions that differ throughout are reported as too different, within the limits, not diffed for seconds', () => {
    // Two llms-full.txt-sized texts (60,000 lines each) sharing no line: a full Myers diff of them
    // is quadratic work. Within the limits it stops and says so, with both versions' sizes.
    const older = Array.from({ length: 60_000 }, (_, i) => `old line ${i} ${'x'.repeat(i % 40)}`).join('\n');
    const newer = Array.from({ length: 60_000 }, (_, i) => `new line ${i} ${'y'.repeat(i % 40)}`).join('\n');
    const d = lineDiff(older, newer);
    expect(d.tooDifferent).toEqual({ olderLines: 60_000, newerLines: 60_000 });
    expect(d.rows).toEqual([]);
    // A few changes in the same big text are still diffed line by line.
    const edited = older.replace('old line 100 ', 'changed line 100 ');
    const small = lineDiff(older, edited, 2, { ...DIFF_LIMITS, timeoutMs: 30_000 });
    expect(small.tooDifferent).toBeUndefined();
    expect([small.added, small.removed]).toEqual([1, 1]);
  });
});
