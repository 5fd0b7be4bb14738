import Dexie, { type EntityTable } from 'dexie';

/**
 * The one IndexedDB database. The background worker writes; the side panel reads
 * with `useLiveQuery`. Indexes cover keys and states only — never page bodies —
 * because every indexed value is copied into the index and slows every write.
 */

/** A site the user has opened Scout on, keyed by origin (scheme + host + port). */
export interface SiteRecord {
  origin: string;
  host: string;
  /** Registrable domain (Public Suffix List), or the host for IPs and single-label names. */
  site: string;
  firstOpenedAt: number;
  lastOpenedAt: number;
  openCount: number;
}

export type JobKind = 'discovery' | 'crawl' | 'refresh';
export type JobState = 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';

/** One unit of background work on a site; its counters drive the side panel's progress. */
export interface JobRecord {
  id: string;
  origin: string;
  kind: JobKind;
  state: JobState;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  /** Plain-words progress or failure message for the side panel. */
  message?: string;
  counters: Record<string, number>;
}

export type DiscoveredKind = 'llms' | 'llms-full' | 'markdown' | 'sitemap' | 'robots' | 'well-known';

/** A file found by discovery (or a probe that found nothing, with the reason kept). */
export interface DiscoveredFileRecord {
  id?: number;
  origin: string;
  url: string;
  kind: DiscoveredKind;
  status: 'found' | 'missing' | 'error' | 'not-followed';
  reason?: string;
  /** URL of the file that linked to this one; absent for direct probes. */
  parentUrl?: string;
  bytes?: number;
  text?: string;
  fetchedAt: number;
}

export type FrontierState = 'pending' | 'inflight' | 'done' | 'failed' | 'skipped';

/** A URL in a crawl's durable queue: plain data, so a restarted worker can resume it. */
export interface FrontierRecord {
  jobId: string;
  url: string;
  state: FrontierState;
  depth: number;
  source: string;
  retries: number;
  reason?: string;
  updatedAt: number;
}

/** A crawled page, stored as Markdown. */
export interface PageRecord {
  jobId: string;
  url: string;
  state: 'stored' | 'duplicate' | 'removed';
  title: string;
  description?: string;
  markdown: string;
  contentHash: string;
  etag?: string;
  lastModified?: string;
  fetchedAt: number;
}

/** A generated output (llms.txt, llms-full.txt), versioned per site. */
export interface ArtifactRecord {
  id?: number;
  origin: string;
  kind: 'llms' | 'llms-full';
  version: number;
  jobId: string;
  text: string;
  createdAt: number;
}

/** Bump with every `.version(n)` below; tests assert the open database matches. */
export const SCHEMA_VERSION = 1;

export type ScoutDb = Dexie & {
  sites: EntityTable<SiteRecord, 'origin'>;
  jobs: EntityTable<JobRecord, 'id'>;
  discovered: EntityTable<DiscoveredFileRecord, 'id'>;
  frontier: Dexie.Table<FrontierRecord, [string, string]>;
  pages: Dexie.Table<PageRecord, [string, string]>;
  artifacts: EntityTable<ArtifactRecord, 'id'>;
};

/**
 * Opens (or creates) the database. Upgrade path: never edit a shipped version's
 * stores; add `.version(n + 1).stores({...changed tables only}).upgrade(tx => …)`
 * and raise SCHEMA_VERSION, so existing users' crawls survive an update.
 */
export function createDb(name = 'llms-txt-scout'): ScoutDb {
  const db = new Dexie(name) as ScoutDb;
  db.version(1).stores({
    sites: 'origin, lastOpenedAt',
    jobs: 'id, origin, state, [origin+createdAt]',
    discovered: '++id, origin, &[origin+url], status',
    frontier: '[jobId+url], [jobId+state], [jobId+state+depth]',
    pages: '[jobId+url], [jobId+state]',
    artifacts: '++id, [origin+kind+version]',
  });
  return db;
}

/** The shared instance for extension contexts (worker and side panel). */
export const db = createDb();
