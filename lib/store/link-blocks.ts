/**
 * A crawl's link blocks (`linkBlocks`): many pending links of one page as one record, never
 * changed once written (lib/crawl/link-blocks.ts says how its URLs are numbered and claimed).
 * How far a block was claimed is the number of frontier rows in its range (frontier.ts `rowsNumbered`).
 */
import type { LinkBlockRecord, ScoutDb } from './db';

/** The job's link blocks, in sequence order. */
export function blocksOf(db: ScoutDb, jobId: string): Promise<LinkBlockRecord[]> {
  return db.linkBlocks.where('[jobId+seq]').between([jobId, 0], [jobId, Infinity]).toArray();
}

/** The first sequence numbers of the job's link blocks, without reading the blocks (they can be megabytes). */
export async function blockSeqs(db: ScoutDb, jobId: string): Promise<number[]> {
  return (await db.linkBlocks.where('[jobId+seq]').between([jobId, 0], [jobId, Infinity]).primaryKeys()).map(([, seq]) => seq);
}

/** One link block by its first sequence number. */
export function blockAt(db: ScoutDb, jobId: string, seq: number): Promise<LinkBlockRecord | undefined> {
  return db.linkBlocks.get([jobId, seq]);
}

/** Adds new link blocks, in the caller's transaction (the page writer's, with the rows they go with). */
export async function addBlocks(db: ScoutDb, blocks: LinkBlockRecord[]): Promise<void> {
  await db.linkBlocks.bulkAdd(blocks);
}
