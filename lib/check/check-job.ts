/**
 * The Check view's runs as jobs: the worker writes a `check` job with its progress message and,
 * once done, the report; the panel reads it with a live query. A worker stopped mid-check leaves
 * a job marked running, which the next worker marks failed.
 */
import type { CheckJob } from '../store/db';
import type { Store } from '../store/store';
import { finishCheck, putCheckJob } from '../store/check-jobs';
import { jobById, setJobFields } from '../store/jobs';
import { queuedUrlsOfStoredPages } from '../store/page-outputs';
import { latestCrawlWithPages } from '../store/queries';
import { runSiteCheck } from './run';

/** Finished checks kept per site (the newest is shown; older ones go). */
const KEEP = 3;

/** The stored page URLs of the site's latest crawl: the "optional crawl" the coverage check adds. */
export async function crawledUrlsOf(db: Store, origin: string): Promise<string[]> {
  const job = await latestCrawlWithPages(db, origin);
  if (!job) return [];
  return queuedUrlsOfStoredPages(db, job.id);
}

/** Adds the job row for a check that is about to run. */
export async function createCheckJob(db: Store, input: { jobId: string; pageUrl: string }): Promise<CheckJob> {
  const now = Date.now();
  const job: CheckJob = { id: input.jobId, origin: new URL(input.pageUrl).origin, kind: 'check', state: 'running', createdAt: now, startedAt: now, startUrl: input.pageUrl, counters: {}, message: 'Checking the site…' };
  await putCheckJob(db, job);
  return job;
}

/** Runs the check and stores its report on the job. Rejects only when the database does. */
export async function runCheckJob(db: Store, input: { jobId: string; pageUrl: string; fetch: typeof fetch; crawl: boolean }): Promise<void> {
  const job = (await jobById(db, input.jobId)) ?? (await createCheckJob(db, input));
  try {
    const crawledUrls = input.crawl ? await crawledUrlsOf(db, job.origin) : [];
    const { report } = await runSiteCheck({ pageUrl: input.pageUrl, fetch: input.fetch, crawledUrls, onProgress: (message) => void setJobFields(db, job.id, { message }) });
    await finishCheck(db, job, { state: 'done', endedAt: Date.now(), report, message: report.verdict, counters: { passed: report.passed, applicable: report.applicable, findings: report.findings.length } }, KEEP);
  } catch (error) {
    await setJobFields(db, job.id, { state: 'failed', endedAt: Date.now(), message: `The check stopped: ${error instanceof Error ? error.message : String(error)}` });
  }
}
