import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { generateForSite } from '@/lib/generate/run-generate';
import { outputsAfterRefresh } from '@/lib/refresh/after-refresh';
import { createRefreshJob as startRefresh } from '@/lib/refresh/jobs';
import { RefreshRunner } from '@/lib/refresh/runner';
import { recordSiteOpened } from '@/lib/sites';
import { DEFAULT_SETTINGS } from '@/lib/crawl/settings';
import { cacheKey } from '@/lib/describe/describe-pages';
import { siteSummaryKey } from '@/lib/describe/site-summary';
import { addVersion, versionsNewestFirst } from '@/lib/store/artifacts';
import { finishCheck, putCheckJob } from '@/lib/store/check-jobs';
import type {
  ArtifactRecord,
  CheckJob,
  CrawlJob,
  DescribeJob,
  DiscoveredFileRecord,
  DiscoveryJob,
  FrontierRecord,
  JobRecord,
  LinkBlockRecord,
  PageRecord,
  PageVersionRecord,
  PlanRecord,
  RenderTabRecord,
  ScoutDb,
  SiteRecord,
  StartedRefreshJob,
} from '@/lib/store/db';
import { discardDb, scratchDb } from '@/lib/store/db';
import { createDescribeJob, dropLease, failIfRunning, failStaleDescribeJobs, renewLease } from '@/lib/store/describe-jobs';
import { descriptionText, descriptionTexts, keepDescription } from '@/lib/store/descriptions';
import { addVisitFindings, bestFinding, failDiscoveryRow, findingById, finishDiscovery, putDiscoveryJob, storeFindings } from '@/lib/store/discovered';
import { hasEndedCrawlWithPages, recentJobs } from '@/lib/store/history';
import { keepPageCounts, pageHeads, pagesAfter, pagesInState, queuedUrlsOfStoredPages } from '@/lib/store/page-outputs';
import { changeCounts, eachPageToRecheck, versionsOfRefresh, versionsWithChange, writeCheckedBatch } from '@/lib/store/page-versions';
import { createRefreshJob, runningScheduledRefreshes } from '@/lib/store/refresh-jobs';
import { crawlsToKeep, deleteSiteData, pruneCrawls, SITE_TABLES, siteRowCount, siteStorage } from '@/lib/store/retention';
import { allSites, siteByOrigin, updateSite, upsertSite } from '@/lib/store/sites';
import { copy } from '@/lib/store/memory/store';
import { BodySpill } from '@/lib/store/memory/body-spill';
import { MemoryStore, type Store } from '@/lib/store/store';
import { type ChangingSite, changingSite, sixPages } from '../fixtures/changing-site';
import { type FixtureServer, loopbackFetch, startFixtureServer } from '../fixtures/server';

/**
 * The contract of the site-side repositories (sites, descriptions, check, describe, discovery and
 * refresh jobs, outputs, page versions, retention): each function, run on IndexedDB (Dexie over
 * fake-indexeddb) and on the CLI's memory store, must answer the same and leave the same rows. Each
 * scenario runs once per store and keeps a trace of every answer and of the tables after it; the
 * traces must be equal, and each test also states the facts it is about, so a rule both bodies
 * broke alike still fails.
 */

const SITE = 'https://docs.example.test';
const OTHER = 'https://other.example.test';
const url = (path: string, origin = SITE) => `${origin}${path}`;

type Kind = 'indexeddb' | 'memory';
const opened: ScoutDb[] = [];
const spills: BodySpill[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const db of opened.splice(0)) await discardDb(db);
  for (const spill of spills.splice(0)) spill.close();
});

function open(kind: Kind): Store {
  if (kind === 'memory') {
    // Its rows' text on disk, down to one character: each function is run on spilled rows (body-spill.ts).
    const spill = new BodySpill(undefined, 1);
    spills.push(spill);
    return new MemoryStore({ spill });
  }
  const db = scratchDb('contract-site');
  opened.push(db);
  return db;
}

/** Rows put in place as the crawl side writes them (its own repositories are another contract's). */
interface Seed {
  sites?: SiteRecord[];
  jobs?: JobRecord[];
  frontier?: FrontierRecord[];
  linkBlocks?: LinkBlockRecord[];
  pages?: PageRecord[];
  artifacts?: ArtifactRecord[];
  pageVersions?: PageVersionRecord[];
  discovered?: DiscoveredFileRecord[];
  descriptions?: Array<{ key: string; text: string; createdAt: number }>;
  renderTabs?: RenderTabRecord[];
  plans?: PlanRecord[];
}

async function seed(store: Store, rows: Seed): Promise<void> {
  if (store instanceof MemoryStore) {
    for (const r of rows.sites ?? []) store.sites.set(r.origin, copy(r));
    for (const r of rows.jobs ?? []) store.jobs.set(r.id, copy(r));
    for (const r of rows.frontier ?? []) store.frontier.rowsOf(r.jobId).set(r.key, copy(r));
    for (const r of rows.linkBlocks ?? []) {
      let blocks = store.linkBlocks.get(r.jobId);
      if (!blocks) store.linkBlocks.set(r.jobId, (blocks = new Map()));
      blocks.set(r.seq, copy(r));
    }
    for (const r of rows.pages ?? []) store.pages.rowsOf(r.jobId).set(r.key, copy(r));
    for (const r of rows.artifacts ?? []) {
      const id = store.nextId('artifacts');
      store.artifacts.set(id, { ...copy(r), id });
    }
    for (const r of rows.pageVersions ?? []) {
      const id = store.nextId('pageVersions');
      store.pageVersions.set(id, { ...copy(r), id });
    }
    for (const r of rows.discovered ?? []) {
      const id = store.nextId('discovered');
      store.discovered.set(id, { ...copy(r), id });
    }
    for (const r of rows.descriptions ?? []) store.descriptions.set(r.key, copy(r));
    for (const r of rows.renderTabs ?? []) store.renderTabs.set(r.tabId, copy(r));
    for (const r of rows.plans ?? []) store.plans.set(r.startUrl, copy(r));
    return;
  }
  const db = store;
  await db.sites.bulkAdd(rows.sites ?? []);
  await db.jobs.bulkAdd(rows.jobs ?? []);
  await db.frontier.bulkAdd(rows.frontier ?? []);
  await db.linkBlocks.bulkAdd(rows.linkBlocks ?? []);
  await db.pages.bulkAdd(rows.pages ?? []);
  await db.artifacts.bulkAdd(rows.artifacts ?? []);
  await db.pageVersions.bulkAdd(rows.pageVersions ?? []);
  await db.discovered.bulkAdd(rows.discovered ?? []);
  await db.descriptions.bulkAdd(rows.descriptions ?? []);
  await db.renderTabs.bulkAdd(rows.renderTabs ?? []);
  await db.plans.bulkAdd(rows.plans ?? []);
}

