import type { FrontierRecord, JobState, PageChange, ScoutDb } from '../db';
import type { NewEntry } from '../db';
import { Frontier } from '../crawl/frontier';
import { HostGate } from '../crawl/host-gate';
import type { PageOutcome } from '../crawl/process-page';
import type { PageProcessor } from '../crawl/processor';
import type { CrawlSettings } from '../crawl/settings';
import { storageFailureMessage } from '../crawl/runner';
import { emptyRefreshCounters, refreshMessage, type RefreshCounters } from './counters';
import { DEFAULT_THRESHOLD } from './similarity';
import { RefreshWriter } from './writer';
import { pageChanges } from '../queries';

export interface RefreshDeps {
  db: ScoutDb;
  fetch: typeof fetch;
  process: PageProcessor;
  timeoutMs?: number;
}

const PROGRESS_EVERY_MS = 250;
const CHANGES: PageChange[] = ['unchanged', 'minor', 'changed', 'removed', 'restored', 'failed'];

/**
 * Re-checks every page of a crawl with conditional requests and records what
 * changed (see decide.ts). Like a crawl, all of its state is in Dexie — the
 * queue is a frontier of the refresh job — so a new runner resumes where a
 * stopped worker left off and no page is checked twice.
 */
export class RefreshRunner {
  private readonly abort = new AbortController();
  private stopRequest: 'pause' | 'cancel' | null = null;
  private pauseMessage: string | null = null;

  constructor(
    private readonly deps: RefreshDeps,
    readonly jobId: string,
  ) {}

  pause(): void {
    this.stopRequest ??= 'pause';
  }

  cancel(): void {
    this.stopRequest = 'cancel';
    this.abort.abort();
  }

  async run(): Promise<JobState> {
    const { db } = this.deps;
    const job = await db.jobs.get(this.jobId);
    if (job?.kind !== 'refresh' || job.state !== 'running' || !job.crawlJobId || !job.startUrl || !job.settings) return job?.state ?? 'failed';
    const { crawlJobId, startUrl, settings } = job;
    const threshold = (await db.sites.get(job.origin))?.monitor?.threshold ?? DEFAULT_THRESHOLD;
    const frontier = new Frontier(db, this.jobId);
    await frontier.init();
    await frontier.recover();
    if (Object.values(frontier.counts()).every((n) => n === 0)) await this.seed(frontier, crawlJobId);
    const counters = await this.restoreCounters(frontier, job.counters.bytes ?? 0);
    const writer = new RefreshWriter(db, { id: this.jobId, crawlJobId }, frontier, threshold, counters, (error) => {
      this.pauseMessage = storageFailureMessage(error);
      this.pause();
    });
    const gate = new HostGate(settings.perHostConcurrency, this.deps.fetch, this.deps.timeoutMs ?? 10_000);
    const report = (phase: 'running' | 'done') => db.jobs.update(this.jobId, { counters: { ...counters }, message: refreshMessage(counters, phase) });
    const progress = setInterval(() => void report('running'), PROGRESS_EVERY_MS);

    // A pool of workers, one per allowed request: each claims a URL, waits for its host's turn
    // (Crawl-delay), checks it and hands the result to the writer.
    const buffer: FrontierRecord[] = [];
    let claiming: Promise<void> | null = null;
    const next = async (): Promise<FrontierRecord | undefined> => {
      while (buffer.length === 0 && frontier.hasPending() && !this.stopRequest) {
        claiming ??= frontier.claim(settings.perHostConcurrency * 4).then((rows) => void buffer.push(...rows)).finally(() => (claiming = null));
        await claiming;
      }
      return this.stopRequest ? undefined : buffer.shift();
    };
    const worker = async () => {
      for (let entry = await next(); entry; entry = await next()) {
        const host = new URL(entry.url).hostname;
        while (!gate.canStart(host)) await new Promise((r) => setTimeout(r, Math.max(10, (gate.nextFreeAt() ?? Date.now() + 10) - Date.now())));
        gate.acquire(host);
        try {
          const outcome = await this.check(entry, { startUrl, settings }, gate);
          if (!this.abort.signal.aborted) writer.add(entry, outcome);
        } finally {
          gate.release(host);
        }
      }
    };
    try {
      if (settings.respectRobots) await gate.loadRobots(new URL(startUrl).origin);
      await Promise.all(Array.from({ length: settings.perHostConcurrency }, worker));
      await writer.drain();
    } finally {
      clearInterval(progress);
    }
    await frontier.release(buffer);
    if (this.stopRequest === 'cancel') {
      await frontier.recover();
      await report('running');
      return this.finish('cancelled', 'Refresh cancelled. Pages checked so far keep their new state.');
    }
    if (this.stopRequest === 'pause') {
      await report('running');
      return this.finish('paused', this.pauseMessage ?? 'Refresh paused. Resume to carry on.');
    }
    await report('done');
    return this.finish('done', refreshMessage(counters, 'done'));
  }

  private async check(entry: FrontierRecord, job: { startUrl: string; settings: CrawlSettings }, gate: HostGate): Promise<PageOutcome> {
    if (job.settings.respectRobots) {
      const rules = await gate.loadRobots(new URL(entry.url).origin);
      if (rules && !rules.isAllowed(entry.url)) return { state: 'skipped', reason: 'Disallowed by robots.txt now', retries: 0 };
    }
    try {
      return await this.deps.process({ entry, ...job, timeoutMs: this.deps.timeoutMs }, this.abort.signal);
    } catch (error) {
      return { state: 'failed', reason: `Could not check the page: ${error instanceof Error ? error.message : String(error)}`, retries: 0 };
    }
  }

  /** The crawl's pages (stored, and removed ones that may be back) become the refresh's queue, in crawl order. */
  private async seed(frontier: Frontier, crawlJobId: string): Promise<void> {
    const { db } = this.deps;
    const entries: NewEntry[] = [];
    await db.pages.where('[jobId+state]').anyOf([crawlJobId, 'stored'], [crawlJobId, 'removed']).each((p) => {
      // A page stored as Markdown came from a twin: ask for the twin again (its validators are the twin's).
      const entry: NewEntry & Pick<FrontierRecord, 'conditional'> = { url: p.url, key: p.key, depth: p.depth, source: 'start', preferMarkdown: p.format === 'markdown' };
      if (p.state === 'stored' && (p.etag || p.lastModified)) entry.conditional = { etag: p.etag, lastModified: p.lastModified };
      entries.push(entry);
    });
    entries.sort((a, b) => a.depth - b.depth);
    await db.transaction('rw', db.frontier, async () => frontier.remember(await frontier.addNew(entries)));
  }

  private async restoreCounters(frontier: Frontier, bytes: number): Promise<RefreshCounters> {
    const c = emptyRefreshCounters();
    const counts = await Promise.all(CHANGES.map((k) => pageChanges(this.deps.db, this.jobId, [k]).count()));
    CHANGES.forEach((k, i) => (c[k] = counts[i] ?? 0));
    c.checked = CHANGES.reduce((sum, k) => sum + c[k], 0);
    c.total = Object.values(frontier.counts()).reduce((a, b) => a + b, 0);
    c.bytes = bytes;
    return c;
  }

  private async finish(state: JobState, message: string): Promise<JobState> {
    await this.deps.db.jobs.update(this.jobId, { state, message, ...(state === 'paused' ? {} : { endedAt: Date.now() }) });
    return state;
  }
}
