import type { FrontierRecord, JobState } from '../store/db';
import type { Store } from '../store/store';
import { setJobFields } from '../store/jobs';
import { latestJob } from '../store/queries';
import { discoveredRows } from './seeds';
import { Frontier } from './frontier';
import { InOrder } from './in-order';
import { DEFAULT_CRAWL_DELAY_CAP_S, HostGate } from './host-gate';
import type { HostSlot, LaterPlace, PageOutcome, PageProcessor, ProcessRequest, ProcessResult } from './processor';
import type { CrawlSettings } from './settings';
import type { DocsBoundary } from '../url/boundary';

export interface QueueDeps {
  db: Store;
  /** For robots.txt (and the crawl's seeds); pages go through `process`. */
  fetch: typeof fetch;
  process: PageProcessor;
  /** Fetch timeout per request (10 s by default). */
  timeoutMs?: number;
  /**
   * Pages the processor converts at once (its conversion queue's capacity; 1 by default). Fetched
   * pages waiting for a converter are kept under twice this: past it, no new request starts, so
   * memory stays bounded when conversion is slower than the network. Pages a converter has taken
   * (or a tab renders) count apart, under four times this, so one slow page does not hold back
   * the pages behind it (see runQueue).
   */
  converters?: number;
  /** Called as a crawl starts, before its seeds and robots.txt: the processor's converters start meanwhile. */
  prepare?: () => void;
  /**
   * False where nobody can resume a paused job (the command line, which ends when the runner
   * does): a stop on refusals then says it stopped, not "resume to go on".
   */
  resumable?: boolean;
}

/** Where results go; both kinds write in batches (BatchQueue), so both can say when they are idle. */
export interface QueueWriter {
  add(entry: FrontierRecord, outcome: PageOutcome): void;
  drain(): Promise<void>;
  readonly idle: boolean;
  /** Results handed over and not yet committed. */
  readonly pending: number;
}

/** A job's queue, opened: its frontier (in-flight URLs back to pending) and its hosts' politeness. */
export interface OpenQueue {
  startUrl: string;
  settings: CrawlSettings;
  /** A `docs` crawl's boundary: the processor's scope judges redirects by it. */
  boundary?: DocsBoundary;
  gate: HostGate;
  frontier: Frontier;
}

/** What one kind of queue job (a crawl, a refresh) plugs into the shared runner. */
export interface QueueJob extends OpenQueue {
  writer: QueueWriter;
  /** How many more URLs may enter the pipeline, given how many are in it now (a crawl's page limit). */
  room(inPipeline: number): number;
  /** True when the job is complete even though URLs are pending (a crawl that reached its page limit). */
  reachedLimit(): boolean;
  /** The skip reason for a URL robots.txt disallows. */
  robotsReason: string;
  /** The failure reason for a page the processor threw on, given the error in words. */
  failureReason(message: string): string;
  /** Writes the counters and the progress message; called while running and once at the end. */
  report(phase: 'running' | 'done'): Promise<void>;
  /**
   * The writer's batches carry the progress when it is due (progressDue): the timer then writes
   * it only after PROGRESS_QUIET_MS without a batch, as when a slow or paced site's pages trickle in.
   */
  progressInBatches?: boolean;
  /** The job's final message for each way it can end. */
  messages: { cancelled: string; paused: string; done(): string };
  /**
   * Pause when most of the first pages are refused (see {@link refusalMessage}). Off for a job the
   * user resumed after such a pause: they chose to go on.
   */
  stopOnRefusals?: boolean;
}

/**
 * Results that may wait for a slower page started before them (a page timing out, retried) before
 * no more URLs are claimed: enough that one slow page rarely stalls the crawl, few enough that
 * their Markdown stays a few megabytes.
 */
const MAX_HELD = 256;
/**
 * The same bound in characters of Markdown held: a site of huge pages reaches it long before
 * MAX_HELD results, and its held results stay about a hundred megabytes at most.
 */
const MAX_HELD_CHARS = 48 * 1024 * 1024;

