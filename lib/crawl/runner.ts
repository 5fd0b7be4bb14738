import type { FrontierRecord, JobRecord, JobState, ScoutDb } from '../db';
import type { DomAdapter } from '../convert/dom';
import { fetchText } from '../fetch/fetch-text';
import { parseRobots, type RobotsInfo } from '../discovery/robots';
import { notFoundReason } from '../discovery/soft-404';
import { createScope } from '../url/scope';
import { Frontier } from './frontier';
import { toEntries, type ClassifyContext } from './links';
import { processPage, type PageOutcome } from './process-page';
import { progressMessage, type CrawlCounters } from './progress';
import { collectSeeds } from './seeds';

export interface RunnerDeps {
  db: ScoutDb;
  fetch: typeof fetch;
  dom: DomAdapter;
  /** Fetch timeout per request (10 s by default). */
  timeoutMs?: number;
}

interface HostState {
  inflight: number;
  nextAt: number;
  robots?: Promise<RobotsInfo | null>;
  robotsValue?: RobotsInfo | null;
}

/** Progress is written at most this often: enough to look live, few enough writes to stay cheap. */
const PROGRESS_EVERY_MS = 250;

/**
 * Runs one crawl job to its end, a pause or a cancel. Everything it knows is in
 * Dexie: a new runner for the same job (after the worker died) recovers
 * in-flight URLs and carries on. A page's result and the links it adds are one
 * transaction, so a page is never lost and never stored twice.
 */
export class CrawlRunner {
  private readonly abort = new AbortController();
  private stopRequest: 'pause' | 'cancel' | null = null;
  private readonly hosts = new Map<string, HostState>();
  private readonly done: number[] = [];
  private readonly timings = { fetch: 0, convert: 0, store: 0 };
  private stored = 0;
  private respectRobots = true;
  private inflight = 0;
  private lastProgress = 0;
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

  private wake(): void {
    this.woken = true;
    this.resolveSleep();
  }

  /** Stop now: in-flight requests are aborted and their URLs go back to pending. */
  cancel(): void {
    this.stopRequest = 'cancel';
    this.abort.abort();
    this.wake();
  }

  async run(): Promise<JobState> {
    const { db } = this.deps;
    const job = await db.jobs.get(this.jobId);
    if (!job || job.state !== 'running' || !job.settings || !job.startUrl) return job?.state ?? 'failed';
    const settings = job.settings;
    this.respectRobots = settings.respectRobots;
    let scope: (url: string) => string | null;
    try {
      scope = createScope({ startUrl: job.startUrl, mode: settings.scope, include: settings.include, exclude: settings.exclude });
    } catch (error) {
      return this.finish('failed', `Crawl settings are not valid: ${error instanceof Error ? error.message : String(error)}`);
    }
    const frontier = new Frontier(db, this.jobId);
    await frontier.init();
    await frontier.recover();
    this.stored = await db.pages.where('[jobId+state]').equals([this.jobId, 'stored']).count();
    const ctx: ClassifyContext = { scope, robots: (host) => (settings.respectRobots ? this.hosts.get(host)?.robotsValue : null) };
    if (settings.respectRobots) await this.loadRobots(new URL(job.startUrl).hostname);

    if ((await db.frontier.where('[jobId+seq]').between([this.jobId, 0], [this.jobId, Infinity]).count()) === 0) {
      await this.seed(job, frontier, ctx);
    }

    const tasks = new Set<Promise<void>>();
    for (;;) {
      if (this.stopRequest) break;
      const hostLimit = (host: string) => (this.hosts.get(host)?.robotsValue?.crawlDelaySeconds() ? 1 : settings.perHostConcurrency);
      const room = Math.min(settings.perHostConcurrency * 2 - this.inflight, settings.maxPages - this.stored - this.inflight);
      const now = Date.now();
      const batch = await frontier.claim(room, (e) => {
        const h = this.host(new URL(e.url).hostname);
        if (h.inflight >= hostLimit(new URL(e.url).hostname) || h.nextAt > now) return false;
        h.inflight++; // reserve now so one claim cannot overfill a host
        return true;
      });
      for (const entry of batch) {
        this.inflight++;
        const task = this.handle(entry, frontier, ctx, settings.maxDepth).catch((error: unknown) => this.recordFailure(entry, error)).finally(() => {
          this.inflight--;
          this.host(new URL(entry.url).hostname).inflight--;
          tasks.delete(task);
          this.wake();
        });
        tasks.add(task);
      }
      await this.reportProgress(frontier, false);
      if (this.inflight === 0 && batch.length === 0) {
        if (this.stored >= settings.maxPages || !(await frontier.hasPending())) break;
      }
      // Sleep until a task ends, a stop request comes, or the next host becomes free to fetch.
      const nextHostAt = Math.min(...[...this.hosts.values()].map((h) => h.nextAt).filter((t) => t > Date.now()), Date.now() + 1000);
      if (!this.woken) {
        await new Promise<void>((resolve) => {
          this.resolveSleep = resolve;
          setTimeout(resolve, Math.max(5, nextHostAt - Date.now()));
        });
      }
      this.woken = false;
    }
    await Promise.all(tasks);
    await this.reportProgress(frontier, true);
    if (this.stopRequest === 'cancel') {
      await frontier.recover();
      return this.finish('cancelled', 'Cancelled. Pages stored so far are kept.');
    }
    if (this.stopRequest === 'pause') return this.finish('paused', 'Paused. Resume to carry on where it stopped.');
    const counters = await this.counters(frontier);
    return this.finish('done', progressMessage(counters, 'done', settings.maxPages));
  }

