/**
 * The memory bodies of jobs.ts. A site has few jobs, so the questions read the table; the
 * operations that must be one transaction read and write without a yield, and the one that awaits
 * its caller's callback in between (`createOnLatestCrawl`) runs alone and checks again after it.
 * What resuming and stopping write is decided here once, for both bodies.
 */
import type { CrawlJob, JobKind, JobOf, JobRecord } from '../db';
import type { CrawlBlocked, JobFields, PageJob } from '../records/crawl-store';
import { jobsNewestFirst, latestCrawlWithPagesNow, updateNow } from './queries';
import { compareStrings, copy, type MemoryStore } from './store';

const isPageJob = (j: JobRecord): j is PageJob => j.kind === 'crawl' || j.kind === 'refresh';

/** Running crawls and refreshes in id order, as the `state` index gives them (the stored objects). */
const runningNow = (store: MemoryStore): PageJob[] =>
  [...store.jobs.values()].filter((j): j is PageJob => j.state === 'running' && isPageJob(j)).sort((a, b) => compareStrings(a.id, b.id));

const activeNow = (store: MemoryStore, origin: string): PageJob | undefined => runningNow(store).find((j) => j.origin === origin);

function addNow(store: MemoryStore, job: JobRecord): void {
  if (store.jobs.has(job.id)) throw new DOMException(`A job with id ${job.id} exists already.`, 'ConstraintError');
  store.jobs.set(job.id, copy(job));
}

export async function addJob(store: MemoryStore, job: JobRecord): Promise<void> {
  addNow(store, job);
}

export async function jobById(store: MemoryStore, jobId: string): Promise<JobRecord | undefined> {
  const job = store.jobs.get(jobId);
  return job && copy(job);
}

export async function setJobFields(store: MemoryStore, jobId: string, changes: JobFields): Promise<number> {
  return updateNow(store, jobId, changes);
}

export async function activeJobFor(store: MemoryStore, origin: string): Promise<PageJob | undefined> {
  const job = activeNow(store, origin);
  return job && copy(job);
}

export async function createIfIdle<J extends JobRecord>(store: MemoryStore, origin: string, make: () => J): Promise<J | { active: PageJob }> {
  const active = activeNow(store, origin);
  if (active) return { active: copy(active) };
  const job = make();
  addNow(store, job);
  return job;
}

export function createOnLatestCrawl<J extends JobRecord, B extends { blocked: string }>(
  store: MemoryStore,
  origin: string,
  make: (crawl: CrawlJob, now: number) => J | B | Promise<J | B>,
): Promise<J | B | CrawlBlocked> {
  return store.exclusive(async (): Promise<J | B | CrawlBlocked> => {
    for (;;) {
      const crawl = latestCrawlWithPagesNow(store, origin);
      if (!crawl) return { blocked: 'no-crawl' };
      const busy = activeNow(store, origin);
      if (busy) return { blocked: 'busy', active: copy(busy) };
      const made = await make(copy(crawl), Date.now());
      // `make` may await: a crawl of the site started meanwhile, or a newer crawl stored its first
      // page, and the decision is made again on what is there now.
      if (latestCrawlWithPagesNow(store, origin)?.id !== crawl.id || activeNow(store, origin)) continue;
      if (!('blocked' in made)) addNow(store, made);
      return made;
    }
  });
}

/** What resuming the job writes, or undefined when it can't be resumed (shared with jobs.ts's Dexie body). */
export function resumeChanges(job: JobRecord | undefined): JobFields | undefined {
  if (!job || (job.kind !== 'crawl' && job.kind !== 'refresh') || !(job.state === 'paused' || job.state === 'running')) return undefined;
  return { state: 'running', message: 'Resuming…' };
}

/** What a Pause or Cancel without a runner writes, or undefined when nothing changes (shared with jobs.ts's Dexie body). */
export function stopChanges(job: JobRecord | undefined, to: 'paused' | 'cancelled', now: number): JobFields | undefined {
  if (!job || (job.kind !== 'crawl' && job.kind !== 'refresh')) return undefined;
  if (to === 'paused') {
    if (job.state !== 'running') return undefined;
    return { state: 'paused', message: job.kind === 'crawl' ? 'Paused. Resume to carry on where it stopped.' : 'Refresh paused. Resume to carry on.' };
  }
  if (job.state !== 'running' && job.state !== 'paused') return undefined;
  return { state: 'cancelled', endedAt: now, message: 'Cancelled. Pages stored so far are kept.' };
}

export async function markResumed(store: MemoryStore, jobId: string): Promise<boolean> {
  const changes = resumeChanges(store.jobs.get(jobId));
  if (changes) updateNow(store, jobId, changes);
  return changes !== undefined;
}

export async function stopWithoutRunner(store: MemoryStore, jobId: string, to: 'paused' | 'cancelled'): Promise<boolean> {
  const changes = stopChanges(store.jobs.get(jobId), to, Date.now());
  if (changes) updateNow(store, jobId, changes);
  return changes !== undefined;
}

export async function runningPageJobs(store: MemoryStore): Promise<PageJob[]> {
  return runningNow(store).map(copy);
}

export async function jobsOfKind<K extends JobKind>(store: MemoryStore, origin: string, kind: K): Promise<Array<JobOf<K>>> {
  return jobsNewestFirst(store, origin).filter((j): j is JobOf<K> => j.kind === kind);
}
