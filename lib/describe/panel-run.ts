import type { JobState, ScoutDb } from '../store/db';
import { dropLease, failIfRunning, failStaleDescribeJobs as failStale, renewLease } from '../store/describe-jobs';
import { createDescribeJob, PANEL_CLOSED, runDescribeJob } from './run-describe';
import type { DescriptionProvider } from './types';

/** How long a panel's hold on its describe job lasts without renewal, and how often it renews it. */
export const LEASE_MS = 30_000;
const RENEW_MS = 10_000;

/**
 * Runs a describe job in the page that calls it: Chrome's on-device model is only exposed to pages,
 * so the side panel runs that one itself. While it runs, the page holds a lease on the job (renewed
 * every 10 s) so a worker that starts meanwhile does not take it for one a stopped worker left;
 * `signal` cancels it; a throw ends it failed with the reason instead of leaving it running.
 */
export async function runDescribeInPanel(db: ScoutDb, origin: string, provider: DescriptionProvider, options: { maxPages: number; signal?: AbortSignal }): Promise<{ jobId: string; state: JobState; reason?: string } | { error: string }> {
  const created = await createDescribeJob(db, origin, { leaseUntil: Date.now() + LEASE_MS });
  if ('error' in created) return created;
  const id = created.id;
  const renew = setInterval(() => void renewLease(db, id, Date.now() + LEASE_MS).catch(() => undefined), RENEW_MS);
  try {
    const state = await runDescribeJob(db, id, provider, { concurrency: 1, maxPages: options.maxPages, signal: options.signal });
    return { jobId: id, state };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await failIfRunning(db, id, `Stopped on an error: ${reason}`).catch(() => undefined);
    return { jobId: id, state: 'failed', reason };
  } finally {
    clearInterval(renew);
    await dropLease(db, id).catch(() => undefined);
  }
}

/**
 * For a worker starting up: describe jobs left "running" with no runner — the worker's own (a
 * stopped worker's), or a panel's whose lease lapsed — end failed. A panel's job under a live
 * lease is still running in that panel and is left alone.
 */
export function failStaleDescribeJobs(db: ScoutDb, message: string, now = Date.now()): Promise<number> {
  return failStale(db, message, PANEL_CLOSED, now);
}
