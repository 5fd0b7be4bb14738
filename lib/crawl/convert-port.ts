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

/** A page that takes longer than this on a converter means the converter is gone (its document closed). */
const LANE_TIMEOUT_MS = 60_000;

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
export function portConverter(port: PortLike, timeoutMs = LANE_TIMEOUT_MS): Converter {
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
        settled.reject(new LaneError(`The converter did not answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      pending.set(id, { ...settled, timer });
      port.postMessage({ id, job } satisfies Request);
    });
  };
}
