/**
 * The Check view's runs as jobs: the worker writes a `check` job with its progress message and,
 * once done, the report; the panel reads it with a live query. A worker stopped mid-check leaves
 * a job marked running, which the next worker marks failed.
 */
import type { CheckJob, ScoutDb } from '../store/db';
import { latestCrawlWithPages, updateJob } from '../store/queries';
import { runSiteCheck } from './run';

/** Finished checks kept per site (the newest is shown; older ones go). */
const KEEP = 3;

/** The stored page URLs of the site's latest crawl: the "optional crawl" the coverage check adds. */
export async function crawledUrlsOf(db: ScoutDb, origin: string): Promise<string[]> {
  const job = await latestCrawlWithPages(db, origin);
  if (!job) return [];
  const pages = await db.pages.where('[jobId+state]').equals([job.id, 'stored']).toArray();
  // The page's own address, as queued: a page read from its .md twin has the twin as finalUrl.
  const queued = await db.frontier.bulkGet(pages.map((p): [string, string] => [job.id, p.key]));
  return pages.map((p, i) => queued[i]?.url ?? p.finalUrl);
}

/** Adds the job row for a check that is about to run. */
export async function createCheckJob(db: ScoutDb, input: { jobId: string; pageUrl: string }): Promise<CheckJob> {
  const now = Date.now();
  const job: CheckJob = { id: input.jobId, origin: new URL(input.pageUrl).origin, kind: 'check', state: 'running', createdAt: now, startedAt: now, startUrl: input.pageUrl, counters: {}, message: 'Checking the site…' };
  await db.jobs.put(job);
  return job;
}

/** Runs the check and stores its report on the job. Rejects only when the database does. */
export async function runCheckJob(db: ScoutDb, input: { jobId: string; pageUrl: string; fetch: typeof fetch; crawl: boolean }): Promise<void> {
  const job = (await db.jobs.get(input.jobId)) ?? (await createCheckJob(db, input));
  try {
    const crawledUrls = input.crawl ? await crawledUrlsOf(db, job.origin) : [];
    const { report } = await runSiteCheck({ pageUrl: input.pageUrl, fetch: input.fetch, crawledUrls, onProgress: (message) => void db.jobs.update(job.id, { message }) });
    await db.transaction('rw', db.jobs, async () => {
      await updateJob(db, job.id, 'check', { state: 'done', endedAt: Date.now(), report, message: report.verdict, counters: { passed: report.passed, applicable: report.applicable, findings: report.findings.length } });
      const older = await db.jobs.where('origin').equals(job.origin).filter((j) => j.kind === 'check' && j.id !== job.id && j.state !== 'running').sortBy('createdAt');
      await db.jobs.bulkDelete(older.slice(0, Math.max(0, older.length - (KEEP - 1))).map((j) => j.id));
    });
  } catch (error) {
    await db.jobs.update(job.id, { state: 'failed', endedAt: Date.now(), message: `The check stopped: ${error instanceof Error ? error.message : String(error)}` });
  }
}
