/**
 * Refresh jobs (`jobs` rows of kind 'refresh'): a refresh re-checks the site's newest crawl with
 * pages, and only while no crawl or refresh of the site runs. The words are the caller's.
 */
import type { CrawlJob, ScoutDb, StartedRefreshJob } from './db';
import { activeJobFor, type PageJob } from './jobs';
import { latestCrawlWithPages } from './queries';

/** Why a refresh was not created. */
export type RefreshBlocked = { blocked: 'no-crawl' } | { blocked: 'busy'; active: PageJob };

/**
 * Adds the refresh `make` builds for the site's newest crawl with pages, unless there is none or a
 * crawl or refresh of the site runs. The checks and the new row are one transaction, so two starts
 * at once (two panels, a schedule firing as the user clicks) make one job.
 */
export function createRefreshJob(db: ScoutDb, origin: string, make: (crawl: CrawlJob, now: number) => StartedRefreshJob): Promise<StartedRefreshJob | RefreshBlocked> {
  return db.transaction('rw', db.jobs, db.pages, async (): Promise<StartedRefreshJob | RefreshBlocked> => {
    const crawl = await latestCrawlWithPages(db, origin);
    if (!crawl) return { blocked: 'no-crawl' };
    const busy = await activeJobFor(db, origin);
    if (busy) return { blocked: 'busy', active: busy };
    const job = make(crawl, Date.now());
    await db.jobs.add(job);
    return job;
  });
}

/** How many refreshes the schedule started are running (of every site). */
export function runningScheduledRefreshes(db: ScoutDb): Promise<number> {
  return db.jobs
    .where('state')
    .equals('running')
    .filter((j) => j.kind === 'refresh' && j.scheduled === true)
    .count();
}
