import { db } from '@/lib/db';
import { markInterruptedDiscoveries, runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { onMessage } from '@/lib/messaging';
import { siteInfo } from '@/lib/url/site';
import { holdStartHost } from './network-guard';

/** Discovery runs in the worker; the panel only starts it and watches Dexie. */
export function setUpDiscovery(): void {
  // Jobs running in this worker's lifetime, per origin, so two panels share one run.
  const running = new Map<string, string>();
  void markInterruptedDiscoveries(db);

  onMessage('startDiscovery', async ({ data }) => {
    const info = siteInfo(data.url);
    if (!(await browser.permissions.contains({ origins: info.hostPatterns }))) return { error: 'no-access' as const };
    const current = running.get(info.origin);
    if (current) return { jobId: current };
    const jobId = crypto.randomUUID();
    running.set(info.origin, jobId);
    // Not awaited: commands answer at once; progress flows through Dexie.
    void holdStartHost(data.url).then((release) =>
      runDiscoveryJob(db, { jobId, pageUrl: data.url, fetch: (input, init) => fetch(input, init) }).finally(() => {
        running.delete(info.origin);
        void release();
      }),
    );
    return { jobId };
  });
}
