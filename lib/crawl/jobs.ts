import type { CrawlJob, JobRecord, RefreshJob, ScoutDb } from '../store/db';
import { normalizeSettings, type CrawlSettings } from './settings';

/** Creates a crawl job in the running state; the worker then starts a runner for it. */
export async function createCrawlJob(db: ScoutDb, startUrl: string, settings: Partial<CrawlSettings>, id = crypto.randomUUID()): Promise<CrawlJob> {
  const now = Date.now();
  const job: CrawlJob = {
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

/** Crawls and refreshes: the jobs that work through a site's pages, one at a time per site. */
const isPageJob = (j: JobRecord): j is CrawlJob | RefreshJob => j.kind === 'crawl' || j.kind === 'refresh';

/** The running crawl or refresh of a site, if any: only one may run at a time. */
export async function activeJobFor(db: ScoutDb, origin: string): Promise<CrawlJob | RefreshJob | undefined> {
  return db.jobs.where('state').equals('running').filter(isPageJob).filter((j) => j.origin === origin).first();
}

/**
 * Creates a crawl job unless a crawl or refresh of the site is running. The check and the new
 * row are one transaction: two panels pressing Generate at once would otherwise both see
 * nothing running and start two crawls of one site.
 */
export async function startCrawlJob(db: ScoutDb, startUrl: string, settings: Partial<CrawlSettings>): Promise<CrawlJob | { error: string }> {
  return db.transaction('rw', db.jobs, async () => {
    const active = await activeJobFor(db, new URL(startUrl).origin);
    if (active) return { error: active.kind === 'refresh' ? 'A refresh of this site is running; crawl when it is done.' : 'A crawl of this site is already running.' };
    return createCrawlJob(db, startUrl, settings);
  });
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

/**
 * Pause or Cancel for a job that has no runner in this worker (the browser stopped the worker and
 * the job is not resumed yet, or it has ended): only a crawl or refresh that is still going
 * changes — a running one pauses, a running or paused one is cancelled — read and written in one
 * transaction. Answers whether it changed, so a press on a job that already ended changes nothing.
 */
export async function stopWithoutRunner(db: ScoutDb, jobId: string, to: 'paused' | 'cancelled'): Promise<boolean> {
  return db.transaction('rw', db.jobs, async () => {
    const job = await db.jobs.get(jobId);
    if (!job || (job.kind !== 'crawl' && job.kind !== 'refresh')) return false;
    if (to === 'paused') {
      if (job.state !== 'running') return false;
      await db.jobs.update(jobId, { state: 'paused', message: job.kind === 'crawl' ? 'Paused. Resume to carry on where it stopped.' : 'Refresh paused. Resume to carry on.' });
      return true;
    }
    if (job.state !== 'running' && job.state !== 'paused') return false;
    await db.jobs.update(jobId, { state: 'cancelled', endedAt: Date.now(), message: 'Cancelled. Pages stored so far are kept.' });
    return true;
  });
}

/** Crawls and refreshes that were running when the worker stopped; each gets a new runner. */
export async function runningCrawls(db: ScoutDb): Promise<Array<CrawlJob | RefreshJob>> {
  return db.jobs.where('state').equals('running').filter(isPageJob).toArray();
}
