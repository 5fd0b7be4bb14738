import Dexie, { type DBCoreMutateRequest } from 'dexie';
import { wrapTable } from '@/lib/store/table-middleware';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type ArtifactRecord, type CrawlJob, type JobRecord, type ScoutDb } from '@/lib/store/db';
import { DEFAULT_SETTINGS } from '@/lib/crawl/settings';
import { cacheKey } from '@/lib/describe/describe-pages';
import { siteSummaryKey } from '@/lib/describe/site-summary';
import { BATCH, crawlsToKeep, deleteSiteData, pruneCrawls, SITE_TABLES, siteRowCount, siteStorage } from '@/lib/store/retention';

const SITE = 'https://docs.example.test';
const OTHER = 'https://other.example.test';
const PAGES = 500;

let db: ScoutDb | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

/** A database that records the largest delete any one transaction made. */
function watchedDb(): { db: ScoutDb; largestDelete: () => number } {
  const watched = createDb(`t-${Math.random()}`);
  let largest = 0;
  wrapTable(watched, 'delete-sizes', '*', (t) => ({
    ...t,
    mutate: (req: DBCoreMutateRequest) => {
      if (req.type === 'delete') largest = Math.max(largest, req.keys.length);
      return t.mutate(req);
    },
  }));
  return { db: watched, largestDelete: () => largest };
}

/**
 * One Generate's worth of rows, written as the crawl, refresh and describe code write them: a crawl
 * of `pages` pages (queue, link blocks, pages), a refresh of it (its queue and page versions), a
 * describe run, a render-tab row, and the three outputs it made. `n` orders the crawls in time.
 */
async function crawlRows(d: ScoutDb, origin: string, n: number, state: JobRecord['state'] = 'done', pages = PAGES): Promise<string> {
  const id = `${origin}#crawl-${String(n).padStart(2, "0")}`;
  const at = 1_000 * n;
  const crawl: CrawlJob = { id, origin, kind: 'crawl', state, createdAt: at, startUrl: `${origin}/`, settings: DEFAULT_SETTINGS, counters: { stored: pages } };
  await d.jobs.add(crawl);
  const keys = Array.from({ length: pages }, (_, i) => `${origin}/page-${i}`);
  await d.frontier.bulkAdd(keys.map((key, seq) => ({ jobId: id, key, url: key, state: 'done' as const, depth: 1, seq, source: 'link' as const, retries: 0, updatedAt: at })));
  await d.linkBlocks.bulkAdd([0, 1].map((b) => ({ jobId: id, seq: 10_000 + b * 100, depth: 2, source: 'link' as const, urls: [`${origin}/more-${b}`], createdAt: at })));
  // The text is the same in every crawl of a site (so its descriptions are shared), and differs between sites.
  await d.pages.bulkAdd(keys.map((key) => ({ jobId: id, key, url: key, finalUrl: key, state: 'stored' as const, depth: 1, title: key, markdown: `# ${key}\n\nSome text.`, format: 'html' as const, contentHash: `hash:${key}`, bytes: 40, fetchedAt: at })));
  const refreshId = `${id}/refresh`;
  await d.jobs.add({ id: refreshId, origin, kind: 'refresh', state: 'done', createdAt: at + 1, crawlJobId: id, startUrl: `${origin}/`, settings: DEFAULT_SETTINGS, counters: {} });
  await d.frontier.bulkAdd(keys.slice(0, 50).map((key, seq) => ({ jobId: refreshId, key, url: key, state: 'done' as const, depth: 1, seq, source: 'start' as const, retries: 0, updatedAt: at })));
  await d.pageVersions.bulkAdd(keys.slice(0, 50).map((key) => ({ jobId: refreshId, crawlJobId: id, key, url: key, change: 'unchanged' as const, previousFingerprint: 'f', changedEnough: false, reason: 'Not modified (HTTP 304)', checkedAt: at })));
  await d.jobs.add({ id: `${id}/describe`, origin, kind: 'describe', state: 'done', createdAt: at + 2, crawlJobId: id, counters: {} });
  await d.renderTabs.add({ tabId: Math.floor(Math.random() * 1e9), jobId: id, url: keys[0] ?? '', openedAt: at, session: 's' });
  for (const kind of ['llms', 'llms-full', 'files'] as const) await d.artifacts.add(artifact(origin, kind, n, id));
  return id;
}

