/** The memory bodies of ../page-versions.ts (same names, same answers). */
import type { PageChange, PageRecord, PageVersionRecord } from '../db';
import type { CheckedBatch } from '../records/site-store';
import { putNow } from './frontier';
import { pageChanges } from './queries';
import { constraintError, jobPages, stored, versionsOf } from './site-rows';
import { copy, type MemoryStore } from './store';

export async function writeCheckedBatch(store: MemoryStore, crawlJobId: string, keys: string[], decide: (stored: Array<PageRecord | undefined>) => CheckedBatch): Promise<void> {
  const pages = store.pages.get(crawlJobId);
  // `decide` runs, and a version the table would refuse is found, before any write: a throw leaves every table as it was.
  const batch = decide(keys.map((key) => copy(pages?.get(key))));
  for (const v of batch.versions) if (v.id !== undefined && store.pageVersions.has(v.id)) throw constraintError(`A page version with id ${v.id} exists already.`);
  for (const page of batch.pages) store.pages.rowsOf(page.jobId).set(page.key, copy(page));
  for (const v of batch.versions) store.pageVersions.set(...stored(store, 'pageVersions', v));
  putNow(store, batch.frontier);
}

export async function changeCounts(store: MemoryStore, jobId: string, changes: readonly PageChange[]): Promise<number[]> {
  return changes.map((change) => pageChanges(store, jobId, [change]).length);
}

export async function versionsWithChange(store: MemoryStore, jobId: string, changes: readonly PageChange[]): Promise<PageVersionRecord[]> {
  return pageChanges(store, jobId, changes);
}

export async function eachPageToRecheck(store: MemoryStore, crawlJobId: string, visit: (page: PageRecord) => void): Promise<void> {
  const pages = jobPages(store, crawlJobId);
  for (const page of pages) if (page.state === 'stored') visit(copy(page));
  for (const page of pages) if (page.state === 'removed') visit(copy(page));
}

export async function versionsOfRefresh(store: MemoryStore, jobId: string): Promise<PageVersionRecord[]> {
  return versionsOf(store, jobId).map(copy);
}