/** How recent a discovery's robots.txt must be for a crawl to use it instead of asking again. */
const ROBOTS_FRESH_MS = 30 * 60_000;

/** Progress is written at most this often: enough to look live, few enough writes to stay cheap. */
const PROGRESS_EVERY_MS = 250;

/**
 * When batches carry the progress, the timer writes it only after this long without a progress
 * write: between batches only the claimed URLs and the rate move, and each write of its own is a
 * transaction (the batch's counts, the ones that matter, come with the batch).
 */
const PROGRESS_QUIET_MS = 1000;

/**
 * A site that turns the crawl away shows it on the first pages: once at least REFUSAL_MIN of the
 * first REFUSAL_WINDOW pages have an answer and REFUSAL_SHARE of them were refused, the job
 * pauses. Five is enough to tell a firewall from a few broken links, and few enough that a site
 * answering 403 to everything gets a handful of requests, not the whole page budget.
 */
const REFUSAL_WINDOW = 10;
const REFUSAL_MIN = 5;
const REFUSAL_SHARE = 0.8;

/** Statuses that mean "not you, not now": login wanted, forbidden, rate-limited, server trouble. */
function isRefusal(outcome: PageOutcome): outcome is PageOutcome & { state: 'failed'; status: number } {
  const status = outcome.state === 'failed' ? outcome.status : undefined;
  return status !== undefined && (status === 401 || status === 403 || status === 429 || status >= 500);
}

/**
 * The scheduling shared by crawls and refreshes: a durable queue (the job's frontier in Dexie)
 * drained under per-host politeness, with pause, cancel, progress and a storage-full pause.
 * A new runner for the same job (after the worker died) recovers in-flight URLs and carries on.
 *
 * URLs are claimed ahead into a small buffer so a free request slot never waits for a database
 * round trip; a slot is released the moment a response is read (see HostSlot), so the host's
 * next request goes out while the page converts; and results are written in batches.
 */
export abstract class QueueRunner {
  protected readonly abort = new AbortController();
  private stopRequest: 'pause' | 'cancel' | null = null;
  /** Why the runner paused itself, when it was not the user. */
  private pauseMessage: string | null = null;
  private storageFull = false;
  /** The runner paused because the site refused its first pages (kept on the job, see stopOnRefusals). */
  private refused = false;
  /** Answers to the first pages of this run: how many, and the refusals by status. */
  private readonly firstPages = { seen: 0, refused: new Map<number, number>() };
  /** End times of pages, for the pages-per-second rate; reading the rate drops those older than 10 s. */
  private finished: number[] = [];
  protected readonly timings = { fetch: 0, convert: 0 };
  /** When progress was last written, by the timer or with a batch. */
  private progressAt = 0;
  /** Set when something happened (a task ended, a stop was asked) so the loop doesn't sleep through it. */
  private woken = false;
  private resolveSleep: () => void = () => undefined;

  constructor(
    protected readonly deps: QueueDeps,
    readonly jobId: string,
  ) {}

  abstract run(): Promise<JobState>;

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

  /** For writers: a batch could not be stored (storage full…), so the job pauses with the reason. */
  protected readonly storageFailed = (error: unknown): void => {
    this.pauseMessage = storageFailureMessage(error);
    this.storageFull ||= isQuotaError(error);
    this.pause();
  };

  protected readonly wake = (): void => {
    this.woken = true;
    this.resolveSleep();
  };

  /** Loads the job's frontier (what a stopped worker left in flight goes back to pending) and the start host's robots.txt. */
  protected async openQueue(startUrl: string, settings: CrawlSettings): Promise<OpenQueue> {
    const cap = settings.liftCrawlDelayCap ? null : DEFAULT_CRAWL_DELAY_CAP_S;
    const gate = new HostGate(settings.perHostConcurrency, this.deps.fetch, this.deps.timeoutMs ?? 10_000, cap);
    const frontier = new Frontier(this.deps.db, this.jobId);
    await frontier.init();
    await frontier.recover();
    if (settings.respectRobots) {
      const origin = new URL(startUrl).origin;
      const known = await this.discoveredRobots(origin);
      if (known !== undefined) gate.knowRobots(origin, known);
      await gate.loadRobots(origin);
    }
    return { startUrl, settings, gate, frontier };
  }

