/**
 * The memory bodies of pages.ts. A batch is all-or-nothing as the Dexie transaction is: every
 * check that could refuse it (the decision throwing, the page room, a taken link block key) runs
 * before the first write, and nothing yields between the first write and the last.
 */
import type { PageRecord } from '../db';
import type { PageBatch } from '../records/crawl-store';
import { insertNow, putNow } from './frontier';
import { addBlocksNow, blocksRefused } from './link-blocks';
import { checkRoom } from './page-room';
import { updateNow } from './queries';
import { compareStrings, copy, type MemoryStore } from './store';

export async function pageByKey(store: MemoryStore, jobId: string, key: string): Promise<PageRecord | undefined> {
  const page = store.pages.get(jobId)?.get(key);
  return page && copy(page);
}

export async function writePageBatch(store: MemoryStore, jobId: string, batch: PageBatch): Promise<Set<number>> {
  const rows = store.pages.get(jobId);
  const stored = new Map<string, string>();
  // In the [jobId+contentHash] index's order (hash, then key), so a hash two stored pages share maps as Dexie's would.
  for (const hash of [...new Set(batch.hashes)].sort(compareStrings)) {
    for (const key of [...(rows?.keysWithHash(hash) ?? [])].sort(compareStrings)) {
      const page = rows?.get(key);
      if (page?.state === 'stored') stored.set(page.contentHash, page.url);
    }
  }
  const pages = batch.pages(stored);
  checkRoom(store, pages);
  if (blocksRefused(store, batch.queue.blocks)) throw new DOMException('A link block with this key exists already.', 'ConstraintError');
  if (Object.keys(batch.job).length) updateNow(store, jobId, batch.job);
  for (const page of pages) store.pages.rowsOf(page.jobId).set(page.key, copy(page));
  const refused = batch.queue.rows.length || batch.queue.blocks.length ? insertNow(store, batch.queue.rows) : new Set<number>();
  addBlocksNow(store, batch.queue.blocks);
  putNow(store, batch.settled);
  return refused;
}

/** The content hashes of the job's pages, one per page, in the [jobId+contentHash] index's order. */
export async function pageHashes(store: MemoryStore, jobId: string): Promise<string[]> {
  const pages = [...(store.pages.get(jobId)?.values() ?? [])];
  return pages
    .sort((a, b) => compareStrings(a.contentHash, b.contentHash) || compareStrings(a.key, b.key))
    .map((p) => p.contentHash)
    .filter((hash) => hash < '\uffff');
}
