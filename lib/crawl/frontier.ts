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

const STATES: FrontierState[] = ['pending', 'inflight', 'done', 'failed', 'skipped'];

/**
 * A crawl's durable queue in Dexie. Every state change is a write, so a worker
 * that dies loses nothing: `recover()` puts in-flight URLs back to pending.
 * Breadth-first order comes from the [jobId+state+depth+seq] index.
 */
export class Frontier {
  private seq = 0;

  constructor(
    private readonly db: ScoutDb,
    readonly jobId: string,
  ) {}

  /** Loads the sequence counter, so entries added after a restart sort after the old ones. */
  async init(): Promise<void> {
    const last = await this.db.frontier.where('[jobId+seq]').between([this.jobId, 0], [this.jobId, Infinity]).last();
    this.seq = (last?.seq ?? 0) + 1;
  }

  /**
   * Adds entries whose key the job has not seen, and returns how many were new.
   * Call inside the caller's transaction to keep "page done + its links queued" atomic.
   */
  async addNew(entries: NewEntry[], now = Date.now()): Promise<number> {
    // The first sighting wins: seeds come in priority order (llms links, which prefer Markdown, before sitemaps).
    const byKey = new Map<string, NewEntry>();
    for (const e of entries) if (!byKey.has(e.key)) byKey.set(e.key, e);
    const unique = [...byKey.values()];
    if (unique.length === 0) return 0;
    const existing = await this.db.frontier.bulkGet(unique.map((e) => [this.jobId, e.key] as [string, string]));
    const fresh: FrontierRecord[] = unique
      .filter((_, i) => existing[i] === undefined)
      .map((e) => ({ ...e, jobId: this.jobId, state: e.state ?? 'pending', seq: this.seq++, retries: 0, updatedAt: now }));
    if (fresh.length) await this.db.frontier.bulkAdd(fresh);
    return fresh.length;
  }

  /**
   * Marks up to `limit` pending entries in-flight, shallowest first, skipping
   * those `accept` refuses (their host is busy or pacing). Scans a bounded window.
   */
  async claim(limit: number, accept: (entry: FrontierRecord) => boolean, now = Date.now()): Promise<FrontierRecord[]> {
    if (limit <= 0) return [];
    return this.db.transaction('rw', this.db.frontier, async () => {
      const window = await this.db.frontier
        .where('[jobId+state+depth+seq]')
        .between([this.jobId, 'pending', 0, 0], [this.jobId, 'pending', Infinity, Infinity])
        .limit(Math.max(64, limit * 8))
        .toArray();
      const picked: FrontierRecord[] = [];
      for (const entry of window) {
        if (picked.length >= limit) break;
        if (accept(entry)) picked.push({ ...entry, state: 'inflight', updatedAt: now });
      }
      if (picked.length) await this.db.frontier.bulkPut(picked);
      return picked;
    });
  }

  /** A worker that died mid-fetch left entries in-flight; they go back to the queue. */
  async recover(): Promise<number> {
    return this.db.frontier.where('[jobId+state]').equals([this.jobId, 'inflight']).modify({ state: 'pending' });
  }

  async hasPending(): Promise<boolean> {
    return (await this.db.frontier.where('[jobId+state]').equals([this.jobId, 'pending']).first()) !== undefined;
  }

  /** Entries per state, counted from the index (the source of truth for progress). */
  async counts(): Promise<Record<FrontierState, number>> {
    const values = await Promise.all(STATES.map((s) => this.db.frontier.where('[jobId+state]').equals([this.jobId, s]).count()));
    return Object.fromEntries(STATES.map((s, i) => [s, values[i] ?? 0])) as Record<FrontierState, number>;
  }
}
