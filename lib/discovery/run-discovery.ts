import type { DiscoveredFileRecord, DiscoveryCounters, DiscoveryJob } from '../store/db';
import type { Store } from '../store/store';
import { failDiscoveryRow, finishDiscovery, putDiscoveryJob, storeFindings } from '../store/discovered';
import { setJobFields } from '../store/jobs';
import { updateJob } from '../store/queries';
import { discover } from './discover';
import type { DiscoveryResult, DiscoverySummary } from './types';
import { plural } from '../format';

export interface DiscoveryJobInput {
  jobId: string;
  pageUrl: string;
  fetch: typeof fetch;
  followDepth?: number;
  maxLinkedFiles?: number;
  now?: () => number;
}

/** Results arriving within this long are written in one transaction; the panel still fills in live. */
const WRITE_BATCH_MS = 100;

/**
 * Runs discovery for a page as a job: results land in Dexie one by one (the
 * side panel fills in live), the job row carries progress in words, and rows of
 * older runs for the site are dropped only once this run has finished.
 */
export async function runDiscoveryJob(db: Store, input: DiscoveryJobInput): Promise<DiscoveryJob> {
  const now = input.now ?? Date.now;
  const origin = new URL(input.pageUrl).origin;
  const job: DiscoveryJob = { id: input.jobId, origin, kind: 'discovery', state: 'running', createdAt: now(), startedAt: now(), counters: {}, message: 'Starting…' };
  await putDiscoveryJob(db, job);

  // Writes are chained so a result's later update never races its first insert, and batched:
  // each write wakes every open panel's query of all rows, so 1,000 rows one by one made the
  // panel read them 1,000 times (1.35 GB in the extension's renderer on a hostile site).
  const ids = new Map<string, number>();
  const pending = new Map<string, DiscoveryResult>();
  let scheduled = false;
  let writes: Promise<unknown> = Promise.resolve();
  const write = (r: DiscoveryResult) => {
    pending.set(r.url, r);
    if (scheduled) return;
    scheduled = true;
    writes = writes
      .then(() => new Promise((resolve) => setTimeout(resolve, WRITE_BATCH_MS)))
      .then(() => {
        scheduled = false;
        const batch = [...pending.values()];
        pending.clear();
        const rows = batch.map((result): DiscoveredFileRecord => {
          const id = ids.get(result.url);
          return { ...result, origin, jobId: job.id, fetchedAt: now(), ...(id !== undefined ? { id } : {}) };
        });
        return storeFindings(db, rows).then((stored) => {
          for (const [i, row] of rows.entries()) {
            const id = stored[i];
            if (id !== undefined) ids.set(row.url, id);
          }
        });
      });
  };

  try {
    const summary = await discover({
      pageUrl: input.pageUrl,
      fetch: input.fetch,
      followDepth: input.followDepth,
      maxLinkedFiles: input.maxLinkedFiles,
      onResult: write,
      onProgress: (message) => void setJobFields(db, job.id, { message }),
    });
    await writes;
    const done: Partial<DiscoveryJob> = { state: 'done', endedAt: now(), counters: countersOf(summary), message: summaryMessage(summary) };
    await finishDiscovery(db, job, done);
    return { ...job, ...done };
  } catch (error) {
    await writes.catch(() => undefined);
    const failed: Partial<DiscoveryJob> = { state: 'failed', endedAt: now(), message: `Discovery failed: ${error instanceof Error ? error.message : String(error)}` };
    await updateJob(db, job.id, 'discovery', failed);
    return { ...job, ...failed };
  }
}

/**
 * Ends a discovery job that failed outside {@link runDiscoveryJob} (before it started, or on a
 * write it could not make), creating the row when the run never did, so the panel shows why.
 */
export async function failDiscoveryJob(db: Store, input: { jobId: string; pageUrl: string; now?: () => number }, error: unknown): Promise<void> {
  const now = input.now ?? Date.now;
  const failed = { state: 'failed' as const, endedAt: now(), message: `Discovery failed: ${error instanceof Error ? error.message : String(error)}` };
  await failDiscoveryRow(db, input.jobId, () => ({ id: input.jobId, origin: new URL(input.pageUrl).origin, kind: 'discovery', state: 'running', createdAt: now(), startedAt: now(), counters: {}, message: '' }), failed);
}

export function countersOf(s: DiscoverySummary): DiscoveryCounters {
  const found = s.results.filter((r) => r.status === 'found');
  return {
    llms: found.filter((r) => r.kind === 'llms' || r.kind === 'llms-full' || r.kind === 'well-known').length,
    linked: found.filter((r) => r.sources.includes('linked')).length,
    notFollowed: s.results.filter((r) => r.status === 'not-followed').length,
    sitemaps: found.filter((r) => r.kind === 'sitemap').length,
    checked: s.results.length,
    overCap: s.overCap,
    unlisted: s.unlisted,
    ms: s.ms,
  };
}

export function summaryMessage(s: DiscoverySummary): string {
  const c = countersOf(s);
  const parts = [c.llms ? `${plural(c.llms, 'llms file')} found` : 'No llms.txt found'];
  if (c.sitemaps) parts.push(plural(c.sitemaps, 'sitemap'));
  if (c.overCap) parts.push(`${c.overCap} more linked files not fetched (cap reached)`);
  if (c.unlisted) parts.push(`${plural(c.unlisted, 'more location')} not listed (limit of ${plural(c.checked, 'row')})`);
  const took = s.ms < 1000 ? `${s.ms} ms` : `${(s.ms / 1000).toFixed(1)} s`;
  return `${parts.join(' · ')} · checked ${plural(c.checked, 'location')} in ${took}`;
}
