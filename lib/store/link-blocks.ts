/**
 * A crawl's link blocks (`linkBlocks`): many pending links of one page as one record, never
 * changed once written (lib/crawl/link-blocks.ts says how its URLs are numbered and claimed).
 * How far a block was claimed is the number of frontier rows in its range (frontier.ts `rowsNumbered`);
 * a block of skipped links is never claimed, and lists as the skipped rows it stands for.
 */
import type { FrontierRecord, FrontierState, LinkBlockRecord } from './db';
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

/** The dedupe key of a block's URL at position i. */
export const keyAt = (b: LinkBlockRecord, i: number): string => b.keys?.[i] ?? (b.urls[i] as string);

/** The frontier row a block's URL stands for, or becomes when it is claimed: a skipped block's with its reason. */
export function rowAt(b: LinkBlockRecord, seq: number, state: FrontierState, now: number): FrontierRecord {
  const i = seq - b.seq;
  const row: FrontierRecord = { jobId: b.jobId, key: keyAt(b, i), url: b.urls[i] as string, state, depth: b.depth, seq, source: b.source, parentUrl: b.parentUrl, retries: 0, updatedAt: now };
  const reason = b.reasons?.[i];
  if (reason !== undefined) row.reason = reason;
  return row;
}

/** The skipped rows the job's blocks of skipped links stand for, in sequence order. */
export async function skippedBlockRows(store: Store, jobId: string): Promise<FrontierRecord[]> {
  const blocks = (await blocksOf(store, jobId)).filter((b) => b.state === 'skipped');
  return blocks.flatMap((b) => b.urls.map((_, i) => rowAt(b, b.seq + i, 'skipped', b.createdAt)));
}
