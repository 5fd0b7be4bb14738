/**
 * A crawl's stored pages (`pages`, keyed by job and frontier key): written by the crawl's page
 * writer in batches, read by the panel's preview. Page counts and a job's pages in one state are
 * in queries.ts, where every caller asks them the same way.
 */
import type { PageRecord } from './db';
import { insertRows, putRows } from './frontier';
import { addBlocks } from './link-blocks';
import { updateJob } from './queries';
import * as memPages from './memory/pages';
import { inMemory, type Store } from './store';
import type { PageBatch } from './records/crawl-store';

export type { PageBatch };

/** The page a crawl stored for this frontier key (any state), if any. */
export function pageByKey(store: Store, jobId: string, key: string): Promise<PageRecord | undefined> {
  if (inMemory(store)) return memPages.pageByKey(store, jobId, key);
  const db = store;
  return db.pages.get([jobId, key]);
}

/**
 * Writes a batch in one transaction: its pages, the job's changed fields, the links' new queue
 * rows and blocks, and the batch's rows' new states. A batch is all-or-nothing, so a killed worker
 * leaves each URL either done (with its page and links) or in flight (fetched again on resume).
 * Answers the positions of `queue.rows` not inserted because their key was a row already.
 */
export async function writePageBatch(store: Store, jobId: string, batch: PageBatch): Promise<Set<number>> {
  if (inMemory(store)) return memPages.writePageBatch(store, jobId, batch);
  const db = store;
  return db.transaction('rw', [db.frontier, db.linkBlocks, db.pages, db.jobs], async () => {
    const { hashes } = batch;
    const existing = hashes.length ? await db.pages.where('[jobId+contentHash]').anyOf(hashes.map((h) => [jobId, h])).toArray() : [];
    const stored = new Map<string, string>();
    for (const p of existing) if (p.state === 'stored') stored.set(p.contentHash, p.url);
    const pages = batch.pages(stored);
    if (Object.keys(batch.job).length) await updateJob(db, jobId, 'crawl', batch.job);
    await db.pages.bulkPut(pages);
    const refused = batch.queue.rows.length || batch.queue.blocks.length ? await insertRows(db, batch.queue.rows) : new Set<number>();
    if (batch.queue.blocks.length) await addBlocks(db, batch.queue.blocks);
    await putRows(db, batch.settled);
    return refused;
  });
}

/** The content hashes of the job's pages (any state), read from the index alone: no page bodies. */
export async function pageHashes(store: Store, jobId: string): Promise<string[]> {
  if (inMemory(store)) return memPages.pageHashes(store, jobId);
  const db = store;
  const keys = await db.pages.where('[jobId+contentHash]').between([jobId, ''], [jobId, '\uffff']).keys();
  return keys.flatMap((key) => (Array.isArray(key) && typeof key[1] === 'string' ? [key[1]] : []));
}
