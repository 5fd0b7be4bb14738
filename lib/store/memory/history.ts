/** The memory bodies of ../history.ts (same names, same answers). */
import type { JobRecord } from '../db';
import { jobsNewestFirstNow } from './queries';
import { copy, type MemoryStore } from './store';

export async function recentJobs(store: MemoryStore, origin: string, limit: number): Promise<JobRecord[]> {
  return jobsNewestFirstNow(store, origin).slice(0, Math.max(0, limit)).map(copy);
}

export async function hasEndedCrawlWithPages(store: MemoryStore, origin: string): Promise<boolean> {
  return jobsNewestFirstNow(store, origin).some((j) => j.kind === 'crawl' && j.state !== 'running' && (j.counters.stored ?? 0) > 0);
}
