import { afterEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { nodePipeline } from '@/lib/pipeline/node';
import { createDb, type JobRecord, type ScoutDb } from '@/lib/store/db';
import { JobRegistry } from '@/lib/jobs/registry';
import { browserProcessor, setUpCrawls } from '@/entrypoints/background/crawl';
import { latestArtifact, pagesOf } from '@/lib/store/queries';
import { generatedPaths, generatedSite } from '../fixtures/generated-site';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';
import { command, fakeExtension } from './fake-extension';
import { cancelRunningAndDelete, jobLeftRunning, until } from './background-helpers';

// The worker's crawl wiring under WXT's fake browser with a database of its own, crawling real
// servers on 127.0.0.1: through the browser's processor without offscreen documents or tabs (as in
// Firefox, pages are converted in the worker), or through lib/'s Node processor on *.test hosts.
const LOCAL = '127.0.0.1';
const HOST = 'docs.example.test';
let server: FixtureServer | undefined;
let db: ScoutDb;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await cancelRunningAndDelete(db);
  await server?.close();
  server = undefined;
});

const stored = (jobId: string) => pagesOf(db, jobId).count();
const stateOf = async (jobId: string) => (await db.jobs.get(jobId))?.state;
const alarm = (name: string) => ({ name, scheduledTime: Date.now(), persistAcrossSessions: false });
const settings = { useSeeds: false, respectRobots: false, perHostConcurrency: 2 };

/** The crawl wiring as the worker sets it up, with lib/'s Node processor and a loopback fetch. */
function wire(jobs?: JobRegistry) {
  fakeExtension({ without: ['offscreen', 'scripting'] });
  db = createDb(`t-${Math.random()}`);
  const fetch = loopbackFetch();
  return setUpCrawls({ db, browser, fetch, processor: { process: nodePipeline({ fetch: fetch }).process, converters: () => 1 }, jobs });
}

async function startCrawl(url: string): Promise<string> {
  const started = await command('startCrawl', { url, settings });
  if (!('jobId' in started)) throw new Error(started.error);
  return started.jobId;
}

