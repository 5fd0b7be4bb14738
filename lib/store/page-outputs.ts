/**
 * A crawl's pages as the outputs read them (generation, descriptions, export, search) and the
 * token counts generation keeps on them. The crawl's own writes are in pages.ts.
 */
import type { PageRecord, ScoutDb } from './db';
import { pagesOf } from './queries';

/** A crawl's pages in one state (stored by default), in key order. */
export function pagesInState(db: ScoutDb, jobId: string, state: PageRecord['state'] = 'stored'): Promise<PageRecord[]> {
  return pagesOf(db, jobId, state).toArray();
}

/** Count fields generation keeps on a page, for the page whose text had this fingerprint. */
export interface CountUpdate {
  key: string;
  contentHash: string;
  changes: Pick<PageRecord, 'bodyCounts' | 'fullTokens'>;
}

/**
 * Writes count fields on their pages, in one transaction, only where the page still has the text
 * that was counted: a refresh may have rewritten it since it was read, and its Markdown and
 * validators must stand.
 */
export async function keepPageCounts(db: ScoutDb, jobId: string, updates: CountUpdate[]): Promise<void> {
  if (!updates.length) return;
  await db.transaction('rw', db.pages, async () => {
    const now = await db.pages.bulkGet(updates.map((u) => [jobId, u.key] as [string, string]));
    const still = updates.filter((u, i) => now[i]?.contentHash === u.contentHash);
    await db.pages.bulkUpdate(still.map((u) => ({ key: [jobId, u.key] as [string, string], changes: u.changes })));
  });
}
