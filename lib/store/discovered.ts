/**
 * A site's discovery (`discovered` rows, and the discovery job that owns them): what lib/discovery/
 * writes as results arrive, how a finished run replaces the site's older runs, and how a visit to
 * another page adds to the run. Each change that must be atomic is one transaction here; what a
 * row or a counter says is worked out by the caller.
 */
import type { DiscoveredFileRecord, DiscoveryJob, JobRecord } from './db';
import * as memDiscovered from './memory/discovered';
import { inMemory, type Store } from './store';

/** The rows one discovery run wrote (kept in plans.ts, beside the plans made from them). */
export { findingsOfRun } from './plans';

/** Writes a discovery job's row whole (a run starting, or one that failed before it could). */
export async function putDiscoveryJob(store: Store, job: DiscoveryJob): Promise<void> {
  if (inMemory(store)) return memDiscovered.putDiscoveryJob(store, job);
  const db = store;
  await db.jobs.put(job);
}

/**
 * Writes a batch of findings in one transaction: a row with an `id` replaces the row it was
 * written as before (a file reached again another way), one without is added. Answers each row's
 * id, in order, for the caller to replace it later.
 */
export function storeFindings(store: Store, rows: DiscoveredFileRecord[]): Promise<Array<number | undefined>> {
  if (inMemory(store)) return memDiscovered.storeFindings(store, rows);
  const db = store;
  return db.transaction('rw', db.discovered, async () => {
    const ids: Array<number | undefined> = [];
    for (const row of rows) {
      if (row.id !== undefined) {
        await db.discovered.put(row);
        ids.push(row.id);
      } else ids.push(await db.discovered.add(row));
    }
    return ids;
  });
}

/**
 * Ends a run and, in the same transaction, deletes the site's older runs that are not running
 * (their jobs and rows): the panel never sees the site without a finished discovery.
 */
export function finishDiscovery(store: Store, job: Pick<DiscoveryJob, 'id' | 'origin'>, done: Partial<DiscoveryJob>): Promise<void> {
  if (inMemory(store)) return memDiscovered.finishDiscovery(store, job, done);
  const db = store;
  return db.transaction('rw', db.jobs, db.discovered, async () => {
    await db.jobs.update(job.id, done);
    const older = await db.jobs.where('origin').equals(job.origin).filter((j) => j.kind === 'discovery' && j.id !== job.id && j.state !== 'running').primaryKeys();
    await db.discovered.where('jobId').anyOf(older).delete();
    await db.jobs.bulkDelete(older);
  });
}

/**
 * Writes `failed` over a discovery job, in one read-and-write: the job as stored, or `base` when
 * the run never wrote its row (it failed before it started).
 */
export async function failDiscoveryRow(store: Store, jobId: string, base: () => JobRecord, failed: { state: 'failed'; endedAt: number; message: string }): Promise<void> {
  if (inMemory(store)) return memDiscovered.failDiscoveryRow(store, jobId, base, failed);
  const db = store;
  await db.transaction('rw', db.jobs, async () => {
    const job = await db.jobs.get(jobId);
    await db.jobs.put({ ...(job ?? base()), ...failed });
  });
}

/**
 * Adds a visit's new findings to the site's finished run, and its counters and words as `recount`
 * works them out from the stored job: one transaction, and nothing is written when the run is no
 * longer the finished one (the site was discovered again meanwhile: its rows are that run's now).
 */
export async function addVisitFindings(store: Store, jobId: string, added: DiscoveredFileRecord[], recount: (current: DiscoveryJob) => Partial<DiscoveryJob>): Promise<void> {
  if (inMemory(store)) return memDiscovered.addVisitFindings(store, jobId, added, recount);
  const db = store;
  await db.transaction('rw', db.jobs, db.discovered, async () => {
    const current = await db.jobs.get(jobId);
    if (current?.kind !== 'discovery' || current.state !== 'done') return;
    await db.discovered.bulkAdd(added);
    await db.jobs.update(jobId, recount(current));
  });
}

/** One finding by its row id (its stored text, to save the file), if it is still kept. */
export function findingById(store: Store, id: number): Promise<DiscoveredFileRecord | undefined> {
  if (inMemory(store)) return memDiscovered.findingById(store, id);
  const db = store;
  return db.discovered.get(id);
}

/**
 * The found file a run marked best (the llms.txt covering the page), with its text: the run's
 * rows are read one at a time until it, since each may hold a whole file (up to 10 MB).
 */
export function bestFinding(store: Store, discoveryJobId: string): Promise<DiscoveredFileRecord | undefined> {
  if (inMemory(store)) return memDiscovered.bestFinding(store, discoveryJobId);
  const db = store;
  return db.discovered
    .where('jobId')
    .equals(discoveryJobId)
    .filter((r) => r.best === true && r.status === 'found' && !!r.text)
    .first();
}
