import { siteInfo } from '@/lib/url/site';
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
 * Discovery and the check run in the worker once per site at a time: a second start (another
 * panel, a second press) joins the running job. The command answers at once; progress and the
 * result flow through Dexie. Whatever fails ends the job with its reason and frees the site, so
 * the next start runs afresh instead of joining a job that will never finish.
 */
export function siteJobs(what: string): (url: string, job: SiteJob) => Promise<{ jobId: string } | { error: 'no-access' }> {
  const running = new Map<string, string>();
  return async (url, job) => {
    const info = siteInfo(url);
    if (!(await browser.permissions.contains({ origins: info.hostPatterns }))) return { error: 'no-access' };
    const current = running.get(info.origin);
    if (current) return { jobId: current };
    const jobId = crypto.randomUUID();
    running.set(info.origin, jobId);
    try {
      await job.create?.(jobId);
    } catch (error) {
      running.delete(info.origin);
      throw error;
    }
    const run = async () => {
      const release = await holdStartHost(url);
      try {
        await job.run(jobId);
      } finally {
        // The run's result stands either way; a rule that could not be removed goes with the session.
        await release().catch((error: unknown) => console.error('Scout could not remove an allow rule', error));
      }
    };
    void run()
      .catch((error: unknown) => job.fail(jobId, error))
      .catch((error: unknown) => console.error(`Scout could not record a failed ${what}`, error))
      .finally(() => running.delete(info.origin));
    return { jobId };
  };
}