const artifact = (origin: string, kind: ArtifactRecord['kind'], version: number, jobId: string): ArtifactRecord => ({ origin, kind, version, jobId, text: `# v${version}`, tokens: 3, createdAt: version });

/** What belongs to a site but to no crawl: its record, a discovery and its findings, a plan, its summary. */
async function siteRows(d: ScoutDb, origin: string): Promise<void> {
  await d.sites.add({ origin, host: new URL(origin).host, site: 'example.test', firstOpenedAt: 1, lastOpenedAt: 1, openCount: 1 });
  await d.jobs.add({ id: `${origin}#discovery`, origin, kind: 'discovery', state: 'done', createdAt: 1, counters: {} });
  await d.discovered.bulkAdd([0, 1, 2].map((i) => ({ origin, jobId: `${origin}#discovery`, url: `${origin}/llms-${i}.txt`, kind: 'llms' as const, status: 404, found: false, fetchedAt: 1 }) as never));
  await d.plans.add({ startUrl: `${origin}/`, origin, state: 'done', createdAt: 1 });
  await d.descriptions.bulkAdd([
    { key: siteSummaryKey(origin, 'model-a'), text: 'A site.', createdAt: 1 },
    ...[0, 1, 2].map((i) => ({ key: cacheKey(`hash:${origin}/page-${i}`, 'model-a'), text: `Page ${i}.`, createdAt: 1 })),
  ]);
}

async function rowCounts(d: ScoutDb): Promise<Record<string, number>> {
  return Object.fromEntries(await Promise.all(d.tables.map(async (t) => [t.name, await t.count()] as const)));
}

/** Every row of every table of the schema, as [table, row]: a table added later is read too. */
async function everyRow(d: ScoutDb): Promise<Array<[string, unknown]>> {
  const all: Array<[string, unknown]> = [];
  for (const t of d.tables) for (const row of await t.toArray()) all.push([t.name, row]);
  return all;
}

/** Whether a row names the site anywhere (its origin, a job id, a key, a URL). */
const mentions = (row: unknown, origin: string) => JSON.stringify(row).includes(origin);

