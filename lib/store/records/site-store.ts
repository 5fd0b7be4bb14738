/**
 * The shapes the site side's repository functions take and answer beyond the stored records (a
 * count update, a refresh's checked batch, a job blocked from starting, what retention deletes and
 * measures): below both bodies of each function, the Dexie one (lib/store/<module>.ts re-exports
 * these) and the memory one.
 */
import type Dexie from 'dexie';
import type { ArtifactRecord, FrontierRecord, JobRecord, PageRecord, PageVersionRecord, ScoutDb } from '../db';
import { normalizeKeep } from '../keep';
import type { CrawlBlocked } from './crawl-store';

/** A page's record without its Markdown: what a caller that lists pages needs, not their text. */
export type PageHead = Omit<PageRecord, 'markdown'>;

/** Count fields generation keeps on a page, for the page whose text had this fingerprint. */
export interface CountUpdate {
  key: string;
  contentHash: string;
  changes: Pick<PageRecord, 'bodyCounts' | 'fullTokens'>;
}

/** What a refresh batch writes, decided from the pages as stored when the batch's transaction read them. */
export interface CheckedBatch {
  /** Pages to write whole (a new text, or marked removed). */
  pages: PageRecord[];
  versions: PageVersionRecord[];
  /** The batch's queue rows with their new states. */
  frontier: FrontierRecord[];
}

/** Why a describe job was not created. */
export type DescribeBlocked = CrawlBlocked | { blocked: 'running' };

/** Why a refresh was not created. */
export type RefreshBlocked = CrawlBlocked;

/** Rows deleted per transaction. */
export const BATCH = 500;

/** Every table of the schema, by name: a table added to ScoutDb and not here fails to compile. */
type TableName = { [K in keyof ScoutDb]: ScoutDb[K] extends Dexie.Table ? K : never }[keyof ScoutDb];
export const SITE_TABLES = ['sites', 'jobs', 'discovered', 'frontier', 'linkBlocks', 'pages', 'artifacts', 'pageVersions', 'descriptions', 'renderTabs', 'plans'] as const satisfies readonly TableName[];
export type Listed = (typeof SITE_TABLES)[number];
/** Compiles only while SITE_TABLES names every table. */
const everyTableListed: Exclude<TableName, Listed> extends never ? true : false = true;
void everyTableListed;

export interface PruneResult {
  /** Crawls deleted. */
  crawls: number;
  /** Rows deleted, all tables together. */
  rows: number;
}

/** Called after each batch with the rows deleted so far. */
export type OnProgress = (rowsDeleted: number) => void;

/** Rows deleted so far, told to `onProgress` as each batch goes (both stores' retention bodies). */
export interface Counter {
  total: number;
  add(n: number): void;
}

export function progress(onProgress?: OnProgress): Counter {
  const counter: Counter = {
    total: 0,
    add(n) {
      counter.total += n;
      onProgress?.(counter.total);
    },
  };
  return counter;
}

/** Rows and approximate bytes of one table's share of a site. */
export interface TableUse {
  rows: number;
  bytes: number;
}

/** Crawl job states that are in use: such a crawl, or the crawl such a refresh or describe run reads, is kept. */
export const ACTIVE = new Set<JobRecord['state']>(['running', 'queued', 'paused']);
/** The outputs whose current version names the crawl it was built from. */
export const ARTIFACT_KINDS = ['llms', 'llms-full', 'files'] as const satisfies ReadonlyArray<ArtifactRecord['kind']>;

/**
 * The retention rule, on rows both stores read alike: the `keep` newest ended crawls, every crawl
 * in use, the crawl an active refresh or describe run reads, the newest crawl with pages (what
 * Generate would read) and the crawl each current output was built from.
 */
export function keptCrawls(jobs: JobRecord[], keep: number, feeding: string | undefined, outputsFrom: Array<string | undefined>): Set<string> {
  const kept = new Set<string>();
  let ended = 0;
  for (const job of jobs) {
    if (job.kind !== 'crawl') continue;
    if (ACTIVE.has(job.state)) kept.add(job.id);
    else if (ended++ < normalizeKeep(keep)) kept.add(job.id);
  }
  for (const job of jobs) if ((job.kind === 'refresh' || job.kind === 'describe') && ACTIVE.has(job.state) && job.crawlJobId) kept.add(job.crawlJobId);
  if (feeding) kept.add(feeding);
  for (const jobId of outputsFrom) if (jobId) kept.add(jobId);
  return kept;
}
