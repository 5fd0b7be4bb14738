import { db } from '@/lib/db';
import { failDiscoveryJob, runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { runDiscoveryVisit, siteDiscovery } from '@/lib/discovery/visit';
import { failInterrupted } from '@/lib/queries';
import { browserFetch } from '@/lib/fetch/browser-fetch';
import { siteInfo } from '@/lib/url/site';
import { holdStartHost } from './network-guard';
import { onCommand } from './on-command';
import { siteJobs } from './site-jobs';

/**
 * Discovery runs in the worker; the panel only starts it and watches Dexie. It is kept per site:
 * the panel opening on a site discovered before, or following the reader to another of its pages,
 * sends a visit, which reads only what that page adds (lib/discovery/visit.ts); Re-run discovers
 * the site again.
 */
export function setUpDiscovery(): void {
  void failInterrupted(db, 'discovery');
  const start = siteJobs('discovery');
  // Visits of a site run one after another, so each sees the folders the one before looked at.
  const visits = new Map<string, Promise<unknown>>();

  onCommand('startDiscovery', async (data) => {
    const info = siteInfo(data.url);
    const site = data.visit ? await siteDiscovery(db, info.origin) : undefined;
    // A site never discovered, or whose last run failed, is discovered whole; a run going is joined.
    if (site?.state !== 'done') {
      return start(data.url, {
        run: (jobId) => runDiscoveryJob(db, { jobId, pageUrl: data.url, fetch: browserFetch }),
        fail: (jobId, error) => failDiscoveryJob(db, { jobId, pageUrl: data.url }, error),
      });
    }
    if (!(await browser.permissions.contains({ origins: info.hostPatterns }))) return { error: 'no-access' as const };
    const visit = (visits.get(info.origin) ?? Promise.resolve()).then(async () => {
      const release = await holdStartHost(data.url);
      try {
        await runDiscoveryVisit(db, { job: site, pageUrl: data.url, fetch: browserFetch });
      } finally {
        await release().catch((error: unknown) => console.error('Scout could not remove an allow rule', error));
      }
    });
    // A visit that fails leaves the site's discovery as it was; the next page or Re-run tries again.
    const settled = visit.catch((error: unknown) => console.error('Scout could not read the page for discovery', error));
    visits.set(info.origin, settled);
    void settled.finally(() => {
      if (visits.get(info.origin) === settled) visits.delete(info.origin);
    });
    return { jobId: site.id };
  });
}
