/** The memory bodies of link-blocks.ts: a job's blocks by their first sequence number. */
import type { LinkBlockRecord } from '../db';
import { copy, type MemoryStore } from './store';

const bySeq = (store: MemoryStore, jobId: string): LinkBlockRecord[] => [...(store.linkBlocks.get(jobId)?.values() ?? [])].sort((a, b) => a.seq - b.seq);

export async function blocksOf(store: MemoryStore, jobId: string): Promise<LinkBlockRecord[]> {
  return bySeq(store, jobId).map(copy);
}

export async function blockSeqs(store: MemoryStore, jobId: string): Promise<number[]> {
  return bySeq(store, jobId).map((b) => b.seq);
}

export async function blockAt(store: MemoryStore, jobId: string, seq: number): Promise<LinkBlockRecord | undefined> {
  const block = store.linkBlocks.get(jobId)?.get(seq);
  return block && copy(block);
}

/** Whether bulkAdd would refuse any of `blocks`: its key is a block already, or met earlier in the same call. */
export function blocksRefused(store: MemoryStore, blocks: readonly LinkBlockRecord[]): boolean {
  const seen = new Set<string>();
  return blocks.some((b) => {
    const id = JSON.stringify([b.jobId, b.seq]);
    const taken = seen.has(id) || store.linkBlocks.get(b.jobId)?.has(b.seq) === true;
    seen.add(id);
    return taken;
  });
}

export async function addBlocks(store: MemoryStore, blocks: LinkBlockRecord[]): Promise<void> {
  addBlocksNow(store, blocks);
}

/**
 * Adds blocks without a yield. As Dexie's bulkAdd, the blocks whose key is free are added and a
 * taken key throws after them; the bodies that must be all-or-nothing check `blocksRefused` first.
 */
export function addBlocksNow(store: MemoryStore, blocks: readonly LinkBlockRecord[]): void {
  let refused = 0;
  for (const block of blocks) {
    let job = store.linkBlocks.get(block.jobId);
    if (!job) store.linkBlocks.set(block.jobId, (job = new Map()));
    if (job.has(block.seq)) refused++;
    else job.set(block.seq, copy(block));
  }
  if (refused) throw new DOMException(`${refused} link block(s) not added: the key exists already.`, 'ConstraintError');
}
