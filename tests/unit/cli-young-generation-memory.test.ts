import { describe, expect, it } from 'vitest';
import { heapProbe } from './heap-probe';
import { SEMI_SPACE_MB } from '@/cli/heap';

// A program that makes garbage for a while, part of it living across a few collections (so V8
// grows new space), yielding now and then as the CLI's crawl does, and prints the largest new
// space V8 made for it. With SCOUT_HEAP_TEST_BOUND set, it first calls boundYoungGeneration, as
// cli/scout.ts does.
const PROGRAM = `
import { getHeapSpaceStatistics } from 'node:v8';
const bound = process.env.SCOUT_HEAP_TEST_BOUND;
if (bound) (await import(bound)).boundYoungGeneration();
const keep = [];
let most = 0;
for (let round = 0; round < 40; round++) {
  await new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < 100000; i++) {
    const o = { a: i, b: 'x' + i, c: [i] };
    if (i % 10 === 0) keep.push(o);
    if (keep.length > 100000) keep.splice(0, 50000);
  }
  most = Math.max(most, getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size);
}
process.stdout.write(String(most));
`;

const largestNewSpace = (bound: boolean): number => heapProbe(PROGRAM, 'young-test', bound);

describe('boundYoungGeneration', () => {
  it('keeps new space at its cap, set from inside the running process', { timeout: 120_000 }, () => {
    const free = largestNewSpace(false);
    const bounded = largestNewSpace(true);
    // V8 left alone grew new space to 32 MB (two semi-spaces of 16); bounded, to two of 8.
    expect(free).toBeGreaterThan(2 * SEMI_SPACE_MB * 2 ** 20);
    expect(bounded).toBeLessThanOrEqual(2 * SEMI_SPACE_MB * 2 ** 20);
  });
});
