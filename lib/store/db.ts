import Dexie, { type EntityTable } from 'dexie';
import type { DocsBoundary } from '../url/boundary';
import type { CheckReport } from './records/check';
import type { CrawlSettings } from './records/crawl-settings';
import type { DiscoveryResult } from './records/discovery';
import type { Curation, GeneratedOutput, OutputFiles, StoredCounts } from './records/generate';

/**
 * The one IndexedDB database. The background worker writes; the side panel reads
 * with `useLiveQuery`. Indexes cover keys and states only — never page bodies —
 * because every indexed value is copied into the index and slows every write.
 */

/** A site the user has opened Scout on, keyed by origin (scheme + host + port). */
export interface SiteRecord {
  origin: string;
  /** The user's review choices for this site's generated llms.txt. */
  curation?: Curation;
  host: string;
  /** Registrable domain (Public Suffix List), or the host for IPs and single-label names. */
  site: string;
  firstOpenedAt: number;
  lastOpenedAt: number;
  openCount: number;
  /** Refresh settings; absent means the defaults (no schedule, threshold 0.9). */
  monitor?: MonitorSettings;
}

/** How a site's outputs are kept current. */
export interface MonitorSettings {
  /** Hours between scheduled refreshes; 0 = off (the default). */
  everyHours: number;
  /** A page counts as changed when its similarity to the stored version is below this (0–1). */
  threshold: number;
  /** When the next scheduled refresh is due (ms since epoch); set when a schedule is on. */
  nextAt?: number;
}

export type JobKind = 'discovery' | 'crawl' | 'refresh' | 'describe' | 'check';
export type JobState = 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';

/**
 * One unit of background work on a site, by kind: each kind's own fields and counters. Counters
 * are written as the job goes (a new job has `{}`), so every counter may be absent: read them
 * with `?? 0`. The stored rows keep the shape they always had (one `jobs` table, no schema change):
 * this union only names which fields each kind writes, so rows written before it stay valid.
 */
export type JobRecord = CrawlJob | RefreshJob | DiscoveryJob | DescribeJob | CheckJob;

/** The job of one kind: `JobOf<'crawl'>` is {@link CrawlJob}. */
export type JobOf<K extends JobKind> = Extract<JobRecord, { kind: K }>;

/** What every job has; its counters drive the side panel's progress. */
interface JobBase {
  id: string;
  origin: string;
  state: JobState;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  /** Plain-words progress or failure message for the side panel. */
  message?: string;
  /** A crawl paused because the site refused most of its first pages: once resumed, it does not stop for that again. */
  stoppedOnRefusals?: boolean;
  /** Paused because the browser refused to store more (QuotaExceededError): the panel offers to delete old data. */
  storageFull?: boolean;
}

/** A crawl (lib/crawl/): its settings are stored on the job so a resumed crawl keeps them. */
export interface CrawlJob extends JobBase {
  kind: 'crawl';
  /** The page the user started from. */
  startUrl: string;
  settings: CrawlSettings;
  counters: Partial<CrawlCounters>;
  /** The site's own navigation order, from the first crawled page that has one. */
  nav?: Array<{ title: string; url: string; depth: number }>;
  /** The site routes by hash (`#/path`), so those routes are pages (lib/render/). */
  hashRoutes?: boolean;
  /** Where the documentation is (lib/url/boundary.ts): the scope of a `docs` crawl, kept so a resumed crawl keeps it. */
  boundary?: DocsBoundary;
}