/** Every row of every table, each table's rows in primary-key order: what a store holds, to compare. */
async function tables(store: Store): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  if (store instanceof MemoryStore) {
    const flat = <R>(m: Map<string, Map<unknown, R>>) => [...m.values()].flatMap((inner) => [...inner.values()]);
    const all: Record<string, unknown[]> = {
      sites: [...store.sites.values()],
      jobs: [...store.jobs.values()],
      discovered: [...store.discovered.values()],
      frontier: flat(store.frontier),
      linkBlocks: flat(store.linkBlocks),
      pages: flat(store.pages),
      artifacts: [...store.artifacts.values()],
      pageVersions: [...store.pageVersions.values()],
      descriptions: [...store.descriptions.values()],
      renderTabs: [...store.renderTabs.values()],
      plans: [...store.plans.values()],
    };
    for (const t of SITE_TABLES) out[t] = sortRows(all[t] ?? []);
    return out;
  }
  for (const t of SITE_TABLES) out[t] = sortRows(await store.table(t).toArray());
  return out;
}

/** A row as JSON with every object's keys sorted: equal rows give equal text whatever order their fields were written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

const sortRows = (rows: unknown[]) => rows.map(canonical).sort();

/** Runs `scenario` on a fresh store of each kind; answers both traces (the tables appended), the IndexedDB one first. */
async function onBoth(scenario: (store: Store, trace: (label: string, answer: unknown) => void) => Promise<void>): Promise<Record<Kind, Array<[string, unknown]>>> {
  const traces = {} as Record<Kind, Array<[string, unknown]>>;
  for (const kind of ['indexeddb', 'memory'] as const) {
    const store = open(kind);
    const trace: Array<[string, unknown]> = [];
    await scenario(store, (label, answer) => trace.push([label, structuredClone(answer)]));
    trace.push(['tables', await tables(store)]);
    traces[kind] = trace;
  }
  return traces;
}

/** The answer under `label` in a trace. */
function answer<T>(trace: Array<[string, unknown]>, label: string): T {
  const hit = trace.find(([l]) => l === label);
  if (!hit) throw new Error(`no answer ${label}`);
  return hit[1] as T;
}

function crawl(n: number, state: JobRecord['state'] = 'done', origin = SITE, stored = 3): CrawlJob {
  return { id: `${origin}#crawl-${n}`, origin, kind: 'crawl', state, createdAt: 1_000 * n, startUrl: url('/', origin), settings: DEFAULT_SETTINGS, counters: { stored } };
}

function page(jobId: string, path: string, state: PageRecord['state'] = 'stored', origin = SITE): PageRecord {
  return { jobId, key: url(path, origin), url: url(path, origin), finalUrl: url(`${path}.md`, origin), state, depth: 1, title: path, markdown: `# ${path}\n\nText of ${path}.`, format: 'html', contentHash: `hash:${url(path, origin)}`, bytes: 30, fetchedAt: 5, etag: `"${path}"` };
}

function row(jobId: string, path: string, seq: number, state: FrontierRecord['state'] = 'done', origin = SITE): FrontierRecord {
  return { jobId, key: url(path, origin), url: url(`${path}?from=queue`, origin), state, depth: 1, seq, source: 'link', retries: 0, updatedAt: 5 };
}

function version(jobId: string, crawlJobId: string, path: string, change: PageVersionRecord['change']): PageVersionRecord {
  return { jobId, crawlJobId, key: url(path), url: url(path), change, previousFingerprint: 'f0', changedEnough: change !== 'unchanged' && change !== 'minor', reason: change, checkedAt: 7 };
}

function finding(jobId: string, path: string, extra: Partial<DiscoveredFileRecord> = {}, origin = SITE): DiscoveredFileRecord {
  return { origin, jobId, url: url(path, origin), kind: 'llms', status: 'found', fetchedAt: 3, ...extra } as DiscoveredFileRecord;
}

const refresh = (crawlJob: CrawlJob, n: number, state: JobRecord['state'] = 'done', scheduled = false): StartedRefreshJob => ({
  id: `${crawlJob.id}/refresh-${n}`,
  origin: crawlJob.origin,
  kind: 'refresh',
  state,
  createdAt: crawlJob.createdAt + n,
  crawlJobId: crawlJob.id,
  startUrl: crawlJob.startUrl,
  settings: DEFAULT_SETTINGS,
  scheduled,
  counters: {},
});

const describeJob = (crawlJob: CrawlJob, id: string, at: number, extra: Partial<DescribeJob> = {}): DescribeJob => ({
  id,
  origin: crawlJob.origin,
  kind: 'describe',
  state: 'running',
  createdAt: at,
  crawlJobId: crawlJob.id,
  counters: {},
  ...extra,
});

const artifact = (kind: ArtifactRecord['kind'], version: number, jobId: string, origin = SITE, extra: Partial<ArtifactRecord> = {}): ArtifactRecord => ({ origin, kind, version, jobId, text: `# v${version} ${kind}`, tokens: 4, createdAt: version, ...extra });

