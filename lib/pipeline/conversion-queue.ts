import type { ConvertedBody, ConvertJob } from './steps';

/** Converts one fetched page somewhere: in this thread, a Web Worker, another document. */
export type Converter = (job: ConvertJob, signal?: AbortSignal) => Promise<ConvertedBody>;

/** One place pages convert, and how many it takes at once. */
export interface ConverterLane {
  /** For logs and the benchmark: `worker 1`, `native`, `linkedom`. */
  name: string;
  capacity: number;
  convert: Converter;
  /**
   * Pages of more HTML bytes than this wait for another lane, when one takes them: a lane that is
   * slow on big pages (the browser's own DOM, for one) keeps to the small ones.
   */
  maxBytes?: number;
  /** Ends what the lane started (its worker), when the queue is given up. */
  close?(): void;
}

/**
 * The lane itself failed (a worker died, a port stopped answering), not the page: the lane is
 * dropped and the page goes to another one.
 */
export class LaneError extends Error {
  override name = 'LaneError';
}

/**
 * Listens for the crawl's abort while one page waits, and stops when the page settles: the
 * returned resolve and reject remove the listener first. The signal is the whole crawl's, so a
 * listener left on it kept its page's body alive until the crawl ended (thousands of bodies, and a
 * crawl that slowed as its heap grew).
 */
export function whileWaiting<T>(signal: AbortSignal | undefined, onAbort: () => void, resolve: (value: T) => void, reject: (error: unknown) => void): { resolve: (value: T) => void; reject: (error: unknown) => void } {
  signal?.addEventListener('abort', onAbort, { once: true });
  const settle = () => signal?.removeEventListener('abort', onAbort);
  return {
    resolve: (value) => {
      settle();
      resolve(value);
    },
    reject: (error) => {
      settle();
      reject(error);
    },
  };
}

/** The job's body was transferred to another thread: its buffer is detached (no HTML body is empty: empty pages are skipped at fetch). */
function sentAway(job: ConvertJob): boolean {
  return job.bytes.byteLength === 0;
}

interface Waiting {
  job: ConvertJob;
  signal?: AbortSignal;
  taken?: () => void;
  resolve: (body: ConvertedBody & { ms: number }) => void;
  reject: (error: unknown) => void;
}

/**
 * Fetched pages wait here for a converter, first come first served, so conversion runs with its
 * own concurrency (the lanes' capacities) apart from the hosts' request slots. Lanes are tried in
 * the order given: put the cheapest first. Bodies waiting here are what the runner's backpressure
 * bounds (see RunnerDeps.converters); an aborted page leaves the queue at once. A page too big for
 * a free lane (`maxBytes`) waits for another while smaller pages behind it go ahead.
 */
export class ConversionQueue {
  private readonly lanes: Array<ConverterLane & { busy: number }>;
  private readonly waiting: Waiting[] = [];

  constructor(lanes: ConverterLane[]) {
    if (lanes.length === 0) throw new Error('A conversion queue needs at least one converter');
    this.lanes = lanes.map((lane) => ({ ...lane, busy: 0 }));
  }

  /** Pages converted at once when every lane is working. */
  get capacity(): number {
    return this.lanes.reduce((n, lane) => n + lane.capacity, 0);
  }

  /** Pages waiting for a free lane. */
  get backlog(): number {
    return this.waiting.length;
  }

  /** The lanes in use, by name: what the benchmark records. */
  get laneNames(): string[] {
    return this.lanes.map((lane) => lane.name);
  }

  /** Ends every lane's worker (a reconnect makes new ones: the old must not run on). */
  close(): void {
    for (const lane of this.lanes) lane.close?.();
  }

  /**
   * Converts the page on the first free lane; `ms` is the lane's time, not the wait. `taken` is
   * called when a lane takes the page (the caller's backlog is one page shorter).
   */
  convert(job: ConvertJob, signal?: AbortSignal, taken?: () => void): Promise<ConvertedBody & { ms: number }> {
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiting.indexOf(item);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal?.reason);
      };
      const item: Waiting = { job, signal, taken, ...whileWaiting(signal, onAbort, resolve, reject) };
      this.waiting.push(item);
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (let started = true; started; ) {
      started = false;
      for (const lane of this.lanes) {
        if (lane.busy >= lane.capacity) continue;
        const i = this.waiting.findIndex((item) => this.admits(lane, item.job));
        if (i < 0) continue;
        const [item] = this.waiting.splice(i, 1);
        started = true;
        if (item && !item.signal?.aborted) this.start(lane, item);
      }
    }
  }

  /**
   * Whether the lane takes the page: under its size limit, or no lane's limit is that high. The
   * size is the body's bytes, known before anything is decoded; see BIG_PAGE_BYTES (page-pipeline.ts).
   */
  private admits(lane: ConverterLane, job: ConvertJob): boolean {
    const fits = (l: ConverterLane) => l.maxBytes === undefined || job.bytes.byteLength <= l.maxBytes;
    return fits(lane) || !this.lanes.some(fits);
  }

  private start(lane: ConverterLane & { busy: number }, item: Waiting): void {
    lane.busy++;
    item.taken?.();
    const t0 = Date.now();
    lane
      .convert(item.job, item.signal)
      .then((body) => item.resolve({ ...body, ms: Date.now() - t0 }))
      .catch((error: unknown) => {
        if (error instanceof LaneError && this.lanes.length > 1) {
          console.warn(`Scout's converter ${lane.name} failed; its pages go to the others`, error);
          this.lanes.splice(this.lanes.indexOf(lane), 1);
          // A body posted to the lane before it failed was transferred there (convert-port.ts): with
          // no bytes left to send, that page fails with the lane's error, as on the last lane.
          if (sentAway(item.job)) item.reject(error);
          else this.waiting.unshift(item);
        } else item.reject(error);
      })
      .finally(() => {
        lane.busy--;
        this.dispatch();
      });
  }
}
