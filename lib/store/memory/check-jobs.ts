/** The memory bodies of ../check-jobs.ts (same names, same answers). */
import type { CheckJob } from '../db';
import { updateNow } from './queries';
import { compareStrings, copy, type MemoryStore } from './store';

export async function putCheckJob(store: MemoryStore, job: CheckJob): Promise<void> {
  store.jobs.set(job.id, copy(job));
}

export async function finishCheck(store: MemoryStore, job: Pick<CheckJob, 'id' | 'origin'>, done: Partial<Omit<CheckJob, 'id' | 'kind'>>, keep: number): Promise<void> {
  updateNow(store, job.id, done);
  // The `origin` index gives the site's jobs by id; sortBy('createdAt') keeps that order among equal times.
  const older = [...store.jobs.values()]
    .filter((j) => j.origin === job.origin && j.kind === 'check' && j.id !== job.id && j.state !== 'running')
    .sort((a, b) => a.createdAt - b.createdAt || compareStrings(a.id, b.id));
  for (const j of older.slice(0, Math.max(0, older.length - (keep - 1)))) store.jobs.delete(j.id);
}
