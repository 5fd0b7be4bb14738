/**
 * The questions the panel, the worker and the runners ask of the database, each written once
 * against its compound index. Hand-written copies of these drifted apart once: the panel counted
 * the newest crawl while the worker used the newest crawl with pages (#20), so the describe
 * button and the job disagreed about which crawl they meant.
 */
import type { ArtifactRecord, FrontierState, JobKind, JobRecord, PageChange, PageRecord, ScoutDb } from './db';

type PageState = PageRecord['state'];
type ArtifactKind = ArtifactRecord['kind'];

/** A site's jobs, newest first (every kind). */
export function jobsNewestFirst(db: ScoutDb, origin: string) {
  return db.jobs.where('[origin+createdAt]').between([origin, 0], [origin, Infinity]).reverse();
}

/** The site's newest job of a kind (any state), or undefined. */
export function latestJob(db: ScoutDb, origin: string, kind: JobKind, state?: JobRecord['state']): Promise<JobRecord | undefined> {
  return jobsNewestFirst(db, origin)
    .filter((j) => j.kind === kind && (state === undefined || j.state === state))
    .first();
}

/** The crawl whose pages feed the outputs: the site's newest crawl that stored any page. */
export async function latestCrawlWithPages(db: ScoutDb, origin: string): Promise<JobRecord | undefined> {
  const crawls = await jobsNewestFirst(db, origin)
    .filter((j) => j.kind === 'crawl')
    .toArray();
  for (const job of crawls) if ((await countPages(db, job.id, 'stored')) > 0) return job;
  return undefined;
}

/** A job's pages in one state (stored pages by default: duplicates and removed ones are kept apart). */
export function pagesOf(db: ScoutDb, jobId: string, state: PageState = 'stored') {
  return db.pages.where('[jobId+state]').equals([jobId, state]);
}

export function countPages(db: ScoutDb, jobId: string, state: PageState = 'stored'): Promise<number> {
  return pagesOf(db, jobId, state).count();
}

/** A site's versions of one output, oldest first (`.last()` is the current one). */
export function artifactVersions(db: ScoutDb, origin: string, kind: ArtifactKind) {
  return db.artifacts.where('[origin+kind+version]').between([origin, kind, 0], [origin, kind, Infinity]);
}

export async function latestArtifact(db: ScoutDb, origin: string, kind: ArtifactKind): Promise<ArtifactRecord | undefined> {
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
export function failInterrupted(db: ScoutDb, kind: JobKind, changes: Pick<JobRecord, 'message' | 'endedAt'> = {}): Promise<number> {
  return db.jobs
    .where('state')
    .equals('running')
    .filter((j) => j.kind === kind)
    .modify({ state: 'failed', message: 'Interrupted before it finished (the browser stopped Scout’s worker). Run it again.', ...changes });
}

/** A refresh's page versions with one of these changes. */
export function pageChanges(db: ScoutDb, jobId: string, changes: readonly PageChange[]) {
  return db.pageVersions.where('[jobId+change]').anyOf(changes.map((c) => [jobId, c]));
}
