/**
 * Conversion over a MessagePort: the crawl's side (the service worker, Firefox's background page)
 * posts each fetched body straight to a converter (a Web Worker, the offscreen document) and gets
 * the converted page back. A port, not runtime messaging: the body crosses once, as a structured
 * clone, with no JSON round through the browser process.
 */
import type { DomAdapter } from '../convert/dom';
import { LaneError, whileWaiting, type Converter } from './conversion-queue';
import { convertBody, type ConvertedBody, type ConvertJob } from './process-page';

/** What both ends of a port need: the DOM's MessagePort and Node's worker_threads one both fit. */
export interface PortLike {
  postMessage(message: unknown): void;
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
export function portConverter(port: PortLike, timeoutMs = LANE_TIMEOUT_MS, onTimeout: () => Error = () => new LaneError(`The converter did not answer within ${timeoutMs / 1000} s`)): Converter {
  let nextId = 1;
  const pending = new Map<number, { resolve: (body: ConvertedBody) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  port.addEventListener('message', ({ data }) => {
    const answer = data as Answer;
    const waiter = pending.get(answer.id);
    if (!waiter) return; // answered after its page was cancelled
    pending.delete(answer.id);
    clearTimeout(waiter.timer);
    if ('error' in answer) waiter.reject(new Error(answer.error));
    else waiter.resolve(answer.body);
  });
  port.start?.();
  return (job, signal) => {
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
        settled.reject(onTimeout());
      }, timeoutMs);
      pending.set(id, { ...settled, timer });
      port.postMessage({ id, job } satisfies Request);
    });
  };
}

/** A converter thread this side started: the port to it, and how to end it. */
export interface ConverterEndpoint {
  port: PortLike;
  end(): void;
}

/**
 * A converter on a thread this side can end (a Web Worker it started). A page that takes longer
 * than `timeoutMs` fails alone ("Conversion took over 60 s"): conversion is synchronous, so the
 * thread stays busy with it and would hold every page after it; it is ended, and the next page
 * starts a new one. A thread that cannot be started is a LaneError. `close` ends the thread.
 */
export function endpointConverter(open: () => ConverterEndpoint, timeoutMs = LANE_TIMEOUT_MS): Converter & { close(): void } {
  let current: { endpoint: ConverterEndpoint; convert: Converter } | null = null;
  const end = (which: ConverterEndpoint) => {
    if (current?.endpoint === which) current = null;
    which.end();
  };
  const connect = () => {
    let endpoint: ConverterEndpoint;
    try {
      endpoint = open();
    } catch (error) {
      throw new LaneError(`Could not start a converter: ${error instanceof Error ? error.message : String(error)}`);
    }
    const started = {
      endpoint,
      convert: portConverter(endpoint.port, timeoutMs, () => {
        end(endpoint);
        return new Error(`Conversion took over ${timeoutMs / 1000} s: the page is left out`);
      }),
    };
    current = started;
    return started;
  };
  const convert = (job: ConvertJob, signal?: AbortSignal) => (current ?? connect()).convert(job, signal);
  return Object.assign(convert, {
    close: () => {
      if (current) end(current.endpoint);
    },
  });
}
