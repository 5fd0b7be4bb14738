import type { FrontierRecord, JobRecord, JobState, ScoutDb } from '../db';
import { createScope } from '../url/scope';
import { Frontier } from './frontier';
import { HostGate } from './host-gate';
import { toEntries, type ClassifyContext } from './links';
import { PageWriter } from './page-writer';
import type { PageOutcome } from './process-page';
import type { HostSlot, PageProcessor } from './processor';
import { progressMessage, type CrawlCounters } from './progress';
import { collectSeeds } from './seeds';
import type { CrawlSettings } from './settings';
import { countPages, frontierOf } from '../queries';

export interface RunnerDeps {
  db: ScoutDb;
  /** For robots.txt; pages go through `process`. */
  fetch: typeof fetch;
  process: PageProcessor;
  /** Fetch timeout per request (10 s by default). */
  timeoutMs?: number;
  /**
   * Pages the processor converts at once (its conversion queue's capacity; 1 by default). Fetched
   * pages waiting for conversion are kept under twice this: past it, no new request starts, so
   * memory stays bounded when conversion is slower than the network.
   */
  converters?: number;
}

/** Progress is written at most this often: enough to look live, few enough writes to stay cheap. */
const PROGRESS_EVERY_MS = 250;

/**
 * Runs one crawl job to its end, a pause or a cancel. Everything it knows is in
 * Dexie: a new runner for the same job (after the worker died) recovers
 * in-flight URLs and carries on. URLs are claimed ahead into a small buffer so
 * a free fetch slot never waits for a database round trip, and results are
 * written in batches (see PageWriter).
 */
export class CrawlRunner {
  private readonly abort = new AbortController();
  private stopRequest: 'pause' | 'cancel' | null = null;
  /** Why the runner paused itself, when it was not the user. */
  private pauseMessage: string | null = null;
  private readonly finished: number[] = [];
  private readonly timings = { fetch: 0, convert: 0 };
  /** Set when something happened (a task ended, a stop was asked) so the loop doesn't sleep through it. */
  private woken = false;
  private resolveSleep: () => void = () => undefined;

  constructor(
    private readonly deps: RunnerDeps,
    readonly jobId: string,
  ) {}

  /** Stop taking new URLs; in-flight ones finish, then the job is paused. */
  pause(): void {
    this.stopRequest ??= 'pause';
    this.wake();
  }

  /** Stop now: in-flight requests are aborted and their URLs go back to pending. */
  cancel(): void {
    this.stopRequest = 'cancel';
    this.abort.abort();
    this.wake();
  }

  private wake(): void {
    this.woken = true;
    this.resolveSleep();
  }

