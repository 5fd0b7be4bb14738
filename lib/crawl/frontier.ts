import Dexie from 'dexie';
import type { FrontierRecord, FrontierState, NewEntry, ScoutDb } from '../store/db';
import { BLOCK_MIN, endOf, keyAt, mergeClaims, plan, remaining, type Block } from './link-blocks';

/** What `addNew` wrote; hand it to `remember` once its transaction has committed. */
export interface Added {
  keys: string[];
  pending: number;
  skipped: number;
  /** Link blocks written (their URLs are counted in `pending`). */
  blocks?: Block[];
}

const STATES: FrontierState[] = ['pending', 'inflight', 'done', 'failed', 'skipped'];
const all = (jobId: string) => [[jobId, 0], [jobId, Infinity]] as const;

/**
 * A crawl's durable queue in Dexie. Every state change is a write, so a worker
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
 */
export class Frontier {
  private seq = 0;
  private readonly known = new Set<string>();
  private readonly tally: Record<FrontierState, number> = { pending: 0, inflight: 0, done: 0, failed: 0, skipped: 0 };
  /** Link blocks with URLs not yet claimed, oldest first. */
  private blocks: Block[] = [];
  /** Depth of the most recently claimed URL: the breadth-first level being worked on. */
  depth = 0;

  constructor(
    private readonly db: ScoutDb,
    readonly jobId: string,
    /** Pending links of one page from which they are kept as one block (tests lower it). */
    private readonly blockMin = BLOCK_MIN,
  ) {}

  /** The tables `addNew` writes: a caller's transaction around it must include them all. */
  get tables() {
    return [this.db.frontier, this.db.linkBlocks];
  }

  /** Loads the sequence counter, the known keys, the link blocks and the counts. */
  async init(): Promise<void> {
    const range = this.db.frontier.where('[jobId+seq]').between(...all(this.jobId));
    const records = await this.db.linkBlocks.where('[jobId+seq]').between(...all(this.jobId)).toArray();
    this.seq = Math.max((await range.clone().last())?.seq ?? 0, ...records.map((b) => endOf(b) - 1)) + 1;
    for (const [, key] of await range.clone().primaryKeys()) this.known.add(key);
    this.blocks = [];
    for (const record of records) {
      // URLs are claimed in order, each becoming a row numbered inside the block's range.
      const claimed = await this.db.frontier.where('[jobId+seq]').between([this.jobId, record.seq], [this.jobId, endOf(record)]).count();
      const block = { ...record, next: record.seq + claimed };
      for (let i = block.next - record.seq; i < record.urls.length; i++) this.known.add(keyAt(record, i));
      if (remaining(block) > 0) this.blocks.push(block);
    }
    await this.recount();
  }

  private async recount(): Promise<void> {
    const values = await Promise.all(STATES.map((s) => this.db.frontier.where('[jobId+state]').equals([this.jobId, s]).count()));
    STATES.forEach((s, i) => (this.tally[s] = values[i] ?? 0));
    for (const b of this.blocks) this.tally.pending += remaining(b);
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
    // The first sighting wins: seeds come in priority order (llms links, which prefer Markdown, before sitemaps).
    const byKey = new Map<string, NewEntry>();
    for (const e of entries) if (!byKey.has(e.key) && !this.known.has(e.key)) byKey.set(e.key, e);
    if (byKey.size === 0) return { keys: [], pending: 0, skipped: 0, blocks: [] };
    const planned = plan([...byKey.values()], this.jobId, this.seq, this.blockMin, now);
    const fresh: FrontierRecord[] = planned.rows.map((e) => ({ ...e, jobId: this.jobId, state: e.state ?? 'pending', retries: 0, updatedAt: now }));
    const failed = await bulkAddTolerant(this.db, fresh);
    if (planned.blocks.length) await this.db.linkBlocks.bulkAdd(planned.blocks);
    // Numbers are spent even if the transaction fails: gaps are harmless, reuse would not be.
    this.seq = planned.nextSeq;
    let pending = 0;
    let skipped = 0;
    fresh.forEach((f, i) => {
      if (failed.has(i)) return;
      if (f.state === 'skipped') skipped++;
      else pending++;
    });
    for (const b of planned.blocks) pending += b.urls.length;
    return { keys: [...byKey.keys()], pending, skipped, blocks: planned.blocks.map((b) => ({ ...b, next: b.seq })) };
  }

  /** Records what `addNew` wrote, after its transaction committed. */
  remember(added: Added): void {
    for (const k of added.keys) this.known.add(k);
    this.tally.pending += added.pending;
    this.tally.skipped += added.skipped;
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
    const { picked, taken, next } = await this.db.transaction('rw', this.db.frontier, async () => {
      const pending = await this.db.frontier
        .where('[jobId+state+depth+seq]')
        .between([this.jobId, 'pending', 0, 0], [this.jobId, 'pending', Infinity, Infinity])
        .limit(limit)
        .toArray();
      const merged = mergeClaims(pending, this.blocks, limit, now);
      const rows = merged.fromRows.map((e) => ({ ...e, state: 'inflight' as const, updatedAt: now }));
      if (rows.length) await this.db.frontier.bulkPut(rows);
      // A key already a row (another runner of the job queued it after this one loaded) stays as it was.
      const refused = merged.fromBlocks.length ? await bulkAddTolerant(this.db, merged.fromBlocks) : new Set<number>();
      const fresh = merged.fromBlocks.filter((_, i) => !refused.has(i));
      return { picked: [...rows, ...fresh].sort((a, b) => a.depth - b.depth || a.seq - b.seq), taken: rows.length + merged.fromBlocks.length, next: merged.next };
    });
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
    await this.db.frontier.bulkPut(entries.map((e) => ({ ...e, state: 'pending' as const, updatedAt: now })));
    this.tally.inflight -= entries.length;
    this.tally.pending += entries.length;
  }

  /** A worker that died mid-fetch left entries in-flight; they go back to the queue. */
  async recover(): Promise<number> {
    const n = await this.db.frontier.where('[jobId+state]').equals([this.jobId, 'inflight']).modify({ state: 'pending' });
    await this.recount();
    return n;
  }

  hasPending(): boolean {
    return this.tally.pending > 0;
  }

  counts(): Record<FrontierState, number> {
    return { ...this.tally };
  }
}

/**
 * bulkAdd that keeps going past rows whose key already exists, inside the caller's transaction
 * (Dexie aborts it only when the BulkError is left uncaught). Returns the positions not added.
 */
async function bulkAddTolerant(db: ScoutDb, rows: FrontierRecord[]): Promise<Set<number>> {
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