/** What the side panel shows about a crawl; derived from the frontier, never incremented blindly (lib/crawl/progress.ts). */
export type CrawlCounters = Record<FrontierState, number> & {
  stored: number;
  duplicates: number;
  /** Stored pages whose text came from rendering them in a tab (client-rendered sites). */
  rendered?: number;
  /** Stored pages with no readable text, left out of the files (lib/crawl/empty-page.ts). */
  empty?: number;
  /** Stored pages the evidence says are not documentation (lib/crawl/not-docs.ts). */
  notDocs?: number;
  discovered: number;
  /** The BFS level being worked on. */
  depth: number;
  /** Pages per second over the last 10 s. */
  rate: number;
  /** The longest Crawl-delay a crawled host's robots.txt asks for, in seconds (absent when none). */
  crawlDelayAsked?: number;
  /** What Scout waits between requests to that host: the ask, or the cap when the ask is longer. */
  crawlDelayUsed?: number;
  fetchMs: number;
  convertMs: number;
  storeMs: number;
};

/**
 * A refresh (lib/refresh/) re-checks a crawl's pages with the crawl's start page and settings.
 * A scheduled refresh that could not start (no access, nothing crawled) is kept as a failed row
 * without them, so the history says why.
 */
export type RefreshJob = StartedRefreshJob | UnstartedRefreshJob;

interface RefreshBase extends JobBase {
  kind: 'refresh';
  /** Started by the schedule rather than by the user. */
  scheduled?: boolean;
  counters: Partial<RefreshCounters> & {
    /** The llms.txt version the refresh made (lib/refresh/after-refresh.ts), when something changed enough. */
    version?: number;
  };
}

export interface StartedRefreshJob extends RefreshBase {
  /** The crawl whose pages are re-checked (and updated in place). */
  crawlJobId: string;
  startUrl: string;
  settings: CrawlSettings;
}

/** Written by the schedule (entrypoints/background/schedule.ts) when a refresh could not start. */
export interface UnstartedRefreshJob extends RefreshBase {
  state: 'failed';
  crawlJobId?: undefined;
  startUrl?: undefined;
  settings?: undefined;
}

/** A refresh's progress and result, per kind of change (lib/refresh/counters.ts). */
export type RefreshCounters = Record<PageChange, number> & {
  /** Pages to re-check. */
  total: number;
  checked: number;
  /** Bytes of page bodies downloaded (a 304 downloads none). */
  bytes: number;
};

/** A discovery run (lib/discovery/): its findings are rows of `discovered`; the counters sum them up. */
export interface DiscoveryJob extends JobBase {
  kind: 'discovery';
  counters: Partial<DiscoveryCounters>;
}

export interface DiscoveryCounters {
  /** llms.txt, llms-full.txt and well-known files found. */
  llms: number;
  /** Files found through links from other files. */
  linked: number;
  notFollowed: number;
  sitemaps: number;
  /** Locations looked at. */
  checked: number;
  /** Linked files not fetched because the cap was reached. */
  overCap: number;
  /** Locations looked at but not listed, past the limit of rows per discovery. */
  unlisted?: number;
  ms: number;
}

/** AI-written descriptions (lib/describe/) for a crawl's stored pages. */
export interface DescribeJob extends JobBase {
  kind: 'describe';
  /** The crawl whose pages are described. */
  crawlJobId: string;
  counters: Partial<DescribeCounters>;
  /** Pages left with their own description, and why (at most 200 listed). */
  fallbacks?: Array<{ url: string; reason: string }>;
  /**
   * Set while a side panel runs the job (the on-device model is only exposed to pages): the panel
   * renews it, and a worker starting up leaves the job alone until it lapses (lib/describe/panel-run.ts).
   */
  leaseUntil?: number;
}

export interface DescribeCounters {
  total: number;
  /** Written by the AI provider now. */
  described: number;
  /** Taken from the description cache (an earlier run). */
  cached: number;
  /** Left with the page's own description. */
  fallback: number;
}

/** An agent-readiness check (lib/check/) of the page the user started from. */
export interface CheckJob extends JobBase {
  kind: 'check';
  startUrl: string;
  counters: Partial<CheckCounters>;
  /** The agent-readiness report, once done. Not indexed. */
  report?: CheckReport;
}

export interface CheckCounters {
  passed: number;
  applicable: number;
  findings: number;
}

