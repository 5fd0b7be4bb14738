/**
 * The memory bodies of ../retention.ts (same names, same answers, the same progress reports).
 * Deleting a crawl reaches the tables of lib/store/memory's crawl side (frontier, link blocks,
 * pages, render tabs) through the MemoryStore's maps directly: a deleted job's entries go whole.
 */
import type { JobRecord } from '../db';
import { ACTIVE, ARTIFACT_KINDS, BATCH, type Counter, keptCrawls, type Listed, type OnProgress, type PruneResult, progress, SITE_TABLES, type TableUse } from '../records/site-store';
import { artifactVersionsNow, jobsNewestFirstNow, latestCrawlWithPagesNow } from './queries';
import { compareStrings, type MemoryStore } from './store';


export async function crawlsToKeep(store: MemoryStore, origin: string, keep: number, snapshot?: JobRecord[]): Promise<Set<string>> {
  return keptCrawlsNow(store, origin, keep, snapshot ?? jobsNewestFirstNow(store, origin));
}

function keptCrawlsNow(store: MemoryStore, origin: string, keep: number, jobs: JobRecord[]): Set<string> {
  const outputsFrom = ARTIFACT_KINDS.map((kind) => artifactVersionsNow(store, origin, kind).at(-1)?.jobId);
  return keptCrawls(jobs, keep, latestCrawlWithPagesNow(store, origin)?.id, outputsFrom);
}

export async function pruneCrawls(store: MemoryStore, origin: string, keep: number, onProgress?: OnProgress): Promise<PruneResult> {
  const jobs = jobsNewestFirstNow(store, origin);
  const kept = keptCrawlsNow(store, origin, keep, jobs);
  const doomed = jobs.filter((j) => j.kind === 'crawl' && !kept.has(j.id)).map((j) => j.id);
  const counter = progress(onProgress);
  for (const crawlId of doomed) {
    const followers = jobs.filter((j) => (j.kind === 'refresh' || j.kind === 'describe') && j.crawlJobId === crawlId);
    for (const follower of followers) deleteJobRows(store, follower.id, counter);
    deleteCrawlRows(store, crawlId, counter);
    for (const kind of ARTIFACT_KINDS) deleteKeys(store.artifacts, artifactVersionsNow(store, origin, kind).filter((a) => a.jobId === crawlId).map((a) => a.id as number), counter);
    if (followers.length > 0) {
      for (const f of followers) store.jobs.delete(f.id);
      counter.add(followers.length);
    }
    store.jobs.delete(crawlId);
    counter.add(1);
  }
  trimRefreshes(store, origin, jobs, new Set(doomed), counter);
  return { crawls: doomed.length, rows: counter.total };
}

function trimRefreshes(store: MemoryStore, origin: string, jobs: JobRecord[], doomed: Set<string>, counter: Counter): void {
  const refreshes = jobs.filter((j) => j.kind === 'refresh' && !ACTIVE.has(j.state) && !(j.crawlJobId && doomed.has(j.crawlJobId)));
  const newest = jobs.find((j) => j.kind === 'refresh');
  const named = new Set<string>();
  for (const kind of ARTIFACT_KINDS) for (const a of artifactVersionsNow(store, origin, kind)) if (a.refreshJobId) named.add(a.refreshJobId);
  for (const refresh of refreshes) {
    deleteJobEntries(store.frontier, refresh.id, counter);
    if (refresh.id === newest?.id || named.has(refresh.id)) continue;
    deleteKeys(store.pageVersions, versionIds(store, 'jobId', refresh.id), counter);
  }
}

export async function deleteSiteData(store: MemoryStore, origin: string, onProgress?: OnProgress): Promise<{ rows: number } | { error: string }> {
  const jobs = jobsNewestFirstNow(store, origin);
  const running = jobs.find((j) => j.state === 'running');
  if (running) return { error: `A ${running.kind} of this site is running: pause or cancel it first, then delete.` };
  const counter = progress(onProgress);
  const hashes = pageHashes(store, jobs.filter((j) => j.kind === 'crawl'));
  deleteKeys(store.descriptions, [...store.descriptions.keys()].filter((key) => ownDescription(key, origin, hashes)).sort(compareStrings), counter);
  for (const job of jobs) {
    if (job.kind === 'crawl') deleteCrawlRows(store, job.id, counter);
    else deleteJobRows(store, job.id, counter);
  }
  deleteKeys(store.discovered, idsWhere(store.discovered, (r) => r.origin === origin), counter);
  for (const kind of ARTIFACT_KINDS) deleteKeys(store.artifacts, artifactVersionsNow(store, origin, kind).map((a) => a.id as number), counter);
  deleteKeys(store.plans, [...store.plans.values()].filter((p) => p.origin === origin).map((p) => p.startUrl), counter);
  deleteKeys(store.jobs, jobsNewestFirstNow(store, origin).map((j) => j.id), counter);
  if (store.sites.delete(origin)) counter.add(1);
  return { rows: counter.total };
}

