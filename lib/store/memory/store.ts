import type {
  ArtifactRecord,
  DescriptionRecord,
  DiscoveredFileRecord,
  FrontierRecord,
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
 */
export class MemoryStore {
  /** By origin. */
  readonly sites = new Map<string, SiteRecord>();
  /** By id. */
  readonly jobs = new Map<string, JobRecord>();
  /** By auto id. */
  readonly discovered = new Map<number, DiscoveredFileRecord>();
  /** By job, then frontier key. Orders and state indexes over it live in memory/frontier.ts. */
  readonly frontier = new Map<string, Map<string, FrontierRecord>>();
  /** By job, then the block's first sequence number. */
  readonly linkBlocks = new Map<string, Map<number, LinkBlockRecord>>();
  /** By job, then frontier key. */
  readonly pages = new Map<string, Map<string, PageRecord>>();
  /** By auto id. */
  readonly artifacts = new Map<number, ArtifactRecord>();
  /** By auto id. */
  readonly pageVersions = new Map<number, PageVersionRecord>();
  /** By key. */
  readonly descriptions = new Map<string, DescriptionRecord>();
  /** By tab id. */
  readonly renderTabs = new Map<number, RenderTabRecord>();
  /** By start URL. */
  readonly plans = new Map<string, PlanRecord>();

  private lastId = { discovered: 0, artifacts: 0, pageVersions: 0 };

  /** The next auto id of a table (IndexedDB's `++id`): never reused, even after deletes. */
  nextId(table: 'discovered' | 'artifacts' | 'pageVersions'): number {
    this.lastId[table] += 1;
    return this.lastId[table];
  }
}

/** A copy of a record, as IndexedDB hands out and takes in: never the caller's own object. */
export function copy<T>(record: T): T {
  return structuredClone(record);
}