/** An AI-written page description, keyed by content fingerprint + provider + prompt version (see describe-pages.ts). */
export interface DescriptionRecord {
  key: string;
  text: string;
  createdAt: number;
}

/** A location discovery looked at (found or not, with the reason), per site and run. */
export interface DiscoveredFileRecord extends DiscoveryResult {
  id?: number;
  origin: string;
  /** The discovery job that produced it; the panel shows the newest finished run. */
  jobId: string;
  fetchedAt: number;
}

export type FrontierState = 'pending' | 'inflight' | 'done' | 'failed' | 'skipped';

/** Where a frontier URL came from: a seed kind, or a link on a crawled page. */
export type FrontierSource = 'start' | 'llms' | 'sitemap' | 'link' | 'redirect';

/** A URL about to join a crawl's queue (lib/crawl/frontier.ts numbers it and gives it a state). */
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

/** A URL in a crawl's durable queue: plain data, so a restarted worker can resume it. */
export interface FrontierRecord {
  jobId: string;
  /** Dedupe key (normalized, trailing-slash variants folded): one entry per page per job. */
  key: string;
  /** The URL to fetch, as first found. */
  url: string;
  state: FrontierState;
  depth: number;
  /** Enqueue order; with depth it gives breadth-first order. */
  seq: number;
  source: FrontierSource;
  parentUrl?: string;
  /** Try the page's Markdown twin first (pages listed in an llms.txt). */
  preferMarkdown?: boolean;
  retries: number;
  reason?: string;
  updatedAt: number;
  /** Refresh jobs: validators from the stored page, sent as If-None-Match / If-Modified-Since. */
  conditional?: { etag?: string; lastModified?: string };
}

/**
 * Many links of one page, queued as one record instead of one frontier row each: a page with
 * 100,000 links cost IndexedDB 10-14 s as rows and 0.05 s as one record (bench/idb-rows.ts).
 * Its URLs hold the sequence numbers `seq` … `seq + urls.length - 1`, all pending at `depth`;
 * each becomes a frontier row only when the crawl claims it (lib/crawl/link-blocks.ts), so the
 * record never changes: how far it was claimed is the number of rows in its sequence range.
 *
 * A block can instead hold one page's skipped links (`state: 'skipped'`, each URL's reason in
 * `reasons`): never claimed, listed and counted as the skipped rows they stand for. Links to other
 * sites are most of a crawl's queue (4,153 of 4,680 URLs on the Python docs), and a row each cost
 * Chromium's IndexedDB about 2 ms of CPU a page (one request and reply per row).
 */
export interface LinkBlockRecord {
  jobId: string;
  /** Sequence number of the first URL. */
  seq: number;
  depth: number;
  source: FrontierSource;
  parentUrl?: string;
  urls: string[];
  /** Dedupe keys that differ from their URL (a folded trailing slash), by position in `urls`. */
  keys?: Record<number, string>;
  createdAt: number;
  /** 'skipped' for a block of skipped links; pending otherwise. */
  state?: 'skipped';
  /** Why each URL was skipped, by position in `urls` (a skipped block only). */
  reasons?: string[];
}