describe('the site repositories answer the same on IndexedDB and in memory', () => {
  it('sites: upsert, update (1 or 0, undefined deletes a field), read, list by origin', async () => {
    const traces = await onBoth(async (store, trace) => {
      const visit = (existing: SiteRecord | undefined): SiteRecord => ({ origin: SITE, host: 'docs.example.test', site: 'example.test', firstOpenedAt: existing?.firstOpenedAt ?? 10, lastOpenedAt: 20, openCount: (existing?.openCount ?? 0) + 1, monitor: existing?.monitor ?? { everyHours: 24, threshold: 0.9 } });
      await upsertSite(store, OTHER, () => ({ origin: OTHER, host: 'other.example.test', site: 'example.test', firstOpenedAt: 1, lastOpenedAt: 1, openCount: 1 }));
      trace('first', await upsertSite(store, SITE, visit));
      trace('second', await upsertSite(store, SITE, visit));
      trace('update', await updateSite(store, SITE, { monitor: undefined, curation: { excluded: [url('/a')] } as never }));
      trace('update missing', await updateSite(store, url('', 'https://never.test'), { openCount: 9 }));
      const read = await siteByOrigin(store, SITE);
      trace('read', read);
      if (read) read.openCount = 99;
      trace('read again', await siteByOrigin(store, SITE));
      trace('missing', await siteByOrigin(store, 'https://never.test'));
      trace('all', await allSites(store));
    });
    expect(traces.memory).toEqual(traces.indexeddb);
    expect(answer<SiteRecord>(traces.memory, 'second').openCount).toBe(2);
    expect(answer(traces.memory, 'update')).toBe(1);
    expect(answer(traces.memory, 'update missing')).toBe(0);
    expect(answer<SiteRecord>(traces.memory, 'read')).not.toHaveProperty('monitor');
    expect(answer<SiteRecord>(traces.memory, 'read again').openCount).toBe(2);
    expect(answer<SiteRecord[]>(traces.memory, 'all').map((s) => s.origin)).toEqual([SITE, OTHER]);
  });

  it('descriptions: kept, replaced, read one and many', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(1_234);
    const traces = await onBoth(async (store, trace) => {
      await keepDescription(store, 'k1', 'first');
      await keepDescription(store, 'k2', 'second');
      await keepDescription(store, 'k1', 'replaced');
      trace('one', await descriptionText(store, 'k1'));
      trace('many', await descriptionTexts(store, ['k2', 'nope', 'k1']));
    });
    expect(traces.memory).toEqual(traces.indexeddb);
    expect(answer(traces.memory, 'many')).toEqual(['second', undefined, 'replaced']);
  });

  it('check jobs: a finished check keeps the newest few of the site, never a running one or another site’s', async () => {
    const check = (id: string, at: number, state: JobRecord['state'] = 'done', origin = SITE): CheckJob => ({ id, origin, kind: 'check', state, createdAt: at, startUrl: url('/', origin), counters: {} });
    const traces = await onBoth(async (store, trace) => {
      await seed(store, { jobs: [check('c-b', 10), check('c-a', 10), check('c-c', 5), check('c-run', 1, 'running'), check('o-1', 1, 'done', OTHER), crawl(1)] });
      await putCheckJob(store, check('c-new', 50, 'running'));
      await finishCheck(store, { id: 'c-new', origin: SITE }, { state: 'done', endedAt: 60, report: { score: 1 } as never, counters: { passed: 3, applicable: 4, findings: 1 } }, 2);
      trace('jobs', await recentJobs(store, SITE, 10));
    });
    expect(traces.memory).toEqual(traces.indexeddb);
    // Of c-c (5), c-a and c-b (both 10, by id): the newest one stays beside the new check.
    expect(answer<JobRecord[]>(traces.memory, 'jobs').map((j) => `${j.id}:${j.state}`)).toEqual([`${SITE}#crawl-1:done`, 'c-new:done', 'c-b:done', 'c-run:running']);
  });

  it('describe jobs: created on the newest crawl with pages, refused while busy or running, lapsed leases end, leases renew and drop', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(5_000);
    const traces = await onBoth(async (store, trace) => {
      let n = 0;
      const make = (c: CrawlJob, now: number) => describeJob(c, `d-${++n}`, now, { leaseUntil: now + 1_000 });
      trace('no crawl', await createDescribeJob(store, SITE, 'lapsed', make));
      const old = crawl(1);
      const empty = crawl(2, 'done', SITE, 0);
      const busy = crawl(3, 'running', SITE, 0);
      await seed(store, { jobs: [old, empty, busy], pages: [page(old.id, '/a'), page(empty.id, '/b', 'duplicate')] });
      trace('busy', await createDescribeJob(store, SITE, 'lapsed', make));
      await updateSite(store, SITE, {});
      await seed(store, { jobs: [] });
      if (store instanceof MemoryStore) store.jobs.set(busy.id, { ...busy, state: 'done' });
      else await store.jobs.update(busy.id, { state: 'done' });
      const first = await createDescribeJob(store, SITE, 'lapsed', make);
      trace('first', 'id' in first ? { id: first.id, crawlJobId: first.crawlJobId } : first);
      trace('running', await createDescribeJob(store, SITE, 'lapsed', make));
      await renewLease(store, 'd-1', 1);
      const second = await createDescribeJob(store, SITE, 'lapsed', make);
      trace('second', 'id' in second ? second.id : second);
      await renewLease(store, 'd-2', 9e15);
      await dropLease(store, 'd-1');
      // A job that ended keeps no lease, renewed or not.
      await renewLease(store, 'd-1', 5);
      await failIfRunning(store, 'd-1', 'not running any more');
      await seed(store, { jobs: [describeJob(old, 'd-worker', 7), describeJob(old, 'd-gone', 8, { leaseUntil: 100 }), describeJob(crawl(9, 'done', OTHER), 'd-other', 9, { leaseUntil: 1e16 })] });
      trace('stale', await failStaleDescribeJobs(store, 'stopped', 'lapsed', 200));
      trace('jobs', (await recentJobs(store, SITE, 20)).map((j) => ({ ...j, endedAt: j.endedAt === undefined ? undefined : 'set' })));
    });
    expect(traces.memory).toEqual(traces.indexeddb);
    expect(answer(traces.memory, 'no crawl')).toEqual({ blocked: 'no-crawl' });
    expect(answer<{ blocked: string }>(traces.memory, 'busy').blocked).toBe('busy');
    expect(answer(traces.memory, 'first')).toEqual({ id: 'd-1', crawlJobId: `${SITE}#crawl-1` });
    expect(answer(traces.memory, 'running')).toEqual({ blocked: 'running' });
    expect(answer(traces.memory, 'second')).toBe('d-2');
    expect(answer(traces.memory, 'stale')).toBe(2);
    const jobs = answer<DescribeJob[]>(traces.memory, 'jobs');
    const d1 = jobs.find((j) => j.id === 'd-1');
    expect(d1?.state).toBe('failed');
    expect(d1?.message).toBe('lapsed');
    expect(d1).not.toHaveProperty('leaseUntil');
    expect(jobs.find((j) => j.id === 'd-2')).toMatchObject({ state: 'running', leaseUntil: 9e15 });
    expect(jobs.find((j) => j.id === 'd-worker')).toMatchObject({ state: 'failed', message: 'stopped' });
    expect(jobs.find((j) => j.id === 'd-gone')).toMatchObject({ state: 'failed', message: 'lapsed' });
  });

  it('discovery: findings added and replaced, a duplicate refused with nothing written, older runs dropped, visits added', async () => {
    const discovery = (id: string, at: number, state: JobRecord['state'] = 'done', origin = SITE): DiscoveryJob => ({ id, origin, kind: 'discovery', state, createdAt: at, counters: {} });
    const traces = await onBoth(async (store, trace) => {
      await seed(store, { jobs: [discovery('old', 1), discovery('other', 1, 'done', OTHER), discovery('still', 2, 'running')], discovered: [finding('old', '/llms.txt'), finding('other', '/llms.txt', {}, OTHER)] });
      await putDiscoveryJob(store, discovery('run', 3, 'running'));
      const rows = [finding('run', '/llms.txt'), finding('run', '/docs/llms.txt', { best: true, text: '# Docs' } as never), finding('run', '/llms-full.txt', { status: 'missing' } as never)];
      const ids = await storeFindings(store, rows);
      trace('ids', ids);
      trace('ids on rows', rows.map((r) => r.id));
      trace('replace', await storeFindings(store, [{ ...finding('run', '/llms-full.txt', { status: 'error' } as never), id: ids[2] }, finding('run', '/sitemap.xml', { kind: 'sitemap' } as never)]));
      const refused = await storeFindings(store, [finding('run', '/new.txt'), finding('run', '/llms.txt')]).then(
        () => 'stored',
        (e: Error) => e.name,
      );
      trace('refused', refused);
      trace('best before', await bestFinding(store, 'run'));
      await finishDiscovery(store, { id: 'run', origin: SITE }, { state: 'done', endedAt: 9, counters: { llms: 2 } });
      await addVisitFindings(store, 'run', [finding('run', '/guide/llms.txt')], (current) => ({ counters: { ...current.counters, linked: 1 }, message: 'One more.' }));
      await addVisitFindings(store, 'still', [finding('still', '/x.txt')], () => ({ message: 'never' }));
      await failDiscoveryRow(store, 'still', () => discovery('still', 0), { state: 'failed', endedAt: 11, message: 'Stopped.' });
      await failDiscoveryRow(store, 'never-written', () => discovery('never-written', 12), { state: 'failed', endedAt: 12, message: 'Could not start.' });
      const found = await findingById(store, ids[1] as number);
      trace('by id', found);
      if (found) found.text = 'changed by the caller';
      trace('by id again', await findingById(store, ids[1] as number));
      trace('gone', await findingById(store, 1));
    });
    expect(traces.memory).toEqual(traces.indexeddb);
    expect(answer(traces.memory, 'ids')).toEqual([3, 4, 5]);
    expect(answer(traces.memory, 'ids on rows')).toEqual([3, 4, 5]);
    expect(answer(traces.memory, 'replace')).toEqual([5, 6]);
    expect(answer(traces.memory, 'refused')).toBe('ConstraintError');
    expect(answer<DiscoveredFileRecord>(traces.memory, 'best before').url).toBe(url('/docs/llms.txt'));
    expect(answer<DiscoveredFileRecord>(traces.memory, 'by id again').text).toBe('# Docs');
    expect(answer(traces.memory, 'gone')).toBeUndefined();
    const all = answer<Record<string, string[]>>(traces.memory, 'tables');
    const findings = all.discovered?.map((r) => JSON.parse(r) as DiscoveredFileRecord) ?? [];
    // The old finished run went with its rows; the running one, the other site's and the refused batch's /new.txt did not come or go.
    expect(findings.map((f) => `${f.jobId} ${f.url.replace(/^https:\/\/[^/]+/, '')}`).sort()).toEqual(['other /llms.txt', 'run /docs/llms.txt', 'run /guide/llms.txt', 'run /llms-full.txt', 'run /llms.txt', 'run /sitemap.xml']);
    const jobs = all.jobs?.map((r) => JSON.parse(r) as DiscoveryJob) ?? [];
    expect(jobs.find((j) => j.id === 'run')).toMatchObject({ message: 'One more.', counters: { llms: 2, linked: 1 } });
    expect(jobs.find((j) => j.id === 'still')).toMatchObject({ state: 'failed', message: 'Stopped.' });
    expect(jobs.find((j) => j.id === 'never-written')).toMatchObject({ createdAt: 12, state: 'failed' });
    expect(jobs.some((j) => j.id === 'old')).toBe(false);
  });

  it('outputs: versions numbered per site, the newest few kept, listed newest first, ids never reused', async () => {
    const traces = await onBoth(async (store, trace) => {
      await seed(store, { artifacts: [artifact('llms', 1, 'other-crawl', OTHER)] });
      const numbers: number[] = [];
      for (let i = 0; i < 4; i++) {
        numbers.push(await addVersion(store, SITE, 2, (v) => (['llms', 'llms-full', 'files'] as const).map((kind) => artifact(kind, v, `crawl-${v}`))));
      }
      trace('numbers', numbers);
      const newest = await versionsNewestFirst(store, SITE, 'llms-full');
      trace('newest first', newest);
      if (newest[0]) newest[0].text = 'changed by the caller';
      trace('again', await versionsNewestFirst(store, SITE, 'llms-full'));
      trace('other', await versionsNewestFirst(store, OTHER, 'llms'));
    });
    expect(traces.memory).toEqual(traces.indexeddb);
    expect(answer(traces.memory, 'numbers')).toEqual([1, 2, 3, 4]);
    const kept = answer<ArtifactRecord[]>(traces.memory, 'again');
    expect(kept.map((a) => [a.version, a.text])).toEqual([
      [4, '# v4 llms-full'],
      [3, '# v3 llms-full'],
    ]);
    // Auto ids count on past the deleted versions: 1 is the other site's, each Generate adds three.
    expect(kept.map((a) => a.id)).toEqual([12, 9]);
  });

  it('history: the newest jobs of a site, and whether an ended crawl stored pages', async () => {
    const traces = await onBoth(async (store, trace) => {
      trace('none', await hasEndedCrawlWithPages(store, SITE));
      await seed(store, { jobs: [crawl(1, 'running'), crawl(2, 'done', SITE, 0), { ...crawl(3, 'cancelled'), id: 'same-time-a', createdAt: 500 }, { ...crawl(4, 'done', OTHER), createdAt: 500 }, { ...crawl(5, 'failed'), id: 'same-time-b', createdAt: 500, counters: {} }] });
      trace('recent', (await recentJobs(store, SITE, 3)).map((j) => j.id));
      trace('ended with pages', await hasEndedCrawlWithPages(store, SITE));
      trace('other', await hasEndedCrawlWithPages(store, OTHER));
    });
    expect(traces.memory).toEqual(traces.indexeddb);
    expect(answer(traces.memory, 'none')).toBe(false);
    expect(answer(traces.memory, 'recent')).toEqual([`${SITE}#crawl-2`, `${SITE}#crawl-1`, 'same-time-b']);
    expect(answer(traces.memory, 'ended with pages')).toBe(true);
  });

  it('pages for the outputs: by state in key order, counts kept only on unchanged text, queued URLs, pages after a key', async () => {
    const c = crawl(1);
    const traces = await onBoth(async (store, trace) => {
      await seed(store, {
        jobs: [c],
        pages: [page(c.id, '/b'), page(c.id, '/a'), page(c.id, '/c', 'duplicate'), page(c.id, '/d', 'removed'), page(c.id, '/e'), page('other-job', '/a')],
        frontier: [row(c.id, '/a', 1), row(c.id, '/b', 2)],
      });
      trace('stored', await pagesInState(store, c.id));
      trace('duplicate', await pagesInState(store, c.id, 'duplicate'));
      trace('heads', await pageHeads(store, c.id));
      trace('duplicate heads', await pageHeads(store, c.id, 'duplicate'));
      await keepPageCounts(store, c.id, [
        { key: url('/a'), contentHash: `hash:${url('/a')}`, changes: { fullTokens: { title: '/a', count: 12 } } },
        { key: url('/b'), contentHash: 'hash:stale', changes: { fullTokens: { title: '/b', count: 99 } } },
        { key: url('/missing'), contentHash: 'x', changes: { fullTokens: { title: 'x', count: 1 } } },
      ]);
      await keepPageCounts(store, c.id, []);
      trace('queued', await queuedUrlsOfStoredPages(store, c.id));
      trace('first two', (await pagesAfter(store, c.id, undefined, 2)).map((p) => p.key));
      trace('after b', (await pagesAfter(store, c.id, url('/b'), 10)).map((p) => p.key));
    });
    expect(traces.memory).toEqual(traces.indexeddb);
    expect(answer<PageRecord[]>(traces.memory, 'stored').map((p) => p.key)).toEqual([url('/a'), url('/b'), url('/e')]);
    // The pages without their Markdown: every other field as read whole.
    const heads = answer<Array<Partial<PageRecord>>>(traces.memory, 'heads');
    expect(heads.every((h) => !('markdown' in h))).toBe(true);
    expect(heads).toEqual(answer<PageRecord[]>(traces.memory, 'stored').map(({ markdown: _, ...head }) => head));
    expect(answer(traces.memory, 'queued')).toEqual([url('/a?from=queue'), url('/b?from=queue'), url('/e.md')]);
    expect(answer(traces.memory, 'after b')).toEqual([url('/c'), url('/d'), url('/e')]);
    const pages = (answer<Record<string, string[]>>(traces.memory, 'tables').pages ?? []).map((r) => JSON.parse(r) as PageRecord);
    expect(pages.find((p) => p.jobId === c.id && p.key === url('/a'))?.fullTokens).toEqual({ title: '/a', count: 12 });
    expect(pages.find((p) => p.jobId === c.id && p.key === url('/b'))?.fullTokens).toBeUndefined();
  });

  it('page versions: a checked batch is written whole or not at all, and read back by change', async () => {
    const c = crawl(1);
    const r = refresh(c, 1, 'running');
    const traces = await onBoth(async (store, trace) => {
      await seed(store, { jobs: [c, r], pages: [page(c.id, '/b'), page(c.id, '/a'), page(c.id, '/gone', 'removed'), page(c.id, '/dup', 'duplicate')], frontier: [row(r.id, '/a', 1, 'inflight'), row(r.id, '/b', 2, 'inflight')] });
      const seen: Array<string | undefined> = [];
      await writeCheckedBatch(store, c.id, [url('/a'), url('/missing'), url('/b')], (stored) => {
        seen.push(...stored.map((p) => p?.key));
        const a = stored[0] as PageRecord;
        return {
          pages: [{ ...a, markdown: '# A, new', contentHash: 'hash:new-a' }],
          versions: [version(r.id, c.id, '/a', 'changed'), version(r.id, c.id, '/b', 'unchanged')],
          frontier: [row(r.id, '/a', 1, 'done'), row(r.id, '/b', 2, 'done')],
        };
      });
      trace('seen', seen);
      const failed = await writeCheckedBatch(store, c.id, [url('/b')], (stored) => {
        stored[0] && (stored[0].title = 'changed by decide');
        throw new Error('decide failed');
      }).then(
        () => 'written',
        (e: Error) => e.message,
      );
      trace('failed', failed);
      await writeCheckedBatch(store, c.id, [url('/gone')], () => ({ pages: [], versions: [version(r.id, c.id, '/gone', 'restored'), version(r.id, c.id, '/c', 'changed')], frontier: [] }));
      trace('counts', await changeCounts(store, r.id, ['unchanged', 'changed', 'restored', 'failed']));
      trace('with change', (await versionsWithChange(store, r.id, ['restored', 'changed'])).map((v) => [v.id, v.change, v.key]));
      const visited: string[] = [];
      await eachPageToRecheck(store, c.id, (p) => visited.push(`${p.state} ${p.key}`));
      trace('recheck', visited);
      trace('of refresh', (await versionsOfRefresh(store, r.id)).map((v) => [v.id, v.change]));
    });
    expect(traces.memory).toEqual(traces.indexeddb);
    expect(answer(traces.memory, 'seen')).toEqual([url('/a'), undefined, url('/b')]);
    expect(answer(traces.memory, 'failed')).toBe('decide failed');
    expect(answer(traces.memory, 'counts')).toEqual([1, 2, 1, 0]);
    expect(answer(traces.memory, 'with change')).toEqual([
      [1, 'changed', url('/a')],
      [4, 'changed', url('/c')],
      [3, 'restored', url('/gone')],
    ]);
    expect(answer(traces.memory, 'recheck')).toEqual([`stored ${url('/a')}`, `stored ${url('/b')}`, `removed ${url('/gone')}`]);
    const tablesAfter = answer<Record<string, string[]>>(traces.memory, 'tables');
    expect((tablesAfter.frontier ?? []).map((f) => (JSON.parse(f) as FrontierRecord).state)).toEqual(['done', 'done']);
    expect((tablesAfter.pages ?? []).some((p) => p.includes('changed by decide'))).toBe(false);
  });

  it('refresh jobs: created on the newest crawl with pages unless busy; scheduled running ones counted', async () => {
    const traces = await onBoth(async (store, trace) => {
      const c = crawl(1);
      const make = (from: CrawlJob, now: number) => ({ ...refresh(from, 1, 'running', true), createdAt: now });
      trace('no crawl', await createRefreshJob(store, SITE, make));
      await seed(store, { jobs: [c, refresh(crawl(2, 'done', OTHER), 1, 'running', true), refresh(crawl(3, 'done', OTHER), 2, 'running', false)], pages: [page(c.id, '/a')] });
      const made = await createRefreshJob(store, SITE, make);
      trace('made', 'id' in made ? made.id : made);
      const again = await createRefreshJob(store, SITE, make);
      trace('busy', 'blocked' in again ? [again.blocked, 'active' in again ? again.active.id : ''] : again);
      trace('scheduled', await runningScheduledRefreshes(store));
    });
    expect(traces.memory.slice(0, -1)).toEqual(traces.indexeddb.slice(0, -1));
    expect(answer(traces.memory, 'no crawl')).toEqual({ blocked: 'no-crawl' });
    expect(answer(traces.memory, 'made')).toBe(`${SITE}#crawl-1/refresh-1`);
    expect(answer(traces.memory, 'busy')).toEqual(['busy', `${SITE}#crawl-1/refresh-1`]);
    expect(answer(traces.memory, 'scheduled')).toBe(2);
  });
});

