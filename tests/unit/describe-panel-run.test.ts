import { afterEach, describe, expect, it } from 'vitest';
import { setUpDescribe } from '@/entrypoints/background/describe';
import { db, type DescribeJob } from '@/lib/store/db';
import { endpointProvider } from '@/lib/describe/endpoint';
import { runDescribeInPanel } from '@/lib/describe/panel-run';
import { PANEL_CLOSED } from '@/lib/describe/run-describe';
import { answer, startChatServer, type ChatServer } from '../fixtures/chat-server';
import { until } from './background-helpers';
import { clearDescribeRows, crawledSite } from './describe-site';
import { fakeExtension } from './fake-extension';

// The on-device model runs in the side panel, not the worker: the panel's job must stop on Cancel,
// end failed (with why) on an error, and survive a restart of the worker that does not run it.
const ORIGIN = 'https://docs.example.test';
const PAGES = 6;

let chat: ChatServer | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
  await clearDescribeRows();
});

/** A provider on a real chat server on loopback, as slow as a small local model. */
async function slowProvider() {
  chat = await startChatServer(() => answer('Explains one part of the project.', 150));
  return endpointProvider({ url: chat.baseUrl, model: 'm' }, fetch);
}

const describeJob = async () => (await db.jobs.filter((j) => j.kind === 'describe').last()) as DescribeJob | undefined;

describe('a describe job run in the panel', () => {
  it('stops on Cancel: the job ends cancelled and no more pages are sent', async () => {
    await crawledSite(ORIGIN, PAGES);
    const provider = await slowProvider();
    const controller = new AbortController();
    const running = runDescribeInPanel(db, ORIGIN, provider, { maxPages: 100, signal: controller.signal });
    await until(async () => (chat?.requests.length ?? 0) >= 1);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ state: 'cancelled' });
    expect((await describeJob())?.state).toBe('cancelled');
    expect(chat?.requests.length).toBeLessThan(PAGES);
  });

  it('ends failed with the reason when the run throws, and does not block the next one', async () => {
    await crawledSite(ORIGIN, PAGES);
    const provider = await slowProvider();
    // The browser refuses to store the run's progress (as when storage is full): the final count of
    // the pages, written once every page has settled, throws.
    const original = db.jobs.update.bind(db.jobs);
    let refused = false;
    db.jobs.update = ((key: string, changes: { counters?: { total?: number; described?: number; cached?: number; fallback?: number } }) => {
      const c = changes.counters;
      if (c && (c.described ?? 0) + (c.cached ?? 0) + (c.fallback ?? 0) === c.total) {
        refused = true;
        return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
      }
      return original(key, changes);
    }) as typeof db.jobs.update;
    try {
      const result = await runDescribeInPanel(db, ORIGIN, provider, { maxPages: 100 }).catch((error: unknown) => ({ thrown: String(error) }));
      expect(refused).toBe(true);
      expect(result).toMatchObject({ state: 'failed' });
    } finally {
      db.jobs.update = original;
    }
    expect(await describeJob()).toMatchObject({ state: 'failed', message: expect.stringContaining('quota has been exceeded') });
    const again = await runDescribeInPanel(db, ORIGIN, provider, { maxPages: 100 });
    expect(again).toMatchObject({ state: 'done' });
  });

  it('is not taken for an interrupted one when the worker restarts while the panel runs it', async () => {
    fakeExtension();
    await crawledSite(ORIGIN, PAGES);
    const provider = await slowProvider();
    const controller = new AbortController();
    const running = runDescribeInPanel(db, ORIGIN, provider, { maxPages: 100, signal: controller.signal });
    await until(async () => (chat?.requests.length ?? 0) >= 1);
    // A worker starting now (Chrome stopped the old one) must leave the panel's job running.
    setUpDescribe();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await describeJob())?.state).toBe('running');
    const result = await running;
    expect(result).toMatchObject({ state: 'done' });
    expect(chat?.requests.length).toBe(PAGES);
  });

  it('ends once its panel is gone (the lease lapsed): at the worker’s start, or when the next one starts', async () => {
    fakeExtension();
    await crawledSite(ORIGIN, PAGES);
    const lapsed = (id: string): DescribeJob => ({ id, origin: ORIGIN, kind: 'describe', state: 'running', createdAt: 2, crawlJobId: 'c1', counters: {}, leaseUntil: Date.now() - 1 });
    await db.jobs.add(lapsed('gone-1'));
    setUpDescribe();
    await until(async () => (await db.jobs.get('gone-1'))?.state === 'failed');
    expect((await db.jobs.get('gone-1'))?.message).toBe(PANEL_CLOSED);

    await db.jobs.add(lapsed('gone-2'));
    const provider = await slowProvider();
    expect(await runDescribeInPanel(db, ORIGIN, provider, { maxPages: 1 })).toMatchObject({ state: 'done' });
    expect(await db.jobs.get('gone-2')).toMatchObject({ state: 'failed', message: PANEL_CLOSED });
  });
});
