/** The memory bodies of ../page-outputs.ts (same names, same answers). */
import type { PageRecord } from '../db';
import type { CountUpdate, PageHead } from '../records/site-store';
import { pagesOf } from './queries';
import { jobPages } from './site-rows';
import { applyChanges, compareStrings, copy, type MemoryStore } from './store';

export async function pagesInState(store: MemoryStore, jobId: string, state: PageRecord['state'] = 'stored'): Promise<PageRecord[]> {
  return pagesOf(store, jobId, state);
}

export async function pageHeads(store: MemoryStore, jobId: string, state: PageRecord['state'] = 'stored'): Promise<PageHead[]> {
  const rows = store.pages.get(jobId);
  if (!rows) return [];
  return [...rows.keysIn(state)].sort(compareStrings).map((key) => {
    const row = rows.get(key) as PageRecord;
    // Every field but the Markdown, in the row's order; its accessor (the text on disk) is never called.
    const head: Record<string, unknown> = {};
    for (const field of Object.keys(row)) if (field !== 'markdown') head[field] = row[field as keyof PageRecord];
    return copy(head as PageHead);
  });
}

export async function keepPageCounts(store: MemoryStore, jobId: string, updates: CountUpdate[]): Promise<void> {
  const pages = store.pages.get(jobId);
  if (!pages) return;
  // Every page is compared as read before any is written, as the Dexie body's one bulkGet does.
  const still = updates.filter((u) => pages.get(u.key)?.contentHash === u.contentHash);
  for (const u of still) {
    const page = pages.get(u.key);
    // Only counts change: the page's Markdown stays where it is (on disk, for the CLI's store).
    if (page) pages.set(u.key, applyChanges(pages.copyForUpdate(page), u.changes));
  }
}

export async function queuedUrlsOfStoredPages(store: MemoryStore, jobId: string): Promise<string[]> {
  const queue = store.frontier.get(jobId);
  return pagesOf(store, jobId).map((p) => queue?.get(p.key)?.url ?? p.finalUrl);
}

export async function pagesAfter(store: MemoryStore, jobId: string, after: string | undefined, limit: number): Promise<PageRecord[]> {
  const pages = jobPages(store, jobId).filter((p) => after === undefined || compareStrings(p.key, after) > 0);
  return pages.slice(0, Math.max(0, limit)).map(rowCopy);
}

/**
 * `copy(value)` (structuredClone) for the plain data a row is made of, its strings shared: a string
 * cannot be changed, so sharing it is as safe as a copy, and generation reads every page's row
 * twice (its Markdown, tens of KB, serialized and read back each time). Objects and arrays are
 * new, so a caller that changes the copy never changes the store's row; an accessor is read as
 * structuredClone reads it (the Markdown the store keeps on disk). Anything but a plain object or
 * array (none in a page row today) is left to structuredClone.
 */
export function rowCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    // A hole stays a hole, as structuredClone keeps it.
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) if (i in value) out[i] = rowCopy(value[i]);
    return out as T;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return copy(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = rowCopy((value as Record<string, unknown>)[key]);
  return out as T;
}