export async function siteStorage(store: MemoryStore, origin: string): Promise<Record<Listed, TableUse>> {
  const use = Object.fromEntries(SITE_TABLES.map((t) => [t, { rows: 0, bytes: 0 }])) as Record<Listed, TableUse>;
  const add = (table: Listed, row: unknown) => {
    use[table].rows += 1;
    use[table].bytes += JSON.stringify(row).length * 2;
  };
  const site = store.sites.get(origin);
  if (site) add('sites', site);
  const jobs = jobsNewestFirstNow(store, origin);
  for (const job of jobs) {
    add('jobs', job);
    for (const p of store.pages.get(job.id)?.values() ?? []) add('pages', p);
    for (const r of store.frontier.get(job.id)?.values() ?? []) add('frontier', r);
    for (const r of store.linkBlocks.get(job.id)?.values() ?? []) add('linkBlocks', r);
    for (const r of store.renderTabs.values()) if (r.jobId === job.id) add('renderTabs', r);
    for (const r of store.pageVersions.values()) if (r.jobId === job.id) add('pageVersions', r);
  }
  for (const r of store.discovered.values()) if (r.origin === origin) add('discovered', r);
  for (const kind of ARTIFACT_KINDS) for (const r of artifactVersionsNow(store, origin, kind)) add('artifacts', r);
  for (const r of store.plans.values()) if (r.origin === origin) add('plans', r);
  const hashes = pageHashes(store, jobs);
  for (const d of store.descriptions.values()) if (ownDescription(d.key, origin, hashes)) add('descriptions', d);
  return use;
}

export async function siteRowCount(store: MemoryStore, origin: string): Promise<number> {
  const jobs = jobsNewestFirstNow(store, origin);
  let rows = jobs.length + (store.sites.has(origin) ? 1 : 0);
  for (const { id } of jobs) {
    rows += store.pages.get(id)?.size ?? 0;
    rows += store.frontier.get(id)?.size ?? 0;
    rows += store.linkBlocks.get(id)?.size ?? 0;
    rows += versionIds(store, 'jobId', id).length;
    rows += idsWhere(store.renderTabs, (r) => r.jobId === id).length;
  }
  rows += idsWhere(store.discovered, (r) => r.origin === origin).length;
  for (const kind of ARTIFACT_KINDS) rows += artifactVersionsNow(store, origin, kind).length;
  rows += [...store.plans.values()].filter((p) => p.origin === origin).length;
  return rows;
}

/** The content hashes of these jobs' pages (the site's descriptions are keyed by them). */
function pageHashes(store: MemoryStore, jobs: JobRecord[]): Set<string> {
  const hashes = new Set<string>();
  for (const job of jobs) for (const p of store.pages.get(job.id)?.values() ?? []) hashes.add(p.contentHash);
  return hashes;
}

/** Whether a description is the site's: its summary, or one of its pages' texts (../retention.ts says how the keys are made). */
function ownDescription(key: string, origin: string, hashes: Set<string>): boolean {
  return key.startsWith('site|') ? key.endsWith(`|${origin}`) : hashes.has(key.slice(key.lastIndexOf('|') + 1));
}

function deleteCrawlRows(store: MemoryStore, crawlId: string, counter: Counter): void {
  deleteJobRows(store, crawlId, counter);
  deleteJobEntries(store.pages, crawlId, counter);
  deleteKeys(store.pageVersions, versionIds(store, 'crawlJobId', crawlId), counter);
}

function deleteJobRows(store: MemoryStore, jobId: string, counter: Counter): void {
  deleteJobEntries(store.frontier, jobId, counter);
  deleteJobEntries(store.linkBlocks, jobId, counter);
  deleteKeys(store.pageVersions, versionIds(store, 'jobId', jobId), counter);
  deleteKeys(store.renderTabs, idsWhere(store.renderTabs, (r) => r.jobId === jobId), counter);
  deleteKeys(store.discovered, idsWhere(store.discovered, (r) => r.jobId === jobId), counter);
}

/** The ids of page versions whose `field` is `jobId`, in id order. */
function versionIds(store: MemoryStore, field: 'jobId' | 'crawlJobId', jobId: string): number[] {
  return idsWhere(store.pageVersions, (v) => v[field] === jobId);
}

function idsWhere<R>(table: Map<number, R>, keep: (row: R) => boolean): number[] {
  return [...table].filter(([, row]) => keep(row)).map(([id]) => id).sort((a, b) => a - b);
}

/** Deletes a job's whole entry of a table kept by job (its rows reported in batches, as the Dexie body deletes them). */
function deleteJobEntries(table: Map<string, Map<unknown, unknown>>, jobId: string, counter: Counter): void {
  const rows = table.get(jobId)?.size ?? 0;
  table.delete(jobId);
  report(rows, counter);
}

function deleteKeys<K>(table: Map<K, unknown>, keys: K[], counter: Counter): void {
  for (const key of keys) table.delete(key);
  report(keys.length, counter);
}

/** Reports `rows` deleted as the Dexie body's transactions of at most BATCH rows do, so both report the same progress. */
function report(rows: number, counter: Counter): void {
  for (let done = 0; done < rows; done += BATCH) counter.add(Math.min(BATCH, rows - done));
}

