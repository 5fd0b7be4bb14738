/**
 * Reads the site-side memory bodies share that queries.ts has no memory form of, each giving the
 * rows in the order the IndexedDB index behind the Dexie body gives them (an index orders by its
 * key, then by primary key). Synchronous, so an all-or-nothing body calls them between its other
 * reads and writes without a yield; they hand out the stored records: callers copy what leaves.
 */
import type { JobRecord, PageRecord, PageVersionRecord } from '../db';
import { compareStrings, copy, type MemoryStore } from './store';

/** Running jobs that `keep` admits, in id order: the `state` index's order for 'running'. */
export function runningJobs(store: MemoryStore, keep: (job: JobRecord) => boolean): JobRecord[] {
  return [...store.jobs.values()].filter((j) => j.state === 'running' && keep(j)).sort((a, b) => compareStrings(a.id, b.id));
}

/** A job's pages of every state, in key order (the primary key). */
export function jobPages(store: MemoryStore, jobId: string): PageRecord[] {
  return [...(store.pages.get(jobId)?.values() ?? [])].sort((a, b) => compareStrings(a.key, b.key));
}

/** A refresh's page versions of every change, by change then id: its part of the [jobId+change] index. */
export function versionsOf(store: MemoryStore, jobId: string): PageVersionRecord[] {
  return [...store.pageVersions.values()].filter((v) => v.jobId === jobId).sort((a, b) => compareStrings(a.change, b.change) || (a.id ?? 0) - (b.id ?? 0));
}

/**
 * The record as an auto-increment table stores it: a copy under its own id when it has one (the
 * table's generator moves past it), else under the next id, put last as IndexedDB adds it.
 */
export function stored<T extends { id?: number }>(store: MemoryStore, table: 'discovered' | 'artifacts' | 'pageVersions', record: T): [number, T] {
  const row = copy(record);
  if (row.id !== undefined) {
    store.sawId(table, row.id);
    return [row.id, row];
  }
  delete row.id;
  row.id = store.nextId(table);
  return [row.id, row];
}

/** A refused write, named as IndexedDB names it. */
export function constraintError(message: string): DOMException {
  return new DOMException(message, 'ConstraintError');
}
