import type { JobRecord, ScoutDb } from '../db';
import { latestCrawlWithPages } from '../generate/latest-crawl';

/** Jobs that are running (crawls or refreshes) for a site: only one may run at a time. */
export async function activeJobFor(db: ScoutDb, origin: string): Promise<JobRecord | undefined> {
  return db.jobs.where('state').equals('running').filter((j) => j.origin === origin && (j.kind === 'crawl' || j.kind === 'refresh')).first();
}

/**
 * Creates a refresh of the site's latest crawl: the same pages, re-checked with
 * conditional requests; no discovery and no new seeds (a refresh keeps what the
 * user indexed current — a new crawl is how new pages come in).
 */
export async function createRefreshJob(db: ScoutDb, origin: string, options: { scheduled?: boolean; id?: string } = {}): Promise<JobRecord | { error: string }> {
  const crawl = await latestCrawlWithPages(db, origin);
  if (!crawl?.startUrl || !crawl.settings) return { error: 'Nothing to refresh yet: crawl the site first.' };
  const busy = await activeJobFor(db, origin);
  if (busy) return { error: busy.kind === 'refresh' ? 'A refresh of this site is already running.' : 'A crawl of this site is running; refresh when it is done.' };
  const now = Date.now();
  const job: JobRecord = {
    id: options.id ?? crypto.randomUUID(),
    origin,
    kind: 'refresh',
    state: 'running',
    createdAt: now,
    startedAt: now,
    startUrl: crawl.startUrl,
    settings: crawl.settings,
    crawlJobId: crawl.id,
    scheduled: options.scheduled ?? false,
    counters: {},
    message: 'Starting the refresh…',
  };
  await db.jobs.add(job);
  return job;
}
