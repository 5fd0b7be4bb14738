/**
 * How far V8 lets the heap grow past what the last full collection kept. Left to itself, V8 grows
 * it up to fourfold while collecting is cheap: a crawl holding about 80 MB live sat at about
 * 250 MB of heap, and generation (several hundred MB live for a moment) took the process past
 * 600 MB. A CLI that runs in CI shares the machine: it trades a few more full collections for a
 * heap about 1.3 times what is live.
 *
 * Set from inside the process (a flag on the command line would need a second process or the
 * user's NODE_OPTIONS): V8 reads this flag each time it sizes the heap after a collection, so a
 * value set after start takes effect (tests/unit/cli-heap.test.ts shows it does on this Node).
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 30;

const FLAG = /--heap[-_]growing[-_]percent\b/;

/** Bounds the heap's growth unless the user set the flag themselves (NODE_OPTIONS or node's arguments). */
export function boundHeapGrowth(): void {
  if (process.execArgv.some((arg) => FLAG.test(arg)) || FLAG.test(process.env.NODE_OPTIONS ?? '')) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
