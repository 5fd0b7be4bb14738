/**
 * Agent-readiness check jobs (`jobs` rows of kind 'check'): the newest few finished checks of a
 * site are kept, the report on the job row.
 */
import type { CheckJob } from './db';
import * as memCheckJobs from './memory/check-jobs';
import { inMemory, type Store } from './store';
import { updateJob } from './queries';

/** Writes a check job's row whole (a check about to run). */
export async function putCheckJob(store: Store, job: CheckJob): Promise<void> {
  if (inMemory(store)) return memCheckJobs.putCheckJob(store, job);
  const db = store;
  await db.jobs.put(job);
}

/**
 * Ends a check with `done` (its report, counters, words) and, in the same transaction, deletes
 * the site's older finished checks beyond the newest `keep` (this one counted).
 */
export function finishCheck(store: Store, job: Pick<CheckJob, 'id' | 'origin'>, done: Partial<Omit<CheckJob, 'id' | 'kind'>>, keep: number): Promise<void> {
  if (inMemory(store)) return memCheckJobs.finishCheck(store, job, done, keep);
  const db = store;
  return db.transaction('rw', db.jobs, async () => {
    await updateJob(db, job.id, 'check', done);
    const older = await db.jobs.where('origin').equals(job.origin).filter((j) => j.kind === 'check' && j.id !== job.id && j.state !== 'running').sortBy('createdAt');
    await db.jobs.bulkDelete(older.slice(0, Math.max(0, older.length - (keep - 1))).map((j) => j.id));
  });
}