  async run(): Promise<JobState> {
    const { db } = this.deps;
    const job = await db.jobs.get(this.jobId);
    if (job?.state !== 'running' || !job.settings || !job.startUrl) return job?.state ?? 'failed';
    const { settings, startUrl } = job;
    let scope: (url: string) => string | null;
    try {
      scope = createScope({ startUrl, mode: settings.scope, include: settings.include, exclude: settings.exclude });
    } catch (error) {
      return this.finish('failed', `Crawl settings are not valid: ${error instanceof Error ? error.message : String(error)}`);
    }
    const gate = new HostGate(settings.perHostConcurrency, this.deps.fetch, this.deps.timeoutMs ?? 10_000);
    const ctx: ClassifyContext = { scope, robots: (host) => (settings.respectRobots ? gate.rules(host) : null), hashRoutes: job.hashRoutes };
    const frontier = new Frontier(db, this.jobId);
    await frontier.init();
    await frontier.recover();
    const writer = new PageWriter(db, this.jobId, frontier, ctx, settings.maxDepth, () => this.wake(), (error) => {
      this.pauseMessage = storageFailureMessage(error);
      this.pause();
    });
    await writer.init();
    writer.stored = await countPages(db, this.jobId, 'stored');
    writer.duplicates = await countPages(db, this.jobId, 'duplicate');
    // Counted as pages are written, kept in the job's counters: a resumed run carries on from there.
    writer.rendered = job.counters.rendered ?? 0;
    if (settings.respectRobots) await gate.loadRobots(new URL(startUrl).origin);
    if ((await frontierOf(db, this.jobId).count()) === 0) {
      await this.seed(job, frontier, ctx);
    }

    const buffer: FrontierRecord[] = [];
    const active = new Set<Promise<void>>();
    const slots = settings.perHostConcurrency;
    // Pages whose request is in flight (they hold a host slot), and pages fetched and not yet
    // converted and handed to the writer: the conversion backlog that backpressure bounds.
    let fetching = 0;
    let converting = 0;
    const maxConverting = 2 * Math.max(1, this.deps.converters ?? 1);
    // Starts buffered URLs whose host has a free slot. Synchronous, and called the moment a
    // slot is released, so a free slot never waits on a database round trip.
    const pump = () => {
      if (this.stopRequest) return;
      for (let i = 0; i < buffer.length && converting < maxConverting; ) {
        const entry = buffer[i];
        if (entry && gate.canStart(new URL(entry.url).hostname)) {
          buffer.splice(i, 1);
          start(entry);
        } else i++;
      }
    };
    const start = (entry: FrontierRecord) => {
      const host = new URL(entry.url).hostname;
      gate.acquire(host);
      fetching++;
      let held = true;
      const slot: HostSlot = {
        // The response is read: the host's next request may go out while this page converts.
        release: () => {
          if (!held) return;
          held = false;
          fetching--;
          converting++;
          gate.release(host);
          pump();
          this.wake();
        },
        reacquire: async () => {
          await gate.acquireWhenFree(host);
          return () => {
            gate.release(host);
            pump();
          };
        },
      };
      const task = this.process(entry, { startUrl, settings }, gate, slot)
        .then((outcome) => {
          if (!this.abort.signal.aborted) writer.add(entry, outcome);
        })
        .catch((error: unknown) => {
          // A processor may throw on Cancel (an aborted message): the URL goes back to pending, not failed.
          if (!this.abort.signal.aborted) writer.add(entry, { state: 'failed', reason: `Could not process the page: ${error instanceof Error ? error.message : String(error)}`, retries: 0 });
        })
        .finally(() => {
          if (held) {
            held = false;
            fetching--;
            gate.release(host);
          } else converting--;
          active.delete(task);
          this.finished.push(Date.now());
          pump();
          this.wake();
        });
      active.add(task);
    };
    const progress = setInterval(() => void this.reportProgress(frontier, writer, job), PROGRESS_EVERY_MS);

    try {
      for (;;) {
        if (this.stopRequest) break;
        pump();
        // Claim ahead: keep about two URLs per slot buffered, within the page limit.
        const inPipeline = buffer.length + active.size + writer.pending;
        const want = Math.min(slots * 3 - buffer.length - fetching, settings.maxPages - writer.stored - inPipeline);
        if (want > 0 && buffer.length < slots * 2 && frontier.hasPending()) {
          const claimed = await frontier.claim(want);
          buffer.push(...claimed);
          if (claimed.length) continue;
        }
        if (buffer.length === 0 && active.size === 0 && writer.idle) {
          if (writer.stored >= settings.maxPages || !frontier.hasPending()) break;
          if (this.woken) {
            this.woken = false;
            continue;
          }
        }
        await this.sleep(gate.nextFreeAt());
      }
    } finally {
      clearInterval(progress);
    }

    await Promise.all(active);
    await writer.drain();
    await frontier.release(buffer);
    if (this.stopRequest === 'cancel') {
      await frontier.recover();
      await this.reportProgress(frontier, writer, job);
      return this.finish('cancelled', 'Cancelled. Pages stored so far are kept.');
    }
    await this.reportProgress(frontier, writer, job);
    if (this.stopRequest === 'pause') return this.finish('paused', this.pauseMessage ?? 'Paused. Resume to carry on where it stopped.');
    return this.finish('done', progressMessage(this.counters(frontier, writer, job.startedAt ?? job.createdAt), 'done', settings.maxPages));
  }

