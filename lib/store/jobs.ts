/**
 * The job operations every kind shares, on the `jobs` table: a job is created only when its site
 * is idle, moved between states in one transaction with the read that decided it, and read back
 * by id. Kind-specific questions (the newest crawl, a kind's fields) stay in queries.ts; what a
 * job's record holds is the caller's to build (a crawl's settings are normalized in lib/crawl/).
 */
import type { CrawlJob, JobKind, JobOf, JobRecord } from './db';
import { isKind, jobsNewestFirst, latestCrawlWithPages } from './queries';
import * as memJobs from './memory/jobs';
import { inMemory, type Store } from './store';
import type { CrawlBlocked, JobFields, PageJob } from './records/crawl-store';

export type { CrawlBlocked, JobFields, PageJob };

const isPageJob = (j: JobRecord): j is PageJob => j.kind === 'crawl' || j.kind === 'refresh';

/** Adds a new job row (its id is set by the caller). */
export async function addJob(store: Store, job: JobRecord): Promise<void> {
  if (inMemory(store)) return memJobs.addJob(store, job);
  const db = store;
  await db.jobs.add(job);
}

/** The job with this id, of any kind. */
export function jobById(store: Store, jobId: string): Promise<JobRecord | undefined> {
  if (inMemory(store)) return memJobs.jobById(store, jobId);
  const db = store;
  return db.jobs.get(jobId);
}

/** Writes fields every kind has (state, message, times); answers how many rows changed (0 or 1). */
export function setJobFields(store: Store, jobId: string, changes: JobFields): Promise<number> {
  if (inMemory(store)) return memJobs.setJobFields(store, jobId, changes);
  const db = store;
  return db.jobs.update(jobId, changes);
}

/** The running crawl or refresh of a site, if any: only one may run at a time. */
export async function activeJobFor(store: Store, origin: string): Promise<PageJob | undefined> {
  if (inMemory(store)) return memJobs.activeJobFor(store, origin);
  const db = store;
  return db.jobs.where('state').equals('running').filter(isPageJob).filter((j) => j.origin === origin).first();
}

/**
 * Adds the job `make` builds unless a crawl or refresh of `origin` is running, and answers the job
 * or the one running. The check and the new row are one transaction: two panels pressing Generate
 * at once would otherwise both see nothing running and start two crawls of one site.
 */
export async function createIfIdle<J extends JobRecord>(store: Store, origin: string, make: () => J): Promise<J | { active: PageJob }> {
  if (inMemory(store)) return memJobs.createIfIdle(store, origin, make);
  const db = store;
  return db.transaction('rw', db.jobs, async () => {
    const active = await activeJobFor(db, origin);
    if (active) return { active };
    const job = make();
    await db.jobs.add(job);
    return job;
  });
}

/**
 * Adds the job `make` builds on the site's newest crawl with pages (a refresh, a describe run),
 * unless there is none or a crawl or refresh of the site runs. `make` may refuse with its own
 * `{ blocked }` after reading rows of its kind: it runs inside the same transaction as the checks
 * and the new row, so two starts at once (two panels, a schedule firing as the user clicks) make
 * one job.
 */
export function createOnLatestCrawl<J extends JobRecord, B extends { blocked: string }>(
  store: Store,
  origin: string,
  make: (crawl: CrawlJob, now: number) => J | B | Promise<J | B>,
): Promise<J | B | CrawlBlocked> {
  if (inMemory(store)) return memJobs.createOnLatestCrawl<J, B>(store, origin, make);
  const db = store;
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
export async function markResumed(store: Store, jobId: string): Promise<boolean> {
  if (inMemory(store)) return memJobs.markResumed(store, jobId);
  const db = store;
  return db.transaction('rw', db.jobs, async () => {
    const changes = memJobs.resumeChanges(await db.jobs.get(jobId));
    if (changes) await db.jobs.update(jobId, changes);
    return changes !== undefined;
  });
}

/**
 * Pause or Cancel for a job that has no runner in this worker (the browser stopped the worker and
 * the job is not resumed yet, or it has ended): only a crawl or refresh that is still going
 * changes — a running one pauses, a running or paused one is cancelled — read and written in one
 * transaction. Answers whether it changed, so a press on a job that already ended changes nothing.
 */
export async function stopWithoutRunner(store: Store, jobId: string, to: 'paused' | 'cancelled'): Promise<boolean> {
  if (inMemory(store)) return memJobs.stopWithoutRunner(store, jobId, to);
  const db = store;
  return db.transaction('rw', db.jobs, async () => {
    const changes = memJobs.stopChanges(await db.jobs.get(jobId), to, Date.now());
    if (changes) await db.jobs.update(jobId, changes);
    return changes !== undefined;
  });
}

/** Crawls and refreshes that were running when the worker stopped; each gets a new runner. */
export async function runningPageJobs(store: Store): Promise<PageJob[]> {
  if (inMemory(store)) return memJobs.runningPageJobs(store);
  const db = store;
  return db.jobs.where('state').equals('running').filter(isPageJob).toArray();
}

/** A site's jobs of one kind, newest first (any state). */
export function jobsOfKind<K extends JobKind>(store: Store, origin: string, kind: K): Promise<Array<JobOf<K>>> {
  if (inMemory(store)) return memJobs.jobsOfKind(store, origin, kind);
  const db = store;
  return jobsNewestFirst(db, origin).filter(isKind(kind)).toArray();
}