  private host(name: string): HostState {
    let h = this.hosts.get(name);
    if (!h) this.hosts.set(name, (h = { inflight: 0, nextAt: 0 }));
    return h;
  }

  private async loadRobots(hostname: string): Promise<RobotsInfo | null> {
    const h = this.host(hostname);
    h.robots ??= (async () => {
      const job = await this.deps.db.jobs.get(this.jobId);
      const origin = job?.startUrl && new URL(job.startUrl).hostname === hostname ? new URL(job.startUrl).origin : `https://${hostname}`;
      const url = `${origin}/robots.txt`;
      try {
        const res = await fetchText(url, { fetch: this.deps.fetch, timeoutMs: this.deps.timeoutMs ?? 10_000 });
        return notFoundReason(res) ? null : parseRobots(url, res.text);
      } catch {
        return null; // No robots.txt reachable: nothing is disallowed.
      }
    })().then((r) => (h.robotsValue = r));
    return h.robots;
  }

  private async seed(job: JobRecord, frontier: Frontier, ctx: ClassifyContext): Promise<void> {
    const settings = job.settings;
    if (!settings || !job.startUrl) return;
    await this.deps.db.jobs.update(this.jobId, { message: 'Collecting seeds from llms.txt files and sitemaps…' });
    const seeds = settings.useSeeds ? await collectSeeds(this.deps.db, job.startUrl, this.deps.fetch, settings.maxPages * 4) : [{ url: job.startUrl, source: 'start' as const, preferMarkdown: false }];
    // Skipped URLs are stored too, once each, so the user sees every one with its reason.
    await frontier.addNew(toEntries(seeds.map((s) => ({ ...s, depth: 0 })), ctx));
  }

