import type { ConverterLane } from './conversion-queue';
import { endpointConverter, type PortLike } from './convert-port';

/** The slice of a Web Worker the lanes use (Node's worker_threads fit it too, with an adapter). */
export interface WorkerLike {
  postMessage(message: unknown, transfer: Transferable[]): void;
  terminate(): void;
}

/**
 * Lanes on Web Workers this context starts itself (Firefox's background page): a page that takes
 * too long fails alone and its worker is ended and replaced (endpointConverter); `close` on each
 * lane ends its worker, so a reconnect does not leave the old ones running.
 */
export function workerLanes(count: number, startWorker: () => WorkerLike, timeoutMs?: number): ConverterLane[] {
  return Array.from({ length: count }, (_, i) => {
    const convert = endpointConverter(() => {
      const channel = new MessageChannel();
      const worker = startWorker();
      worker.postMessage(null, [channel.port1]);
      return {
        port: channel.port2,
        end: () => {
          worker.terminate();
          channel.port2.close();
        },
      };
    }, timeoutMs);
    return { name: `worker ${i + 1}`, capacity: 1, convert, close: convert.close };
  });
}

/**
 * What the crawl's side can ask of the document that owns its conversion workers (Chrome's
 * offscreen document: a service worker cannot start a Web Worker, so it cannot end one either).
 */
export interface WorkerOwner {
  /** Starts worker `index` (ending one still there) and hands back a port to it. */
  start(index: number): Promise<PortLike>;
  /** Ends worker `index`: a page has held it over the time limit. Never throws. */
  end(index: number): void;
}

/**
 * Lanes on workers another document owns, one per port it handed over: as workerLanes, a page that
 * takes too long fails alone, and its worker is ended — by its owner — and replaced on the next
 * page; a lane whose owner cannot start a worker any more (the document closed) is a LaneError.
 */
export function ownedWorkerLanes(ports: readonly PortLike[], owner: WorkerOwner, timeoutMs?: number): ConverterLane[] {
  return ports.map((first, i) => {
    let handed: PortLike | null = first;
    const convert = endpointConverter(async () => {
      const port = handed ?? (await owner.start(i));
      handed = null;
      return {
        port,
        end: () => {
          (port as { close?: () => void }).close?.();
          owner.end(i);
        },
      };
    }, timeoutMs);
    return { name: `worker ${i + 1}`, capacity: 1, convert, close: convert.close };
  });
}