/** A site with `n` Generates' worth of rows (crawl, refresh, describe run, outputs) and rows of its own. */
function generates(n: number, pages: number, origin = SITE): Seed {
  const seedRows: Required<Seed> = { sites: [], jobs: [], frontier: [], linkBlocks: [], pages: [], artifacts: [], pageVersions: [], discovered: [], descriptions: [], renderTabs: [], plans: [] };
  seedRows.sites.push({ origin, host: new URL(origin).host, site: 'example.test', firstOpenedAt: 1, lastOpenedAt: 1, openCount: 1 });
  seedRows.jobs.push({ id: `${origin}#discovery`, origin, kind: 'discovery', state: 'done', createdAt: 1, counters: {} });
  seedRows.discovered.push(finding(`${origin}#discovery`, '/llms.txt', {}, origin), finding(`${origin}#discovery`, '/llms-full.txt', {}, origin));
  seedRows.plans.push({ startUrl: `${origin}/`, origin, state: 'done', createdAt: 1 });
  seedRows.descriptions.push({ key: siteSummaryKey(origin, 'model-a'), text: 'A site.', createdAt: 1 }, { key: cacheKey(`hash:${url('/p-0', origin)}`, 'model-a'), text: 'Page 0.', createdAt: 1 }, { key: cacheKey(`hash:elsewhere-${new URL(origin).host}`, 'model-a'), text: 'Not this site’s.', createdAt: 1 });
  for (let g = 1; g <= n; g++) {
    const c = crawl(g, 'done', origin, pages);
    const r = refresh(c, 1);
    seedRows.jobs.push(c, r, { id: `${c.id}/describe`, origin, kind: 'describe', state: 'done', createdAt: c.createdAt + 2, crawlJobId: c.id, counters: {} });
    for (let i = 0; i < pages; i++) {
      seedRows.pages.push(page(c.id, `/p-${i}`, 'stored', origin));
      seedRows.frontier.push(row(c.id, `/p-${i}`, i, 'done', origin));
    }
    for (let i = 0; i < Math.min(pages, 4); i++) {
      seedRows.frontier.push(row(r.id, `/p-${i}`, i, 'done', origin));
      seedRows.pageVersions.push({ ...version(r.id, c.id, `/p-${i}`, 'unchanged'), key: url(`/p-${i}`, origin), url: url(`/p-${i}`, origin) });
    }
    seedRows.linkBlocks.push({ jobId: c.id, seq: 10_000, depth: 2, source: 'link', urls: [url('/more', origin)], createdAt: 1 });
    seedRows.renderTabs.push({ tabId: g * 100 + (origin === SITE ? 1 : 2), jobId: c.id, url: url('/p-0', origin), openedAt: 1, session: 's' });
    for (const kind of ['llms', 'llms-full', 'files'] as const) seedRows.artifacts.push(artifact(kind, g, c.id, origin, g === n - 1 && kind === 'llms' ? { refreshJobId: r.id } : {}));
  }
  return seedRows;
}