/** A crawled page, stored as Markdown. Keyed by the frontier key it was fetched for. */
export interface PageRecord {
  jobId: string;
  key: string;
  /** Where the content really came from (after redirects, or the Markdown twin). */
  url: string;
  finalUrl: string;
  state: 'stored' | 'duplicate' | 'removed';
  /** The stored page this one repeats, when state is duplicate. */
  duplicateOf?: string;
  depth: number;
  title: string;
  description?: string;
  /** What the page calls its site (og:site_name, application-name, OpenSearch title, header h1), when it says. */
  siteName?: string;
  markdown: string;
  /** 'markdown' when the server sent Markdown (negotiated or a twin), else 'html' (converted). */
  format: 'markdown' | 'html';
  twinUrl?: string;
  contentHash: string;
  bytes: number;
  /** Token count of the Markdown (o200k), written by the first release; superseded by fullTokens. */
  tokens?: number;
  /** Tokens (o200k) the page adds to llms-full.txt, under the title it was counted for (see renderLlmsFull). */
  fullTokens?: { title: string; count: number; chars?: number; hash?: string };
  /** Tokens of the page's body in each full-text file it was counted for (lean links differ per file; see body-counts.ts). */
  bodyCounts?: StoredCounts;
  etag?: string;
  lastModified?: string;
  fetchedAt: number;
  /** The text was read from the page rendered in a tab of the user's browser (lib/render/). */
  rendered?: boolean;
  /** Why the fetched page counted as a client-rendered shell (or how a docsify page was read). */
  shell?: string;
  /** Set when the page has no readable text: why (lib/crawl/empty-page.ts). Such a page is left out of the outputs. */
  empty?: string;
  /**
   * Set when the evidence says the page is not documentation (a blog post, a forum thread, a page
   * without the docs' navigation, outside the docs' boundary): why, in words. Left out of the
   * outputs unless the user brings it back in the Review (`Curation.included`).
   */
  notDocs?: string;
}

/**
 * What a crawl from this start page would cover, worked out before it starts (lib/crawl/plan.ts)
 * and shown in the Generate tab. Keyed by the start page; made again when the site's discovery is.
 */
export interface PlanRecord {
  startUrl: string;
  origin: string;
  /** The discovery whose llms.txt files and sitemaps it read. */
  discoveryJobId?: string;
  state: 'running' | 'done' | 'failed';
  /** Progress or failure in words. */
  message?: string;
  createdAt: number;
  boundary?: DocsBoundary;
  /** The page URLs the site's sitemaps list (at most the seed budget): the crawl seeds from these instead of fetching the sitemaps again. */
  sitemapUrls?: string[];
  /** The most sitemap URLs the plan kept: a list this long may have been cut, and a crawl wanting more fetches the sitemaps itself. */
  sitemapLimit?: number;
}

/**
 * A generated output, versioned per site: the flat llms.txt, the site's llms-full.txt, and the
 * files Scout publishes (`files`: the root llms.txt as `text`, the nested layout and sizes in `files`).
 */
export interface ArtifactRecord {
  id?: number;
  origin: string;
  kind: 'llms' | 'llms-full' | 'files';
  version: number;
  jobId: string;
  text: string;
  tokens: number;
  /** The structure behind the llms.txt (sections and entries), for review and curation. */
  model?: Pick<GeneratedOutput, 'title' | 'summary' | 'sections'> & Partial<Pick<GeneratedOutput, 'notDocs'>>;
  /** kind 'files': the layout (flat or nested), each file's sizes, and where each page is in llms-full.txt. */
  files?: OutputFiles;
  createdAt: number;
  /** The refresh that caused this version, when one did (else a crawl or a curation change). */
  refreshJobId?: string;
  /** Time taken to build this version (token counts, generation), for the benchmark's time split. */
  buildMs?: number;
}

export type PageChange = 'unchanged' | 'minor' | 'changed' | 'removed' | 'restored' | 'failed';

/**
 * One re-check of a stored page during a refresh: the audit trail of what was seen and decided,
 * kept even when the change was too small to count.
 */
export interface PageVersionRecord {
  id?: number;
  /** The refresh job that checked the page. */
  jobId: string;
  /** The crawl the page belongs to, and its key there. */
  crawlJobId: string;
  key: string;
  url: string;
  change: PageChange;
  /** Fingerprint of the text fetched now (absent when nothing new was read: 304, failure, removal). */
  fingerprint?: string;
  previousFingerprint: string;
  /** Word-shingle Jaccard similarity to the stored version, 0–1 (1 for unchanged). */
  similarity?: number;
  changedEnough: boolean;
  /** In words: "Not modified (HTTP 304)", "Similarity 0.62 < 0.90", "Not found (HTTP 404)"… */
  reason: string;
  checkedAt: number;
}

