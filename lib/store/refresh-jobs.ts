/**
 * Refresh jobs (`jobs` rows of kind 'refresh'): a refresh re-checks the site's newest crawl with
 * pages, and only while no crawl or refresh of the site runs. The words are the caller's.
 */
import type { CrawlJob, StartedRefreshJob } from './db';
import * as memRefreshJobs from './memory/refresh-jobs';
import { inMemory, type Store } from './store';
import { createOnLatestCrawl } from './jobs';
import type { RefreshBlocked } from './records/site-store';

export type { RefreshBlocked };

/**
 * Adds the refresh `make` builds for the site's newest crawl with pages, unless there is none or a
 * crawl or refresh of the site runs (createOnLatestCrawl: one transaction).
 */
export function createRefreshJob(store: Store, origin: string, make: (crawl: CrawlJob, now: number) => StartedRefreshJob): Promise<StartedRefreshJob | RefreshBlocked> {
  if (inMemory(store)) return memRefreshJobs.createRefreshJob(store, origin, make);
  const db = store;
  return createOnLatestCrawl<StartedRefreshJob, never>(db, origin, make);
}

/** How many refreshes the schedule started are running (of every site). */
export function runningScheduledRefreshes(store: Store): Promise<number> {
  if (inMemory(store)) return memRefreshJobs.runningScheduledRefreshes(store);
  const db = store;
  return db.jobs
    .where('state')
    .equals('running')
    .filter((j) => j.kind === 'refresh' && j.scheduled === true)
    .count();
}
