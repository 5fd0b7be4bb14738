/**
 * How much a site keeps, and deleting the rest (docs/design.md, "Retention"). Every Generate makes a
 * new crawl; without this its pages, queue, link blocks and page versions stayed forever.
 *
 * The rule: of a site's crawls, the newest `keep` that have ended are kept, and so is every crawl
 * something still points at — a crawl that is running, queued or paused; the crawl the outputs are
 * built from and a refresh re-checks (the newest with stored pages); the crawl behind the current
 * version of each output; the crawl of a refresh or describe job still going. Every other crawl
 * goes, with every row that belongs only to it: its pages, frontier rows, link blocks, render-tab
 * rows, the refreshes and describe runs of it (and their frontier rows and page versions), and the
 * output versions it made. The crawl's own job row goes last, so a deletion the browser stopped
 * half-way is finished by the next one.
 *
 * Deletion runs in transactions of at most BATCH rows, so the panel's reads are never held up
 * behind one long write.
 */
import Dexie from 'dexie';
import type { JobRecord, ScoutDb } from './db';
import * as memRetention from './memory/retention';
import { inMemory, type Store } from './store';
import { artifactVersions, jobsNewestFirst, latestArtifact, latestCrawlWithPages } from './queries';
import { ACTIVE, ARTIFACT_KINDS, BATCH, type Counter, keptCrawls, type Listed, type OnProgress, type PruneResult, progress, SITE_TABLES, type TableUse } from './records/site-store';

export { DEFAULT_KEEP_CRAWLS, MAX_KEEP_CRAWLS, normalizeKeep } from './keep';
export { BATCH, SITE_TABLES };
export type { OnProgress, PruneResult, TableUse };

/** The crawls of a site that the rule above keeps; the rest may be deleted. */
export async function crawlsToKeep(store: Store, origin: string, keep: number, snapshot?: JobRecord[]): Promise<Set<string>> {
  if (inMemory(store)) return memRetention.crawlsToKeep(store, origin, keep, snapshot);
  const db = store;
  const jobs = snapshot ?? (await jobsNewestFirst(db, origin).toArray());
  const outputsFrom = await Promise.all(ARTIFACT_KINDS.map(async (kind) => (await latestArtifact(db, origin, kind))?.jobId));
  return keptCrawls(jobs, keep, (await latestCrawlWithPages(db, origin))?.id, outputsFrom);
}

/**
 * Deletes the site's crawls the rule does not keep (`keep` newest ended ones, plus those in use),
 * and what belongs only to them. Answers how many crawls and rows went.
 */
export async function pruneCrawls(store: Store, origin: string, keep: number, onProgress?: OnProgress): Promise<PruneResult> {
  if (inMemory(store)) return memRetention.pruneCrawls(store, origin, keep, onProgress);
  const db = store;
  // One reading of the jobs for both: a crawl started after it is not among them, so it cannot be taken for an old one.
  const jobs = await jobsNewestFirst(db, origin).toArray();
  const kept = await crawlsToKeep(db, origin, keep, jobs);
  const doomed = jobs.filter((j) => j.kind === 'crawl' && !kept.has(j.id)).map((j) => j.id);
  const counter = progress(onProgress);
  for (const crawlId of doomed) {
    const followers = jobs.filter((j) => (j.kind === 'refresh' || j.kind === 'describe') && j.crawlJobId === crawlId);
    for (const follower of followers) await deleteJobRows(db, follower.id, counter);
    await deleteCrawlRows(db, crawlId, counter);
    // Output versions the crawl made (never the current one: that crawl is kept).
    for (const kind of ARTIFACT_KINDS) {
      await inBatches(() => artifactVersions(db, origin, kind).filter((a) => a.jobId === crawlId).limit(BATCH).primaryKeys(), (keys) => db.artifacts.bulkDelete(keys as number[]), counter);
    }
    if (followers.length > 0) {
      await db.jobs.bulkDelete(followers.map((f) => f.id));
      counter.add(followers.length);
    }
    await db.jobs.delete(crawlId);
    counter.add(1);
  }
  await trimRefreshes(db, origin, jobs, new Set(doomed), counter);
  return { crawls: doomed.length, rows: counter.total };
}

/**
 * A kept crawl's ended refreshes: their queues are of no more use (an ended refresh never resumes)
 * and their page checks are read only for the site's newest refresh (the History tab) and for
 * refreshes an output version still names. The rest of those rows go; the job rows stay, so the
 * History keeps listing them. Each scheduled refresh would otherwise add a row per page, forever.
 */
