/**
 * A crawl's pages as the outputs read them (generation, descriptions, export, search) and the
 * token counts generation keeps on them. The crawl's own writes are in pages.ts.
 */
import Dexie from 'dexie';
import type { PageRecord } from './db';
import * as memPageOutputs from './memory/page-outputs';
import { inMemory, type Store } from './store';
import { pagesOf } from './queries';
import type { CountUpdate, PageHead } from './records/site-store';

/** A crawl's pages in one state (stored by default), in key order. */
export function pagesInState(store: Store, jobId: string, state: PageRecord['state'] = 'stored'): Promise<PageRecord[]> {
  if (inMemory(store)) return memPageOutputs.pagesInState(store, jobId, state);
  const db = store;
  return pagesOf(db, jobId, state).toArray();
}

/**
 * A crawl's pages in one state, in key order, without their Markdown: the memory store keeps the
 * text on disk (body-spill.ts) and reads none of it here, so a list of the site's pages costs its
 * rows, not its text.
 */
export async function pageHeads(store: Store, jobId: string, state: PageRecord['state'] = 'stored'): Promise<PageHead[]> {
  if (inMemory(store)) return memPageOutputs.pageHeads(store, jobId, state);
  const db = store;
  return (await pagesOf(db, jobId, state).toArray()).map(({ markdown: _, ...head }) => head);
}

export type { CountUpdate, PageHead };

/**
 * Writes count fields on their pages, in one transaction, only where the page still has the text
 * that was counted: a refresh may have rewritten it since it was read, and its Markdown and
 * validators must stand.
 */
export async function keepPageCounts(store: Store, jobId: string, updates: CountUpdate[]): Promise<void> {
  if (inMemory(store)) return memPageOutputs.keepPageCounts(store, jobId, updates);
  const db = store;
  if (!updates.length) return;
  // One read of the pages: bulkUpdate would read (and clone) every record again, each with its text.
  await db.transaction('rw', db.pages, async () => {
    const now = await db.pages.bulkGet(updates.map((u) => [jobId, u.key] as [string, string]));
    const still = updates.flatMap((u, i) => {
      const page = now[i];
      return page && page.contentHash === u.contentHash ? [{ ...page, ...u.changes }] : [];
    });
    await db.pages.bulkPut(still);
  });
}

/**
 * The address each of a crawl's stored pages was queued under, in page order: a page read from
 * its .md twin has the twin as `finalUrl`, and its own address is the queue row's.
 */
export async function queuedUrlsOfStoredPages(store: Store, jobId: string): Promise<string[]> {
  if (inMemory(store)) return memPageOutputs.queuedUrlsOfStoredPages(store, jobId);
  const db = store;
  const pages = await pagesOf(db, jobId).toArray();
  const queued = await db.frontier.bulkGet(pages.map((p): [string, string] => [jobId, p.key]));
  return pages.map((p, i) => queued[i]?.url ?? p.finalUrl);
}

/**
 * A crawl's stored pages for a reader that goes over them twice, in key order, `batch` pages per
 * read of the store: generation learns the site's chrome from every page, then takes it off each.
 * IndexedDB reads a page whole, its text with it (the Python docs' pages are ~50 MB to deserialize
 * per read, seconds of the service worker's time): the pages are read once and held between the
 * passes, each let go as the second pass reaches it. The memory store keeps the text on disk and
 * reads it back for the second pass, so the CLI never holds the site's text as crawled.
 */
export function storedPagesTwice(store: Store, jobId: string, batch: number): { first(each: (page: PageRecord) => void): Promise<void>; second(each: (page: PageRecord) => void): Promise<void> } {
  let held: Array<PageRecord | undefined> | undefined = inMemory(store) ? undefined : [];
  const read = async (each: (page: PageRecord) => void) => {
    let after: string | undefined;
    for (;;) {
      const rows = await pagesAfter(store, jobId, after, batch);
      for (const page of rows) if (page.state === 'stored') each(page);
      if (rows.length < batch) return;
      after = rows[rows.length - 1]?.key;
    }
  };
  return {
    first: (each) => {
      const keep = held;
      return read(keep ? (page) => {
        keep.push(page);
        each(page);
      } : each);
    },
    second: async (each) => {
      const pages = held;
      held = undefined;
      if (!pages) return read(each);
      for (let i = 0; i < pages.length; i++) {
        const page = pages[i];
        pages[i] = undefined;
        if (page) each(page);
      }
    },
  };
}

/**
 * Up to `limit` of a crawl's pages (every state) after the page keyed `after` (from the first
 * when undefined), in key order: each batch its own short read, so a crawl's writes never wait
 * behind a reader of all its pages.
 */
export function pagesAfter(store: Store, jobId: string, after: string | undefined, limit: number): Promise<PageRecord[]> {
  if (inMemory(store)) return memPageOutputs.pagesAfter(store, jobId, after, limit);
  const db = store;
  return db.pages
    .where(':id')
    .between([jobId, after ?? ''], [jobId, Dexie.maxKey], after === undefined, true)
    .limit(limit)
    .toArray();
}