describe('retention answers the same on IndexedDB and in memory', () => {
  it('prunes old crawls with every row of theirs, reports the same progress, and deletes a whole site', async () => {
    const traces = await onBoth(async (store, trace) => {
      const mine = generates(4, 510);
      const theirs = generates(2, 3, OTHER);
      await seed(store, { ...mine, jobs: [...(mine.jobs ?? []), crawl(9, 'paused', SITE, 0)] });
      await seed(store, theirs);
      trace('keep', [...(await crawlsToKeep(store, SITE, 2))].sort());
      trace('storage before', await siteStorage(store, SITE));
      trace('rows before', await siteRowCount(store, SITE));
      const progress: number[] = [];
      trace('prune', await pruneCrawls(store, SITE, 2, (n) => progress.push(n)));
      trace('progress', progress);
      trace('rows after', await siteRowCount(store, SITE));
      trace('prune again', await pruneCrawls(store, SITE, 2));
      trace('tables after prune', await tables(store));
      await seed(store, { jobs: [{ ...crawl(20, 'running'), id: 'live' }] });
      trace('refused', await deleteSiteData(store, SITE));
      if (store instanceof MemoryStore) store.jobs.delete('live');
      else await store.jobs.delete('live');
      const deleting: number[] = [];
      trace('deleted', await deleteSiteData(store, SITE, (n) => deleting.push(n)));
      trace('deleting', deleting);
      trace('rows left', await siteRowCount(store, SITE));
      trace('storage left', await siteStorage(store, SITE));
    });
    expect(traces.memory).toEqual(traces.indexeddb);
    // Kept: the paused crawl, the two newest ended ones; crawl 4's outputs are not current, so it goes.
    expect(answer(traces.memory, 'keep')).toEqual([`${SITE}#crawl-3`, `${SITE}#crawl-4`, `${SITE}#crawl-9`]);
    const prune = answer<{ crawls: number; rows: number }>(traces.memory, 'prune');
    expect(prune.crawls).toBe(2);
    const progress = answer<number[]>(traces.memory, 'progress');
    expect(progress.at(-1)).toBe(prune.rows);
    // 510 pages per crawl: its frontier rows and its pages each go as a full batch and a rest of 10.
    const steps = progress.map((total, i) => total - (progress[i - 1] ?? 0));
    expect(Math.max(...steps)).toBe(500);
    expect(steps.filter((n) => n === 500).length).toBe(2 * 2);
    expect(steps).toContain(10);
    expect(answer<number>(traces.memory, 'rows before') - answer<number>(traces.memory, 'rows after')).toBe(prune.rows);
    expect(answer(traces.memory, 'prune again')).toEqual({ crawls: 0, rows: 0 });
    expect(answer<{ error: string }>(traces.memory, 'refused').error).toMatch(/running/);
    expect(answer(traces.memory, 'rows left')).toBe(0);
    const left = answer<Record<string, string[]>>(traces.memory, 'tables');
    for (const [table, rows] of Object.entries(left)) for (const r of rows) expect(r, table).not.toContain(SITE);
    // The other site's three descriptions, and the one of a text no page of this site has.
    expect((left.descriptions ?? []).length).toBe(4);
    const storage = answer<Record<string, { rows: number; bytes: number }>>(traces.memory, 'storage before');
    expect(storage.pages?.rows).toBe(4 * 510);
    expect(storage.descriptions?.rows).toBe(2);
  });
});

