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
  return pages.slice(0, Math.max(0, limit)).map(copy);
}