describe('keeping the last crawls of a site', () => {
  it('ten crawls of a 500-page site leave the rows of the two kept, not ten', async () => {
    const watched = watchedDb();
    db = watched.db;
    await siteRows(db, SITE);
    const ids: string[] = [];
    const perCrawl: Array<Record<string, number>> = [];
    for (let n = 1; n <= 10; n++) {
      const before = await rowCounts(db);
      ids.push(await crawlRows(db, SITE, n));
      const after = await rowCounts(db);
      perCrawl.push(Object.fromEntries(Object.keys(after).map((t) => [t, (after[t] ?? 0) - (before[t] ?? 0)])));
    }
    const before = await rowCounts(db);
    expect(before.pages).toBe(10 * PAGES);

    const result = await pruneCrawls(db, SITE, 2);

    const after = await rowCounts(db);
    // Exactly the rows of crawls 9 and 10 remain, plus the site's own rows (record, discovery, plan,
    // descriptions) — less their ended refreshes' queues (50 rows each) and the page checks of the
    // refresh that is neither the newest nor named by an output version (crawl 9's, 50 rows).
    const trimmed: Record<string, number> = { frontier: 2 * 50, pageVersions: 50 };
    const expected = Object.fromEntries(Object.keys(before).map((t) => [t, (before[t] ?? 0) - perCrawl.slice(0, 8).reduce((sum, c) => sum + (c[t] ?? 0), 0) - (trimmed[t] ?? 0)]));
    expect(after).toEqual(expected);
    expect(after.pages).toBe(2 * PAGES);
    expect(after.frontier).toBe(2 * PAGES);
    expect(after.pageVersions).toBe(50);
    expect(await db.pageVersions.where('[jobId+change]').between([`${ids[9]}/refresh`, Dexie.minKey], [`${ids[9]}/refresh`, Dexie.maxKey]).count()).toBe(50);
    expect(after.artifacts).toBe(2 * 3);
    expect(after.sites).toBe(1);
    expect(after.plans).toBe(1);
    expect(after.discovered).toBe(3);
    expect(after.descriptions).toBe(4);
    expect(result.crawls).toBe(8);
    expect(result.rows).toBe(Object.keys(before).reduce((sum, t) => sum + (before[t] ?? 0) - (after[t] ?? 0), 0));
    const left = new Set((await db.jobs.toArray()).filter((j) => j.kind === 'crawl').map((j) => j.id));
    expect([...left].sort()).toEqual([ids[8], ids[9]].sort());
    // Nothing left points at a deleted crawl.
    for (const [table, row] of await everyRow(db)) for (const gone of ids.slice(0, 8)) expect(JSON.stringify(row), table).not.toContain(`"${gone}`);
    // No transaction deleted more than a batch.
    expect(watched.largestDelete()).toBeGreaterThan(0);
    expect(watched.largestDelete()).toBeLessThanOrEqual(BATCH);
    // Pruning again deletes nothing.
    expect(await pruneCrawls(db, SITE, 2)).toEqual({ crawls: 0, rows: 0 });
  });

  it('never deletes a paused or running crawl, the crawl the current outputs point at, or another site’s', async () => {
    db = createDb(`t-${Math.random()}`);
    const paused = await crawlRows(db, SITE, 1, 'paused', 5);
    const running = await crawlRows(db, SITE, 2, 'running', 5);
    const pointed = await crawlRows(db, SITE, 3, 'done', 5);
    const old = await crawlRows(db, SITE, 4, 'done', 5);
    await crawlRows(db, SITE, 5, 'done', 5);
    const newest = await crawlRows(db, SITE, 6, 'done', 5);
    const other = await crawlRows(db, OTHER, 1, 'done', 5);
    // The current llms.txt was regenerated (a curation change) from crawl 3's pages.
    await db.artifacts.add(artifact(SITE, 'llms', 100, pointed));

    expect([...(await crawlsToKeep(db, SITE, 1))].sort()).toEqual([paused, running, pointed, newest].sort());
    const result = await pruneCrawls(db, SITE, 1);
    expect(result.crawls).toBe(2);
    expect(await db.jobs.get(old)).toBeUndefined();
    expect(await db.pages.where('[jobId+key]').between([old, Dexie.minKey], [old, Dexie.maxKey]).count()).toBe(0);
    for (const kept of [paused, running, pointed, newest, other]) expect(await db.pages.where('[jobId+state]').equals([kept, 'stored']).count(), kept).toBe(5);
    expect(await db.jobs.where('origin').equals(OTHER).count()).toBe(3);
  });

  it('never takes a crawl started while it runs for an old one', async () => {
    const name = `t-${Math.random()}`;
    db = createDb(name);
    for (let n = 1; n <= 3; n++) await crawlRows(db, SITE, n, 'done', 3);
    // The moment the first reading of the site's jobs is done, a new crawl starts (a Generate press).
    let started: Promise<unknown> | undefined;
    const racing = createDb(name);
    wrapTable(racing, 'generate-during-prune', 'jobs', (t) => ({
      ...t,
      query: async (req) => {
        const result = await t.query(req);
        started ??= Dexie.ignoreTransaction(() => db?.jobs.add({ id: 'new-crawl', origin: SITE, kind: 'crawl', state: 'running', createdAt: 99_000, startUrl: `${SITE}/`, settings: DEFAULT_SETTINGS, counters: {} }));
        return result;
      },
    }));
    await pruneCrawls(racing, SITE, 1);
    await started;
    racing.close();
    expect(await db.jobs.get('new-crawl')).toMatchObject({ state: 'running' });
  });

  it('keeps the page checks of the newest refresh and of one an output version names; an ended refresh’s queue goes', async () => {
    const d = createDb(`t-${Math.random()}`);
    db = d;
    const crawl = await crawlRows(db, SITE, 1, 'done', 4);
    const refresh = (n: number) => `${crawl}/refresh-${n}`;
    for (const n of [1, 2, 3]) {
      await db.jobs.add({ id: refresh(n), origin: SITE, kind: 'refresh', state: 'done', createdAt: 5_000 + n, crawlJobId: crawl, startUrl: `${SITE}/`, settings: DEFAULT_SETTINGS, counters: {} });
      await db.frontier.add({ jobId: refresh(n), key: `${SITE}/page-0`, url: `${SITE}/page-0`, state: 'done', depth: 0, seq: 0, source: 'start', retries: 0, updatedAt: 1 });
      await db.pageVersions.add({ jobId: refresh(n), crawlJobId: crawl, key: `${SITE}/page-0`, url: `${SITE}/page-0`, change: 'changed', previousFingerprint: 'f', changedEnough: true, reason: 'Similarity 0.5 < 0.9', checkedAt: 1 });
    }
    // Refresh 1 made the current llms.txt version.
    await db.artifacts.add({ ...artifact(SITE, 'llms', 50, crawl), refreshJobId: refresh(1) });
    await pruneCrawls(db, SITE, 2);
    const checks = async (id: string) => d.pageVersions.where('[jobId+change]').between([id, Dexie.minKey], [id, Dexie.maxKey]).count();
    const queue = async (id: string) => d.frontier.where('[jobId+key]').between([id, Dexie.minKey], [id, Dexie.maxKey]).count();
    expect([await checks(refresh(1)), await checks(refresh(2)), await checks(refresh(3))]).toEqual([1, 0, 1]);
    expect([await queue(refresh(1)), await queue(refresh(2)), await queue(refresh(3))]).toEqual([0, 0, 0]);
    // The job rows stay: the History lists them.
    expect(await db.jobs.where('origin').equals(SITE).filter((j) => j.kind === 'refresh').count()).toBe(4);
    // The crawl's own queue stays (its page list shows skipped and failed URLs).
    expect(await queue(crawl)).toBe(4);
  });

  it('keeps the crawl a running refresh re-checks', async () => {
    db = createDb(`t-${Math.random()}`);
    const first = await crawlRows(db, SITE, 1, 'done', 3);
    await crawlRows(db, SITE, 2, 'done', 3);
    await db.jobs.update(`${first}/refresh`, { state: 'running' });
    expect(await crawlsToKeep(db, SITE, 1)).toContain(first);
    expect((await pruneCrawls(db, SITE, 1)).crawls).toBe(0);
  });
});

