/** The memory bodies of ../describe-jobs.ts (same names, same answers). */
import type { CrawlJob, DescribeJob } from '../db';
import type { DescribeBlocked } from '../records/site-store';
import { createOnLatestCrawl } from './jobs';
import { updateNow } from './queries';
import { constraintError, runningJobs } from './site-rows';
import { applyChanges, copy, type MemoryStore } from './store';

export function createDescribeJob(store: MemoryStore, origin: string, lapsed: string, make: (crawl: CrawlJob, now: number) => DescribeJob): Promise<DescribeJob | DescribeBlocked> {
  // The describe check runs inside createOnLatestCrawl's section, with no yield before its writes.
  return createOnLatestCrawl<DescribeJob, { blocked: 'running' }>(store, origin, (crawl, now) => {
    const running = runningJobs(store, (j) => j.kind === 'describe' && j.origin === origin)[0];
    const lapses = running?.kind === 'describe' && running.leaseUntil !== undefined && running.leaseUntil < now;
    if (running && !lapses) return { blocked: 'running' };
    const made = make(crawl, now);
    // Refused before the lapsed job is ended, as the aborted transaction would leave it.
    if (store.jobs.has(made.id)) throw constraintError(`A job with id ${made.id} exists already.`);
    if (running) updateNow(store, running.id, { state: 'failed', endedAt: now, message: lapsed });
    return made;
  });
}

export async function renewLease(store: MemoryStore, jobId: string, until: number): Promise<void> {
  const job = store.jobs.get(jobId);
  if (job?.kind === 'describe' && job.state === 'running') store.jobs.set(jobId, { ...copy(job), leaseUntil: until });
}

export async function dropLease(store: MemoryStore, jobId: string): Promise<void> {
  const job = store.jobs.get(jobId);
  if (job?.kind === 'describe') store.jobs.set(jobId, applyChanges(copy(job), { leaseUntil: undefined }));
}

export async function failIfRunning(store: MemoryStore, jobId: string, message: string): Promise<void> {
  if (store.jobs.get(jobId)?.state === 'running') updateNow(store, jobId, { state: 'failed', endedAt: Date.now(), message });
}

export async function failStaleDescribeJobs(store: MemoryStore, message: string, lapsed: string, now = Date.now()): Promise<number> {
  const stale = runningJobs(store, (j) => j.kind === 'describe' && !(j.leaseUntil !== undefined && j.leaseUntil >= now));
  for (const j of stale) updateNow(store, j.id, { state: 'failed', endedAt: now, message: j.kind === 'describe' && j.leaseUntil !== undefined ? lapsed : message });
  return stale.length;
}
