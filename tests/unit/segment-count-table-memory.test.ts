import { describe, expect, it } from 'vitest';
import { segmentCounter } from '@/lib/generate/segment-count';
import { liveHeap } from './live-heap';

/** The ArrayBuffers alone (typed arrays' memory), once everything unreachable is collected. */
function liveArrayBuffers(): number {
  liveHeap();
  return process.memoryUsage().arrayBuffers;
}

describe('segmentCounter table memory', () => {
  it('holds three 32-bit numbers a slot: its tables are ArrayBuffers outside the heap, tens of MB on a large site', () => {
    // 20,000 distinct paragraphs of ten distinct words: tables of 2^18 slots in all (each at most
    // half full), 3.1 MB at three numbers a slot, 4.2 MB at four.
    const words = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}x`);
    const texts = Array.from({ length: 20_000 }, (_, i) => `${words.slice(i * 10, i * 10 + 10).join(' ')}.\n\n`);
    const before = liveArrayBuffers();
    const count = segmentCounter();
    let total = 0;
    for (const text of texts) total += count(text);
    const held = liveArrayBuffers() - before;
    expect(total).toBeGreaterThan(200_000);
    expect(held).toBeLessThan(3.6e6);
    // Keeps the counter, and so its tables, alive until measured.
    expect(count('one more.')).toBeGreaterThan(0);
  });
});
