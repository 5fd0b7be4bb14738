import { db } from '@/lib/db';
import { failDiscoveryJob, markInterruptedDiscoveries, runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { onCommand } from './on-command';
import { siteInfo } from '@/lib/url/site';
import { holdStartHost } from './network-guard';
import { browserFetch } from '@/lib/fetch/browser-fetch';

/** Discovery runs in the worker; the panel only starts it and watches Dexie. */
export function setUpDiscovery(): void {
  // Jobs running in this worker's lifetime, per origin, so two panels share one run.
  const running = new Map<string, string>();
  void markInterruptedDiscoveries(db);

  onCommand('startDiscovery', async (data) => {
    const info = siteInfo(data.url);
    if (!(await browser.permissions.contains({ origins: info.hostPatterns }))) return { error: 'no-access' as const };
    const current = running.get(info.origin);
    if (current) return { jobId: current };
    const jobId = crypto.randomUUID();
    running.set(info.origin, jobId);
    const run = async () => {
      const release = await holdStartHost(data.url);
      try {
        await runDiscoveryJob(db, { jobId, pageUrl: data.url, fetch: browserFetch });
      } finally {
        // The run's result stands either way; a rule that could not be removed goes with the session.
        await release().catch((error: unknown) => console.error('Scout could not remove an allow rule', error));
      }
    };
    // Not awaited: commands answer at once; progress flows through Dexie. Whatever fails (the
    // browser refusing the allow rule, a database write) ends this job with the reason and frees
    // the site, so the next start runs afresh instead of joining a job that will never finish.
    void run()
      .catch((error: unknown) => failDiscoveryJob(db, { jobId, pageUrl: data.url }, error))
      .catch((error: unknown) => console.error('Scout could not record a failed discovery', error))
      .finally(() => running.delete(info.origin));
    return { jobId };
  });
}
