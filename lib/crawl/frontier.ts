import type { FrontierRecord, FrontierState, LinkBlockRecord, NewEntry } from '../store/db';
import type { Store } from '../store/store';
import { addToQueue, claimRows, countsByState, insertRows, putRows, queueTables, recoverInflight, rowKeys, rowsNumbered } from '../store/frontier';
import { addBlocks, blocksOf } from '../store/link-blocks';
import { BLOCK_MIN, endOf, keyAt, mergeClaims, plan, remaining, SKIPPED_BLOCK_MIN, type Block } from './link-blocks';

/** What `addNew` wrote; hand it to `remember` once its transaction has committed. */
export interface Added {
  keys: string[];
  pending: number;
  skipped: number;
  /** Link blocks of pending links written (their URLs are counted in `pending`). */
  blocks?: Block[];
  /** URLs written in blocks of skipped links (counted in `skipped` too). */
  skippedInBlocks?: number;
}

/** What `prepare` numbered for the queue: the rows and blocks to write, and the keys they hold. */
export interface Prepared {
  keys: string[];
  rows: FrontierRecord[];
  blocks: LinkBlockRecord[];
}

const STATES: FrontierState[] = ['pending', 'inflight', 'done', 'failed', 'skipped'];

/**
 * A crawl's durable queue (its rows and link blocks are in lib/store/). Every state change is a write, so a worker
 * that dies loses nothing: `recover()` puts in-flight URLs back to pending.
 * Breadth-first order comes from the [jobId+state+depth+seq] index.
 *
 * Counts per state and the set of known keys are kept in memory, loaded once
 * and moved only after the writes they describe have committed: counting
 * IndexedDB rows on every progress tick blocked the write transactions.
 *
 * A page's many links are queued as one record, a link block (link-blocks.ts), and become rows
 * one claim at a time: a page with 100,000 links cost ~40 s of row inserts in a 200-page crawl
 * that fetched 200 of them. A block's unclaimed URLs count as pending and their keys as known;
 * how far a block was claimed is read back from its rows, so it survives a killed worker too.
 * A page's many skipped links are one block too, never claimed: their keys are known and their
 * number counts as skipped.
 */
export class Frontier {
  private seq = 0;
  private readonly known = new Set<string>();
  private readonly tally: Record<FrontierState, number> = { pending: 0, inflight: 0, done: 0, failed: 0, skipped: 0 };
  /** Link blocks with URLs not yet claimed, oldest first. */
  private blocks: Block[] = [];
  /** URLs in blocks of skipped links: rows do not count them. */
  private skippedInBlocks = 0;
  /** Depth of the most recently claimed URL: the breadth-first level being worked on. */
  depth = 0;

  constructor(
    private readonly db: Store,
    readonly jobId: string,
    /** Pending links of one page from which they are kept as one block (tests lower it). */
    private readonly blockMin = BLOCK_MIN,
    /** Skipped links of one page from which they are kept as one block. */
    private readonly skippedMin = SKIPPED_BLOCK_MIN,
  ) {}

  /**
   * The tables `addNew` writes: a caller's transaction around it must include them all. Only tests
   * and benchmarks open one; the crawl queues through `enqueue` or the page writer's batch.
   */
  get tables() {
    return queueTables(this.db);
  }

  /** Loads the sequence counter, the known keys, the link blocks and the counts. */
  async init(): Promise<void> {
    const records = await blocksOf(this.db, this.jobId);
    const { lastSeq, keys } = await rowKeys(this.db, this.jobId);
    this.seq = Math.max(lastSeq, ...records.map((b) => endOf(b) - 1)) + 1;
    for (const key of keys) this.known.add(key);
    this.blocks = [];
    this.skippedInBlocks = 0;
    for (const record of records) {
      if (record.state === 'skipped') {
        for (let i = 0; i < record.urls.length; i++) this.known.add(keyAt(record, i));
        this.skippedInBlocks += record.urls.length;
        continue;
      }
      // URLs are claimed in order, each becoming a row numbered inside the block's range.
      const claimed = await rowsNumbered(this.db, this.jobId, record.seq, endOf(record));
      const block = { ...record, next: record.seq + claimed };
      for (let i = block.next - record.seq; i < record.urls.length; i++) this.known.add(keyAt(record, i));
      if (remaining(block) > 0) this.blocks.push(block);
    }
    await this.recount();
  }

  private async recount(): Promise<void> {
    const values = await countsByState(this.db, this.jobId, STATES);
    STATES.forEach((s, i) => (this.tally[s] = values[i] ?? 0));
    for (const b of this.blocks) this.tally.pending += remaining(b);
    this.tally.skipped += this.skippedInBlocks;
  }

  /**
   * Adds entries whose key the job has not seen. Call inside the caller's
   * transaction to keep "page done + its links queued" atomic.
   *
   * Deduplicated in memory, then one bulk insert: `known` holds every key of the job (loaded by
   * init, moved by remember), so no read of the table is needed. A page with 100,000 links made
   * the look-up of every new key (bulkGet) as costly as the insert itself. Should a row exist
   * anyway (another runner of the same job wrote it after our init), its insert fails alone and
   * the row stays as it was: the first sighting wins.
   *
   * A page's pending links beyond `blockMin` go into one link block (see link-blocks.ts); the
   * caller's transaction must then include `tables`.
   */
  async addNew(entries: NewEntry[], now = Date.now()): Promise<Added> {
    const prepared = this.prepare(entries, now);
    if (prepared.keys.length === 0) return this.added(prepared, new Set());
    const refused = await insertRows(this.db, prepared.rows);
    if (prepared.blocks.length) await addBlocks(this.db, prepared.blocks);
    return this.added(prepared, refused);
  }