/**
 * A tab Scout opened to render a client-rendered page (lib/render/). Written the moment the tab
 * exists and deleted when it is closed, so a tab left by a worker the browser stopped is closed
 * on the next worker start.
 */
export interface RenderTabRecord {
  tabId: number;
  jobId: string;
  url: string;
  openedAt: number;
  /** The browser session the id belongs to (tab ids restart with the browser; see tab-store.ts). */
  session: string;
}

/** Bump with every `.version(n)` below; tests assert the open database matches. */
export const SCHEMA_VERSION = 5;

export type ScoutDb = Dexie & {
  sites: EntityTable<SiteRecord, 'origin'>;
  /** Inserted whole (every job has its id at creation), so an added row is checked against its kind's fields. */
  jobs: EntityTable<JobRecord, 'id', JobRecord>;
  discovered: EntityTable<DiscoveredFileRecord, 'id'>;
  frontier: Dexie.Table<FrontierRecord, [string, string]>;
  linkBlocks: Dexie.Table<LinkBlockRecord, [string, number]>;
  pages: Dexie.Table<PageRecord, [string, string]>;
  artifacts: EntityTable<ArtifactRecord, 'id'>;
  pageVersions: EntityTable<PageVersionRecord, 'id'>;
  descriptions: EntityTable<DescriptionRecord, 'key'>;
  renderTabs: EntityTable<RenderTabRecord, 'tabId'>;
  plans: EntityTable<PlanRecord, 'startUrl'>;
};

/**
 * Opens (or creates) the database. Upgrade path: never edit a shipped version's
 * stores; add `.version(n + 1).stores({...changed tables only}).upgrade(tx => …)`
 * and raise SCHEMA_VERSION, so existing users' crawls survive an update.
 */
export function createDb(name = 'llms-txt-scout'): ScoutDb {
  // Relaxed durability: a commit is final once the browser has it, without waiting for the disk
  // to flush. A killed worker or a browser crash loses nothing committed; only a power cut could,
  // and a crawl can be resumed. Per-commit flushes made page writes the crawl's bottleneck.
  const db = new Dexie(name, { chromeTransactionDurability: 'relaxed' }) as ScoutDb;
  db.version(1).stores({
    sites: 'origin, lastOpenedAt',
    jobs: 'id, origin, state, [origin+createdAt]',
    discovered: '++id, jobId, &[jobId+url], origin',
    frontier: '[jobId+key], [jobId+state], [jobId+state+depth+seq], [jobId+seq]',
    pages: '[jobId+key], [jobId+state], [jobId+contentHash]',
    artifacts: '++id, [origin+kind+version]',
  });
  // v2: refresh (page versions) and AI descriptions (their cache). New tables only; existing rows need no change.
  db.version(2).stores({ pageVersions: '++id, [jobId+change], [crawlJobId+key]', descriptions: 'key' });
  // v3: tabs opened to render client-rendered pages. A new table only; existing rows need no change.
  db.version(3).stores({ renderTabs: 'tabId, jobId' });
  // v4: a page's many links as one record (crawl/link-blocks.ts). A new table only; existing rows need no change.
  db.version(4).stores({ linkBlocks: '[jobId+seq]' });
  // v5: what a crawl would cover, shown before it starts (crawl/plan.ts). A new table only.
  db.version(5).stores({ plans: 'startUrl, origin' });
  return db;
}

/** The shared instance for extension contexts (worker and side panel). */
export const db = createDb();

/**
 * A database for one command of the CLI (or one job of `scout serve`): a name of its own, so
 * commands running side by side never share rows. Discard it with `discardDb` when done.
 */
export function scratchDb(purpose: string): ScoutDb {
  return createDb(`scout-${purpose}-${crypto.randomUUID()}`);
}

/** Deletes a scratch database and every row in it; never throws (there is nothing left to save). */
export async function discardDb(db: ScoutDb): Promise<void> {
  await db.delete().catch(() => undefined);
}
