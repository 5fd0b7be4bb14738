/**
 * The worker's one registry of running jobs, of every kind (crawl, refresh, discovery, check,
 * describe): which job runs under which key (a kind and a site), how to pause or cancel it, who
 * waits for its end, and whether the worker must be kept alive. The jobs' durable state lives in
 * the store; this holds only what dies with the worker (the runs in progress), so a worker that
 * was stopped starts with an empty registry and each kind decides what its rows become.
 */

/** Keeps the worker from being stopped while something runs (MV3 stops an idle one after 30 s). */
export interface KeepAlive {
  start(): void;
  stop(): void;
}

export interface JobStart {
  /** The job's id (its row's id in the store). */
  id: string;
  /** What it is: `crawl`, `refresh`, `discovery`, `check`, `describe`… what on-ended hooks select by. */
  kind: string;
  /** What at most one job runs under (e.g. `discovery:https://site`); a start under a held key joins that job. */
  key?: string;
  /** The run; `signal` aborts on cancel when the job has no `cancel` of its own. Its value goes to the on-ended hooks. */
  run(signal: AbortSignal): Promise<unknown>;
  /** Asks the run to stop at its next safe point, its state kept for a resume. Without it, Pause is refused. */
  pause?(): void;
  /** Asks the run to stop for good; by default the signal given to `run` aborts. */
  cancel?(): void;
}

/** How a run ended: with its value, or with what it threw. */
export type JobOutcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export type EndedHook = (job: { id: string; kind: string }, outcome: JobOutcome) => unknown;

interface Entry {
  start: JobStart;
  controller: AbortController;
  ended: Promise<void>;
}

export class JobRegistry {
  private readonly running = new Map<string, Entry>();
  private readonly byKey = new Map<string, string>();
  /** Per key, the end of the last job queued under it: what the next one queued waits for. */
  private readonly tails = new Map<string, Promise<void>>();
  private readonly hooks: Array<{ kinds: ReadonlySet<string> | null; hook: EndedHook }> = [];
  private alive = false;
  /** Jobs queued and not started yet: the worker stays up for them too. */
  private waiting = 0;

  constructor(private readonly keepAlive?: KeepAlive) {}

  /** How many jobs run now. */
  get size(): number {
    return this.running.size;
  }

  /** Whether job `id` runs in this worker. */
  has(id: string): boolean {
    return this.running.has(id);
  }

  /** The id of the job running under `key`, if one is. */
  holding(key: string): string | undefined {
    return this.byKey.get(key);
  }

  /**
   * Starts the job unless one runs with the same id or under the same key: then answers that
   * job's id with `started: false`. The run's end (value or throw) goes to the on-ended hooks of
   * its kind, in the order they were added, before the job leaves the registry; a hook that
   * throws is logged and the others still run.
   */
  start(job: JobStart): { id: string; started: boolean } {
    if (this.running.has(job.id)) return { id: job.id, started: false };
    const holder = job.key === undefined ? undefined : this.byKey.get(job.key);
    if (holder !== undefined) return { id: holder, started: false };
    const controller = new AbortController();
    let resolveEnded: () => void = () => undefined;
    const ended = new Promise<void>((resolve) => {
      resolveEnded = resolve;
    });
    this.running.set(job.id, { start: job, controller, ended });
    if (job.key !== undefined) this.byKey.set(job.key, job.id);
    this.track();
    let running: Promise<unknown>;
    try {
      running = Promise.resolve(job.run(controller.signal));
    } catch (error) {
      running = Promise.reject(error); // a run that throws before its first await ends as any other
    }
    const outcome: Promise<JobOutcome> = running.then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
    void outcome
      .then(async (result) => {
        for (const { kinds, hook } of this.hooks) {
          if (kinds && !kinds.has(job.kind)) continue;
          try {
            await hook({ id: job.id, kind: job.kind }, result);
          } catch (error) {
            console.error(`Scout: an end hook of a ${job.kind} job failed`, error);
          }
        }
      })
      .finally(() => {
        this.running.delete(job.id);
        if (job.key !== undefined && this.byKey.get(job.key) === job.id) this.byKey.delete(job.key);
        this.track();
        resolveEnded();
      });
    return { id: job.id, started: true };
  }

  /** The running job `id`, if it is of one of `kinds` (any kind when none are given). */
  private find(id: string, kinds: readonly string[]): Entry | undefined {
    const entry = this.running.get(id);
    return entry && (kinds.length === 0 || kinds.includes(entry.start.kind)) ? entry : undefined;
  }

  /**
   * Runs the job once every job queued under its key before it has ended (one at a time per key,
   * in the order asked: rapid clicks regenerate in turn), and answers what its run answers. Only
   * queued jobs may use the key.
   */
  queue<R>(job: Omit<JobStart, 'run' | 'key'> & { key: string; run(signal: AbortSignal): Promise<R> }): Promise<R> {
    const previous = this.tails.get(job.key) ?? Promise.resolve();
    this.waiting++;
    this.track();
    const value = previous.then(
      () =>
        new Promise<R>((resolve, reject) => {
          this.waiting--;
          this.start({
            ...job,
            run: (signal) => {
              const run = (async () => job.run(signal))(); // a throw before its first await rejects too
              run.then(resolve, reject);
              return run;
            },
          });
        }),
    );
    const tail = value.then(
      () => this.ended(job.id),
      () => this.ended(job.id),
    );
    this.tails.set(job.key, tail);
    void tail.finally(() => {
      if (this.tails.get(job.key) === tail) this.tails.delete(job.key);
    });
    return value;
  }

  /** Asks job `id` to pause; false when it does not run here, is of none of `kinds`, or cannot pause. */
  pause(id: string, ...kinds: string[]): boolean {
    const pause = this.find(id, kinds)?.start.pause;
    if (!pause) return false;
    pause();
    return true;
  }

  /** Asks job `id` to stop; false when it does not run here or is of none of `kinds`. */
  cancel(id: string, ...kinds: string[]): boolean {
    const entry = this.find(id, kinds);
    if (!entry) return false;
    if (entry.start.cancel) entry.start.cancel();
    else entry.controller.abort(new DOMException('Cancelled', 'AbortError'));
    return true;
  }

  /** Settles once job `id` has ended and its hooks ran (at once when it does not run here). */
  ended(id: string): Promise<void> {
    return this.running.get(id)?.ended ?? Promise.resolve();
  }

  /** Settles once no job runs or waits in a queue (a test's last step, before its database goes). */
  async idle(): Promise<void> {
    while (this.running.size + this.waiting > 0) {
      await Promise.all([...[...this.running.values()].map((entry) => entry.ended), ...this.tails.values()]);
    }
  }

  /** Runs `hook` after each job of the given kinds (all kinds when none are given) ends. */
  onEnded(kinds: readonly string[] | null, hook: EndedHook): void {
    this.hooks.push({ kinds: kinds ? new Set(kinds) : null, hook });
  }

  private track(): void {
    const busy = this.running.size + this.waiting > 0;
    if (busy === this.alive) return;
    this.alive = busy;
    if (busy) this.keepAlive?.start();
    else this.keepAlive?.stop();
  }
}
