import type { ScoutDb, StartedRefreshJob } from '../store/db';
import { activeJobFor } from '../crawl/jobs';
import { latestCrawlWithPages } from '../store/queries';

/**
 * Creates a refresh of the site's latest crawl: the same pages, re-checked with
 * conditional requests; no discovery and no new seeds (a refresh keeps what the
 * user indexed current — a new crawl is how new pages come in). The check for a running job
 * and the new row are one transaction, so two starts at once (two panels, a schedule firing as
 * the user clicks) make one job.
 */
export async function createRefreshJob(db: ScoutDb, origin: string, options: { scheduled?: boolean; id?: string } = {}): Promise<StartedRefreshJob | { error: string }> {
  return db.transaction('rw', db.jobs, db.pages, () => addRefreshJob(db, origin, options));
}

async function addRefreshJob(db: ScoutDb, origin: string, options: { scheduled?: boolean; id?: string }): Promise<StartedRefreshJob | { error: string }> {
  const crawl = await latestCrawlWithPages(db, origin);
  if (!crawl) return { error: 'Nothing to refresh yet: crawl the site first.' };
  const busy = await activeJobFor(db, origin);
  if (busy) return { error: busy.kind === 'refresh' ? 'A refresh of this site is already running.' : 'A crawl of this site is running; refresh when it is done.' };
  const now = Date.now();
  const job: StartedRefreshJob = {
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
