/**
 * The job operations every kind shares, on the `jobs` table: a job is created only when its site
 * is idle, moved between states in one transaction with the read that decided it, and read back
 * by id. Kind-specific questions (the newest crawl, a kind's fields) stay in queries.ts; what a
 * job's record holds is the caller's to build (a crawl's settings are normalized in lib/crawl/).
 */
import type { CrawlJob, JobKind, JobOf, JobRecord, RefreshJob, ScoutDb } from './db';
import { isKind, jobsNewestFirst, latestCrawlWithPages } from './queries';

/** Crawls and refreshes: the jobs that work through a site's pages, one at a time per site. */
export type PageJob = CrawlJob | RefreshJob;

const isPageJob = (j: JobRecord): j is PageJob => j.kind === 'crawl' || j.kind === 'refresh';

/** Fields every kind of job has, written by code that runs either kind (the queue runner, the worker). */
export type JobFields = Partial<Pick<JobRecord, 'state' | 'message' | 'startedAt' | 'endedAt' | 'stoppedOnRefusals' | 'storageFull'>>;

/** Adds a new job row (its id is set by the caller). */
export async function addJob(db: ScoutDb, job: JobRecord): Promise<void> {
  await db.jobs.add(job);
}

/** The job with this id, of any kind. */
export function jobById(db: ScoutDb, jobId: string): Promise<JobRecord | undefined> {
  return db.jobs.get(jobId);
}

/** Writes fields every kind has (state, message, times); answers how many rows changed (0 or 1). */
export function setJobFields(db: ScoutDb, jobId: string, changes: JobFields): Promise<number> {
  return db.jobs.update(jobId, changes);
}

/** The running crawl or refresh of a site, if any: only one may run at a time. */
export async function activeJobFor(db: ScoutDb, origin: string): Promise<PageJob | undefined> {
  return db.jobs.where('state').equals('running').filter(isPageJob).filter((j) => j.origin === origin).first();
}

/**
 * Adds the job `make` builds unless a crawl or refresh of `origin` is running, and answers the job
 * or the one running. The check and the new row are one transaction: two panels pressing Generate
 * at once would otherwise both see nothing running and start two crawls of one site.
 */
export async function createIfIdle<J extends JobRecord>(db: ScoutDb, origin: string, make: () => J): Promise<J | { active: PageJob }> {
  return db.transaction('rw', db.jobs, async () => {
    const active = await activeJobFor(db, origin);
    if (active) return { active };
    const job = make();
    await db.jobs.add(job);
    return job;
  });
}

/** Why a job on the site's newest crawl was not created: no crawl with pages, or a crawl or refresh running. */
export type CrawlBlocked = { blocked: 'no-crawl' } | { blocked: 'busy'; active: PageJob };

/**
 * Adds the job `make` builds on the site's newest crawl with pages (a refresh, a describe run),
 * unless there is none or a crawl or refresh of the site runs. `make` may refuse with its own
 * `{ blocked }` after reading rows of its kind: it runs inside the same transaction as the checks
 * and the new row, so two starts at once (two panels, a schedule firing as the user clicks) make
 * one job.
 */
export function createOnLatestCrawl<J extends JobRecord, B extends { blocked: string }>(
  db: ScoutDb,
  origin: string,
  make: (crawl: CrawlJob, now: number) => J | B | Promise<J | B>,
): Promise<J | B | CrawlBlocked> {
  return db.transaction('rw', db.jobs, db.pages, async (): Promise<J | B | CrawlBlocked> => {
    const crawl = await latestCrawlWithPages(db, origin);
    if (!crawl) return { blocked: 'no-crawl' };
    const busy = await activeJobFor(db, origin);
    if (busy) return { blocked: 'busy', active: busy };
    const made = await make(crawl, Date.now());
    if (!('blocked' in made)) await db.jobs.add(made);
    return made;
  });
}

/** Moves a paused (or interrupted) crawl or refresh back to running. Returns false when it can't be resumed. */
export async function markResumed(db: ScoutDb, jobId: string): Promise<boolean> {
  return db.transaction('rw', db.jobs, async () => {
    const job = await db.jobs.get(jobId);
    if (!job || (job.kind !== 'crawl' && job.kind !== 'refresh') || !(job.state === 'paused' || job.state === 'running')) return false;
    await db.jobs.update(jobId, { state: 'running', message: 'Resuming…' });
    return true;
  });
}

/**
 * Pause or Cancel for a job that has no runner in this worker (the browser stopped the worker and
 * the job is not resumed yet, or it has ended): only a crawl or refresh that is still going
 * changes — a running one pauses, a running or paused one is cancelled — read and written in one
 * transaction. Answers whether it changed, so a press on a job that already ended changes nothing.
 */
export async function stopWithoutRunner(db: ScoutDb, jobId: string, to: 'paused' | 'cancelled'): Promise<boolean> {
  return db.transaction('rw', db.jobs, async () => {
    const job = await db.jobs.get(jobId);
    if (!job || (job.kind !== 'crawl' && job.kind !== 'refresh')) return false;
    if (to === 'paused') {
      if (job.state !== 'running') return false;
      await db.jobs.update(jobId, { state: 'paused', message: job.kind === 'crawl' ? 'Paused. Resume to carry on where it stopped.' : 'Refresh paused. Resume to carry on.' });
      return true;
    }
    if (job.state !== 'running' && job.state !== 'paused') return false;
    await db.jobs.update(jobId, { state: 'cancelled', endedAt: Date.now(), message: 'Cancelled. Pages stored so far are kept.' });
    return true;
  });
}

/** Crawls and refreshes that were running when the worker stopped; each gets a new runner. */
export async function runningPageJobs(db: ScoutDb): Promise<PageJob[]> {
  return db.jobs.where('state').equals('running').filter(isPageJob).toArray();
}

/** A site's jobs of one kind, newest first (any state). */
export function jobsOfKind<K extends JobKind>(db: ScoutDb, origin: string, kind: K): Promise<Array<JobOf<K>>> {
  return jobsNewestFirst(db, origin).filter(isKind(kind)).toArray();
}
