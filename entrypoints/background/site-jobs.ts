import type { JobRegistry } from '@/lib/jobs/registry';
import { siteInfo } from '@/lib/url/site';
import type { WxtBrowser } from 'wxt/browser';
import { holdStartHost } from './network-guard';

interface SiteJob {
  /** Runs the job; it holds the start host's allow rule while it runs (a site on the user's own network). */
  run(jobId: string): Promise<unknown>;
  /** Records a run that failed (the browser refused the allow rule, a database write failed…). */
  fail(jobId: string, error: unknown): Promise<unknown>;
  /** Writes the job's row before the command answers, when the panel needs it at once. */
  create?(jobId: string): Promise<unknown>;
}

/**
 * Discovery and the check run in the worker once per site at a time (the registry's key is the
 * kind and the site): a second start (another panel, a second press) joins the running job. The
 * command answers at once; progress and the result flow through the store. Whatever fails ends
 * the job with its reason and frees the site, so the next start runs afresh instead of joining a
 * job that will never finish.
 */
export function siteJobs(
  what: string,
  { browser, jobs }: { browser: Pick<WxtBrowser, 'permissions'>; jobs: JobRegistry },
): (url: string, job: SiteJob) => Promise<{ jobId: string } | { error: 'no-access' }> {
  return async (url, job) => {
    const info = siteInfo(url);
    if (!(await browser.permissions.contains({ origins: info.hostPatterns }))) return { error: 'no-access' };
    const jobId = crypto.randomUUID();
    let created: Promise<unknown> = Promise.resolve();
    const started = jobs.start({
      id: jobId,
      kind: what,
      key: `${what}:${info.origin}`,
      run: async () => {
        // Run synchronously by start(): the row is on its way before a second start can join.
        created = Promise.resolve().then(() => job.create?.(jobId));
        try {
          await created;
        } catch {
          return; // the command answers with the error; no row to mark failed
        }
        try {
          const release = await holdStartHost(url);
          try {
            await job.run(jobId);
          } finally {
            // The run's result stands either way; a rule that could not be removed goes with the session.
            await release().catch((error: unknown) => console.error('Scout could not remove an allow rule', error));
          }
        } catch (error) {
          await job.fail(jobId, error).catch((failed: unknown) => console.error(`Scout could not record a failed ${what}`, failed));
        }
      },
    });
    if (!started.started) return { jobId: started.id };
    await created;
    return { jobId };
  };
}
