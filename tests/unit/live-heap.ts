import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// The collector, for a test to measure what code keeps alive (not a timing).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The heap in use once everything unreachable is collected. */
export function liveHeap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