  /**
   * The first half of `addNew`: dedupes and numbers the entries, writing nothing. A caller whose
   * transaction writes them itself (the page writer's batch) hands the result to `added` with the
   * positions of the rows it could not insert.
   */
  prepare(entries: NewEntry[], now = Date.now()): Prepared {
    // The first sighting wins: seeds come in priority order (llms links, which prefer Markdown, before sitemaps).
    const byKey = new Map<string, NewEntry>();
    for (const e of entries) if (!byKey.has(e.key) && !this.known.has(e.key)) byKey.set(e.key, e);
    if (byKey.size === 0) return { keys: [], rows: [], blocks: [] };
    const planned = plan([...byKey.values()], this.jobId, this.seq, this.blockMin, now, this.skippedMin);
    // Numbers are spent even if the transaction fails: gaps are harmless, reuse would not be.
    this.seq = planned.nextSeq;
    const rows: FrontierRecord[] = planned.rows.map((e) => ({ ...e, jobId: this.jobId, state: e.state ?? 'pending', retries: 0, updatedAt: now }));
    return { keys: [...byKey.keys()], rows, blocks: planned.blocks };
  }

  /** What was written of `prepared`, given the row positions refused (their key was a row already). */
  added(prepared: Prepared, refused: ReadonlySet<number>): Added {
    if (prepared.keys.length === 0) return { keys: [], pending: 0, skipped: 0, blocks: [] };
    let pending = 0;
    let skipped = 0;
    prepared.rows.forEach((f, i) => {
      if (refused.has(i)) return;
      if (f.state === 'skipped') skipped++;
      else pending++;
    });
    let skippedInBlocks = 0;
    for (const b of prepared.blocks) {
      if (b.state === 'skipped') skippedInBlocks += b.urls.length;
      else pending += b.urls.length;
    }
    const blocks = prepared.blocks.filter((b) => b.state !== 'skipped').map((b) => ({ ...b, next: b.seq }));
    return { keys: prepared.keys, pending, skipped: skipped + skippedInBlocks, blocks, skippedInBlocks };
  }

  /**
   * Adds entries in a transaction of their own and records them once it committed: for callers
   * that queue URLs alone (seeds, a refresh's pages), not inside a batch's transaction.
   */
  async enqueue(entries: NewEntry[], now = Date.now()): Promise<Added> {
    const prepared = this.prepare(entries, now);
    const added = prepared.keys.length === 0 ? this.added(prepared, new Set()) : this.added(prepared, await addToQueue(this.db, prepared.rows, prepared.blocks));
    this.remember(added);
    return added;
  }

  /** Records what `addNew` wrote, after its transaction committed. */
  remember(added: Added): void {
    for (const k of added.keys) this.known.add(k);
    this.tally.pending += added.pending;
    this.tally.skipped += added.skipped;
    this.skippedInBlocks += added.skippedInBlocks ?? 0;
    this.blocks.push(...(added.blocks ?? []));
  }

  /** Records in-flight entries that were settled (done, failed, skipped) by a committed write. */
  settled(states: FrontierState[]): void {
    for (const s of states) {
      this.tally.inflight--;
      this.tally[s]++;
    }
  }

  /**
   * Marks up to `limit` pending entries in-flight, shallowest first (breadth-first): pending rows
   * and the link blocks' next URLs, merged in [depth, seq] order. A block's URL becomes its row here.
   */
  async claim(limit: number, now = Date.now()): Promise<FrontierRecord[]> {
    if (limit <= 0 || this.tally.pending === 0) return [];
    const { picked: merged, refused } = await claimRows(this.db, this.jobId, limit, (pending) => {
      const m = mergeClaims(pending, this.blocks, limit, now);
      return { ...m, fromRows: m.fromRows.map((e) => ({ ...e, state: 'inflight' as const, updatedAt: now })) };
    });
    const rows = merged.fromRows;
    const fresh = merged.fromBlocks.filter((_, i) => !refused.has(i));
    const picked = [...rows, ...fresh].sort((a, b) => a.depth - b.depth || a.seq - b.seq);
    const taken = rows.length + merged.fromBlocks.length;
    const next = merged.next;
    for (const [block, n] of next) block.next = n;
    this.blocks = this.blocks.filter((b) => remaining(b) > 0);
    this.tally.pending -= taken;
    this.tally.inflight += picked.length;
    const last = picked.at(-1);
    if (last) this.depth = last.depth;
    return picked;
  }

  /** Entries claimed but never started (a pause) go back to the queue as they were. */
  async release(entries: FrontierRecord[], now = Date.now()): Promise<void> {
    if (entries.length === 0) return;
    await putRows(this.db, entries.map((e) => ({ ...e, state: 'pending' as const, updatedAt: now })));
    this.tally.inflight -= entries.length;
    this.tally.pending += entries.length;
  }

  /** A worker that died mid-fetch left entries in-flight; they go back to the queue. */
  async recover(): Promise<number> {
    const n = await recoverInflight(this.db, this.jobId);
    await this.recount();
    return n;
  }

  /**
   * The counts as they will be once a batch that adds `added` and settles entries in `states`
   * commits (what `remember` and `settled` then record), without recording anything: the page
   * writer's batch writes them as the job's progress in its own transaction.
   */
  countsAfter(added: Added, states: readonly FrontierState[]): Record<FrontierState, number> {
    const counts = { ...this.tally };
    counts.pending += added.pending;
    counts.skipped += added.skipped;
    for (const s of states) {
      counts.inflight--;
      counts[s]++;
    }
    return counts;
  }

  hasPending(): boolean {
    return this.tally.pending > 0;
  }

  counts(): Record<FrontierState, number> {
    return { ...this.tally };
  }
}
