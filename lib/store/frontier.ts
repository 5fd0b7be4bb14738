/**
 * A crawl's queue, its `frontier` rows: one per URL, with its state, numbered in the order found.
 * Every read and write of the table is here; lib/crawl/frontier.ts keeps the crawl's in-memory
 * view of it (counts, known keys, the next number) and decides what to claim. The link blocks
 * (many links of one page as one record) are in link-blocks.ts, beside it.
 *
 * Functions that say "in the caller's transaction" join the transaction they are called in
 * (Dexie carries it through the call), so a batch that stores pages and queues their links is
 * all-or-nothing (pages.ts `writePageBatch`).
 */
import Dexie from 'dexie';
import type { FrontierRecord, FrontierState, LinkBlockRecord } from './db';
import * as memFrontier from './memory/frontier';
import { skippedBlockRows } from './link-blocks';
import { inMemory, type Store } from './store';
import type { Claim, ListKey, RowFilter } from './records/crawl-store';

export type { Claim, ListKey, RowFilter };

/** How many URLs of the job's queue are rows (every state): 0 means it was never seeded. */
export function queuedCount(store: Store, jobId: string): Promise<number> {
  if (inMemory(store)) return memFrontier.queuedCount(store, jobId);
  const db = store;
  return db.frontier.where('[jobId+seq]').between([jobId, 0], [jobId, Infinity]).count();
}

/** The job's highest sequence number among its rows (0 when none) and every row's key. */
export async function rowKeys(store: Store, jobId: string): Promise<{ lastSeq: number; keys: string[] }> {
  if (inMemory(store)) return memFrontier.rowKeys(store, jobId);
  const db = store;
  const range = db.frontier.where('[jobId+seq]').between([jobId, 0], [jobId, Infinity]);
  const lastSeq = (await range.clone().last())?.seq ?? 0;
  const keys = (await range.clone().primaryKeys()).map(([, key]) => key);
  return { lastSeq, keys };
}

/** How many rows the job has numbered from `from` up to (not including) `to`: how far a link block was claimed. */
export function rowsNumbered(store: Store, jobId: string, from: number, to: number): Promise<number> {
  if (inMemory(store)) return memFrontier.rowsNumbered(store, jobId, from, to);
  const db = store;
  return db.frontier.where('[jobId+seq]').between([jobId, from], [jobId, to]).count();
}

/** The job's row count in each state, in the order asked. */
export function countsByState(store: Store, jobId: string, states: readonly FrontierState[]): Promise<number[]> {
  if (inMemory(store)) return memFrontier.countsByState(store, jobId, states);
  const db = store;
  return Promise.all(states.map((s) => db.frontier.where('[jobId+state]').equals([jobId, s]).count()));
}

/**
 * Inserts new rows in the caller's transaction, keeping going past rows whose key already exists
 * (Dexie aborts the transaction only when the BulkError is left uncaught). Returns the positions
 * not added: the row already there stays as it was, so the first sighting wins.
 */
export async function insertRows(store: Store, rows: FrontierRecord[]): Promise<Set<number>> {
  if (inMemory(store)) return memFrontier.insertRows(store, rows);
  const db = store;
  try {
    await db.frontier.bulkAdd(rows);
    return new Set();
  } catch (error) {
    if (!(error instanceof Dexie.BulkError)) throw error;
    const failures = Object.entries(error.failuresByPos);
    // Anything but an existing key (quota, a closed database) is a real failure.
    if (failures.some(([, e]) => e.name !== 'ConstraintError')) throw error;
    return new Set(failures.map(([pos]) => Number(pos)));
  }
}

/** Writes rows as given (a state change), in the caller's transaction. */
export async function putRows(store: Store, rows: FrontierRecord[]): Promise<void> {
  if (inMemory(store)) return memFrontier.putRows(store, rows);
  const db = store;
  await db.frontier.bulkPut(rows);
}