  /** Waits until woken, or until the next paced host is free (at most 1 s, to re-check the queue). */
  private async sleep(nextFreeAt: number | null): Promise<void> {
    if (!this.woken) {
      const ms = Math.min(1000, Math.max(5, (nextFreeAt ?? Infinity) - Date.now()));
      await new Promise<void>((resolve) => {
        this.resolveSleep = resolve;
        setTimeout(resolve, ms);
      });
    }
    this.woken = false;
  }

  private async process(entry: FrontierRecord, job: { startUrl: string; settings: CrawlSettings }, gate: HostGate, slot: HostSlot): Promise<PageOutcome> {
    if (job.settings.respectRobots) {
      const rules = await gate.loadRobots(new URL(entry.url).origin);
      if (rules && !rules.isAllowed(entry.url)) return { state: 'skipped', reason: 'Disallowed by robots.txt', retries: 0 };
    }
    const result = await this.deps.process({ entry, ...job, timeoutMs: this.deps.timeoutMs, slot }, this.abort.signal);
    this.timings.fetch += result.ms.fetch;
    this.timings.convert += result.ms.convert;
    return result;
  }

  private async seed(job: JobRecord, frontier: Frontier, ctx: ClassifyContext): Promise<void> {
    const { settings, startUrl } = job;
    if (!settings || !startUrl) return;
    await this.deps.db.jobs.update(this.jobId, { message: 'Collecting seeds from llms.txt files and sitemaps…' });
    const seeds = settings.useSeeds
      ? await collectSeeds(this.deps.db, startUrl, this.deps.fetch, settings.maxPages * 4)
      : [{ url: startUrl, source: 'start' as const, preferMarkdown: false }];
    // Skipped URLs are stored too, once each, so the user sees every one with its reason.
    frontier.remember(await frontier.addNew(toEntries(seeds.map((s) => ({ ...s, depth: 0 })), ctx)));
  }

  private counters(frontier: Frontier, writer: PageWriter, startedAt: number): CrawlCounters {
    const counts = frontier.counts();
    const recent = this.finished.filter((t) => t > Date.now() - 10_000).length;
    const elapsed = (Date.now() - startedAt) / 1000;
    return {
      ...counts,
      stored: writer.stored,
      duplicates: writer.duplicates,
      rendered: writer.rendered,
      discovered: counts.pending + counts.inflight + counts.done + counts.failed + counts.skipped,
      depth: frontier.depth,
      rate: Math.round((recent / Math.min(10, Math.max(1, elapsed))) * 10) / 10,
      fetchMs: this.timings.fetch,
      convertMs: this.timings.convert,
      storeMs: writer.storeMs,
    };
  }

  /** Writes the counters and the message; an interval calls it while running, and the end once more. */
  private async reportProgress(frontier: Frontier, writer: PageWriter, job: JobRecord): Promise<void> {
    const counters = this.counters(frontier, writer, job.startedAt ?? job.createdAt);
    await this.deps.db.jobs.update(this.jobId, { counters: { ...counters }, message: progressMessage(counters, 'running', job.settings?.maxPages ?? 0) });
  }

  private async finish(state: JobState, message: string): Promise<JobState> {
    await this.deps.db.jobs.update(this.jobId, { state, message, ...(state === 'paused' ? {} : { endedAt: Date.now() }) });
    return state;
  }
}

/** Plain words for a write the database refused; a full disk is the common case. */
export function storageFailureMessage(error: unknown): string {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  const inner = (error as { inner?: { name?: string } } | null)?.inner?.name ?? '';
  if (name === 'QuotaExceededError' || inner === 'QuotaExceededError') {
    return 'Paused: the browser refused to store more (storage is full). Free some disk space or delete old crawls, then resume. Nothing already stored was lost.';
  }
  return `Paused: a page could not be saved (${error instanceof Error ? error.message : String(error)}). Resume to try again; nothing already stored was lost.`;
}
