import type { CrawlJob } from '../store/db';
import type { Store } from '../store/store';
import { addJob, createIfIdle } from '../store/jobs';
import { normalizeSettings, type CrawlSettings } from './settings';

export { activeJobFor, markResumed, stopWithoutRunner, runningPageJobs as runningCrawls } from '../store/jobs';

/** A new crawl job in the running state, with its settings normalized. */
function newCrawlJob(startUrl: string, settings: Partial<CrawlSettings>, id: string): CrawlJob {
  const now = Date.now();
  return {
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
}

/** Creates a crawl job in the running state; the worker then starts a runner for it. */
export async function createCrawlJob(db: Store, startUrl: string, settings: Partial<CrawlSettings>, id = crypto.randomUUID()): Promise<CrawlJob> {
  const job = newCrawlJob(startUrl, settings, id);
  await addJob(db, job);
  return job;
}

/**
 * Creates a crawl job unless a crawl or refresh of the site is running (one transaction: see
 * `createIfIdle`), else answers why not in words.
 */
export async function startCrawlJob(db: Store, startUrl: string, settings: Partial<CrawlSettings>): Promise<CrawlJob | { error: string }> {
  const made = await createIfIdle(db, new URL(startUrl).origin, () => newCrawlJob(startUrl, settings, crypto.randomUUID()));
  if (!('active' in made)) return made;
  return { error: made.active.kind === 'refresh' ? 'A refresh of this site is running; crawl when it is done.' : 'A crawl of this site is already running.' };
}