/**
 * Claims in one transaction: reads up to `limit` pending rows breadth-first ([depth, seq]), lets
 * `pick` (pure) choose among them and the link blocks' URLs, writes the picked rows as given and
 * inserts the block URLs' new rows. Answers what `pick` chose and which new rows were refused
 * (their key was a row already: another runner of the job queued it after this one loaded).
 */
export async function claimRows<C extends Claim>(store: Store, jobId: string, limit: number, pick: (pending: FrontierRecord[]) => C): Promise<{ picked: C; refused: Set<number> }> {
  if (inMemory(store)) return memFrontier.claimRows(store, jobId, limit, pick);
  const db = store;
  return db.transaction('rw', db.frontier, async () => {
    const pending = await db.frontier
      .where('[jobId+state+depth+seq]')
      .between([jobId, 'pending', 0, 0], [jobId, 'pending', Infinity, Infinity])
      .limit(limit)
      .toArray();
    const picked = pick(pending);
    if (picked.fromRows.length) await db.frontier.bulkPut(picked.fromRows);
    const refused = picked.fromBlocks.length ? await insertRows(db, picked.fromBlocks) : new Set<number>();
    return { picked, refused };
  });
}

/** Rows left in flight by a worker that died go back to pending; answers how many. */
export function recoverInflight(store: Store, jobId: string): Promise<number> {
  if (inMemory(store)) return memFrontier.recoverInflight(store, jobId);
  const db = store;
  return db.frontier.where('[jobId+state]').equals([jobId, 'inflight']).modify({ state: 'pending' });
}

/**
 * The rows of a list between two positions (`lo` included, `hi` not), `skip` then at most `take`;
 * with `count`, how many rows lie between them. Both from an index: 10,000 URLs cost what 50 do.
 */
export function rowsBetween(store: Store, jobId: string, filter: RowFilter, lo: ListKey, hi: ListKey) {
  if (inMemory(store)) return memFrontier.rowsBetween(store, jobId, filter, lo, hi);
  const db = store;
  const byState = filter !== 'all';
  const index = byState ? db.frontier.where('[jobId+state+depth+seq]') : db.frontier.where('[jobId+seq]');
  const bound = (k: ListKey) => (byState ? [jobId, filter, k[0], k[1]] : [jobId, k[1]]);
  const range = () => index.between(bound(lo), bound(hi), true, false);
  return {
    read: (skip: number, take: number): Promise<FrontierRecord[]> => range().offset(skip).limit(take).toArray(),
    count: (): Promise<number> => range().count(),
  };
}

/**
 * The tables a transaction around `Frontier.addNew` must include (tests and benchmarks open one
 * themselves). The memory store has no tables to name: its writes never interleave.
 */
export function queueTables(store: Store) {
  if (inMemory(store)) return [];
  const db = store;
  return [db.frontier, db.linkBlocks];
}

/** The job's rows in one state, breadth-first ([depth, seq]); skipped ones with those its blocks of skipped links stand for. */
export async function rowsInState(store: Store, jobId: string, state: FrontierState): Promise<FrontierRecord[]> {
  const rows = inMemory(store)
    ? await memFrontier.rowsInState(store, jobId, state)
    : await store.frontier.where('[jobId+state+depth+seq]').between([jobId, state, 0, 0], [jobId, state, Infinity, Infinity]).toArray();
  const inBlocks = state === 'skipped' ? await skippedBlockRows(store, jobId) : [];
  return inBlocks.length === 0 ? rows : [...rows, ...inBlocks].sort((a, b) => a.depth - b.depth || a.seq - b.seq);
}

/**
 * Adds new rows and link blocks in one transaction of their own (seeds, a refresh's queue):
 * all or none. Answers the positions of rows not inserted because their key was a row already.
 */
export async function addToQueue(store: Store, rows: FrontierRecord[], blocks: LinkBlockRecord[]): Promise<Set<number>> {
  if (inMemory(store)) return memFrontier.addToQueue(store, rows, blocks);
  const db = store;
  return db.transaction('rw', [db.frontier, db.linkBlocks], async () => {
    const refused = await insertRows(db, rows);
    if (blocks.length) await db.linkBlocks.bulkAdd(blocks);
    return refused;
  });
}