describe('pageHeads on the memory store', () => {
  it('reads no page text from the spill', async () => {
    const spill = new BodySpill(undefined, 1);
    spills.push(spill);
    const store = new MemoryStore({ spill });
    const c = crawl(1);
    await seed(store, { jobs: [c], pages: [page(c.id, '/a'), page(c.id, '/b')] });
    let reads = 0;
    const read = spill.read.bind(spill);
    spill.read = (ref) => {
      reads++;
      return read(ref);
    };
    expect((await pageHeads(store, c.id)).map((h) => h.key)).toEqual([url('/a'), url('/b')]);
    expect(reads).toBe(0);
    expect((await pagesInState(store, c.id)).map((p) => p.markdown)).toEqual([`# /a\n\nText of /a.`, `# /b\n\nText of /b.`]);
    expect(reads).toBe(2);
  });
});

describe('the memory store hands out copies and never reuses an id', () => {
  it('a record changed after it was written or read changes nothing stored', async () => {
    const store = new MemoryStore();
    const c = crawl(1);
    await seed(store, { jobs: [c], pages: [page(c.id, '/a')] });
    const check: CheckJob = { id: 'c', origin: SITE, kind: 'check', state: 'running', createdAt: 1, startUrl: url('/'), counters: {} };
    await putCheckJob(store, check);
    check.state = 'failed';
    const [read] = await pagesInState(store, c.id);
    if (read) read.markdown = 'changed';
    const rows = [finding('d', '/llms.txt')];
    await storeFindings(store, rows);
    (rows[0] as DiscoveredFileRecord).url = 'changed';
    const made: ArtifactRecord[] = [];
    await addVersion(store, SITE, 3, (v) => {
      made.push(artifact('llms', v, c.id));
      return made;
    });
    (made[0] as ArtifactRecord).text = 'changed';
    expect(store.jobs.get('c')?.state).toBe('running');
    expect((await pagesInState(store, c.id))[0]?.markdown).toBe(`# /a\n\nText of /a.`);
    expect((await findingById(store, 1))?.url).toBe(url('/llms.txt'));
    expect((await versionsNewestFirst(store, SITE, 'llms'))[0]?.text).toBe('# v1 llms');
  });

  it('auto ids increase across deletes and past ids written by the caller', async () => {
    const store = new MemoryStore();
    const ids = await storeFindings(store, [finding('d', '/1'), finding('d', '/2')]);
    await finishDiscovery(store, { id: 'e', origin: SITE }, {});
    await putDiscoveryJob(store, { id: 'd', origin: SITE, kind: 'discovery', state: 'done', createdAt: 1, counters: {} });
    await finishDiscovery(store, { id: 'e', origin: SITE }, {});
    expect(store.discovered.size).toBe(0);
    const after = await storeFindings(store, [finding('e', '/3'), { ...finding('e', '/4'), id: 10 }, finding('e', '/5')]);
    expect(ids).toEqual([1, 2]);
    expect(after).toEqual([3, 10, 11]);
  });
});

