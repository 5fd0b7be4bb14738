/**
 * The shapes the crawl side's repository functions take and answer beyond the stored records
 * (a claim, a page batch, a site's saved rows, a job blocked from starting): below both bodies of
 * each function, the Dexie one (lib/store/<module>.ts re-exports these) and the memory one.
 */
import type { CrawlJob, FrontierRecord, FrontierState, JobRecord, LinkBlockRecord, PageRecord, RefreshJob, ArtifactRecord, DescriptionRecord, DiscoveredFileRecord, PlanRecord, SiteRecord } from '../db';

/** What a claim took: rows already queued, and new rows made from link blocks' URLs. */
export interface Claim {
  fromRows: FrontierRecord[];
  fromBlocks: FrontierRecord[];
}

/** Which of the job's rows a list shows: all (in the order found) or one state's (breadth-first). */
export type RowFilter = 'all' | FrontierState;

/** A position in a list's order: [depth, seq] for a state's list, [0, seq] for the whole list. */
export type ListKey = [number, number];

/** Crawls and refreshes: the jobs that work through a site's pages, one at a time per site. */
export type PageJob = CrawlJob | RefreshJob;

/** Fields every kind of job has, written by code that runs either kind (the queue runner, the worker). */
export type JobFields = Partial<Pick<JobRecord, 'state' | 'message' | 'startedAt' | 'endedAt' | 'stoppedOnRefusals' | 'storageFull'>>;

/** Why a job on the site's newest crawl was not created: no crawl with pages, or a crawl or refresh running. */
export type CrawlBlocked = { blocked: 'no-crawl' } | { blocked: 'busy'; active: PageJob };

/** One batch of a crawl's results, as the page writer hands it over (lib/crawl/page-writer.ts). */
export interface PageBatch {
  /** Content hashes the job may already hold: only these are looked up, by the [jobId+contentHash] index. */
  hashes: string[];
  /**
   * Makes the pages to write, given the job's stored pages with those hashes (hash → its URL; the
   * map is the callback's to extend as the batch's own pages are kept). Pure: it only decides.
   */
  pages: (stored: Map<string, string>) => PageRecord[];
  /** Crawl fields the batch changed (hash routing found, the merged navigation, the progress it makes). */
  job: Partial<Pick<CrawlJob, 'hashRoutes' | 'nav' | 'counters' | 'message'>>;
  /** New queue rows and link blocks for the links found (`Frontier.prepare`). */
  queue: { rows: FrontierRecord[]; blocks: LinkBlockRecord[] };
  /** The batch's own frontier rows, in the states their results put them. */
  settled: FrontierRecord[];
}

/** The rows of one site that a saved crawl state holds. */
export interface SiteRows {
  sites: SiteRecord[];
  jobs: JobRecord[];
  pages: PageRecord[];
  plans: PlanRecord[];
  discovered: DiscoveredFileRecord[];
  descriptions: DescriptionRecord[];
  artifacts: ArtifactRecord[];
}
