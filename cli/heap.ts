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
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 30;

const FLAG = /--heap[-_]growing[-_]percent\b/;

/** Bounds the heap's growth unless the user set the flag themselves (NODE_OPTIONS or node's arguments). */
export function boundHeapGrowth(): void {
  if (process.execArgv.some((arg) => FLAG.test(arg)) || FLAG.test(process.env.NODE_OPTIONS ?? '')) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * The young generation's cap, in MB per semi-space. V8's default on 64-bit is 16: a new space of
 * 32 MB (two semi-spaces), committed from early in a crawl to its end and the first thing above
 * the live set at the CLI's peak. Half of it took the CLI's peak RSS on the Python docs from 312
 * to 279 MB (medians of 3 interleaved runs), CPU per page the same (62 and 61 ms). A larger one
 * collects less often and does cut CPU, but not within 300 MB at the peak: node
 * --max-semi-space-size=N on the Python docs (3 interleaved runs each, 2026-11-30), CPU per page
 * and peak RSS, medians: 8 (this cap) 55 ms, 263 MB; 12: 56 ms, 290 MB (another time 298, 306);
 * 16 (V8's own): 52 ms, 292 MB; 32: 47 ms, 342 MB; 64: 48 ms, 425 MB. Above 16 it could only be
 * set on Node's command line (cli/node-flags.mjs), as V8 fixes the maximum as it makes the heap.
 */
export const SEMI_SPACE_MB = 8;

const MB = 1024 * 1024;

const YOUNG_FLAG = /--(max[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor)\b/;

/**
 * Keeps new space at or under `SEMI_SPACE_MB` per semi-space unless the user set its size or
 * growth themselves. `--max-semi-space-size` is read only as the heap is made, so a running
 * process cannot lower it; V8 reads `--semi-space-growth-factor` each time it grows new space
 * (capacity times the factor, at most the maximum). So after each collection the factor is set
 * to what takes the space at most to the cap in one step, and to 1 (no growth) once it is there.
 * The observer runs after the collection, not in it: a second growth before it runs (a long
 * synchronous stretch) would take new space past the cap to V8's own maximum, no further.
 */
export function boundYoungGeneration(): void {
  if (process.execArgv.some((arg) => YOUNG_FLAG.test(arg)) || YOUNG_FLAG.test(process.env.NODE_OPTIONS ?? '')) return;
  const cap = SEMI_SPACE_MB * MB;
  let factor = 0;
  const setFactor = () => {
    const size = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size;
    if (!size) return;
    // The space's size is its two semi-spaces, or one before the first scavenge: a semi-space is
    // taken as at least V8's first, 1 MB, which errs towards a smaller factor.
    const semi = Math.max(MB, size / 2);
    const next = Math.max(1, Math.floor(cap / semi));
    if (next === factor) return;
    factor = next;
    setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  };
  setFactor();
  new PerformanceObserver(setFactor).observe({ entryTypes: ['gc'] });
}
