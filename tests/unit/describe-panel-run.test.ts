import { afterEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setUpDescribe } from '@/entrypoints/background/describe';
import { JobRegistry } from '@/lib/jobs/registry';
import { db, type DescribeJob } from '@/lib/store/db';
import { endpointProvider } from '@/lib/describe/endpoint';
import { DESCRIBE_PORT, LEASE_MS, portHold, runDescribeInPanel } from '@/lib/describe/panel-run';
import { PANEL_CLOSED } from '@/lib/describe/run-describe';
import { latestArtifact } from '@/lib/store/queries';
import { answer, startChatServer, type ChatServer } from '../fixtures/chat-server';
import { until } from './background-helpers';
import { clearDescribeRows, crawledSite } from './describe-site';
import { command, fakeExtension } from './fake-extension';

// The on-device model runs in the side panel, not the worker: the panel's job must stop on Cancel,
// end failed (with why) on an error, and survive a restart of the worker that does not run it.
const ORIGIN = 'https://docs.example.test';
const PAGES = 6;

let chat: ChatServer | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
  await clearDescribeRows();
  await db.artifacts.clear();
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

describe('a describe job run in the panel, on the worker’s job registry', () => {
  /** A worker as index.ts wires it, on a registry the test can read, and the panel's hold on it as the card makes it. */
  const worker = () => {
    const jobs = new JobRegistry();
    setUpDescribe({ db, browser: fakeBrowser, jobs });
    return jobs;
  };
  const hold = portHold(() => fakeBrowser.runtime.connect({ name: DESCRIBE_PORT }), 20);
  const runningId = async () => {
    await until(async () => (chat?.requests.length ?? 0) >= 1);
    const job = await describeJob();
    if (!job) throw new Error('no describe job');
    return job.id;
  };

  it('is held on the registry while it runs, and Cancel through the worker (another panel) stops it', async () => {
    fakeExtension();
    await crawledSite(ORIGIN, PAGES);
    const jobs = worker();
    const provider = await slowProvider();
    const running = runDescribeInPanel(db, ORIGIN, provider, { maxPages: 100, hold });
    const id = await runningId();
    await until(async () => jobs.has(id));
    expect(await command('cancelDescribe', { jobId: id })).toEqual({ ok: true });
    expect(await running).toMatchObject({ jobId: id, state: 'cancelled' });
    expect(chat?.requests.length).toBeLessThan(PAGES);
    await jobs.ended(id);
    expect(jobs.size).toBe(0);
    expect((await db.jobs.get(id))?.state).toBe('cancelled');
  });

  it('ends failed at once when its panel is closed mid-run, not a lease later, and frees the site', async () => {
    const ext = fakeExtension();
    await crawledSite(ORIGIN, PAGES);
    const jobs = worker();
    const provider = await slowProvider();
    const controller = new AbortController();
    const running = runDescribeInPanel(db, ORIGIN, provider, { maxPages: 100, signal: controller.signal, hold });
    const id = await runningId();
    await until(async () => jobs.has(id));
    const closedAt = Date.now();
    ext.closePanels();
    await until(async () => (await db.jobs.get(id))?.state === 'failed');
    expect(Date.now() - closedAt).toBeLessThan(LEASE_MS / 2);
    expect((await db.jobs.get(id))?.message).toBe(PANEL_CLOSED);
    await jobs.ended(id);
    expect(jobs.size).toBe(0);
    // The closed panel's code is gone in the browser; here it still runs, so the test ends it.
    controller.abort();
    await running;
  });

  it('after the browser stops the worker, the panel holds its job on the next one, whose Cancel stops it', async () => {
    const ext = fakeExtension();
    await crawledSite(ORIGIN, PAGES);
    const first = worker();
    const provider = await slowProvider();
    const running = runDescribeInPanel(db, ORIGIN, provider, { maxPages: 100, hold });
    const id = await runningId();
    await until(async () => first.has(id));
    ext.stopWorker();
    const second = worker();
    await until(async () => second.has(id));
    expect((await db.jobs.get(id))?.state).toBe('running');
    expect(await command('cancelDescribe', { jobId: id })).toEqual({ ok: true });
    expect(await running).toMatchObject({ state: 'cancelled' });
    expect(chat?.requests.length).toBeLessThan(PAGES);
  });

  it('its end goes to the registry’s describe hook: the llms.txt is made again with the descriptions', async () => {
    fakeExtension();
    await crawledSite(ORIGIN, 2);
    const jobs = worker();
    const provider = await slowProvider();
    const result = await runDescribeInPanel(db, ORIGIN, provider, { maxPages: 100, hold });
    if (!('jobId' in result)) throw new Error(result.error);
    expect(result.state).toBe('done');
    await until(async () => (await latestArtifact(db, ORIGIN, 'llms')) !== undefined);
    await jobs.ended(result.jobId);
    expect(jobs.size).toBe(0);
  });

  it('a run over before the worker reads the panel’s word (a busy worker) still reaches the end hook', async () => {
    const ext = fakeExtension();
    await crawledSite(ORIGIN, 1);
    const jobs = worker();
    const provider = await slowProvider();
    ext.delayPortMessages(1000);
    const result = await runDescribeInPanel(db, ORIGIN, provider, { maxPages: 100, hold });
    if (!('jobId' in result)) throw new Error(result.error);
    expect(result.state).toBe('done');
    expect(jobs.has(result.jobId)).toBe(false);
    await until(async () => (await latestArtifact(db, ORIGIN, 'llms')) !== undefined);
    await jobs.idle();
  });
});

