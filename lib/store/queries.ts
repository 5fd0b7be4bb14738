/**
 * The questions the panel, the worker and the runners ask of the database, each written once
 * against its compound index. Hand-written copies of these drifted apart once: the panel counted
 * the newest crawl while the worker used the newest crawl with pages (#20), so the describe
 * button and the job disagreed about which crawl they meant.
 */
import type { UpdateSpec } from 'dexie';
import type { ArtifactRecord, CrawlJob, FrontierState, JobKind, JobOf, JobRecord, PageChange, PageRecord, ScoutDb } from './db';
import * as memQueries from './memory/queries';
import { inMemory, type Store } from './store';

type PageState = PageRecord['state'];
type ArtifactKind = ArtifactRecord['kind'];

/** A site's jobs, newest first (every kind). */
export function jobsNewestFirst(db: ScoutDb, origin: string) {
  return db.jobs.where('[origin+createdAt]').between([origin, 0], [origin, Infinity]).reverse();
}

/** Narrows a job to one kind, for Dexie's `filter` (which keeps the type a predicate names). */
export function isKind<K extends JobKind>(kind: K): (job: JobRecord) => job is JobOf<K> {
  return (job): job is JobOf<K> => job.kind === kind;
}

/** The job with this id if it is of that kind, else undefined. */
export async function getJob<K extends JobKind>(store: Store, jobId: string, kind: K): Promise<JobOf<K> | undefined> {
  if (inMemory(store)) return memQueries.getJob(store, jobId, kind);
  const db = store;
  const job = await db.jobs.get(jobId);
  return job && isKind(kind)(job) ? job : undefined;
}

/** The site's newest job of a kind (any state), or undefined: `latestJob(db, origin, 'crawl')` is a {@link CrawlJob}. */
export function latestJob<K extends JobKind>(store: Store, origin: string, kind: K, state?: JobRecord['state']): Promise<JobOf<K> | undefined> {
  if (inMemory(store)) return memQueries.latestJob(store, origin, kind, state);
  const db = store;
  return jobsNewestFirst(db, origin)
    .filter(isKind(kind))
    .filter((j) => state === undefined || j.state === state)
    .first();
}

/** The crawl whose pages feed the outputs: the site's newest crawl that stored any page. */
export async function latestCrawlWithPages(store: Store, origin: string): Promise<CrawlJob | undefined> {
  if (inMemory(store)) return memQueries.latestCrawlWithPages(store, origin);
  const db = store;
  const crawls = await jobsNewestFirst(db, origin).filter(isKind('crawl')).toArray();
  for (const job of crawls) if ((await countPages(db, job.id, 'stored')) > 0) return job;
  return undefined;
}

/**
 * Writes fields of one kind of job. Dexie's own `update` only knows the fields every kind has (its
 * key paths of a union are the common ones), so a crawl's `nav` or a check's `report` go through here.
 * `kind` only types `changes`: the row written is the one with that id.
 */
export function updateJob<K extends JobKind>(store: Store, jobId: string, _kind: K, changes: Partial<Omit<JobOf<K>, 'id' | 'kind'>>): Promise<number> {
  if (inMemory(store)) return memQueries.updateJob(store, jobId, _kind, changes);
  const db = store;
  return db.jobs.update(jobId, changes as UpdateSpec<JobRecord>);
}

/** A job's pages in one state (stored pages by default: duplicates and removed ones are kept apart). */
export function pagesOf(db: ScoutDb, jobId: string, state: PageState = 'stored') {
  return db.pages.where('[jobId+state]').equals([jobId, state]);
}

export function countPages(store: Store, jobId: string, state: PageState = 'stored'): Promise<number> {
  if (inMemory(store)) return memQueries.countPages(store, jobId, state);
  const db = store;
  return pagesOf(db, jobId, state).count();
}

/** A site's versions of one output, oldest first (`.last()` is the current one). */
export function artifactVersions(db: ScoutDb, origin: string, kind: ArtifactKind) {
  return db.artifacts.where('[origin+kind+version]').between([origin, kind, 0], [origin, kind, Infinity]);
}

export async function latestArtifact(store: Store, origin: string, kind: ArtifactKind): Promise<ArtifactRecord | undefined> {
  if (inMemory(store)) return memQueries.latestArtifact(store, origin, kind);
  const db = store;
  return artifactVersions(db, origin, kind).last();
}

/** A crawl's queue in the order URLs were found, or its URLs in one state, breadth-first. */
export function frontierOf(db: ScoutDb, jobId: string, state?: FrontierState) {
  return state === undefined
    ? db.frontier.where('[jobId+seq]').between([jobId, 0], [jobId, Infinity])
    : db.frontier.where('[jobId+state+depth+seq]').between([jobId, state, 0, 0], [jobId, state, Infinity, Infinity]);
}

/**
 * Jobs of one kind that a stopped worker left "running" forever: marked failed with the reason, so
 * the panel offers a new run. Called when the worker starts; answers how many it marked.
 */
export function failInterrupted(store: Store, kind: JobKind, changes: Pick<JobRecord, 'message' | 'endedAt'> = {}): Promise<number> {
  const failed = { state: 'failed' as const, message: 'Interrupted before it finished (the browser stopped Scout’s worker). Run it again.', ...changes };
  if (inMemory(store)) return memQueries.failInterrupted(store, kind, failed);
  return store.jobs.where('state').equals('running').filter(isKind(kind)).modify(failed);
}

/** A refresh's page versions with one of these changes. */
export function pageChanges(db: ScoutDb, jobId: string, changes: readonly PageChange[]) {
  return db.pageVersions.where('[jobId+change]').anyOf(changes.map((c) => [jobId, c]));
}
