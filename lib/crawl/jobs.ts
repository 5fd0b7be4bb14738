import type { JobRecord, ScoutDb } from '../db';
import { normalizeSettings, type CrawlSettings } from './settings';

/** Creates a crawl job in the running state; the worker then starts a runner for it. */
export async function createCrawlJob(db: ScoutDb, startUrl: string, settings: Partial<CrawlSettings>, id = crypto.randomUUID()): Promise<JobRecord> {
  const now = Date.now();
  const job: JobRecord = {
    id,
    origin: new URL(startUrl).origin,
    kind: 'crawl',
    state: 'running',
    createdAt: now,
    startedAt: now,
    startUrl,
    settings: normalizeSettings(settings),
    counters: {},
    message: 'Starting…',
  };
  await db.jobs.add(job);
  return job;
}

/** Moves a paused (or interrupted) job back to running. Returns false when it can't be resumed. */
export async function markResumed(db: ScoutDb, jobId: string): Promise<boolean> {
  return db.transaction('rw', db.jobs, async () => {
    const job = await db.jobs.get(jobId);
    if (!job || (job.kind !== 'crawl' && job.kind !== 'refresh') || !(job.state === 'paused' || job.state === 'running')) return false;
    await db.jobs.update(jobId, { state: 'running', message: 'Resuming…' });
    return true;
  });
}

/** Crawls and refreshes that were running when the worker stopped; each gets a new runner. */
export async function runningCrawls(db: ScoutDb): Promise<JobRecord[]> {
  return db.jobs.where('state').equals('running').filter((j) => j.kind === 'crawl' || j.kind === 'refresh').toArray();
}
