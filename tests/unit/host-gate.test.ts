import { describe, expect, it } from 'vitest';
import { HostGate } from '@/lib/crawl/host-gate';

describe('host gate', () => {
  it('gives a released slot to a page waiting for its Markdown twin before any new page', async () => {
    const gate = new HostGate(1, fetch, 1000);
    gate.acquire('a.test');
    let got = false;
    const waiting = gate.acquireWhenFree('a.test').then(() => (got = true));
    await Promise.resolve();
    expect(got).toBe(false);
    gate.release('a.test');
    await waiting;
    expect(got).toBe(true);
    // The waiter holds the slot now: no new page may start until it releases.
    expect(gate.canStart('a.test')).toBe(false);
    gate.release('a.test');
    expect(gate.canStart('a.test')).toBe(true);
    // Free at once when a slot is free; other hosts are not affected.
    await gate.acquireWhenFree('b.test');
    expect(gate.canStart('b.test')).toBe(false);
    expect(gate.canStart('a.test')).toBe(true);
  });
});