describe('the worker’s crawl commands', () => {
  it('two panels pressing Generate at once start one crawl; the other is told why', async () => {
    fakeExtension({ without: ['offscreen', 'scripting'] });
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({ [LOCAL]: generatedSite(4, { delayMs: 200 }) });
    setUpCrawls({ db, browser, processor: browserProcessor({ db, browser }) });
    const url = server.url(LOCAL, '/');

    const answers = await Promise.all([command('startCrawl', { url, settings }), command('startCrawl', { url, settings })]);
    expect(answers.filter((a) => 'jobId' in a)).toHaveLength(1);
    expect(answers.filter((a) => 'error' in a)).toEqual([{ error: 'A crawl of this site is already running.' }]);
    expect(await db.jobs.where('state').equals('running').count()).toBe(1);
  });

  it('a crawl started by a command runs to done with every page once, and its llms.txt is generated; the watchdog alarm is set only while it runs', async () => {
    wire();
    server = await startFixtureServer({ [HOST]: generatedSite(10, { delayMs: 20 }) });
    const jobId = await startCrawl(server.url(HOST, '/'));
    expect(await browser.alarms.get('crawl-watchdog')).toMatchObject({ periodInMinutes: 1 });

    await until(async () => (await stateOf(jobId)) === 'done');
    expect(await stored(jobId)).toBe(10);
    // The start page twice: the plan (where the docs are, lib/crawl/plan.ts) reads it before the crawl does.
    expect(server.requests.map((r) => r.path).sort()).toEqual([...generatedPaths(10), '/'].sort());
    // The outputs come from the wiring's own database, right after the crawl ends.
    const origin = server.origin(HOST);
    await until(async () => Boolean(await latestArtifact(db, origin, 'llms')));
    expect((await latestArtifact(db, origin, 'llms'))?.text).toContain(`${origin}/docs/p9.html`);
    await until(async () => (await browser.alarms.get('crawl-watchdog')) === undefined);
  });

  it('Pause stops the crawl asking for pages; Resume carries on to done without asking for any page twice', async () => {
    wire();
    server = await startFixtureServer({ [HOST]: generatedSite(12, { delayMs: 150 }) });
    const jobId = await startCrawl(server.url(HOST, '/'));
    await until(async () => (await stored(jobId)) >= 2);

    expect(await command('pauseCrawl', { jobId })).toEqual({ ok: true });
    await until(async () => (await stateOf(jobId)) === 'paused');
    const asked = server.requests.length;
    await new Promise((r) => setTimeout(r, 600));
    expect(server.requests.length).toBe(asked);
    expect(await stored(jobId)).toBeLessThan(12);

    expect(await command('resumeCrawl', { jobId })).toEqual({ ok: true });
    await until(async () => (await stateOf(jobId)) === 'done');
    expect(await stored(jobId)).toBe(12);
    const paths = server.requests.map((r) => r.path);
    // The plan read the start page once before the crawl: apart from that, no page was asked twice.
    expect(paths.filter((p) => p === '/')).toHaveLength(2);
    expect(new Set(paths).size).toBe(paths.length - 1);
  });

  it('Resume while the paused runner finishes its last pages waits on that runner, not on a polling timer', async () => {
    fakeExtension({ without: ['offscreen', 'scripting'] });
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({ [LOCAL]: generatedSite(12, { delayMs: 400 }) });
    setUpCrawls({ db, browser, processor: browserProcessor({ db, browser }) });
    const jobId = await startCrawl(server.url(LOCAL, '/'));
    await until(async () => (await stored(jobId)) >= 2);

    // Timers the worker's own wiring schedules while the old runner still has pages in flight.
    const setTimeoutOf = globalThis.setTimeout;
    let wiringTimers = 0;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((handler: () => void, ms?: number) => {
      if (new Error().stack?.includes('entrypoints/background/crawl.ts')) wiringTimers++;
      return setTimeoutOf(handler, ms);
    }) as typeof setTimeout);
    await command('pauseCrawl', { jobId });
    expect(await command('resumeCrawl', { jobId })).toEqual({ ok: true });

    await until(async () => (await stateOf(jobId)) === 'done');
    expect(await stored(jobId)).toBe(12);
    expect(wiringTimers).toBe(0);
  });

  it('Generate is refused in words without host access or with a scope pattern that cannot be read, and no job is made', async () => {
    wire();
    server = await startFixtureServer({ [HOST]: generatedSite(2) });
    const url = server.url(HOST, '/');
    expect(await command('startCrawl', { url, settings: { ...settings, include: ['/docs/['] } })).toMatchObject({ error: expect.any(String) });
    vi.spyOn(fakeBrowser.permissions, 'contains').mockImplementation(async () => false);
    expect(await command('startCrawl', { url, settings })).toEqual({ error: 'Scout has no access to this site yet.' });
    expect(await db.jobs.count()).toBe(0);
    expect(server.requests).toEqual([]);
  });

  it('a crawl of the user’s own host whose allow rule the browser refuses ends failed with the reason, and the next Generate runs', async () => {
    const ext = fakeExtension({ without: ['offscreen', 'scripting'] });
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({ [LOCAL]: generatedSite(3) });
    setUpCrawls({ db, browser, processor: browserProcessor({ db, browser }) });
    ext.refuseNextSessionUpdate('Internal error: too many session rules.');
    const failed = await startCrawl(server.url(LOCAL, '/'));
    await until(async () => (await stateOf(failed)) !== 'running');
    expect(await db.jobs.get(failed)).toMatchObject({ state: 'failed', message: expect.stringContaining('too many session rules') });
    expect(server.requests).toEqual([]);

    const next = await startCrawl(server.url(LOCAL, '/'));
    await until(async () => (await stateOf(next)) === 'done');
    expect(await stored(next)).toBe(3);
    expect(ext.sessionRules()).toEqual([]);
  });

  it('Cancel of a job no runner holds (its worker was stopped) marks it cancelled', async () => {
    fakeExtension({ without: ['offscreen', 'scripting'] });
    db = createDb(`t-${Math.random()}`);
    await db.jobs.add({ id: 'stale', origin: 'https://docs.example.test', kind: 'crawl', state: 'paused', createdAt: 1, counters: {} } as JobRecord);
    setUpCrawls({ db, browser, processor: { process: () => Promise.reject(new Error('no pages here')), converters: () => 1 } });
    expect(await command('cancelCrawl', { jobId: 'stale' })).toEqual({ ok: true });
    expect(await db.jobs.get('stale')).toMatchObject({ state: 'cancelled', message: 'Cancelled. Pages stored so far are kept.' });
  });

  it('Pause and Cancel with no runner change only a crawl or refresh still going, and say whether they did', async () => {
    fakeExtension({ without: ['offscreen', 'scripting'] });
    db = createDb(`t-${Math.random()}`);
    const row = (id: string, kind: JobRecord['kind'], state: JobRecord['state']) => ({ id, origin: 'https://docs.example.test', kind, state, createdAt: 1, counters: {}, message: `was ${state}` }) as JobRecord;
    await db.jobs.bulkAdd([row('done', 'crawl', 'done'), row('failed', 'refresh', 'failed'), row('discovery', 'discovery', 'running'), row('check', 'check', 'running'), row('paused', 'crawl', 'paused'), row('refresh', 'refresh', 'paused')]);
    setUpCrawls({ db, browser, processor: { process: () => Promise.reject(new Error('no pages here')), converters: () => 1 } });
    for (const id of ['done', 'failed', 'discovery', 'check']) {
      expect(await command('cancelCrawl', { jobId: id })).toEqual({ ok: false });
      expect(await command('pauseCrawl', { jobId: id })).toEqual({ ok: false });
    }
    expect((await db.jobs.bulkGet(['done', 'failed', 'discovery', 'check'])).map((j) => j?.state)).toEqual(['done', 'failed', 'running', 'running']);
    expect(await command('cancelCrawl', { jobId: 'missing' })).toEqual({ ok: false });
    // A paused crawl cannot be paused again; a running refresh with no runner (set running only now,
    // so the setup's resume of what a stopped worker left did not take it) pauses in the database.
    expect(await command('pauseCrawl', { jobId: 'paused' })).toEqual({ ok: false });
    await db.jobs.update('refresh', { state: 'running' });
    expect(await command('pauseCrawl', { jobId: 'refresh' })).toEqual({ ok: true });
    expect(await db.jobs.get('refresh')).toMatchObject({ state: 'paused', message: 'Refresh paused. Resume to carry on.' });
    expect(await command('cancelCrawl', { jobId: 'refresh' })).toEqual({ ok: true });
    expect(await db.jobs.get('refresh')).toMatchObject({ state: 'cancelled' });
  });
});

