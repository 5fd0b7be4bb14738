/**
 * Refresh jobs (`jobs` rows of kind 'refresh'): a refresh re-checks the site's newest crawl with
 * pages, and only while no crawl or refresh of the site runs. The words are the caller's.
 */
import type { CrawlJob, ScoutDb, StartedRefreshJob } from './db';
import { createOnLatestCrawl, type CrawlBlocked } from './jobs';

/** Why a refresh was not created. */
export type RefreshBlocked = CrawlBlocked;

/**
 * Adds the refresh `make` builds for the site's newest crawl with pages, unless there is none or a
 * crawl or refresh of the site runs (createOnLatestCrawl: one transaction).
 */
export function createRefreshJob(db: ScoutDb, origin: string, make: (crawl: CrawlJob, now: number) => StartedRefreshJob): Promise<StartedRefreshJob | RefreshBlocked> {
  return createOnLatestCrawl<StartedRefreshJob, never>(db, origin, make);
}

/** How many refreshes the schedule started are running (of every site). */
export function runningScheduledRefreshes(db: ScoutDb): Promise<number> {
  return db.jobs
    .where('state')
    .equals('running')
    .filter((j) => j.kind === 'refresh' && j.scheduled === true)
    .count();
}
