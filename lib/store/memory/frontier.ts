/**
 * The memory bodies of frontier.ts (lib/store/memory/store.ts says the rules): a job's rows are a
 * `FrontierRows` map, which keeps each state's rows breadth-first, so a claim reads the first
 * pending rows instead of scanning the queue.
 */
import type { FrontierRecord, FrontierState, LinkBlockRecord } from '../db';
import type { Claim, ListKey, RowFilter } from '../records/crawl-store';
import { addBlocksNow, blocksRefused } from './link-blocks';
import { copy, type FrontierRows, lowerBound, type MemoryStore } from './store';

const rowsOf = (store: MemoryStore, jobId: string): FrontierRows | undefined => store.frontier.get(jobId);

export async function queuedCount(store: MemoryStore, jobId: string): Promise<number> {
  return rowsOf(store, jobId)?.size ?? 0;
}

export async function rowKeys(store: MemoryStore, jobId: string): Promise<{ lastSeq: number; keys: string[] }> {
  const rows = rowsOf(store, jobId)?.inOrder() ?? [];
  return { lastSeq: rows.at(-1)?.seq ?? 0, keys: rows.map((r) => r.key) };
}

/** Where seq `seq` starts in the job's order found. */
const seqAt = (rows: readonly FrontierRecord[], seq: number) => lowerBound(rows, seq, (r, s) => r.seq - s);

export async function rowsNumbered(store: MemoryStore, jobId: string, from: number, to: number): Promise<number> {
  const rows = rowsOf(store, jobId)?.inOrder() ?? [];
  return Math.max(0, seqAt(rows, to) - seqAt(rows, from));
}

export async function countsByState(store: MemoryStore, jobId: string, states: readonly FrontierState[]): Promise<number[]> {
  const rows = rowsOf(store, jobId);
  return states.map((s) => rows?.count(s) ?? 0);
}

/** The positions of `rows` that bulkAdd would refuse: a key already stored, or met earlier in the same call. */
function refusedPositions(store: MemoryStore, rows: readonly FrontierRecord[]): Set<number> {
  const refused = new Set<number>();
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const id = JSON.stringify([row.jobId, row.key]);
    if (seen.has(id) || store.frontier.get(row.jobId)?.has(row.key)) refused.add(i);
    seen.add(id);
  });
  return refused;
}

export async function insertRows(store: MemoryStore, rows: FrontierRecord[]): Promise<Set<number>> {
  return insertNow(store, rows);
}

/** insertRows without a turn of the event loop, for the bodies that must not yield between reads and writes. */
export function insertNow(store: MemoryStore, rows: readonly FrontierRecord[]): Set<number> {
  const refused = refusedPositions(store, rows);
  rows.forEach((row, i) => {
    if (!refused.has(i)) store.frontier.rowsOf(row.jobId).set(row.key, copy(row));
  });
  return refused;
}

export async function putRows(store: MemoryStore, rows: FrontierRecord[]): Promise<void> {
  putNow(store, rows);
}

export function putNow(store: MemoryStore, rows: readonly FrontierRecord[]): void {
  for (const row of rows) store.frontier.rowsOf(row.jobId).set(row.key, copy(row));
}

export async function claimRows<C extends Claim>(store: MemoryStore, jobId: string, limit: number, pick: (pending: FrontierRecord[]) => C): Promise<{ picked: C; refused: Set<number> }> {
  const pending = (rowsOf(store, jobId)?.inState('pending') ?? []).slice(0, Math.max(0, limit)).map(copy);
  // Everything below runs without a yield, as the Dexie body's transaction: a throwing `pick` changes nothing.
  const picked = pick(pending);
  if (picked.fromRows.length) putNow(store, picked.fromRows);
  const refused = picked.fromBlocks.length ? insertNow(store, picked.fromBlocks) : new Set<number>();
  return { picked, refused };
}

export async function recoverInflight(store: MemoryStore, jobId: string): Promise<number> {
  const rows = rowsOf(store, jobId);
  if (!rows) return 0;
  const inflight = [...rows.inState('inflight')];
  for (const row of inflight) rows.set(row.key, { ...row, state: 'pending' });
  return inflight.length;
}

export function rowsBetween(store: MemoryStore, jobId: string, filter: RowFilter, lo: ListKey, hi: ListKey) {
  // Found at each call, as the Dexie body reads its index range at each call: two binary searches.
  const range = (): { list: readonly FrontierRecord[]; start: number; end: number } => {
    const rows = rowsOf(store, jobId);
    if (!rows) return { list: [], start: 0, end: 0 };
    const list = filter === 'all' ? rows.inOrder() : rows.inState(filter);
    const at = filter === 'all' ? (k: ListKey) => seqAt(list, k[1]) : (k: ListKey) => lowerBound(list, k, (r, [depth, seq]) => r.depth - depth || r.seq - seq);
    const start = at(lo);
    return { list, start, end: Math.max(start, at(hi)) };
  };
  return {
    read: async (skip: number, take: number): Promise<FrontierRecord[]> => {
      const { list, start, end } = range();
      return list.slice(start + skip, Math.min(end, start + skip + take)).map(copy);
    },
    count: async (): Promise<number> => {
      const { start, end } = range();
      return end - start;
    },
  };
}

export async function rowsInState(store: MemoryStore, jobId: string, state: FrontierState): Promise<FrontierRecord[]> {
  return (rowsOf(store, jobId)?.inState(state) ?? []).map(copy);
}

export async function addToQueue(store: MemoryStore, rows: FrontierRecord[], blocks: LinkBlockRecord[]): Promise<Set<number>> {
  // All or none: a block whose key is taken fails the whole call before any row is written.
  if (blocksRefused(store, blocks)) throw new DOMException('A link block with this key exists already.', 'ConstraintError');
  const refused = insertNow(store, rows);
  addBlocksNow(store, blocks);
  return refused;
}
