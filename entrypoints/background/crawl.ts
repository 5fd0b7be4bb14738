import { createCrawlJob, markResumed, runningCrawls } from '@/lib/crawl/jobs';
import { CrawlRunner } from '@/lib/crawl/runner';
import { db } from '@/lib/db';
import { onMessage } from '@/lib/messaging';
import { createScope } from '@/lib/url/scope';
import { siteInfo } from '@/lib/url/site';
import { regenerate } from './generate';
import { createCrawlProcessor } from './offscreen';

const WATCHDOG = 'crawl-watchdog';
// MV3 stops an idle worker after 30 s; an extension API call resets that timer.
const KEEPALIVE_MS = 20_000;

/**
 * Crawl runners live here, one per running job. The durable state is in Dexie,
 * so a worker that was stopped resumes its crawls on the next start, on the
 * watchdog alarm, or when a panel notices a stalled crawl and wakes it.
 */
export function setUpCrawls(): void {
  const runners = new Map<string, CrawlRunner>();
  const processor = createCrawlProcessor();
  let keepalive: ReturnType<typeof setInterval> | undefined;

  const track = () => {
    if (runners.size > 0 && !keepalive) {
      keepalive = setInterval(() => void browser.runtime.getPlatformInfo(), KEEPALIVE_MS);
      void browser.alarms.create(WATCHDOG, { periodInMinutes: 1 });
    } else if (runners.size === 0 && keepalive) {
      clearInterval(keepalive);
      keepalive = undefined;
      void browser.alarms.clear(WATCHDOG);
    }
  };

  const start = (jobId: string) => {
    if (runners.has(jobId)) return;
    const runner = new CrawlRunner({ db, fetch: (input, init) => fetch(input, init), process: processor }, jobId);
    runners.set(jobId, runner);
    track();
    void runner
      .run()
      // A finished crawl produces its llms.txt and llms-full.txt right away.
      .then(async (state) => {
        const job = state === 'done' ? await db.jobs.get(jobId) : undefined;
        if (job) await regenerate(job.origin);
      })
      .catch((error: unknown) => db.jobs.update(jobId, { state: 'failed', endedAt: Date.now(), message: `The crawl stopped on an error: ${String(error)}` }))
      .finally(() => {
        runners.delete(jobId);
        track();
      });
  };

  const resumeOrphans = async () => {
    const orphans = (await runningCrawls(db)).filter((j) => !runners.has(j.id));
    orphans.forEach((j) => start(j.id));
    return orphans.length;
  };

  void resumeOrphans();
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === WATCHDOG) void resumeOrphans();
  });

  onMessage('startCrawl', async ({ data }) => {
    const info = siteInfo(data.url);
    if (!(await browser.permissions.contains({ origins: info.hostPatterns }))) return { error: 'Scout has no access to this site yet.' };
    try {
      createScope({ startUrl: data.url, mode: data.settings.scope ?? 'site', include: data.settings.include, exclude: data.settings.exclude });
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
    const active = (await runningCrawls(db)).find((j) => j.origin === info.origin);
    if (active) return { error: 'A crawl of this site is already running.' };
    const job = await createCrawlJob(db, data.url, data.settings);
    start(job.id);
    return { jobId: job.id };
  });

  onMessage('pauseCrawl', ({ data }) => {
    const runner = runners.get(data.jobId);
    runner?.pause();
    return { ok: Boolean(runner) };
  });

  onMessage('resumeCrawl', async ({ data }) => {
    if (!(await markResumed(db, data.jobId))) return { ok: false };
    // A paused runner may still be finishing its last pages; it leaves the map when done.
    const wait = async () => {
      while (runners.has(data.jobId)) await new Promise((r) => setTimeout(r, 50));
      if ((await db.jobs.get(data.jobId))?.state === 'paused') await markResumed(db, data.jobId);
      start(data.jobId);
    };
    void wait();
    return { ok: true };
  });

  onMessage('cancelCrawl', async ({ data }) => {
    const runner = runners.get(data.jobId);
    if (runner) runner.cancel();
    else await db.jobs.update(data.jobId, { state: 'cancelled', endedAt: Date.now(), message: 'Cancelled. Pages stored so far are kept.' });
    return { ok: true };
  });

  onMessage('wakeCrawls', async () => ({ resumed: await resumeOrphans() }));
}
