import { afterEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { createDb, type JobRecord, type ScoutDb } from '@/lib/store/db';
import { recordSiteOpened } from '@/lib/sites';
import { setUpCrawls } from '@/entrypoints/background/crawl';
import { setUpSchedule } from '@/entrypoints/background/schedule';
import { JobRegistry } from '@/lib/jobs/registry';
import { generatedSite } from '../fixtures/generated-site';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';
import { command, fakeExtension } from './fake-extension';
import { cancelRunningAndDelete, until } from './background-helpers';

// The schedule wired to the crawls as in the worker (index.ts), under WXT's fake browser with a
// database of its own; sites are real servers on *.test names resolved to 127.0.0.1.
const HOUR = 3_600_000;
const ALARM = 'scheduled-refresh';
// Three sites (registrable domains), as host access is asked per site.
const A = 'docs.alpha.test';
const B = 'docs.beta.test';
const C = 'docs.gamma.test';
let db: ScoutDb;
let server: FixtureServer | undefined;
afterEach(async () => {
  await cancelRunningAndDelete(db);
  await server?.close();
  server = undefined;
});

const fetch = loopbackFetch();
const processor = nodePipeline({ fetch: fetch }).process;

function wire() {
  const ext = fakeExtension({ without: ['offscreen', 'scripting'] });
  db = createDb(`t-${Math.random()}`);
  const jobs = new JobRegistry();
  const crawls = setUpCrawls({ db, browser, fetch, processor: { process: processor, converters: () => 1 }, jobs });
  setUpSchedule({ db, browser, jobs, startRefresh: crawls.startRefresh });
  return ext;
}

async function serve(hosts: string[], delayMs = 0) {
  server = await startFixtureServer(Object.fromEntries(hosts.map((h) => [h, generatedSite(4, { delayMs })])));
  return server;
}

/** A site the user opened and crawled (outside the wiring, as an earlier worker did). */
async function crawled(host: string) {
  if (!server) throw new Error('no server');
  const url = server.url(host, '/');
  await recordSiteOpened(db, url);
  const job = await createCrawlJob(db, url, { useSeeds: false, respectRobots: false });
  expect(await new CrawlRunner({ db, fetch, process: processor }, job.id).run()).toBe('done');
  return server.origin(host);
}

async function dueAt(origin: string, nextAt: number) {
  await db.sites.update(origin, { monitor: { everyHours: 24, threshold: 0.9, nextAt } });
}

async function setMonitor(origin: string, everyHours: number): Promise<{ nextAt?: number }> {
  const answer = await command('setMonitor', { origin, everyHours, threshold: 0.9 });
  if ('error' in answer) throw new Error(answer.error);
  return answer;
}

const refreshesOf = async (origin: string) => (await db.jobs.where('origin').equals(origin).toArray()).filter((j) => j.kind === 'refresh').sort((a, b) => a.createdAt - b.createdAt);
const fire = () => fakeBrowser.alarms.onAlarm.trigger({ name: ALARM, scheduledTime: Date.now(), persistAcrossSessions: false });
const ended = (j: JobRecord | undefined) => Boolean(j && j.state !== 'running');

describe('the schedule’s alarm', () => {
  it('while a scheduled refresh runs, a site already due is not re-armed every second', async () => {
    wire();
    await serve([A]);
    const origin = await crawled(A);
    await dueAt(origin, Date.now() - HOUR);
    // A scheduled refresh of another site runs: the due site waits for it to end.
    await db.jobs.add({ id: 'busy', origin: 'https://other.test', kind: 'refresh', state: 'running', scheduled: true, createdAt: Date.now(), counters: {} } as JobRecord);
    const before = Date.now();
    await fire();
    await until(async () => ((await browser.alarms.get(ALARM))?.scheduledTime ?? 0) > before);
    expect((await browser.alarms.get(ALARM))?.scheduledTime).toBeGreaterThanOrEqual(before + 5 * 60_000);
    expect((await db.jobs.toArray()).filter((j) => j.kind === 'refresh' && j.origin === origin)).toEqual([]);
    await db.jobs.update('busy', { state: 'done' });
  });

  it('is set for the earliest due site as schedules change, and cleared when the last schedule is turned off', async () => {
    wire();
    await serve([A, B]);
    const a = await crawled(A);
    const b = await crawled(B);

    const daily = await setMonitor(a, 24);
    expect(daily.nextAt).toBeGreaterThan(Date.now() + 23 * HOUR);
    expect((await browser.alarms.get(ALARM))?.scheduledTime).toBe(daily.nextAt);

    const sixHourly = await setMonitor(b, 6);
    expect((await browser.alarms.get(ALARM))?.scheduledTime).toBe(sixHourly.nextAt);

    expect(await setMonitor(b, 0)).toEqual({});
    expect((await browser.alarms.get(ALARM))?.scheduledTime).toBe(daily.nextAt);
    expect(await setMonitor(a, 0)).toEqual({});
    expect(await browser.alarms.get(ALARM)).toBeUndefined();
  });

  it('is set again when the worker starts without it (Chrome may drop alarms on a restart), and left alone when it is there', async () => {
    fakeExtension({ without: ['offscreen', 'scripting'] });
    db = createDb(`t-${Math.random()}`);
    await recordSiteOpened(db, 'https://docs.alpha.test/');
    await recordSiteOpened(db, 'https://docs.beta.test/');
    const soon = Date.now() + HOUR;
    await dueAt('https://docs.alpha.test', soon + HOUR);
    await dueAt('https://docs.beta.test', soon);
    const starts = () => {
      const jobs = new JobRegistry();
      setUpSchedule({ db, browser, jobs, startRefresh: setUpCrawls({ db, browser, fetch, processor: { process: processor, converters: () => 1 }, jobs }).startRefresh });
    };

    starts();
    await until(async () => (await browser.alarms.get(ALARM))?.scheduledTime === soon);

    // The next worker finds an alarm already set (here for another time): it keeps it.
    fakeExtension({ without: ['offscreen', 'scripting'] });
    const later = Date.now() + 5 * HOUR;
    await browser.alarms.create(ALARM, { when: later });
    const looked = vi.spyOn(fakeBrowser.alarms, 'get');
    starts();
    await until(async () => looked.mock.calls.length > 0);
    // What it would set comes from the database: give that read ample time, then look.
    await new Promise((r) => setTimeout(r, 300));
    expect((await browser.alarms.get(ALARM))?.scheduledTime).toBe(later);
  });

  it('refreshes the due sites one at a time, oldest due first, then sets itself for the next due time', async () => {
    wire();
    await serve([A, B], 60);
    const a = await crawled(A);
    const b = await crawled(B);
    await dueAt(a, Date.now() - 2000);
    await dueAt(b, Date.now() - 1000);

    await fire();
    // One refresh has started, of the site due first; the other waits for it.
    await until(async () => (await refreshesOf(a)).length === 1);
    expect(await refreshesOf(b)).toEqual([]);

    await until(async () => ended((await refreshesOf(b))[0]));
    const [first] = await refreshesOf(a);
    const [second] = await refreshesOf(b);
    expect(first).toMatchObject({ state: 'done', scheduled: true });
    expect(second).toMatchObject({ state: 'done', scheduled: true });
    expect(second?.createdAt).toBeGreaterThanOrEqual(first?.endedAt ?? Infinity);
    // Each is next due a day after it started; the alarm is set for the earlier.
    const nextA = (await db.sites.get(a))?.monitor?.nextAt ?? 0;
    const nextB = (await db.sites.get(b))?.monitor?.nextAt ?? 0;
    expect(nextA).toBeGreaterThan(Date.now() + 23 * HOUR);
    expect(nextB).toBeGreaterThanOrEqual(nextA);
    await until(async () => (await browser.alarms.get(ALARM))?.scheduledTime === nextA);
  });

  it('records a refresh that could not start, with the reason, and goes on to the next due site', async () => {
    wire();
    await serve([A, B, C]);
    // A was opened and given a schedule but never crawled; Scout lost its access to B.
    const a = server?.origin(A) ?? '';
    await recordSiteOpened(db, `${a}/`);
    const b = await crawled(B);
    const c = await crawled(C);
    await dueAt(a, Date.now() - 3000);
    await dueAt(b, Date.now() - 2000);
    await dueAt(c, Date.now() - 1000);
    vi.spyOn(fakeBrowser.permissions, 'contains').mockImplementation(async (p) => !p.origins?.some((o) => o.includes('beta.test')));

    await fire();
    await until(async () => ended((await refreshesOf(c))[0]));
    expect(await refreshesOf(a)).toEqual([expect.objectContaining({ state: 'failed', scheduled: true, message: 'Nothing to refresh yet: crawl the site first.' })]);
    expect(await refreshesOf(b)).toEqual([expect.objectContaining({ state: 'failed', scheduled: true, message: expect.stringMatching(/no longer has access/) })]);
    expect(await refreshesOf(c)).toEqual([expect.objectContaining({ state: 'done', scheduled: true })]);
  });
});

describe('the end of a scheduled refresh that stopped on an error', () => {
  it('still reaches the schedule: the user is told and the next due site is refreshed', async () => {
    const ext = wire();
    // The first due site is on the user's own machine (127.0.0.1): its refresh needs an allow
    // rule, which the browser refuses, so the refresh's run throws before its first page.
    const LOCAL = '127.0.0.1';
    await serve([LOCAL, B]);
    const local = await crawled(LOCAL);
    const b = await crawled(B);
    await dueAt(local, Date.now() - 2000);
    await dueAt(b, Date.now() - 1000);
    ext.refuseNextSessionUpdate('Internal error: too many session rules.');

    await fire();
    await until(async () => ended((await refreshesOf(b))[0]));
    expect(await refreshesOf(local)).toEqual([expect.objectContaining({ state: 'failed', scheduled: true, message: expect.stringContaining('too many session rules') })]);
    expect(await refreshesOf(b)).toEqual([expect.objectContaining({ state: 'done', scheduled: true })]);
    await until(async () => Object.keys(fakeBrowser.notifications.getAllCreateOptions()).length === 2);
    expect(fakeBrowser.notifications.getAllCreateOptions()[`refresh:${local}`]).toMatchObject({ title: expect.stringContaining('refresh failed') });
  });
});

describe('the notification at the end of a refresh', () => {
  const notifications = () => fakeBrowser.notifications.getAllCreateOptions();

  it('is sent for a scheduled refresh when the user allowed notifications, and a click opens the site in the panel’s tab view', async () => {
    wire();
    await serve([A]);
    const a = await crawled(A);
    await dueAt(a, Date.now() - 1000);

    await fire();
    await until(async () => Object.keys(notifications()).length > 0);
    const id = `refresh:${a}`;
    expect(notifications()).toEqual({ [id]: expect.objectContaining({ type: 'basic', title: `${A}:${server?.port}: refresh finished` }) });

    await fakeBrowser.notifications.onClicked.trigger(id);
    await until(async () => (await browser.tabs.query({})).some((t) => t.url?.includes('sidepanel.html')));
    expect((await browser.tabs.query({})).map((t) => t.url)).toContain(browser.runtime.getURL(`/sidepanel.html?url=${encodeURIComponent(`${a}/`)}`));
    await until(async () => Object.keys(notifications()).length === 0);
  });

  it('is not sent when notifications are not allowed, nor for a refresh the user started', async () => {
    wire();
    await serve([A, B]);
    const a = await crawled(A);
    const b = await crawled(B);
    await dueAt(a, Date.now() - 1000);
    const asked = vi.spyOn(fakeBrowser.permissions, 'contains').mockImplementation(async (p) => !p.permissions?.includes('notifications'));
    const armedAgain = vi.spyOn(fakeBrowser.alarms, 'create');
    await fire();
    await until(async () => ended((await refreshesOf(a))[0]));
    // The hook runs after the job's row ends, and the alarm may already be at its final time before it
    // does (a race that once failed CI): wait for the hook to ask for the permission, then for the alarm
    // it sets after that, its last step.
    const askedAt = () => asked.mock.calls.findIndex(([p]) => p.permissions?.includes('notifications'));
    const hookDone = () => askedAt() >= 0 && armedAgain.mock.invocationCallOrder.some((order) => order > (asked.mock.invocationCallOrder[askedAt()] ?? Number.POSITIVE_INFINITY));
    await until(async () => hookDone());
    expect(notifications()).toEqual({});

    vi.spyOn(fakeBrowser.permissions, 'contains').mockImplementation(async () => true);
    // The hook's last step sets the alarm again: once it has, the notification would have been sent.
    armedAgain.mockClear();
    const started = await command('startRefresh', { origin: b });
    if (!('jobId' in started)) throw new Error(started.error);
    await until(async () => ended(await db.jobs.get(started.jobId)) && armedAgain.mock.calls.some(([name]) => name === ALARM));
    expect(notifications()).toEqual({});
  });
});
