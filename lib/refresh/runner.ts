import type { FrontierRecord, JobState, PageChange } from '../store/db';
import type { NewEntry } from '../store/db';
import type { Frontier } from '../crawl/frontier';
import { QueueRunner, type QueueDeps } from '../crawl/queue-runner';
import { emptyRefreshCounters, refreshMessage, type RefreshCounters } from './counters';
import { DEFAULT_THRESHOLD } from './similarity';
import { RefreshWriter } from './writer';
import { changeCounts, eachPageToRecheck } from '../store/page-versions';
import { getJob, updateJob } from '../store/queries';
import { siteByOrigin } from '../store/sites';

export type RefreshDeps = QueueDeps;

const CHANGES: PageChange[] = ['unchanged', 'minor', 'changed', 'removed', 'restored', 'failed'];

/**
 * Re-checks every page of a crawl with conditional requests and records what changed (see
 * decide.ts). Its queue is a frontier of the refresh job seeded with the crawl's pages, drained by
 * the same QueueRunner as a crawl, so a new runner resumes where a stopped worker left off and no
 * page is checked twice.
 */
export class RefreshRunner extends QueueRunner {
  async run(): Promise<JobState> {
    const { db } = this.deps;
    const job = await getJob(db, this.jobId, 'refresh');
    // A running refresh is a started one (StartedRefreshJob): its crawl, start page and settings are set.
    if (job?.state !== 'running') return job?.state ?? 'failed';
    const { crawlJobId, startUrl, settings } = job;
    const threshold = (await siteByOrigin(db, job.origin))?.monitor?.threshold ?? DEFAULT_THRESHOLD;
    const queue = await this.openQueue(startUrl, settings);
    const { frontier } = queue;
    if (Object.values(frontier.counts()).every((n) => n === 0)) await this.seed(frontier, crawlJobId);
    const counters = await this.restoreCounters(frontier, job.counters.bytes ?? 0);
    const writer = new RefreshWriter(db, { id: this.jobId, crawlJobId }, frontier, threshold, counters, this.storageFailed, this.wake);
    return this.runQueue({
      ...queue,
      writer,
      // A refresh re-checks the pages it was given, however many: no limit.
      room: () => Number.POSITIVE_INFINITY,
      reachedLimit: () => false,
      robotsReason: 'Disallowed by robots.txt now',
      failureReason: (message) => `Could not check the page: ${message}`,
      report: (phase) => updateJob(db, this.jobId, 'refresh', { counters: { ...counters }, message: refreshMessage(counters, phase) }).then(() => undefined),
      messages: {
        cancelled: 'Refresh cancelled. Pages checked so far keep their new state.',
        paused: 'Refresh paused. Resume to carry on.',
        done: () => refreshMessage(counters, 'done'),
      },
    });
  }

  /** The crawl's pages (stored, and removed ones that may be back) become the refresh's queue, in crawl order. */
  private async seed(frontier: Frontier, crawlJobId: string): Promise<void> {
    const { db } = this.deps;
    const entries: NewEntry[] = [];
    await eachPageToRecheck(db, crawlJobId, (p) => {
      // A page stored as Markdown came from a twin: ask for the twin again (its validators are the twin's).
      const entry: NewEntry & Pick<FrontierRecord, 'conditional'> = { url: p.url, key: p.key, depth: p.depth, source: 'start', preferMarkdown: p.format === 'markdown' };
      if (p.state === 'stored' && (p.etag || p.lastModified)) entry.conditional = { etag: p.etag, lastModified: p.lastModified };
      entries.push(entry);
    });
    entries.sort((a, b) => a.depth - b.depth);
    await frontier.enqueue(entries);
  }

  private async restoreCounters(frontier: Frontier, bytes: number): Promise<RefreshCounters> {
    const c = emptyRefreshCounters();
    const counts = await changeCounts(this.deps.db, this.jobId, CHANGES);
    CHANGES.forEach((k, i) => (c[k] = counts[i] ?? 0));
    c.checked = CHANGES.reduce((sum, k) => sum + c[k], 0);
    c.total = Object.values(frontier.counts()).reduce((a, b) => a + b, 0);
    c.bytes = bytes;
    return c;
  }
}
