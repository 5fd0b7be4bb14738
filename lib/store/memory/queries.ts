/**
 * The memory bodies of queries.ts, and the memory forms of its Dexie-only helpers (a site's jobs
 * newest first, a job's pages, an output's versions, a refresh's page versions) as arrays of
 * copies, for the other memory bodies. Jobs and artifacts are few per site, so their questions
 * read the table; a job's pages come from its `PageRows` indexes.
 */
import type { ArtifactRecord, CrawlJob, FrontierRecord, FrontierState, JobKind, JobOf, JobRecord, PageChange, PageRecord, PageVersionRecord } from '../db';
import { applyChanges, compareStrings, copy, type MemoryStore } from './store';

const isKind =
  <K extends JobKind>(kind: K) =>
  (job: JobRecord): job is JobOf<K> =>
    job.kind === kind;

type PageState = PageRecord['state'];
type ArtifactKind = ArtifactRecord['kind'];

/** A site's jobs, newest first, as the reversed [origin+createdAt] index gives them (the stored objects). */
export function jobsNewestFirstNow(store: MemoryStore, origin: string): JobRecord[] {
  return [...store.jobs.values()].filter((j) => j.origin === origin).sort((a, b) => b.createdAt - a.createdAt || compareStrings(b.id, a.id));
}

/** A site's jobs, newest first (copies). */
export function jobsNewestFirst(store: MemoryStore, origin: string): JobRecord[] {
  return jobsNewestFirstNow(store, origin).map(copy);
}

export async function getJob<K extends JobKind>(store: MemoryStore, jobId: string, kind: K): Promise<JobOf<K> | undefined> {
  const job = store.jobs.get(jobId);
  return job && isKind(kind)(job) ? copy(job) : undefined;
}

export async function latestJob<K extends JobKind>(store: MemoryStore, origin: string, kind: K, state?: JobRecord['state']): Promise<JobOf<K> | undefined> {
  const job = jobsNewestFirstNow(store, origin)
    .filter(isKind(kind))
    .find((j) => state === undefined || j.state === state);
  return job && copy(job);
}

/** The site's newest crawl that stored a page (the stored object), without a yield. */
export function latestCrawlWithPagesNow(store: MemoryStore, origin: string): CrawlJob | undefined {
  return jobsNewestFirstNow(store, origin)
    .filter(isKind('crawl'))
    .find((job) => countNow(store, job.id, 'stored') > 0);
}

export async function latestCrawlWithPages(store: MemoryStore, origin: string): Promise<CrawlJob | undefined> {
  const job = latestCrawlWithPagesNow(store, origin);
  return job && copy(job);
}

/** Dexie's `update`: 1 when the row exists and was written, else 0. */
export function updateNow(store: MemoryStore, jobId: string, changes: object): number {
  const job = store.jobs.get(jobId);
  if (!job) return 0;
  store.jobs.set(jobId, applyChanges(copy(job), changes));
  return 1;
}

export async function updateJob<K extends JobKind>(store: MemoryStore, jobId: string, _kind: K, changes: Partial<Omit<JobOf<K>, 'id' | 'kind'>>): Promise<number> {
  return updateNow(store, jobId, changes);
}

/** A job's pages in one state, in key order as the [jobId+state] index gives them (copies). */
export function pagesOf(store: MemoryStore, jobId: string, state: PageState = 'stored'): PageRecord[] {
  const rows = store.pages.get(jobId);
  if (!rows) return [];
  return [...rows.keysIn(state)].sort(compareStrings).map((key) => copy(rows.get(key) as PageRecord));
}

function countNow(store: MemoryStore, jobId: string, state: PageState): number {
  return store.pages.get(jobId)?.keysIn(state).size ?? 0;
}

export async function countPages(store: MemoryStore, jobId: string, state: PageState = 'stored'): Promise<number> {
  return countNow(store, jobId, state);
}

/** A site's versions of one output, oldest first (the stored objects: an output's text may be on disk, read only when a field is). */
export function artifactVersionsNow(store: MemoryStore, origin: string, kind: ArtifactKind): ArtifactRecord[] {
  return [...store.artifacts.values()].filter((a) => a.origin === origin && a.kind === kind).sort((a, b) => a.version - b.version || (a.id ?? 0) - (b.id ?? 0));
}

/** A site's versions of one output, oldest first (copies). */
export function artifactVersions(store: MemoryStore, origin: string, kind: ArtifactKind): ArtifactRecord[] {
  return artifactVersionsNow(store, origin, kind).map(copy);
}

export async function latestArtifact(store: MemoryStore, origin: string, kind: ArtifactKind): Promise<ArtifactRecord | undefined> {
  return artifactVersions(store, origin, kind).at(-1);
}

/** A crawl's queue in the order URLs were found, or its URLs in one state, breadth-first (copies). */
export function frontierOf(store: MemoryStore, jobId: string, state?: FrontierState): FrontierRecord[] {
  const rows = store.frontier.get(jobId);
  if (!rows) return [];
  return (state === undefined ? rows.inOrder() : rows.inState(state)).map(copy);
}

/** failInterrupted with the fields it writes (queries.ts words them once for both bodies). */
export async function failInterrupted(store: MemoryStore, kind: JobKind, failed: Pick<JobRecord, 'state' | 'message' | 'endedAt'>): Promise<number> {
  const running = [...store.jobs.values()].filter((j) => j.state === 'running' && isKind(kind)(j));
  for (const job of running) store.jobs.set(job.id, applyChanges(copy(job), failed));
  return running.length;
}

/** A refresh's page versions with one of these changes, as the [jobId+change] index gives them: by change, then id (copies). */
export function pageChanges(store: MemoryStore, jobId: string, changes: readonly PageChange[]): PageVersionRecord[] {
  const wanted = new Set(changes);
  return [...store.pageVersions.values()]
    .filter((v) => v.jobId === jobId && wanted.has(v.change))
    .sort((a, b) => compareStrings(a.change, b.change) || (a.id ?? 0) - (b.id ?? 0))
    .map(copy);
}
