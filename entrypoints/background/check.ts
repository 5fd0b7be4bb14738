import { createCheckJob, runCheckJob } from '@/lib/check/check-job';
import { setJobFields } from '@/lib/store/jobs';
import { failInterrupted } from '@/lib/store/queries';
import { browserFetch } from '@/lib/fetch/browser-fetch';
import { onCommand } from './on-command';
import { wiring, type JobWiring } from './jobs';
import { siteJobs } from './site-jobs';

/** The Check view's runs: in the worker, like discovery; the panel starts one and watches Dexie. */
export function setUpCheck(given: Partial<JobWiring> = {}): void {
  const { db, browser, jobs } = wiring(given);
  void failInterrupted(db, 'check');
  const start = siteJobs('check', { browser, jobs });
  onCommand('startCheck', (data) =>
    start(data.url, {
      create: (jobId) => createCheckJob(db, { jobId, pageUrl: data.url }),
      run: (jobId) => runCheckJob(db, { jobId, pageUrl: data.url, fetch: browserFetch, crawl: data.crawl }),
      fail: (jobId, error) => setJobFields(db, jobId, { state: 'failed', endedAt: Date.now(), message: `The check stopped: ${error instanceof Error ? error.message : String(error)}` }),
    }),
  );
}