  private async handle(entry: FrontierRecord, frontier: Frontier, ctx: ClassifyContext, maxDepth: number): Promise<void> {
    const hostname = new URL(entry.url).hostname;
    const robots = this.respectRobots ? await this.loadRobots(hostname) : null;
    const delay = robots?.crawlDelaySeconds();
    if (delay) this.host(hostname).nextAt = Date.now() + delay * 1000;
    const outcome: PageOutcome =
      robots && !robots.isAllowed(entry.url)
        ? { state: 'skipped', reason: 'Disallowed by robots.txt', retries: 0 }
        : await processPage(entry, { fetch: this.deps.fetch, dom: this.deps.dom, scope: ctx.scope, signal: this.abort.signal, timeoutMs: this.deps.timeoutMs, timings: this.timings });
    if (this.abort.signal.aborted) return; // Cancelled mid-fetch: the URL stays in-flight and recover() requeues it.
    const t0 = Date.now();
    const { db } = this.deps;
    let storedNew = false;
    await db.transaction('rw', db.frontier, db.pages, db.jobs, async () => {
      if (outcome.state === 'done') {
        const { page } = outcome;
        const duplicate = await db.pages.where('[jobId+contentHash]').equals([this.jobId, page.contentHash]).first();
        await db.pages.put({ ...page, jobId: this.jobId, key: entry.key, depth: entry.depth, state: duplicate ? 'duplicate' : 'stored', duplicateOf: duplicate?.url, fetchedAt: Date.now() });
        storedNew = !duplicate;
        if (entry.depth < maxDepth) await this.enqueueLinks(outcome.links, entry, frontier, ctx);
        if (outcome.nav.length) await this.keepNav(outcome.nav);
      }
      await db.frontier.update([this.jobId, entry.key], {
        state: outcome.state,
        reason: outcome.state === 'done' ? undefined : outcome.reason,
        retries: outcome.retries,
        updatedAt: Date.now(),
      });
    });
    if (storedNew) this.stored++;
    this.timings.store += Date.now() - t0;
    this.done.push(Date.now());
  }

  private async enqueueLinks(links: string[], from: FrontierRecord, frontier: Frontier, ctx: ClassifyContext): Promise<void> {
    await frontier.addNew(toEntries(links.map((url) => ({ url, depth: from.depth + 1, source: 'link' as const, parentUrl: from.url })), ctx));
  }

  /** A bug or a storage error must not stall the crawl: the URL fails with the reason, and the crawl goes on. */
  private async recordFailure(entry: FrontierRecord, error: unknown): Promise<void> {
    const reason = `Could not process the page: ${error instanceof Error ? error.message : String(error)}`;
    console.error(reason, entry.url, error);
    await this.deps.db.frontier.update([this.jobId, entry.key], { state: 'failed', reason, updatedAt: Date.now() }).catch(() => undefined);
  }

  /** The first page with a recognisable sidebar gives the site's navigation order (for llms.txt sections). */
  private async keepNav(nav: JobRecord['nav']): Promise<void> {
    const job = await this.deps.db.jobs.get(this.jobId);
    if (job && !job.nav?.length) await this.deps.db.jobs.update(this.jobId, { nav });
  }

  private async counters(frontier: Frontier): Promise<CrawlCounters> {
    const { db } = this.deps;
    const counts = await frontier.counts();
    const duplicates = await db.pages.where('[jobId+state]').equals([this.jobId, 'duplicate']).count();
    const window = this.done.filter((t) => t > Date.now() - 10_000);
    const job = await db.jobs.get(this.jobId);
    const depth = (await db.frontier.where('[jobId+state+depth+seq]').between([this.jobId, 'pending', 0, 0], [this.jobId, 'pending', Infinity, Infinity]).first())?.depth;
    return {
      ...counts,
      stored: this.stored,
      duplicates,
      discovered: counts.pending + counts.inflight + counts.done + counts.failed + counts.skipped,
      depth: depth ?? job?.counters.depth ?? 0,
      rate: Math.round((window.length / Math.min(10, Math.max(1, (Date.now() - (job?.startedAt ?? Date.now())) / 1000))) * 10) / 10,
      fetchMs: this.timings.fetch,
      convertMs: this.timings.convert,
      storeMs: this.timings.store,
    };
  }

  private async reportProgress(frontier: Frontier, force: boolean): Promise<void> {
    if (!force && Date.now() - this.lastProgress < PROGRESS_EVERY_MS) return;
    this.lastProgress = Date.now();
    const job = await this.deps.db.jobs.get(this.jobId);
    if (!job || job.state !== 'running') return;
    const counters = await this.counters(frontier);
    await this.deps.db.jobs.update(this.jobId, { counters: { ...counters }, message: progressMessage(counters, 'running', job.settings?.maxPages ?? 0) });
  }

  private async finish(state: JobState, message: string): Promise<JobState> {
    await this.deps.db.jobs.update(this.jobId, { state, message, ...(state === 'paused' ? {} : { endedAt: Date.now() }) });
    return state;
  }
}
