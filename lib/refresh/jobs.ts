import type { StartedRefreshJob } from '../store/db';
import type { Store } from '../store/store';
import { createRefreshJob as addRefreshJob } from '../store/refresh-jobs';

/**
 * Creates a refresh of the site's latest crawl: the same pages, re-checked with
 * conditional requests; no discovery and no new seeds (a refresh keeps what the
 * user indexed current — a new crawl is how new pages come in). The check for a running job
 * and the new row are one transaction, so two starts at once (two panels, a schedule firing as
 * the user clicks) make one job.
 */
export async function createRefreshJob(db: Store, origin: string, options: { scheduled?: boolean; id?: string } = {}): Promise<StartedRefreshJob | { error: string }> {
  const made = await addRefreshJob(db, origin, (crawl, now): StartedRefreshJob => ({
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
  }));
  if (!('blocked' in made)) return made;
  if (made.blocked === 'no-crawl') return { error: 'Nothing to refresh yet: crawl the site first.' };
  return { error: made.active.kind === 'refresh' ? 'A refresh of this site is already running.' : 'A crawl of this site is running; refresh when it is done.' };
}
