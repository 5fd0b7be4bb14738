import type { ConverterLane } from './conversion-queue';
import { endpointConverter } from './convert-port';

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
