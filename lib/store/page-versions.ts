/**
 * A refresh's records: one `pageVersions` row per page it re-checked (the audit trail of what was
 * seen and decided), the crawl's pages it updated or marked removed, and its queue rows settled.
 * What changed is decided by lib/refresh/; here, which rows it reads first and that a batch is
 * written all or nothing.
 */
import type { PageChange, PageRecord, PageVersionRecord } from './db';
import * as memPageVersions from './memory/page-versions';
import { inMemory, type Store } from './store';
import { pageChanges } from './queries';
import type { CheckedBatch } from './records/site-store';

export type { CheckedBatch };

/**
 * Reads the crawl's pages for `keys` and writes what `decide` makes of them (it gets the stored
 * page, or undefined when the crawl was deleted meanwhile, in the order of `keys`), in one
 * transaction: a killed worker leaves each page either fully re-checked or still to check.
 */
export async function writeCheckedBatch(store: Store, crawlJobId: string, keys: string[], decide: (stored: Array<PageRecord | undefined>) => CheckedBatch): Promise<void> {
  if (inMemory(store)) return memPageVersions.writeCheckedBatch(store, crawlJobId, keys, decide);
  const db = store;
  await db.transaction('rw', db.frontier, db.pages, db.pageVersions, async () => {
    const stored = await db.pages.bulkGet(keys.map((key) => [crawlJobId, key] as [string, string]));
    const batch = decide(stored);
    await db.pages.bulkPut(batch.pages);
    await db.pageVersions.bulkAdd(batch.versions);
    await db.frontier.bulkPut(batch.frontier);
  });
}

/** How many of the refresh's page versions have each change, in the order asked. */
export function changeCounts(store: Store, jobId: string, changes: readonly PageChange[]): Promise<number[]> {
  if (inMemory(store)) return memPageVersions.changeCounts(store, jobId, changes);
  const db = store;
  return Promise.all(changes.map((change) => pageChanges(db, jobId, [change]).count()));
}

/** A refresh's page versions with one of these changes (the History view's list of what changed). */
export function versionsWithChange(store: Store, jobId: string, changes: readonly PageChange[]): Promise<PageVersionRecord[]> {
  if (inMemory(store)) return memPageVersions.versionsWithChange(store, jobId, changes);
  const db = store;
  return pageChanges(db, jobId, changes).toArray();
}

/**
 * Calls `visit` with each page a refresh of the crawl re-checks (stored, and removed ones that may
 * be back), one at a time rather than as one array: a crawl's pages hold all its Markdown.
 */
export async function eachPageToRecheck(store: Store, crawlJobId: string, visit: (page: PageRecord) => void): Promise<void> {
  if (inMemory(store)) return memPageVersions.eachPageToRecheck(store, crawlJobId, visit);
  const db = store;
  // Walked by the unique [jobId+key] index, not a cursor on [jobId+state]: every stored page shares
  // that key, and fake-indexeddb (the tests' IndexedDB) rescans the rows sharing it at each step. Stored
  // pages come first, then removed ones, each by key, as the state index would give them.
  const removed: PageRecord[] = [];
  await db.pages
    .where('[jobId+key]')
    .between([crawlJobId, ''], [crawlJobId, '\uffff'])
    .each((page) => {
      if (page.state === 'stored') visit(page);
      else if (page.state === 'removed') removed.push(page);
    });
  for (const page of removed) visit(page);
}

/** Every page version a refresh recorded, by change then id (what `scout generate --refresh` reports). */
export function versionsOfRefresh(store: Store, jobId: string): Promise<PageVersionRecord[]> {
  if (inMemory(store)) return memPageVersions.versionsOfRefresh(store, jobId);
  const db = store;
  return db.pageVersions.where('[jobId+change]').between([jobId, ''], [jobId, '\uffff']).toArray();
}
