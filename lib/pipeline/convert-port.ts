/**
 * Conversion over a MessagePort: the crawl's side (the service worker, Firefox's background page)
 * posts each fetched body straight to a converter (a Web Worker, the offscreen document) and gets
 * the converted page back. A port, not runtime messaging: no JSON round through the browser
 * process. The body goes as its undecoded bytes, their buffer transferred (no copy), and is decoded
 * on the converter's thread; only the converted page comes back as a structured clone.
 */
import type { DomAdapter } from '../convert/dom';
import { LaneError, whileWaiting, type Converter } from './conversion-queue';
import { convertBody, type ConvertedBody, type ConvertJob } from './steps';

/** What both ends of a port need: the DOM's MessagePort and Node's worker_threads one both fit. */
export interface PortLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  start?(): void;
}

type Request = { id: number; job: ConvertJob };
type Answer = { id: number; body: ConvertedBody } | { id: number; error: string };

/**
 * A page that takes longer than this on a converter: on a port alone, the converter is taken for
 * gone (its document closed); on a thread this side can end, the page fails and the thread is replaced.
 */
export const LANE_TIMEOUT_MS = 60_000;

/** The converter's end: converts every job that arrives on the port with the given DOM adapter. */
export function serveConversions(port: PortLike, dom: DomAdapter): void {
  port.addEventListener('message', ({ data }) => {
    const { id, job } = data as Request;
    let answer: Answer;
    try {
      answer = { id, body: convertBody(job, dom) };
    } catch (error) {
      answer = { id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(answer);
  });
  port.start?.();
}

/**
 * The crawl's end: a Converter that sends jobs down the port. A page the converter could not
 * convert rejects with its error (the page fails); a converter that does not answer rejects with
 * a LaneError (the queue drops it and uses the others).
 */
export interface PortConverterOptions {
  /** What a page over the time limit rejects with; by default a LaneError (the converter taken for gone). */
  onTimeout?: (id: number) => Error | Promise<Error>;
  /** An answer that came after its page was given up (over the limit, or cancelled). */
  onLate?: (id: number) => void;
  /** Awaited before each page is sent: the converter may still be busy with a page over the limit. */
  ready?: () => Promise<void>;
}

export function portConverter(port: PortLike, timeoutMs = LANE_TIMEOUT_MS, options: PortConverterOptions = {}): Converter {
  const onTimeout = options.onTimeout ?? (() => new LaneError(`The converter did not answer within ${timeoutMs / 1000} s`));
  let nextId = 1;
  const pending = new Map<number, { resolve: (body: ConvertedBody) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  port.addEventListener('message', ({ data }) => {
    const answer = data as Answer;
    const waiter = pending.get(answer.id);
    if (!waiter) return options.onLate?.(answer.id); // answered after its page was given up
    pending.delete(answer.id);
    clearTimeout(waiter.timer);
    if ('error' in answer) waiter.reject(new Error(answer.error));
    else waiter.resolve(answer.body);
  });
  port.start?.();
  return async (job, signal) => {
    signal?.throwIfAborted();
    await options.ready?.();
    signal?.throwIfAborted();
    const id = nextId++;
    return new Promise<ConvertedBody>((resolve, reject) => {
      // A page cancelled meanwhile is still converted (CPU work cannot be interrupted), its answer dropped.
      const onAbort = () => {
        pending.delete(id);
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const settled = whileWaiting(signal, onAbort, resolve, reject);
      const timer = setTimeout(() => {
        pending.delete(id);
        void Promise.resolve(onTimeout(id)).then(settled.reject, settled.reject);
      }, timeoutMs);
      pending.set(id, { ...settled, timer });
      const sent = transferable(job);
      port.postMessage({ id, job: sent } satisfies Request, [sent.bytes.buffer as ArrayBuffer]);
    });
  };
}

/**
 * The job as it is posted: its body's buffer goes in the transfer list, so it moves to the
 * converter's thread instead of being copied, and is detached here (nothing on this side reads a
 * body after posting it; see ConversionQueue for a lane that fails with it). A view on part of a
 * bigger buffer, or on a shared one, is first copied into a buffer of its own: transferring the
 * whole would take the rest from its owner, and a structured clone of the view copies the whole.
 */
export function transferable(job: ConvertJob): ConvertJob {
  const { bytes } = job;
  const own = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return own ? job : { ...job, bytes: bytes.slice() };
}

/** A converter thread this side can have ended: the port to it, and how to end it. */
export interface ConverterEndpoint {
  port: PortLike;
  end(): void;
}

/**
 * A converter on a thread this side can have ended (a Web Worker it started, or one the offscreen
 * document starts and ends on request). A page that takes longer than `timeoutMs` fails alone
 * ("Conversion took over 60 s"): conversion is synchronous, so the thread stays busy with it and
 * would hold every page after it; it is ended, and the next page opens a new one. A thread that
 * cannot be opened is a LaneError. `close` ends the thread.
 */
export function endpointConverter(open: () => ConverterEndpoint | Promise<ConverterEndpoint>, timeoutMs = LANE_TIMEOUT_MS): Converter & { close(): void } {
  type Open = { endpoint: ConverterEndpoint; convert: Converter };
  let current: Promise<Open> | null = null;
  let endpointNow: ConverterEndpoint | null = null;
  let closed = false;
  const end = (which: ConverterEndpoint) => {
    if (endpointNow === which) {
      endpointNow = null;
      current = null;
    }
    which.end();
  };
  const connect = async (): Promise<Open> => {
    let endpoint: ConverterEndpoint;
    try {
      endpoint = await open();
    } catch (error) {
      current = null;
      throw new LaneError(`Could not start a converter: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (closed) {
      // Closed while it was opening: end it, or it would run on with nothing to send it pages.
      endpoint.end();
      throw new LaneError('The converter was closed');
    }
    endpointNow = endpoint;
    return {
      endpoint,
      convert: portConverter(endpoint.port, timeoutMs, {
        onTimeout: () => {
          end(endpoint);
          return tookTooLong(timeoutMs);
        },
      }),
    };
  };
  const convert = async (job: ConvertJob, signal?: AbortSignal) => {
    current ??= connect();
    return (await current).convert(job, signal);
  };
  return Object.assign(convert, {
    close: () => {
      closed = true;
      if (endpointNow) end(endpointNow);
    },
  });
}

const tookTooLong = (timeoutMs: number) => new Error(`Conversion took over ${timeoutMs / 1000} s: the page is left out`);

/**
 * A converter on a port to a thread this side cannot end (a worker of Chrome's offscreen
 * document). A page over the limit fails alone while the thread's owner is still there (`alive`):
 * the lane then lets the thread finish that page (its late answer) before it sends the next, for
 * up to another `timeoutMs`, after which the lane is taken for gone (LaneError). With the owner
 * gone (the document closed), the lane is gone.
 */
export function ownedElsewhereConverter(port: PortLike, alive: () => Promise<boolean>, timeoutMs = LANE_TIMEOUT_MS): Converter {
  let overrun: { id: number; finished: Promise<void>; finish: () => void } | null = null;
  return portConverter(port, timeoutMs, {
    onTimeout: async (id) => {
      if (!(await alive().catch(() => false))) return new LaneError(`The converter did not answer within ${timeoutMs / 1000} s`);
      let finish: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => {
        finish = resolve;
      });
      overrun = { id, finished, finish };
      return tookTooLong(timeoutMs);
    },
    onLate: (id) => {
      if (overrun?.id !== id) return;
      overrun.finish();
      overrun = null;
    },
    ready: async () => {
      const busy = overrun;
      if (!busy) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = await Promise.race([busy.finished.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)))]);
      clearTimeout(timer);
      if (!waited) throw new LaneError(`The converter was still busy with a page after ${(2 * timeoutMs) / 1000} s`);
    },
  });
}
