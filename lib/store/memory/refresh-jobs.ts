/** The memory bodies of ../refresh-jobs.ts (same names, same answers). */
import type { CrawlJob, StartedRefreshJob } from '../db';
import type { RefreshBlocked } from '../records/site-store';
import { createOnLatestCrawl } from './jobs';
import { runningJobs } from './site-rows';
import type { MemoryStore } from './store';

export function createRefreshJob(store: MemoryStore, origin: string, make: (crawl: CrawlJob, now: number) => StartedRefreshJob): Promise<StartedRefreshJob | RefreshBlocked> {
  return createOnLatestCrawl<StartedRefreshJob, never>(store, origin, make);
}

export async function runningScheduledRefreshes(store: MemoryStore): Promise<number> {
  return runningJobs(store, (j) => j.kind === 'refresh' && j.scheduled === true).length;
}
