import { describe, expect, it } from 'vitest';
import { JobRegistry, type JobOutcome } from '@/lib/jobs/registry';

/** A run the test ends when it wants: resolves with `finish`, and notes an abort. */
function controllable() {
  let finish: (value: unknown) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const seen: { signal?: AbortSignal } = {};
  const run = (signal: AbortSignal) =>
    new Promise<unknown>((resolve, reject) => {
      seen.signal = signal;
      finish = resolve;
      fail = reject;
      signal.addEventListener('abort', () => reject(signal.reason));
    });
  return { run, finish: (v: unknown) => finish(v), fail: (e: unknown) => fail(e), seen };
}

function keepAliveLog() {
  const log: string[] = [];
  return { log, keepAlive: { start: () => log.push('start'), stop: () => log.push('stop') } };
}

describe('the job registry', () => {
  it('starts a job under a key once: a second start joins the first, and the key is free after its end', async () => {
    const jobs = new JobRegistry();
    const a = controllable();
    expect(jobs.start({ id: 'a', kind: 'check', key: 'check:https://x.test', run: a.run })).toEqual({ id: 'a', started: true });
    const b = controllable();
    expect(jobs.start({ id: 'b', kind: 'check', key: 'check:https://x.test', run: b.run })).toEqual({ id: 'a', started: false });
    // Another key, or the same job id again.
    expect(jobs.start({ id: 'c', kind: 'check', key: 'check:https://y.test', run: controllable().run }).started).toBe(true);
    expect(jobs.start({ id: 'a', kind: 'check', run: controllable().run })).toEqual({ id: 'a', started: false });
    expect(jobs.holding('check:https://x.test')).toBe('a');
    a.finish('done');
    await jobs.ended('a');
    expect(jobs.has('a')).toBe(false);
    expect(jobs.holding('check:https://x.test')).toBeUndefined();
    expect(jobs.start({ id: 'd', kind: 'check', key: 'check:https://x.test', run: controllable().run }).started).toBe(true);
  });

  it('cancels through the run’s signal, or the job’s own cancel; pause only a job that can', async () => {
    const jobs = new JobRegistry();
    const a = controllable();
    jobs.start({ id: 'a', kind: 'describe', run: a.run });
    expect(jobs.pause('a')).toBe(false);
    // A command of one kind never stops a job of another.
    expect(jobs.cancel('a', 'crawl', 'refresh')).toBe(false);
    expect(a.seen.signal?.aborted).toBe(false);
    expect(jobs.cancel('a', 'describe')).toBe(true);
    expect(a.seen.signal?.aborted).toBe(true);
    await jobs.ended('a');
    expect(jobs.cancel('a')).toBe(false);
    expect(jobs.cancel('never')).toBe(false);

    const calls: string[] = [];
    const b = controllable();
    jobs.start({ id: 'b', kind: 'crawl', run: b.run, pause: () => calls.push('pause'), cancel: () => calls.push('cancel') });
    expect(jobs.pause('b', 'describe')).toBe(false);
    expect(calls).toEqual([]);
    expect(jobs.pause('b')).toBe(true);
    expect(jobs.cancel('b')).toBe(true);
    expect(calls).toEqual(['pause', 'cancel']);
    expect(b.seen.signal?.aborted).toBe(false);
    b.finish('cancelled');
    await jobs.ended('b');
  });

  it('runs the on-ended hooks of the job’s kind with its outcome before the job leaves; a hook that throws stops no other', async () => {
    const jobs = new JobRegistry();
    const seen: Array<[string, string, JobOutcome, boolean]> = [];
    jobs.onEnded(['crawl'], (job, outcome) => {
      seen.push(['crawl-hook', job.id, outcome, jobs.has(job.id)]);
      throw new Error('hook failed');
    });
    jobs.onEnded(null, async (job, outcome) => {
      await new Promise((r) => setTimeout(r, 10));
      seen.push(['any-hook', job.id, outcome, jobs.has(job.id)]);
    });
    const crawl = controllable();
    const check = controllable();
    jobs.start({ id: 'c1', kind: 'crawl', run: crawl.run });
    jobs.start({ id: 'k1', kind: 'check', run: check.run });
    crawl.finish('done');
    const boom = new Error('boom');
    check.fail(boom);
    await Promise.all([jobs.ended('c1'), jobs.ended('k1')]);
    expect(seen).toEqual([
      ['crawl-hook', 'c1', { ok: true, value: 'done' }, true],
      ['any-hook', 'c1', { ok: true, value: 'done' }, true],
      ['any-hook', 'k1', { ok: false, error: boom }, true],
    ]);
    expect(jobs.size).toBe(0);
  });

  it('keeps the worker alive from the first job’s start to the last one’s end, once', async () => {
    const { log, keepAlive } = keepAliveLog();
    const jobs = new JobRegistry(keepAlive);
    const a = controllable();
    const b = controllable();
    jobs.start({ id: 'a', kind: 'crawl', run: a.run });
    jobs.start({ id: 'b', kind: 'describe', run: b.run });
    expect(log).toEqual(['start']);
    a.finish('done');
    await jobs.ended('a');
    expect(log).toEqual(['start']);
    b.finish('done');
    await jobs.ended('b');
    expect(log).toEqual(['start', 'stop']);
    // A run that throws before its first await ends the same way.
    jobs.start({
      id: 'c',
      kind: 'check',
      run: () => {
        throw new Error('at once');
      },
    });
    await jobs.ended('c');
    expect(log).toEqual(['start', 'stop', 'start', 'stop']);
  });

  it('queues jobs under a key one at a time, in the order asked; a failed one does not hold up the next', async () => {
    const { log, keepAlive } = keepAliveLog();
    const jobs = new JobRegistry(keepAlive);
    const order: string[] = [];
    let inside = 0;
    const step = (name: string, fail = false) => async () => {
      inside++;
      order.push(`${name} starts (${inside} running)`);
      await new Promise((r) => setTimeout(r, 20));
      inside--;
      order.push(`${name} ends`);
      if (fail) throw new Error(`${name} failed`);
      return name;
    };
    const first = jobs.queue({ id: 'g1', kind: 'generate', key: 'generate:https://x.test', run: step('g1') });
    const second = jobs.queue({ id: 'g2', kind: 'generate', key: 'generate:https://x.test', run: step('g2', true) });
    const third = jobs.queue({ id: 'g3', kind: 'generate', key: 'generate:https://x.test', run: step('g3') });
    const other = jobs.queue({ id: 'o1', kind: 'generate', key: 'generate:https://y.test', run: step('o1') });
    await expect(first).resolves.toBe('g1');
    await expect(second).rejects.toThrow('g2 failed');
    await expect(third).resolves.toBe('g3');
    await expect(other).resolves.toBe('o1');
    const forX = order.filter((line) => !line.startsWith('o1'));
    expect(forX.map((line) => line.replace(/ \(\d running\)/, ''))).toEqual(['g1 starts', 'g1 ends', 'g2 starts', 'g2 ends', 'g3 starts', 'g3 ends']);
    // The other site's job ran beside g1, not after the queue of x.test.
    expect(order.indexOf('o1 starts (2 running)')).toBeGreaterThanOrEqual(0);
    await jobs.ended('g3');
    expect(jobs.size).toBe(0);
    expect(log).toEqual(['start', 'stop']);
  });

  it('is idle once every running and queued job has ended, and at once when none is', async () => {
    const jobs = new JobRegistry();
    await jobs.idle();
    const a = controllable();
    const b = controllable();
    jobs.start({ id: 'a', kind: 'crawl', run: a.run });
    const first = jobs.queue({ id: 'q1', kind: 'delete', key: 'delete:x', run: b.run });
    const second = jobs.queue({ id: 'q2', kind: 'delete', key: 'delete:x', run: async () => 'second' });
    let idle = false;
    const settled = jobs.idle().then(() => {
      idle = true;
    });
    a.finish('done');
    await jobs.ended('a');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(idle).toBe(false);
    b.finish('first');
    expect(await first).toBe('first');
    expect(await second).toBe('second');
    await settled;
    expect(idle).toBe(true);
    expect(jobs.size).toBe(0);
  });
});