describe('jobs a stopped worker left running', () => {
  it('are resumed when the worker starts, and end done with every page stored once', async () => {
    fakeExtension({ without: ['offscreen', 'scripting'] });
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({ [HOST]: generatedSite(20) });
    const left = await jobLeftRunning(db, server.url(HOST, '/'), settings);
    cleanups.push(left.stop);
    const storedBefore = await stored(left.jobId);
    expect(storedBefore).toBeLessThan(20);

    const fetch = loopbackFetch();
    setUpCrawls({ db, browser, fetch, processor: { process: nodePipeline({ fetch: fetch }).process, converters: () => 1 } });
    await until(async () => (await stateOf(left.jobId)) === 'done');
    const pages = await pagesOf(db, left.jobId).toArray();
    expect(pages.map((p) => new URL(p.url).pathname).sort()).toEqual(generatedPaths(20).sort());
  });

  it('are resumed on the watchdog alarm, and by a panel’s wakeCrawls; other alarms resume nothing', async () => {
    wire();
    server = await startFixtureServer({ [HOST]: generatedSite(16) });
    const first = await jobLeftRunning(db, server.url(HOST, '/'), settings);
    cleanups.push(first.stop);

    const asked = server.requests.length;
    await fakeBrowser.alarms.onAlarm.trigger(alarm('scheduled-refresh'));
    await new Promise((r) => setTimeout(r, 300));
    expect(server.requests.length).toBe(asked);
    expect(await stateOf(first.jobId)).toBe('running');

    await fakeBrowser.alarms.onAlarm.trigger(alarm('crawl-watchdog'));
    await until(async () => (await stateOf(first.jobId)) === 'done');
    expect(await stored(first.jobId)).toBe(16);

    const second = await jobLeftRunning(db, server.url(HOST, '/'), settings);
    cleanups.push(second.stop);
    expect(await command('wakeCrawls')).toEqual({ resumed: 1 });
    await until(async () => (await stateOf(second.jobId)) === 'done');
  });
});

describe('a refresh started by a command', () => {
  it('runs to its end and then tells the registry’s refresh hooks (the schedule’s), the job ended', async () => {
    const ended: JobRecord[] = [];
    const jobs = new JobRegistry();
    jobs.onEnded(['refresh'], async ({ id }) => {
      const job = await db.jobs.get(id);
      if (job) ended.push(job);
    });
    wire(jobs);
    server = await startFixtureServer({ [HOST]: generatedSite(6) });
    const crawlId = await startCrawl(server.url(HOST, '/'));
    await until(async () => (await stateOf(crawlId)) === 'done');
    expect(ended).toEqual([]);

    const started = await command('startRefresh', { origin: server.origin(HOST) });
    if (!('jobId' in started)) throw new Error(started.error);
    await until(async () => ended.length > 0);
    expect(ended).toEqual([expect.objectContaining({ id: started.jobId, kind: 'refresh', state: 'done' })]);
  });
});
