import type {
  ArtifactRecord,
  DescriptionRecord,
  DiscoveredFileRecord,
  FrontierRecord,
  FrontierState,
  JobRecord,
  LinkBlockRecord,
  PageRecord,
  PageVersionRecord,
  PlanRecord,
  RenderTabRecord,
  SiteRecord,
} from '../db';

/**
 * The engine's records held in memory, for the CLI: the same tables as the IndexedDB schema
 * (db.ts), each in the structure its queries need rather than behind indexes. Every repository
 * function in lib/store/ has a body for this store beside its Dexie body (lib/store/memory/<module>.ts),
 * and a contract test runs each function on both stores.
 *
 * Rules every memory body keeps, so the engine sees what IndexedDB would give it:
 * - records are copied on the way in and on the way out (IndexedDB stores structured clones, and
 *   callers change records they read);
 * - a function that must be all-or-nothing (a Dexie transaction) does its reads and writes without
 *   an `await` in between, so no other caller runs in the middle;
 * - a query used once per page costs O(log n) or less in the job's size, never a scan of the job.
 *
 * The frontier and page tables of a job are maps that keep their own indexes as rows are set and
 * deleted (`FrontierRows`, `PageRows`), so any body that writes a row through the map keeps them true.
 *
 * With a `spill` (the CLI's commands bring body-spill.ts's), the page and output tables keep their
 * rows' long text (a page's Markdown, an output's text) there rather than in the heap: a crawl of
 * thousands of pages then holds its index, not its pages. The tables hand the row to the spill as
 * they set it, so every body that writes through the map spills too. `close()` drops the spill.
 */
export class MemoryStore {
  /** By origin. */
  readonly sites = new Map<string, SiteRecord>();
  /** By id; `jobs.version` tells a body that awaited something whether the table changed meanwhile. */
  readonly jobs = new VersionedMap<string, JobRecord>();
  /** By auto id. */
  readonly discovered = new Map<number, DiscoveredFileRecord>();
  /** By job, then frontier key; each job's rows keep their state orders (`FrontierRows`). */
  readonly frontier = new JobTables<FrontierRecord, FrontierRows>(() => new FrontierRows());
  /** By job, then the block's first sequence number. */
  readonly linkBlocks = new Map<string, Map<number, LinkBlockRecord>>();
  /** By job, then frontier key; each job's pages keep their state and hash indexes (`PageRows`). */
  readonly pages = new JobTables<PageRecord, PageRows>(() => new PageRows(this.spill));
  /** By auto id. */
  readonly artifacts = new SpilledRows<number, ArtifactRecord>('text', () => this.spill);
  /** By auto id. */
  readonly pageVersions = new Map<number, PageVersionRecord>();
  /** By key. */
  readonly descriptions = new Map<string, DescriptionRecord>();
  /** By tab id. */
  readonly renderTabs = new Map<number, RenderTabRecord>();
  /** By start URL. */
  readonly plans = new Map<string, PlanRecord>();
  /** How many pages (all jobs together) the store takes before refusing new ones (page-room.ts); undefined: no limit. */
  pageRoom: () => number | undefined = () => undefined;
  /** The tail of the chain that runs `exclusive` sections one after another. */
  private queue: Promise<unknown> = Promise.resolve();

  private lastId = { discovered: 0, artifacts: 0, pageVersions: 0 };
  private readonly spill: RowSpill | undefined;

  constructor(options: { spill?: RowSpill } = {}) {
    this.spill = options.spill;
  }

  /** Ends the store: its spill (the folder of its bodies) is removed. A store without one has nothing to end. */
  close(): void {
    this.spill?.close();
  }

  /** The next auto id of a table (IndexedDB's `++id`): never reused, even after deletes. */
  nextId(table: 'discovered' | 'artifacts' | 'pageVersions'): number {
    this.lastId[table] += 1;
    return this.lastId[table];
  }

  /** A row put with its own id moves the table's generator past it, as IndexedDB's does. */
  sawId(table: 'discovered' | 'artifacts' | 'pageVersions', id: number): void {
    if (Number.isInteger(id) && id > this.lastId[table]) this.lastId[table] = id;
  }

