/**
 * A crawl's pages as the outputs read them (generation, descriptions, export, search) and the
 * token counts generation keeps on them. The crawl's own writes are in pages.ts.
 */
import Dexie from 'dexie';
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

/**
 * The address each of a crawl's stored pages was queued under, in page order: a page read from
 * its .md twin has the twin as `finalUrl`, and its own address is the queue row's.
 */
export async function queuedUrlsOfStoredPages(db: ScoutDb, jobId: string): Promise<string[]> {
  const pages = await pagesOf(db, jobId).toArray();
  const queued = await db.frontier.bulkGet(pages.map((p): [string, string] => [jobId, p.key]));
  return pages.map((p, i) => queued[i]?.url ?? p.finalUrl);
}

/**
 * Up to `limit` of a crawl's pages (every state) after the page keyed `after` (from the first
 * when undefined), in key order: each batch its own short read, so a crawl's writes never wait
 * behind a reader of all its pages.
 */
export function pagesAfter(db: ScoutDb, jobId: string, after: string | undefined, limit: number): Promise<PageRecord[]> {
  return db.pages
    .where(':id')
    .between([jobId, after ?? ''], [jobId, Dexie.maxKey], after === undefined, true)
    .limit(limit)
    .toArray();
}
