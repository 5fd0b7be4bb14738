import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { setUpCrawls } from '@/entrypoints/background/crawl';
import { generatedSite } from '../fixtures/generated-site';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { command, fakeExtension } from './fake-extension';
import { pagesOf } from '@/lib/queries';

// The worker's crawl wiring under WXT's fake browser, without offscreen documents or tabs (as in
// Firefox, pages are converted in the worker), crawling a real server on 127.0.0.1.
const HOST = '127.0.0.1';
let server: FixtureServer | undefined;
afterEach(async () => {
  // Cancel whatever still runs, so no runner outlives its test.
  for (const job of await db.jobs.where('state').equals('running').toArray()) await command('cancelCrawl', { jobId: job.id });
  await until(async () => (await db.jobs.where('state').equals('running').count()) === 0);
  vi.restoreAllMocks();
  await server?.close();
  await Promise.all([db.jobs.clear(), db.frontier.clear(), db.pages.clear()]);
});

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('Timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const stored = (jobId: string) => pagesOf(db, jobId).count();
const settings = { useSeeds: false, respectRobots: false, perHostConcurrency: 2 };

describe('the worker’s crawl commands', () => {
  it('two panels pressing Generate at once start one crawl; the other is told why', async () => {
    fakeExtension({ without: ['offscreen', 'scripting'] });
    server = await startFixtureServer({ [HOST]: generatedSite(4, { delayMs: 200 }) });
    setUpCrawls({ onRefreshEnded: async () => undefined });
    const url = server.url(HOST, '/');

    const answers = await Promise.all([command('startCrawl', { url, settings }), command('startCrawl', { url, settings })]);
    expect(answers.filter((a) => 'jobId' in a)).toHaveLength(1);
    expect(answers.filter((a) => 'error' in a)).toEqual([{ error: 'A crawl of this site is already running.' }]);
    expect(await db.jobs.where('state').equals('running').count()).toBe(1);
  });

  it('Resume while the paused runner finishes its last pages waits on that runner, not on a polling timer', async () => {
    fakeExtension({ without: ['offscreen', 'scripting'] });
    server = await startFixtureServer({ [HOST]: generatedSite(12, { delayMs: 400 }) });
    setUpCrawls({ onRefreshEnded: async () => undefined });
    const started = await command('startCrawl', { url: server.url(HOST, '/'), settings });
    if (!('jobId' in started)) throw new Error(started.error);
    const { jobId } = started;
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

    await until(async () => (await db.jobs.get(jobId))?.state === 'done');
    expect(await stored(jobId)).toBe(12);
    expect(wiringTimers).toBe(0);
  });
});
