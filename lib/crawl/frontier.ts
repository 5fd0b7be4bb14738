import Dexie from 'dexie';
import type { FrontierRecord, FrontierSource, FrontierState, ScoutDb } from '../db';

/** A URL about to join the queue. */
export interface NewEntry {
  url: string;
  key: string;
  depth: number;
  source: FrontierSource;
  parentUrl?: string;
  preferMarkdown?: boolean;
  /** 'skipped' records a URL that will not be fetched, with its reason. */
  state?: 'pending' | 'skipped';
  reason?: string;
}

/** What `addNew` wrote; hand it to `remember` once its transaction has committed. */
export interface Added {
  keys: string[];
  pending: number;
  skipped: number;
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
 */
export class Frontier {
  private seq = 0;
  private readonly known = new Set<string>();
  private readonly tally: Record<FrontierState, number> = { pending: 0, inflight: 0, done: 0, failed: 0, skipped: 0 };
  /** Depth of the most recently claimed URL: the breadth-first level being worked on. */
  depth = 0;

  constructor(
    private readonly db: ScoutDb,
    readonly jobId: string,
  ) {}

  /** Loads the sequence counter, the known keys and the counts. */
  async init(): Promise<void> {
    const range = this.db.frontier.where('[jobId+seq]').between(...all(this.jobId));
    this.seq = ((await range.clone().last())?.seq ?? 0) + 1;
    for (const [, key] of await range.clone().primaryKeys()) this.known.add(key);
    await this.recount();
  }

  private async recount(): Promise<void> {
    const values = await Promise.all(STATES.map((s) => this.db.frontier.where('[jobId+state]').equals([this.jobId, s]).count()));
    STATES.forEach((s, i) => (this.tally[s] = values[i] ?? 0));
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
   */
  async addNew(entries: NewEntry[], now = Date.now()): Promise<Added> {
    // The first sighting wins: seeds come in priority order (llms links, which prefer Markdown, before sitemaps).
    const byKey = new Map<string, NewEntry>();
    for (const e of entries) if (!byKey.has(e.key) && !this.known.has(e.key)) byKey.set(e.key, e);
    if (byKey.size === 0) return { keys: [], pending: 0, skipped: 0 };
    const fresh: FrontierRecord[] = [];
    for (const e of byKey.values()) fresh.push({ ...e, jobId: this.jobId, state: e.state ?? 'pending', seq: this.seq++, retries: 0, updatedAt: now });
    const failed = await bulkAddTolerant(this.db, fresh);
    let pending = 0;
    let skipped = 0;
    fresh.forEach((f, i) => {
      if (failed.has(i)) return;
      if (f.state === 'skipped') skipped++;
      else pending++;
    });
    return { keys: [...byKey.keys()], pending, skipped };
  }

  /** Records what `addNew` wrote, after its transaction committed. */
  remember(added: Added): void {
    for (const k of added.keys) this.known.add(k);
    this.tally.pending += added.pending;
    this.tally.skipped += added.skipped;
  }

  /** Records in-flight entries that were settled (done, failed, skipped) by a committed write. */
  settled(states: FrontierState[]): void {
    for (const s of states) {
      this.tally.inflight--;
      this.tally[s]++;
    }
  }

  /**
   * Marks up to `limit` pending entries in-flight, shallowest first (breadth-first).
   */
  async claim(limit: number, now = Date.now()): Promise<FrontierRecord[]> {
    if (limit <= 0 || this.tally.pending === 0) return [];
    const picked = await this.db.transaction('rw', this.db.frontier, async () => {
      const next = await this.db.frontier
        .where('[jobId+state+depth+seq]')
        .between([this.jobId, 'pending', 0, 0], [this.jobId, 'pending', Infinity, Infinity])
        .limit(limit)
        .toArray();
      const rows = next.map((e) => ({ ...e, state: 'inflight' as const, updatedAt: now }));
      if (rows.length) await this.db.frontier.bulkPut(rows);
      return rows;
    });
    this.tally.pending -= picked.length;
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