async function trimRefreshes(db: ScoutDb, origin: string, jobs: JobRecord[], doomed: Set<string>, counter: Counter): Promise<void> {
  const refreshes = jobs.filter((j) => j.kind === 'refresh' && !ACTIVE.has(j.state) && !(j.crawlJobId && doomed.has(j.crawlJobId)));
  const newest = jobs.find((j) => j.kind === 'refresh');
  const named = new Set<string>();
  for (const kind of ARTIFACT_KINDS) await artifactVersions(db, origin, kind).each((a) => void (a.refreshJobId && named.add(a.refreshJobId)));
  for (const refresh of refreshes) {
    await inBatches(() => db.frontier.where('[jobId+key]').between([refresh.id, Dexie.minKey], [refresh.id, Dexie.maxKey]).limit(BATCH).primaryKeys(), (keys) => db.frontier.bulkDelete(keys), counter);
    if (refresh.id === newest?.id || named.has(refresh.id)) continue;
    await inBatches(() => db.pageVersions.where('[jobId+change]').between([refresh.id, Dexie.minKey], [refresh.id, Dexie.maxKey]).limit(BATCH).primaryKeys(), (keys) => db.pageVersions.bulkDelete(keys as number[]), counter);
  }
}

/**
 * Deletes every row of the site in every table: its jobs and all they made, its outputs, discovery,
 * plans, its record and settings, and the descriptions written for its pages. Refused (answers an
 * error) while one of its jobs is running, since the job would write again behind the deletion.
 */
export async function deleteSiteData(store: Store, origin: string, onProgress?: OnProgress): Promise<{ rows: number } | { error: string }> {
  if (inMemory(store)) return memRetention.deleteSiteData(store, origin, onProgress);
  const db = store;
  const jobs = await jobsNewestFirst(db, origin).toArray();
  const running = jobs.find((j) => j.state === 'running');
  if (running) return { error: `A ${running.kind} of this site is running: pause or cancel it first, then delete.` };
  const counter = progress(onProgress);
  // Descriptions are a cache keyed by text, not by site: the site's are those of its pages' texts
  // (lib/describe/describe-pages.ts cacheKey: `v{prompt}|{provider}|{contentHash}`) and its summary
  // (lib/describe/site-summary.ts siteSummaryKey: `site|v{prompt}|{provider}|{origin}`). Read before the pages go.
  const hashes = new Set<string>();
  for (const job of jobs) if (job.kind === 'crawl') await db.pages.where('[jobId+key]').between([job.id, Dexie.minKey], [job.id, Dexie.maxKey]).each((p) => void hashes.add(p.contentHash));
  const ownDescription = (key: string) => (key.startsWith('site|') ? key.endsWith(`|${origin}`) : hashes.has(key.slice(key.lastIndexOf('|') + 1)));
  const descriptionKeys = (await db.descriptions.toCollection().primaryKeys()).filter(ownDescription);
  for (let i = 0; i < descriptionKeys.length; i += BATCH) {
    const keys = descriptionKeys.slice(i, i + BATCH);
    await db.descriptions.bulkDelete(keys);
    counter.add(keys.length);
  }
  for (const job of jobs) {
    if (job.kind === 'crawl') await deleteCrawlRows(db, job.id, counter);
    else await deleteJobRows(db, job.id, counter);
  }
  await inBatches(() => db.discovered.where('origin').equals(origin).limit(BATCH).primaryKeys(), (keys) => db.discovered.bulkDelete(keys as number[]), counter);
  for (const kind of ARTIFACT_KINDS) await inBatches(() => artifactVersions(db, origin, kind).limit(BATCH).primaryKeys(), (keys) => db.artifacts.bulkDelete(keys as number[]), counter);
  await inBatches(() => db.plans.where('origin').equals(origin).limit(BATCH).primaryKeys(), (keys) => db.plans.bulkDelete(keys), counter);
  await inBatches(() => jobsNewestFirst(db, origin).limit(BATCH).primaryKeys(), (keys) => db.jobs.bulkDelete(keys), counter);
  if (await db.sites.get(origin)) {
    await db.sites.delete(origin);
    counter.add(1);
  }
  return { rows: counter.total };
}

/**
 * What the site holds, per table (rows, and bytes estimated from the stored text). Reads every row
 * of the site, so the panel asks for it when the user opens the storage card, not on every write.
 */
