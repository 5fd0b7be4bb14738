/**
 * A crawl's link blocks (`linkBlocks`): many pending links of one page as one record, never
 * changed once written (lib/crawl/link-blocks.ts says how its URLs are numbered and claimed).
 * How far a block was claimed is the number of frontier rows in its range (frontier.ts `rowsNumbered`).
 */
import type { LinkBlockRecord } from './db';
import * as memLinkBlocks from './memory/link-blocks';
import { inMemory, type Store } from './store';

/** The job's link blocks, in sequence order. */
export function blocksOf(store: Store, jobId: string): Promise<LinkBlockRecord[]> {
  if (inMemory(store)) return memLinkBlocks.blocksOf(store, jobId);
  const db = store;
  return db.linkBlocks.where('[jobId+seq]').between([jobId, 0], [jobId, Infinity]).toArray();
}

/** The first sequence numbers of the job's link blocks, without reading the blocks (they can be megabytes). */
export async function blockSeqs(store: Store, jobId: string): Promise<number[]> {
  if (inMemory(store)) return memLinkBlocks.blockSeqs(store, jobId);
  const db = store;
  return (await db.linkBlocks.where('[jobId+seq]').between([jobId, 0], [jobId, Infinity]).primaryKeys()).map(([, seq]) => seq);
}

/** One link block by its first sequence number. */
export function blockAt(store: Store, jobId: string, seq: number): Promise<LinkBlockRecord | undefined> {
  if (inMemory(store)) return memLinkBlocks.blockAt(store, jobId, seq);
  const db = store;
  return db.linkBlocks.get([jobId, seq]);
}

/** Adds new link blocks, in the caller's transaction (the page writer's, with the rows they go with). */
export async function addBlocks(store: Store, blocks: LinkBlockRecord[]): Promise<void> {
  if (inMemory(store)) return memLinkBlocks.addBlocks(store, blocks);
  const db = store;
  await db.linkBlocks.bulkAdd(blocks);
}