  /**
   * The start origin's robots.txt as its latest discovery read it, when that discovery ended
   * within ROBOTS_FRESH_MS (the panel's, moments before the user pressed Start): its text, null
   * when the site answered that it has none, undefined when the crawl must ask itself. Asking
   * again would be the same request twice within a minute.
   */
  private async discoveredRobots(origin: string): Promise<string | null | undefined> {
    const discovery = await latestJob(this.deps.db, origin, 'discovery', 'done');
    if (!discovery || Date.now() - (discovery.endedAt ?? discovery.createdAt) > ROBOTS_FRESH_MS) return undefined;
    const row = (await discoveredRows(this.deps.db, discovery)).find((r) => r.kind === 'robots' && r.url === `${origin}/robots.txt`);
    if (row?.status === 'found' && row.text !== undefined) return row.text;
    if (row?.status === 'missing' && (row.httpStatus === 404 || row.httpStatus === 410)) return null;
    return undefined;
  }

  /** Drains the job's queue to its end, a pause or a cancel, and records how it ended. */
  protected async runQueue(job: QueueJob): Promise<JobState> {
    const { gate, frontier, writer, settings } = job;
    const buffer: FrontierRecord[] = [];
    const active = new Set<Promise<void>>();
    const slots = settings.perHostConcurrency;
    // Pages whose request is in flight (they hold a host slot); pages fetched and waiting for a
    // converter (the backlog that backpressure bounds); and pages fetched and not yet settled
    // (waiting, converting, rendering in a tab). A page a converter has taken no longer counts
    // as backlog: while one huge page converts for seconds, the other converters are fed and new
    // requests go out, instead of the crawl waiting on that one page. Every fetched body is still
    // bounded: at most maxProcessing of them, plus the requests in flight.
    let fetching = 0;
    let waiting = 0;
    let processing = 0;
    const converters = Math.max(1, this.deps.converters ?? 1);
    const maxWaiting = 2 * converters;
    const maxProcessing = 4 * converters;
    // Results go to the writer in the order their pages started, not as they finish (in-order.ts).
    const ordered = new InOrder<{ entry: FrontierRecord; outcome: PageOutcome }>(
      ({ entry, outcome }) => writer.add(entry, outcome),
      ({ outcome }) => (outcome.state === 'done' ? outcome.page.markdown.length : 0),
    );
    // Pages whose slow step (ProcessRequest.later) runs while they wait for a new place in the
    // write order, in the order they started: a tab render (seconds) until nothing else can start,
    // a very big page's conversion until the first deeper page starts. Either point is the same on
    // every run, so every run numbers their links the same.
    const parked: Array<{ order: number; depth: number; place: LaterPlace; entry: FrontierRecord; write: (ticket: number) => void; drop: () => void }> = [];
    const writeParked = (which: (page: (typeof parked)[number]) => boolean) => {
      const ready = parked.filter(which).sort((a, b) => a.order - b.order);
      for (const page of ready) {
        parked.splice(parked.indexOf(page), 1);
        page.write(ordered.ticket());
      }
    };
    // Markdown of parked pages whose step is done, bounded with the held results': a level of big
    // pages waiting for the first deeper page must not hold more than the write order may.
    let parkedChars = 0;
    // The first ticket each depth was given: a page that waits for a deeper page to start, when one
    // already has, takes its place just before that one.
    const firstTicketAt = new Map<number, number>();
    const deeperTicket = (depth: number): number | undefined => {
      let first: number | undefined;
      for (const [d, t] of firstTicketAt) if (d > depth && (first === undefined || t < first)) first = t;
      return first;
    };
    // A buffered URL's host, parsed once: pump looks at every buffered URL each time a slot frees.
    const hosts = new WeakMap<FrontierRecord, string>();
    const hostOf = (entry: FrontierRecord): string => {
      let host = hosts.get(entry);
      if (host === undefined) hosts.set(entry, (host = new URL(entry.url).hostname));
      return host;
    };
    // Starts buffered URLs whose host has a free slot. Synchronous, and called the moment a
    // slot is released, so a free slot never waits on a database round trip.
    const pump = () => {
      if (this.stopRequest) return;
      for (let i = 0; i < buffer.length && waiting < maxWaiting && processing < maxProcessing; ) {
        const entry = buffer[i];
        if (entry && gate.canStart(hostOf(entry))) {
          buffer.splice(i, 1);
          start(entry);
        } else i++;
      }
    };
    const start = (entry: FrontierRecord) => {
      const host = hostOf(entry);
      gate.acquire(host);
      fetching++;
      let held = true;
      // Until a converter takes it (or the page settles), a fetched page is backlog.
      let queued = true;
      const slot: HostSlot = {
        // The response is read: the host's next request may go out while this page converts.
        release: () => {
          if (!held) return;
          held = false;
          fetching--;
          processing++;
          if (queued) waiting++;
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
        slowDown: (waitMs) => gate.slowDown(host, waitMs),
      };
      const converting = () => {
        if (!queued) return;
        queued = false;
        if (held) return;
        waiting--;
        pump();
        this.wake();
      };
      // Pages parked until a deeper page starts take their places before this one's.
      writeParked((page) => page.place === 'deeper' && page.depth < entry.depth);
      let ticket = ordered.ticket();
      if (!firstTicketAt.has(entry.depth)) firstTicketAt.set(entry.depth, ticket);
      // Its slow step runs apart from its place (`later`); dropped: it was parked when a stop came,
      // and the URL goes back to pending.
      let waits = false;
      let dropped = false;
      const later = (run: () => Promise<ProcessResult>, place: LaterPlace): Promise<ProcessResult> => {
        // A page gives up its place once; a second slow step (a big page rendered too) runs in its new place.
        if (waits) return run();
        // The page gives up its place in the write order, so the pages after it are written while
        // its slow step runs.
        const order = ticket;
        const running = run();
        // A dropped page's step may still fail; nothing waits for it then.
        running.catch(() => undefined);
        // Its new place, taken now when the point it waits for has passed (before its old place
        // is given up, so the write order cannot move past the new one).
        const before = place === 'deeper' ? deeperTicket(entry.depth) : undefined;
        if (before !== undefined) ticket = ordered.ticketBefore(before);
        ordered.settle(order, null);
        slot.release();
        waits = true;
        // No longer the runner's backlog: a render at once (a tab holds it, not this thread); a
        // conversion once it is done, so a level of big pages is fetched no faster than it converts.
        const done = () => {
          processing--;
          if (queued) waiting--;
          queued = false;
          pump();
          this.wake();
        };
        if (place === 'idle') done();
        else running.then(done, done);
        if (before !== undefined) return running;
        let chars = 0;
        let placed = false;
        const unpark = () => {
          placed = true;
          parkedChars -= chars;
          chars = 0;
        };
        running.then((result) => {
          if (placed || result.state !== 'done') return;
          chars = result.page.markdown.length;
          parkedChars += chars;
        }, () => undefined);
        return new Promise<ProcessResult>((resolve, reject) => {
          parked.push({
            order,
            depth: entry.depth,
            place,
            entry,
            write: (next) => {
              unpark();
              ticket = next;
              running.then(resolve, reject);
            },
            drop: () => {
              unpark();
              dropped = true;
              resolve({ state: 'skipped', reason: 'stopped before its render', retries: 0, ms: { fetch: 0, convert: 0 } });
            },
          });
        });
      };
      const task = this.processEntry(entry, job, slot, converting, later)
        .then((outcome) => {
          if (dropped) return;
          if (this.abort.signal.aborted) return ordered.settle(ticket, null);
          ordered.settle(ticket, { entry, outcome });
          if (job.stopOnRefusals) this.noteFirstPage(outcome);
        })
        .catch((error: unknown) => {
          // A processor may throw on Cancel (an aborted message): the URL goes back to pending, not failed.
          const outcome: PageOutcome = { state: 'failed', reason: job.failureReason(error instanceof Error ? error.message : String(error)), retries: 0 };
          ordered.settle(ticket, this.abort.signal.aborted ? null : { entry, outcome });
        })
        .finally(() => {
          if (held) {
            held = false;
            fetching--;
            gate.release(host);
          } else if (!waits) {
            processing--;
            if (queued) waiting--;
          }
          queued = false;
          active.delete(task);
          this.finished.push(Date.now());
          pump();
          this.wake();
        });
      active.add(task);
    };
    const quietMs = job.progressInBatches ? PROGRESS_QUIET_MS : 0;
    const progress = setInterval(() => {
      if (Date.now() - this.progressAt < quietMs) return;
      this.progressAt = Date.now();
      void job.report('running');
    }, PROGRESS_EVERY_MS);

    try {
      for (;;) {
        if (this.stopRequest) break;
        pump();
        // Claim ahead: keep about two URLs per slot buffered, within the job's limit.
        const want = Math.min(slots * 3 - buffer.length - fetching, job.room(buffer.length + active.size + ordered.held + writer.pending));
        if (want > 0 && buffer.length < slots * 2 && ordered.held + parked.length < MAX_HELD && ordered.heldWeight + parkedChars < MAX_HELD_CHARS && frontier.hasPending()) {
          const claimed = await frontier.claim(want);
          buffer.push(...claimed);
          if (claimed.length) continue;
        }
        // Nothing else can start (the claim above took nothing: the queue is empty, or the page
        // limit counts the parked pages in): the parked pages are written, and their links may
        // queue more. Waiting for the queue alone would wait forever at the limit.
        if (parked.length > 0 && buffer.length === 0 && active.size === parked.length && writer.idle) {
          writeParked(() => true);
          continue;
        }
        if (buffer.length === 0 && active.size === 0 && writer.idle) {
          if (job.reachedLimit() || !frontier.hasPending()) break;
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

    // A stop leaves parked pages unwritten: their URLs go back to pending with the buffered ones.
    const unrendered = parked.splice(0);
    for (const page of unrendered) page.drop();
    await Promise.all(active);
    await writer.drain();
    await frontier.release([...buffer, ...unrendered.map((page) => page.entry)]);
    if (this.stopRequest === 'cancel' || this.refused) await frontier.recover();
    await job.report(this.stopRequest ? 'running' : 'done');
    if (this.stopRequest === 'cancel') return this.finish('cancelled', job.messages.cancelled);
    if (this.stopRequest === 'pause') return this.finish('paused', this.pauseMessage ?? job.messages.paused);
    return this.finish('done', job.messages.done());
  }

  /**
   * Whether progress is due with the batch being written (PROGRESS_EVERY_MS since the last progress
   * write); when it is, the write is counted as made.
   */
  protected progressDue(): boolean {
    const now = Date.now();
    if (now - this.progressAt < PROGRESS_EVERY_MS) return false;
    this.progressAt = now;
    return true;
  }

  /** Counts an answer among the first pages, and pauses the job when most of them were refused. */
  private noteFirstPage(outcome: PageOutcome): void {
    // A page robots.txt kept us from was never requested: it says nothing about the site's answer.
    if (outcome.state === 'skipped' && outcome.status === undefined) return;
    const first = this.firstPages;
    if (first.seen >= REFUSAL_WINDOW || this.stopRequest) return;
    first.seen++;
    if (isRefusal(outcome)) first.refused.set(outcome.status, (first.refused.get(outcome.status) ?? 0) + 1);
    const refused = [...first.refused.values()].reduce((a, b) => a + b, 0);
    if (first.seen >= REFUSAL_MIN && refused >= REFUSAL_SHARE * first.seen) {
      this.pauseMessage = refusalMessage(refused, first.seen, first.refused, this.deps.resumable ?? true);
      this.refused = true;
      this.pause();
      // Requests in flight (and their retries) would only knock again: they stop now and their
      // URLs go back to pending, for the user to resume.
      this.abort.abort();
    }
  }

  /** Pages per second over the last 10 s (or since the start, when sooner). */
  protected rate(startedAt: number): number {
    const now = Date.now();
    // Only the last 10 s count: older end times are dropped so a long crawl's list stays short.
    this.finished = this.finished.filter((t) => t > now - 10_000);
    const elapsed = (now - startedAt) / 1000;
    return Math.round((this.finished.length / Math.min(10, Math.max(1, elapsed))) * 10) / 10;
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

  private async processEntry(entry: FrontierRecord, job: QueueJob, slot: HostSlot, converting: () => void, later: ProcessRequest['later']): Promise<PageOutcome> {
    const { startUrl, settings, gate, boundary } = job;
    if (settings.respectRobots) {
      const rules = await gate.loadRobots(new URL(entry.url).origin);
      if (rules && !rules.isAllowed(entry.url)) return { state: 'skipped', reason: job.robotsReason, retries: 0 };
    }
    const result = await this.deps.process({ entry, startUrl, settings, ...(boundary ? { boundary } : {}), timeoutMs: this.deps.timeoutMs, slot, converting, later }, this.abort.signal);
    this.timings.fetch += result.ms.fetch;
    this.timings.convert += result.ms.convert;
    return result;
  }

  protected async finish(state: JobState, message: string): Promise<JobState> {
    const refused = state === 'paused' && this.refused && this.stopRequest === 'pause' ? { stoppedOnRefusals: true } : {};
    // Written either way, so a job resumed after a full store and paused again for another reason loses the mark.
    const storageFull = state === 'paused' && this.pauseMessage !== null && this.storageFull ? true : undefined;
    await setJobFields(this.deps.db, this.jobId, { state, message, storageFull, ...refused, ...(state === 'paused' ? {} : { endedAt: Date.now() }) });
    return state;
  }
}

/** Plain words for a site that refused most of the crawl's first pages, with the statuses it answered. */
export function refusalMessage(refused: number, seen: number, byStatus: ReadonlyMap<number, number>, resumable = true): string {
  const statuses = [...byStatus.entries()].sort((a, b) => b[1] - a[1]).map(([status, n]) => `${n} × HTTP ${status}`).join(', ');
  const codes = [...byStatus.keys()];
  // The advice after each cause is about resuming, so it is only given where the user can resume.
  const [why, advice] =
    codes.every((c) => c === 401 || c === 403) ? ['It may block crawlers, or the pages may need you to log in', ' (open one in this browser and log in, then resume)']
    : codes.every((c) => c === 429) ? ['It is limiting how fast it may be read', '; waiting a while before resuming may help']
    : ['It may be down, blocking crawlers or limiting requests', ''];
  const which = refused === seen ? `the first ${seen} pages` : `${refused} of the first ${seen} pages`;
  if (!resumable) return `Stopped: the site refused ${which} (${statuses}). ${why}. Scout stopped so as not to keep knocking; what it wrote is built from the pages it read.`;
  return `Paused: the site refused ${which} (${statuses}). ${why}${advice}. Scout stopped so as not to keep knocking; resume to go on anyway, and it will not stop for this again.`;
}

/** The browser refused a write for want of space (Dexie wraps IndexedDB's error as `inner`). */
export function isQuotaError(error: unknown): boolean {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  const inner = (error as { inner?: { name?: string } } | null)?.inner?.name ?? '';
  return name === 'QuotaExceededError' || inner === 'QuotaExceededError';
}

/** Plain words for a write the database refused; a full disk is the common case. */
export function storageFailureMessage(error: unknown): string {
  if (isQuotaError(error)) {
    return 'Paused: the browser refused to store more (storage is full). Free some disk space or delete old crawls, then resume. Nothing already stored was lost.';
  }
  return `Paused: a page could not be saved (${error instanceof Error ? error.message : String(error)}). Resume to try again; nothing already stored was lost.`;
}