export async function siteStorage(store: Store, origin: string): Promise<Record<Listed, TableUse>> {
  if (inMemory(store)) return memRetention.siteStorage(store, origin);
  const db = store;
  const use = Object.fromEntries(SITE_TABLES.map((t) => [t, { rows: 0, bytes: 0 }])) as Record<Listed, TableUse>;
  const add = (table: Listed, row: unknown) => {
    use[table].rows += 1;
    use[table].bytes += approxBytes(row);
  };
  const site = await db.sites.get(origin);
  if (site) add('sites', site);
  const jobs = await jobsNewestFirst(db, origin).toArray();
  const hashes = new Set<string>();
  for (const job of jobs) {
    add('jobs', job);
    const range = { lower: [job.id, Dexie.minKey], upper: [job.id, Dexie.maxKey] };
    await db.pages.where('[jobId+key]').between(range.lower, range.upper).each((p) => {
      add('pages', p);
      hashes.add(p.contentHash);
    });
    await db.frontier.where('[jobId+key]').between(range.lower, range.upper).each((r) => add('frontier', r));
    await db.linkBlocks.where('[jobId+seq]').between(range.lower, range.upper).each((r) => add('linkBlocks', r));
    await db.renderTabs.where('jobId').equals(job.id).each((r) => add('renderTabs', r));
    await db.pageVersions.where('[jobId+change]').between(range.lower, range.upper).each((r) => add('pageVersions', r));
  }
  await db.discovered.where('origin').equals(origin).each((r) => add('discovered', r));
  for (const kind of ARTIFACT_KINDS) await artifactVersions(db, origin, kind).each((r) => add('artifacts', r));
  await db.plans.where('origin').equals(origin).each((r) => add('plans', r));
  await db.descriptions.each((d) => {
    if (d.key.startsWith('site|') ? d.key.endsWith(`|${origin}`) : hashes.has(d.key.slice(d.key.lastIndexOf('|') + 1))) add('descriptions', d);
  });
  return use;
}

/**
 * How many rows the site has, counted on indexes without reading a row (descriptions aside: they
 * are found by reading its pages). Cheap enough to follow live while a deletion runs.
 */
export async function siteRowCount(store: Store, origin: string): Promise<number> {
  if (inMemory(store)) return memRetention.siteRowCount(store, origin);
  const db = store;
  const jobIds = await jobsNewestFirst(db, origin).primaryKeys();
  let rows = jobIds.length + (await db.sites.where('origin').equals(origin).count());
  for (const id of jobIds) {
    const [lower, upper] = [[id, Dexie.minKey], [id, Dexie.maxKey]];
    rows += await db.pages.where('[jobId+key]').between(lower, upper).count();
    rows += await db.frontier.where('[jobId+key]').between(lower, upper).count();
    rows += await db.linkBlocks.where('[jobId+seq]').between(lower, upper).count();
    rows += await db.pageVersions.where('[jobId+change]').between(lower, upper).count();
    rows += await db.renderTabs.where('jobId').equals(id).count();
  }
  rows += await db.discovered.where('origin').equals(origin).count();
  for (const kind of ARTIFACT_KINDS) rows += await artifactVersions(db, origin, kind).count();
  rows += await db.plans.where('origin').equals(origin).count();
  return rows;
}

/** Characters of the row's JSON, × 2 for UTF-16: about what the browser stores for it. */
function approxBytes(row: unknown): number {
  return JSON.stringify(row).length * 2;
}

/** A crawl's own rows: pages, frontier, link blocks, render tabs, and page versions of its pages. */
async function deleteCrawlRows(db: ScoutDb, crawlId: string, counter: Counter): Promise<void> {
  await deleteJobRows(db, crawlId, counter);
  await inBatches(() => db.pages.where('[jobId+key]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).limit(BATCH).primaryKeys(), (keys) => db.pages.bulkDelete(keys), counter);
  await inBatches(() => db.pageVersions.where('[crawlJobId+key]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).limit(BATCH).primaryKeys(), (keys) => db.pageVersions.bulkDelete(keys as number[]), counter);
}

/** The rows any job (crawl, refresh, other) keys by its own id, its job row aside. */
async function deleteJobRows(db: ScoutDb, jobId: string, counter: Counter): Promise<void> {
  await inBatches(() => db.frontier.where('[jobId+key]').between([jobId, Dexie.minKey], [jobId, Dexie.maxKey]).limit(BATCH).primaryKeys(), (keys) => db.frontier.bulkDelete(keys), counter);
  await inBatches(() => db.linkBlocks.where('[jobId+seq]').between([jobId, Dexie.minKey], [jobId, Dexie.maxKey]).limit(BATCH).primaryKeys(), (keys) => db.linkBlocks.bulkDelete(keys), counter);
  await inBatches(() => db.pageVersions.where('[jobId+change]').between([jobId, Dexie.minKey], [jobId, Dexie.maxKey]).limit(BATCH).primaryKeys(), (keys) => db.pageVersions.bulkDelete(keys as number[]), counter);
  await inBatches(() => db.renderTabs.where('jobId').equals(jobId).limit(BATCH).primaryKeys(), (keys) => db.renderTabs.bulkDelete(keys as number[]), counter);
  await inBatches(() => db.discovered.where('jobId').equals(jobId).limit(BATCH).primaryKeys(), (keys) => db.discovered.bulkDelete(keys as number[]), counter);
}

/** Reads at most BATCH keys, deletes them (one transaction each), until none are left. */
async function inBatches<K>(read: () => Promise<K[]>, remove: (keys: K[]) => Promise<unknown>, counter: Counter): Promise<void> {
  for (;;) {
    const keys = await read();
    if (keys.length === 0) return;
    await remove(keys);
    counter.add(keys.length);
  }
}
