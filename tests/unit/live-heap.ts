import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// The collector, for a test to measure what code keeps alive (not a timing).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * The memory JavaScript keeps once everything unreachable is collected: the heap, and the
 * ArrayBuffers outside it (typed arrays, such as the token counter's table, live there).
 */
export function liveHeap(): number {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}
