import { LaneError, type ConverterLane } from './conversion-queue';
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

/**
 * A connection made on first use and made again after `reset` (a new converter plan) or after a
 * run fails with a LaneError (every converter gone): the old one is closed first, so the workers
 * a context started itself (Firefox's background page) do not run on beside the new ones.
 */
export function reconnecting<T>(connect: () => Promise<T>, close: (connection: T) => void) {
  let current: Promise<T> | null = null;
  const drop = (which: Promise<T>) => {
    if (current !== which) return;
    current = null;
    which.then(close, () => undefined);
  };
  return {
    async use<R>(run: (connection: T) => Promise<R>): Promise<R> {
      const connected = (current ??= connect());
      let connection: T;
      try {
        connection = await connected;
      } catch (error) {
        drop(connected); // a connection that failed is tried again on the next use
        throw error;
      }
      try {
        return await run(connection);
      } catch (error) {
        if (error instanceof LaneError) drop(connected);
        throw error;
      }
    },
    /**
     * Connects now, ahead of the first use: a crawl's first page then does not wait for the
     * converters to start. A connection that fails is dropped, so the first use tries again.
     */
    warm(): void {
      if (current) return;
      const connected = connect();
      current = connected;
      connected.catch(() => drop(connected));
    },
    reset(): void {
      if (current) drop(current);
    },
  };
}
