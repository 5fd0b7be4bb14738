/**
 * What the History view lists of a site's jobs: the newest few of every kind, and whether a
 * finished crawl stored pages (what a refresh would re-check).
 */
import type { JobRecord } from './db';
import * as memHistory from './memory/history';
import { inMemory, type Store } from './store';
import { jobsNewestFirst } from './queries';

/** The site's newest `limit` jobs of every kind, newest first. */
export function recentJobs(store: Store, origin: string, limit: number): Promise<JobRecord[]> {
  if (inMemory(store)) return memHistory.recentJobs(store, origin, limit);
  const db = store;
  return jobsNewestFirst(db, origin).limit(limit).toArray();
}

/** Whether a crawl of the site that is not running stored any page (even one stopped early). */
export async function hasEndedCrawlWithPages(store: Store, origin: string): Promise<boolean> {
  if (inMemory(store)) return memHistory.hasEndedCrawlWithPages(store, origin);
  const db = store;
  return (await jobsNewestFirst(db, origin).filter((j) => j.kind === 'crawl' && j.state !== 'running' && (j.counters.stored ?? 0) > 0).count()) > 0;
}