describe('deleting a site’s data', () => {
  it('leaves no row of the site in any table and every row of another site', async () => {
    db = createDb(`t-${Math.random()}`);
    await db.open();
    // Every table of the schema is one deletion knows about.
    expect(db.tables.map((t) => t.name).sort()).toEqual([...SITE_TABLES].sort());
    for (const origin of [SITE, OTHER]) {
      await siteRows(db, origin);
      for (let n = 1; n <= 3; n++) await crawlRows(db, origin, n, 'done', 20);
    }
    const others = (await everyRow(db)).filter(([, row]) => mentions(row, OTHER));
    const use = await siteStorage(db, SITE);
    for (const table of SITE_TABLES) expect(use[table].rows, table).toBeGreaterThan(0);
    expect(use.pages.rows).toBe(60);
    expect(use.pages.bytes).toBeGreaterThan(60 * 40);

    const counted = await siteRowCount(db, SITE);
    expect(counted).toBe(Object.values(use).reduce((sum, t) => sum + t.rows, 0) - use.descriptions.rows);
    const progress: number[] = [];
    const result = await deleteSiteData(db, SITE, (n) => progress.push(n));
    expect(result).toEqual({ rows: Object.values(use).reduce((sum, t) => sum + t.rows, 0) });
    expect(progress.at(-1)).toBe('rows' in result ? result.rows : -1);

    const left = await everyRow(db);
    expect(left.filter(([, row]) => mentions(row, SITE))).toEqual([]);
    expect(left.filter(([, row]) => mentions(row, OTHER))).toEqual(others);
    expect(left.length).toBe(others.length);
    expect(Object.values(await siteStorage(db, SITE)).every((t) => t.rows === 0)).toBe(true);
    expect(await siteRowCount(db, SITE)).toBe(0);
  });

  it('refuses while a job of the site is running, deleting nothing', async () => {
    db = createDb(`t-${Math.random()}`);
    await crawlRows(db, SITE, 1, 'running', 3);
    const before = await rowCounts(db);
    expect(await deleteSiteData(db, SITE)).toEqual({ error: expect.stringContaining('crawl of this site is running') });
    expect(await rowCounts(db)).toEqual(before);
  });
});
