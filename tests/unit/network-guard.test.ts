import { describe, expect, it } from 'vitest';
import { holdStartHost } from '@/entrypoints/background/network-guard';
import { fakeExtension } from './fake-extension';

// The worker's allow rules for a job started on the user's own machine, under WXT's fake browser
// whose session rule updates take effect a moment after the call, as Chrome's do.

describe('allow rules shared by jobs on one host', () => {
  it('a second job waits until the rule is in force, and the rule goes with the last job', async () => {
    const ext = fakeExtension();
    ext.delaySessionUpdates(50);
    const url = 'http://127.0.0.1:8123/docs/';
    const first = holdStartHost(url);
    const second = holdStartHost(url);
    const releaseSecond = await second;
    // Its first request may go out now: the rule must already be there.
    expect(ext.sessionRules()).toHaveLength(1);
    const releaseFirst = await first;
    await releaseSecond();
    expect(ext.sessionRules()).toHaveLength(1);
    await releaseFirst();
    expect(ext.sessionRules()).toEqual([]);
  });

  it('a rule the browser refuses fails every job waiting on it; the next job adds it afresh', async () => {
    const ext = fakeExtension();
    ext.delaySessionUpdates(50);
    const url = 'http://127.0.0.1:8124/docs/';
    ext.refuseNextSessionUpdate('Internal error: too many session rules.');
    const both = await Promise.allSettled([holdStartHost(url), holdStartHost(url)]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(ext.sessionRules()).toEqual([]);
    const release = await holdStartHost(url);
    expect(ext.sessionRules()).toHaveLength(1);
    await release();
    expect(ext.sessionRules()).toEqual([]);
  });
});
