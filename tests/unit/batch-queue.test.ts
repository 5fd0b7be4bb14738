import { describe, expect, it } from 'vitest';
import { BatchQueue } from '@/lib/crawl/batch-queue';

// The writer's queue: results go to the database in batches, one at a time, in order; after a
// failed write nothing more is written (the items stay in flight in the database, for resume).
describe('batch queue', () => {
  it('writes in batches of at most its size, in order, one write at a time; items added meanwhile wait for the next', async () => {
    const batches: number[][] = [];
    let writing = 0;
    let overlapped = false;
    let release: () => void = () => undefined;
    const q = new BatchQueue<number>(3, async (batch) => {
      overlapped ||= writing > 0;
      writing++;
      batches.push(batch);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
      writing--;
    }, () => undefined);
    q.add(1); // starts the first write at once, alone
    for (let i = 2; i <= 8; i++) q.add(i);
    expect(q.pending).toBe(8);
    expect(q.idle).toBe(false);
    release();
    await q.drain();
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6, 7], [8]]);
    expect(overlapped).toBe(false);
    expect(q.pending).toBe(0);
    expect(q.idle).toBe(true);
  });

  it('stops at the first failed write, says so once, and drops what was queued', async () => {
    const written: number[] = [];
    const failures: unknown[] = [];
    let n = 0;
    const q = new BatchQueue<number>(2, async (batch) => {
      if (++n === 2) throw new Error('QuotaExceededError');
      written.push(...batch);
    }, (e) => failures.push(e));
    for (let i = 1; i <= 6; i++) q.add(i);
    await q.drain();
    q.add(7);
    await q.drain();
    expect(written).toEqual([1]);
    expect(failures).toHaveLength(1);
    expect(String(q.failure)).toContain('QuotaExceededError');
    expect(q.pending).toBe(0);
  });

  it('calls onWritten after each committed batch and when it runs dry', async () => {
    let calls = 0;
    const q = new BatchQueue<number>(2, async () => undefined, () => undefined, () => calls++);
    for (let i = 0; i < 5; i++) q.add(i);
    await q.drain();
    // Batches [0], [1,2], [3,4], then the queue ran dry.
    expect(calls).toBe(4);
  });
});
