import { createCheckJob, markInterruptedChecks, runCheckJob } from '@/lib/check/check-job';
import { db } from '@/lib/db';
import { onCommand } from './on-command';
import { siteInfo } from '@/lib/url/site';
import { holdStartHost } from './network-guard';

/** The Check view's runs: in the worker, like discovery; the panel starts one and watches Dexie. */
export function setUpCheck(): void {
  // One run per site at a time in this worker's lifetime: a second press joins it.
  const running = new Map<string, string>();
  void markInterruptedChecks(db);

  onCommand('startCheck', async (data) => {
    const info = siteInfo(data.url);
    if (!(await browser.permissions.contains({ origins: info.hostPatterns }))) return { error: 'no-access' as const };
    const current = running.get(info.origin);
    if (current) return { jobId: current };
    const jobId = crypto.randomUUID();
    running.set(info.origin, jobId);
    await createCheckJob(db, { jobId, pageUrl: data.url });
    const run = async () => {
      // A site on the user's own network is reachable only while a job holds its allow rule.
      const release = await holdStartHost(data.url);
      try {
        await runCheckJob(db, { jobId, pageUrl: data.url, fetch: (input, init) => fetch(input, init), crawl: data.crawl });
      } finally {
        await release().catch((error: unknown) => console.error('Scout could not remove an allow rule', error));
      }
    };
    // Not awaited: commands answer at once; the report arrives through Dexie.
    void run()
      .catch((error: unknown) => db.jobs.update(jobId, { state: 'failed', endedAt: Date.now(), message: `The check stopped: ${String(error)}` }))
      .catch((error: unknown) => console.error('Scout could not record a failed check', error))
      .finally(() => running.delete(info.origin));
    return { jobId };
  });
}
