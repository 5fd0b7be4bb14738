/** The memory bodies of ../discovered.ts (same names, same answers). */
import type { DiscoveredFileRecord, DiscoveryJob, JobRecord } from '../db';
import { updateNow } from './queries';
import { constraintError, stored } from './site-rows';
import { copy, type MemoryStore } from './store';

export async function putDiscoveryJob(store: MemoryStore, job: DiscoveryJob): Promise<void> {
  store.jobs.set(job.id, copy(job));
}

const pair = (row: DiscoveredFileRecord) => `${row.jobId}\n${row.url}`;

/**
 * Checks a batch against the unique [jobId+url] index as its rows would be written in order, before
 * any is: a refused row leaves the table as it was, as the aborted transaction would. With `put`, a
 * row with an id replaces that row; with `add`, an id already used is refused too.
 */
function checkUnique(store: MemoryStore, rows: DiscoveredFileRecord[], mode: 'put' | 'add'): void {
  const taken = new Map<string, number>();
  const pairOf = new Map<number, string>();
  for (const [id, row] of store.discovered) {
    taken.set(pair(row), id);
    pairOf.set(id, pair(row));
  }
  rows.forEach((row, i) => {
    // A new row's id is not drawn yet: a stand-in no stored row has.
    const id = row.id ?? -1 - i;
    const old = pairOf.get(id);
    if (old !== undefined) {
      if (mode === 'add') throw constraintError(`A finding with id ${id} exists`);
      taken.delete(old);
    }
    const holder = taken.get(pair(row));
    if (holder !== undefined && holder !== id) throw constraintError(`A finding for ${row.url} in this run exists`);
    taken.set(pair(row), id);
    pairOf.set(id, pair(row));
  });
}

export async function storeFindings(store: MemoryStore, rows: DiscoveredFileRecord[]): Promise<Array<number | undefined>> {
  checkUnique(store, rows, 'put');
  return rows.map((row) => {
    const [id, kept] = stored(store, 'discovered', row);
    store.discovered.set(id, kept);
    // Dexie's `add` writes the new id on the caller's row (a row put has it already).
    row.id = id;
    return id;
  });
}

export async function finishDiscovery(store: MemoryStore, job: Pick<DiscoveryJob, 'id' | 'origin'>, done: Partial<DiscoveryJob>): Promise<void> {
  updateNow(store, job.id, done);
  const older = new Set([...store.jobs.values()].filter((j) => j.origin === job.origin && j.kind === 'discovery' && j.id !== job.id && j.state !== 'running').map((j) => j.id));
  for (const [id, finding] of store.discovered) if (older.has(finding.jobId)) store.discovered.delete(id);
  for (const id of older) store.jobs.delete(id);
}

export async function failDiscoveryRow(store: MemoryStore, jobId: string, base: () => JobRecord, failed: { state: 'failed'; endedAt: number; message: string }): Promise<void> {
  const job = store.jobs.get(jobId);
  const row = { ...(job ? copy(job) : base()), ...failed } as JobRecord;
  store.jobs.set(row.id, copy(row));
}

export async function addVisitFindings(store: MemoryStore, jobId: string, added: DiscoveredFileRecord[], recount: (current: DiscoveryJob) => Partial<DiscoveryJob>): Promise<void> {
  const current = store.jobs.get(jobId);
  if (current?.kind !== 'discovery' || current.state !== 'done') return;
  const changes = recount(copy(current));
  checkUnique(store, added, 'add');
  for (const row of added) store.discovered.set(...stored(store, 'discovered', row));
  updateNow(store, jobId, changes);
}

export async function findingById(store: MemoryStore, id: number): Promise<DiscoveredFileRecord | undefined> {
  return copy(store.discovered.get(id));
}

export async function bestFinding(store: MemoryStore, discoveryJobId: string): Promise<DiscoveredFileRecord | undefined> {
  // The `jobId` index gives a run's rows by id.
  const rows = [...store.discovered.values()].filter((r) => r.jobId === discoveryJobId).sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
  return copy(rows.find((r) => r.best === true && r.status === 'found' && !!r.text));
}
