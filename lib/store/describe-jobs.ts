/**
 * Describe jobs (`jobs` rows of kind 'describe'): one per site at a time, and a job a side panel
 * runs holds a lease on it (lib/describe/panel-run.ts) that it renews while it runs. The words a
 * job ends with are the caller's; which rows change, and in which transaction, is decided here.
 */
import type { CrawlJob, DescribeJob, JobRecord } from './db';
import * as memDescribeJobs from './memory/describe-jobs';
import { inMemory, type Store } from './store';
import { createOnLatestCrawl } from './jobs';
import type { DescribeBlocked } from './records/site-store';

export type { DescribeBlocked };

/**
 * Creates the describe job `make` builds for the site's newest crawl with pages, unless there is
 * none, a crawl or refresh of the site runs, or a describe job of the site runs. A running one
 * whose panel lease lapsed has no runner: it ends failed with `lapsed` as its words, and the new
 * one starts. The checks and the writes are one transaction (createOnLatestCrawl), so two starts
 * at once make one job.
 */
export function createDescribeJob(store: Store, origin: string, lapsed: string, make: (crawl: CrawlJob, now: number) => DescribeJob): Promise<DescribeJob | DescribeBlocked> {
  if (inMemory(store)) return memDescribeJobs.createDescribeJob(store, origin, lapsed, make);
  const db = store;
  return createOnLatestCrawl<DescribeJob, { blocked: 'running' }>(db, origin, async (crawl, now) => {
    const running = await db.jobs.where('state').equals('running').filter((j) => j.kind === 'describe' && j.origin === origin).first();
    if (running?.kind === 'describe' && running.leaseUntil !== undefined && running.leaseUntil < now) await db.jobs.update(running.id, { state: 'failed', endedAt: now, message: lapsed });
    else if (running) return { blocked: 'running' };
    return make(crawl, now);
  });
}

/** Sets (or with undefined, drops) a describe job's lease. */
function holdUntil(until: number | undefined) {
  return (job: JobRecord) => {
    if (job.kind !== 'describe') return;
    if (until === undefined) delete job.leaseUntil;
    else job.leaseUntil = until;
  };
}

/** Renews the lease of a describe job that is still running (a job that ended is left as it is). */
export async function renewLease(store: Store, jobId: string, until: number): Promise<void> {
  if (inMemory(store)) return memDescribeJobs.renewLease(store, jobId, until);
  const db = store;
  await db.jobs
    .where('id')
    .equals(jobId)
    .filter((j) => j.state === 'running')
    .modify(holdUntil(until));
}

/** Drops a describe job's lease, whatever its state. */
export async function dropLease(store: Store, jobId: string): Promise<void> {
  if (inMemory(store)) return memDescribeJobs.dropLease(store, jobId);
  const db = store;
  await db.jobs.where('id').equals(jobId).modify(holdUntil(undefined));
}

/** Ends a describe job failed with `message`, if it is still running. */
export async function failIfRunning(store: Store, jobId: string, message: string): Promise<void> {
  if (inMemory(store)) return memDescribeJobs.failIfRunning(store, jobId, message);
  const db = store;
  await db.jobs
    .where('id')
    .equals(jobId)
    .filter((j) => j.state === 'running')
    .modify({ state: 'failed', endedAt: Date.now(), message });
}

/**
 * For a worker starting up: describe jobs left "running" with no runner — the worker's own (a
 * stopped worker's, ended with `message`), or a panel's whose lease lapsed (ended with `lapsed`) —
 * end failed. A panel's job under a live lease is still running in that panel and is left alone.
 */
export function failStaleDescribeJobs(store: Store, message: string, lapsed: string, now = Date.now()): Promise<number> {
  if (inMemory(store)) return memDescribeJobs.failStaleDescribeJobs(store, message, lapsed, now);
  const db = store;
  return db.jobs
    .where('state')
    .equals('running')
    .filter((j) => j.kind === 'describe' && !(j.leaseUntil !== undefined && j.leaseUntil >= now))
    .modify((j) => {
      j.state = 'failed';
      j.endedAt = now;
      j.message = j.kind === 'describe' && j.leaseUntil !== undefined ? lapsed : message;
    });
}