/**
 * The engine itself on each store over loopback HTTP: three Generates of a site, a refresh after two
 * pages changed and one went, the outputs it rebuilt, and the old crawls pruned. Answers what the
 * store holds and said, by path rather than by URL (each run has its own site, on the same server).
 */
/** A crawl's id, shaped as the engine makes them (a UUID) and the same on both stores. */
const crawlId = (g: number) => `00000000-0000-4000-8000-00000000000${g}` as const;

async function generateRefreshPrune(store: Store, server: FixtureServer, site: ChangingSite) {
  const db = store as ScoutDb;
  const fetchFn = loopbackFetch();
  const processor = nodePipeline({ fetch: fetchFn }).process;
  const start = server.url('docs.example.test', '/');
  const origin = server.origin('docs.example.test');
  const now = new Date(Date.UTC(2026, 10, 1));
  await recordSiteOpened(db, start);
  for (let g = 1; g <= 3; g++) {
    await createCrawlJob(db, start, { useSeeds: false }, crawlId(g));
    expect(await new CrawlRunner({ db, fetch: fetchFn, process: processor, timeoutMs: 5_000 }, crawlId(g)).run()).toBe('done');
    await generateForSite(db, origin, now);
  }
  site.change('/install', 'Installing now needs Node 22. Run the new installer script and follow its prompts; the old tarball route is gone and unsupported.');
  site.change('/api', 'The API was rewritten around streams. Every call now returns an async iterator, and callbacks were dropped entirely in this release.');
  site.remove('/old');
  const refresh = await startRefresh(db, origin, { id: 'refresh-1' });
  if ('error' in refresh) throw new Error(refresh.error);
  const state = await new RefreshRunner({ db, fetch: fetchFn, process: processor, timeoutMs: 5_000 }, refresh.id).run();
  const rebuilt = await outputsAfterRefresh(db, refresh.id, now);
  const path = (u: string) => new URL(u).pathname;
  const ended = (await recentJobs(store, origin, 10)).find((j) => j.id === refresh.id);
  const result = {
    state,
    counters: ended?.counters,
    rebuilt,
    checks: (await versionsOfRefresh(store, refresh.id)).map((v) => [path(v.url), v.change, v.reason, v.similarity]),
    pages: (await pagesAfter(store, crawlId(3), undefined, 100)).map((p) => [path(p.url), p.state, p.contentHash]),
    llms: (await versionsNewestFirst(store, origin, 'llms')).map((a) => [a.version, a.jobId, a.refreshJobId, a.text]),
    kept: [...(await crawlsToKeep(store, origin, 2))].sort(),
    pruned: await pruneCrawls(store, origin, 2),
    rowsLeft: await siteRowCount(store, origin),
  };
  return result;
}

describe('the engine on the memory store', () => {
  let server: FixtureServer | undefined;
  afterEach(async () => server?.close());

  it('generates, refreshes and prunes a site as it does on IndexedDB', async () => {
    let site = changingSite(sixPages());
    server = await startFixtureServer({ 'docs.example.test': { fallback: (req) => site.site.fallback?.(req) ?? null } });
    const expected = await generateRefreshPrune(open('indexeddb'), server, site);
    site = changingSite(sixPages());
    const actual = await generateRefreshPrune(open('memory'), server, site);
    expect(expected.state).toBe('done');
    expect(expected.counters).toMatchObject({ checked: 6, unchanged: 3, changed: 2, removed: 1 });
    expect(expected.rebuilt).toEqual({ version: 4 });
    expect(expected.kept).toEqual([crawlId(2), crawlId(3)]);
    expect(expected.pruned.crawls).toBe(1);
    expect(expected.pages.find(([p]) => p === '/old')?.[1]).toBe('removed');
    expect(actual).toEqual(expected);
  }, 120_000);
});