  /**
   * Runs `section` after every section started before it has ended: for the rare all-or-nothing
   * operation that must await its caller's callback between its reads and its writes.
   */
  exclusive<T>(section: () => Promise<T>): Promise<T> {
    const run = this.queue.then(section, section);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/**
 * Keeps a row's long text out of the heap (body-spill.ts, Node only): `hold` takes the store's own
 * copy of a row and may make `field` an accessor that reads the text back, in the same place among
 * the row's keys.
 */
export interface RowSpill {
  hold<T extends object>(record: T, field: keyof T & string): T;
  /** `hold`, given the pieces the text joins to, so that it need not read the text whole. */
  holdPieces?<T extends object>(record: T, field: keyof T & string, pieces: Iterable<string>): T;
  /** `copy(record)`, its held `field` pointing at the same text, which is not read back. */
  copyHeld?<T extends object>(record: T, field: keyof T & string, copy: <V>(value: V) => V): T;
  close(): void;
}

/** A table whose rows' `field` is held by the store's spill, when it has one, as each row is set. */
export class SpilledRows<K, R extends object> extends Map<K, R> {
  constructor(
    private readonly field: keyof R & string,
    private readonly spill: () => RowSpill | undefined,
  ) {
    super();
  }
  override set(key: K, row: R, pieces?: Iterable<string>): this {
    const spill = this.spill();
    if (!spill) return super.set(key, row);
    return super.set(key, pieces && spill.holdPieces ? spill.holdPieces(row, this.field, pieces) : spill.hold(row, this.field));
  }
}

/** A copy of a record, as IndexedDB hands out and takes in: never the caller's own object. */
export function copy<T>(record: T): T {
  return structuredClone(record);
}

/** Dexie's string order (IndexedDB compares strings by UTF-16 code units, as `<` does). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A map that counts its changes: a body compares `version` before and after an await. */
export class VersionedMap<K, V> extends Map<K, V> {
  version = 0;
  override set(key: K, value: V): this {
    this.version += 1;
    return super.set(key, value);
  }
  override delete(key: K): boolean {
    this.version += 1;
    return super.delete(key);
  }
  override clear(): void {
    this.version += 1;
    super.clear();
  }
}

/**
 * A table keyed by job, then by a row key. Write a job's rows through `rowsOf(jobId)`, which makes
 * its indexed map the first time: a plain Map put in its place would hold rows no index knows.
 */
export class JobTables<R, M extends Map<string, R>> extends Map<string, M> {
  constructor(private readonly make: () => M) {
    super();
  }
  /** The job's rows, made empty when the job has none yet. */
  rowsOf(jobId: string): M {
    let rows = this.get(jobId);
    if (!rows) {
      rows = this.make();
      this.set(jobId, rows);
    }
    return rows;
  }
}

/** Where `item` goes in `sorted` (ascending by `compare`): the first position whose item is not before it. */
export function lowerBound<T, K>(sorted: readonly T[], key: K, compare: (item: T, key: K) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(sorted[mid] as T, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Breadth-first order, as the [jobId+state+depth+seq] index holds a state's rows (the key breaks ties, as IndexedDB's primary key does). */
export function byDepthSeq(a: FrontierRecord, b: FrontierRecord): number {
  return a.depth - b.depth || a.seq - b.seq || compareStrings(a.key, b.key);
}

/** The order URLs were found, as the [jobId+seq] index holds the job's rows. */
export function bySeq(a: FrontierRecord, b: FrontierRecord): number {
  return a.seq - b.seq || compareStrings(a.key, b.key);
}

/**
 * One job's frontier rows by key, each state's rows also in breadth-first order: a claim reads the
 * first pending rows and a state change moves one row, each a binary search (and an array move,
 * short where a crawl adds and takes: new rows sort near the end, claims near the start). The
 * order of the whole queue is sorted when first asked after rows were added (it is read when a
 * crawl loads and by the panel's list, not per page).
 */
export class FrontierRows extends Map<string, FrontierRecord> {
  private byState?: Record<FrontierState, FrontierRecord[]>;
  private all?: FrontierRecord[];

  private states(): Record<FrontierState, FrontierRecord[]> {
    this.byState ??= { pending: [], inflight: [], done: [], failed: [], skipped: [] };
    return this.byState;
  }

  override set(key: string, row: FrontierRecord): this {
    const old = super.get(key);
    if (old) this.unindex(old);
    const list = this.states()[row.state];
    list.splice(lowerBound(list, row, byDepthSeq), 0, row);
    this.all = undefined;
    return super.set(key, row);
  }

  override delete(key: string): boolean {
    const old = super.get(key);
    if (old) this.unindex(old);
    this.all = undefined;
    return super.delete(key);
  }

  override clear(): void {
    this.byState = undefined;
    this.all = undefined;
    super.clear();
  }

  private unindex(row: FrontierRecord): void {
    const list = this.states()[row.state];
    const at = lowerBound(list, row, byDepthSeq);
    if (list[at] === row) list.splice(at, 1);
  }

  /** The rows in one state, breadth-first (the stored objects: callers copy what they hand out). */
  inState(state: FrontierState): readonly FrontierRecord[] {
    return this.states()[state];
  }

  /** Every row in the order found (the stored objects). */
  inOrder(): readonly FrontierRecord[] {
    this.all ??= [...this.values()].sort(bySeq);
    return this.all;
  }

  /** How many rows each state holds. */
  count(state: FrontierState): number {
    return this.inState(state).length;
  }

}

type PageState = PageRecord['state'];

/** One job's pages by key, with the keys of each state and of each content hash (the [jobId+state] and [jobId+contentHash] indexes). */
export class PageRows extends Map<string, PageRecord> {
  private byState?: Map<PageState, Set<string>>;
  private byHash?: Map<string, Set<string>>;

  constructor(private readonly spill?: RowSpill) {
    super();
  }

  private indexes(): { byState: Map<PageState, Set<string>>; byHash: Map<string, Set<string>> } {
    this.byState ??= new Map();
    this.byHash ??= new Map();
    return { byState: this.byState, byHash: this.byHash };
  }

  override set(key: string, page: PageRecord): this {
    const old = super.get(key);
    if (old) this.unindex(key, old);
    const { byState, byHash } = this.indexes();
    let keys = byState.get(page.state);
    if (!keys) byState.set(page.state, (keys = new Set()));
    keys.add(key);
    let hashed = byHash.get(page.contentHash);
    if (!hashed) byHash.set(page.contentHash, (hashed = new Set()));
    hashed.add(key);
    return super.set(key, this.spill ? this.spill.hold(page, 'markdown') : page);
  }

  override delete(key: string): boolean {
    const old = super.get(key);
    if (old) this.unindex(key, old);
    return super.delete(key);
  }

  override clear(): void {
    this.byState = undefined;
    this.byHash = undefined;
    super.clear();
  }

  private unindex(key: string, page: PageRecord): void {
    const { byState, byHash } = this.indexes();
    byState.get(page.state)?.delete(key);
    const hashed = byHash.get(page.contentHash);
    hashed?.delete(key);
    if (hashed?.size === 0) byHash.delete(page.contentHash);
  }

  /**
   * A copy of a stored page for an update that leaves its Markdown as it is: with a spill, the copy
   * keeps the text where it is on disk rather than reading it back and writing it again.
   */
  copyForUpdate(page: PageRecord): PageRecord {
    return this.spill?.copyHeld ? this.spill.copyHeld(page, 'markdown', copy) : copy(page);
  }

  /** The keys of the pages in one state (unordered). */
  keysIn(state: PageState): ReadonlySet<string> {
    return this.indexes().byState.get(state) ?? new Set();
  }

  /** The keys of the pages with this content hash (unordered). */
  keysWithHash(hash: string): ReadonlySet<string> {
    return this.indexes().byHash.get(hash) ?? new Set();
  }
}

/**
 * Applies an update as Dexie's `update` and `modify` do: each key path (dotted for a nested field)
 * set to a copy of its value, or deleted when the value is undefined.
 */
export function applyChanges<T extends object>(record: T, changes: object): T {
  for (const [path, value] of Object.entries(changes)) {
    const parts = path.split('.');
    const last = parts.pop() as string;
    let target = record as Record<string, unknown>;
    for (const part of parts) {
      if (typeof target[part] !== 'object' || target[part] === null) target[part] = {};
      target = target[part] as Record<string, unknown>;
    }
    if (value === undefined) delete target[last];
    else target[last] = copy(value);
  }
  return record;
}
