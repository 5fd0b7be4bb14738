import { describe, expect, it } from 'vitest';
import { liveHeap } from './live-heap';
import { boundedMemo } from '@/lib/bounded-memo';


describe('boundedMemo', () => {
  it('keeps its string keys, not the pages they were cut from', () => {
    // Class names as linkedom hands them out: views into the page's HTML. 40 pages of 1 MB each,
    // one class name remembered from each.
    const memo = boundedMemo(1000, (cls: string) => cls.length);
    const before = liveHeap();
    for (let i = 0; i < 40; i++) {
      const html = `<div class="page-${i}-content-wrapper">${'x'.repeat(1_000_000)}</div>`;
      const cls = html.slice(12, html.indexOf('"', 12));
      expect(memo(cls)).toBe(`page-${i}-content-wrapper`.length);
    }
    const kept = liveHeap() - before;
    // The remembered names still answer, from the memo.
    expect(memo('page-7-content-wrapper')).toBe(22);
    expect(kept).toBeLessThan(2e6);
  });
});
