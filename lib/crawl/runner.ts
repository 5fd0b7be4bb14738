import { linkedomAdapter, type DomAdapter } from '../convert/dom';
import type { CrawlJob, JobState } from '../store/db';
import { createScope, type Scope } from '../url/scope';
import type { Frontier } from './frontier';
import { toEntries, type ClassifyContext } from './links';
import { PageWriter, type WriterView } from './page-writer';
import { progressMessage, type CrawlCounters } from './progress';
import { QueueRunner, type QueueDeps } from './queue-runner';
import type { HostGate } from './host-gate';
import { collectSeeds } from './seeds';
import { PLAN_RUNNING_MESSAGE, planCrawl } from './plan';
import { countPages, updateJob } from '../store/queries';
import { queuedCount } from '../store/frontier';
import { jobById, setJobFields } from '../store/jobs';

export interface RunnerDeps extends QueueDeps {
  /** Reads the start page when the crawl works out the docs' boundary itself (no plan yet); linkedom by default. */
  dom?: DomAdapter;
}
export { storageFailureMessage } from './queue-runner';

/**
 * Runs one crawl job to its end, a pause or a cancel. The queue starts from seeds (llms.txt
 * files, sitemaps, the start page) and grows with the in-scope links of each stored page, up to
 * the page limit; the scheduling is the shared QueueRunner's.
 */
export class CrawlRunner extends QueueRunner {
  private gate: HostGate | null = null;

  constructor(
    protected override readonly deps: RunnerDeps,
    jobId: string,
  ) {
    super(deps, jobId);
  }

  async run(): Promise<JobState> {
    const { db } = this.deps;
    let job = await jobById(db, this.jobId);
    if (job?.kind !== 'crawl' || job.state !== 'running') return job?.state ?? 'failed';
    this.deps.prepare?.();
    const { settings, startUrl } = job;
    if (settings.scope === 'docs' && !job.boundary && (await queuedCount(db, this.jobId)) === 0) job = await this.findBoundary(job);
    let scope: Scope;
    try {
      scope = createScope({ startUrl, mode: settings.scope, include: settings.include, exclude: settings.exclude, ...(job.boundary ? { boundary: job.boundary } : {}) });
    } catch (error) {
      return this.finish('failed', `Crawl settings are not valid: ${error instanceof Error ? error.message : String(error)}`);
    }
    const queue = await this.openQueue(startUrl, settings);
    const { gate, frontier } = queue;
    this.gate = gate;
    const ctx: ClassifyContext = { scope, robots: (host) => (settings.respectRobots ? gate.rules(host) : null), hashRoutes: job.hashRoutes };
    const writer = new PageWriter(db, this.jobId, frontier, ctx, settings.maxDepth, this.wake, this.storageFailed);
    await writer.init();
    writer.stored = await countPages(db, this.jobId, 'stored');
    writer.duplicates = await countPages(db, this.jobId, 'duplicate');
    // Counted as pages are written, kept in the job's counters: a resumed run carries on from there.
    writer.rendered = job.counters.rendered ?? 0;
    writer.empty = job.counters.empty ?? 0;
    if ((await queuedCount(db, this.jobId)) === 0) await this.seed(job, frontier, ctx);

    const startedAt = job.startedAt ?? job.createdAt;
    const now = (): WriterView => ({ counts: frontier.counts(), stored: writer.stored, duplicates: writer.duplicates, rendered: writer.rendered, empty: writer.empty, notDocs: writer.notDocs, storeMs: writer.storeMs });
    const progress = (view: WriterView) => {
      const counters = this.counters(view, frontier.depth, startedAt);
      return { counters: { ...counters }, message: progressMessage(counters, 'running', settings.maxPages) };
    };
    const report = async () => void (await updateJob(db, this.jobId, 'crawl', progress(now())));
    // The batches carry the progress while they come often enough (see PageWriter.progress).
    writer.progress = (after) => (this.progressDue() ? progress(after()) : undefined);
    return this.runQueue({
      ...queue,
      ...(job.boundary ? { boundary: job.boundary } : {}),
      writer,
      room: (inPipeline) => settings.maxPages - writer.stored - inPipeline,
      reachedLimit: () => writer.stored >= settings.maxPages,
      robotsReason: 'Disallowed by robots.txt',
      failureReason: (message) => `Could not process the page: ${message}`,
      report,
      progressInBatches: true,
      stopOnRefusals: !job.stoppedOnRefusals,
      messages: {
        cancelled: 'Cancelled. Pages stored so far are kept.',
        paused: 'Paused. Resume to carry on where it stopped.',
        done: () => progressMessage(this.counters(now(), frontier.depth, startedAt), 'done', settings.maxPages),
      },
    });
  }

  /**
   * A `docs` crawl keeps to the documentation's boundary: the plan's, made now when the panel has
   * not made one from the site's current discovery. It is kept on the job, so a resumed crawl
   * keeps the same scope. A plan that fails leaves the crawl on the start page's host.
   */
  private async findBoundary(job: CrawlJob): Promise<CrawlJob> {
    const { db, fetch } = this.deps;
    await setJobFields(db, this.jobId, { message: PLAN_RUNNING_MESSAGE });
    const plan = await planCrawl(db, job.startUrl, { fetch, dom: this.deps.dom ?? linkedomAdapter, signal: this.abort.signal, timeoutMs: this.deps.timeoutMs }, { maxSitemapUrls: Math.max(job.settings.maxPages * 4, 1) });
    if (plan.state !== 'done' || !plan.boundary) return job;
    await updateJob(db, this.jobId, 'crawl', { boundary: plan.boundary });
    return { ...job, boundary: plan.boundary };
  }

  private async seed(job: CrawlJob, frontier: Frontier, ctx: ClassifyContext): Promise<void> {
    const { settings, startUrl } = job;
    await setJobFields(this.deps.db, this.jobId, { message: 'Collecting seeds from llms.txt files and sitemaps…' });
    const seeds = settings.useSeeds
      ? await collectSeeds(this.deps.db, startUrl, this.deps.fetch, settings.maxPages * 4, this.abort.signal)
      : [{ url: startUrl, source: 'start' as const, preferMarkdown: false }];
    // Skipped URLs are stored too, once each, so the user sees every one with its reason.
    await frontier.enqueue(toEntries(seeds.map((s) => ({ ...s, depth: 0 })), ctx));
  }

  private counters(view: WriterView, depth: number, startedAt: number): CrawlCounters {
    const { counts } = view;
    // The slowest paced host sets the pace the user waits on.
    const pace = (this.gate?.paces() ?? []).sort((a, b) => b.usedS - a.usedS)[0];
    return {
      ...(pace ? { crawlDelayAsked: pace.askedS, crawlDelayUsed: pace.usedS } : {}),
      ...counts,
      stored: view.stored,
      duplicates: view.duplicates,
      rendered: view.rendered,
      empty: view.empty,
      notDocs: view.notDocs,
      discovered: counts.pending + counts.inflight + counts.done + counts.failed + counts.skipped,
      depth,
      rate: this.rate(startedAt),
      fetchMs: this.timings.fetch,
      convertMs: this.timings.convert,
      storeMs: view.storeMs,
    };
  }
}
