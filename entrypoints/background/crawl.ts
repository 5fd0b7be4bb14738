import { linkedomAdapter } from '@/lib/convert/dom';
import { markResumed, runningCrawls, startCrawlJob } from '@/lib/crawl/jobs';
import { CrawlRunner } from '@/lib/crawl/runner';
import { db, type JobRecord } from '@/lib/db';
import { onCommand } from './on-command';
import { createRefreshJob } from '@/lib/refresh/jobs';
import { RefreshRunner } from '@/lib/refresh/runner';
import { withRendering } from '@/lib/render/render-processor';
import { createScope } from '@/lib/url/scope';
import { siteInfo } from '@/lib/url/site';
import { regenerate } from './generate';
import { holdStartHost } from './network-guard';
import { createCrawlProcessor } from './offscreen';
import { setUpRendering } from './render';
import { browserFetch } from '@/lib/fetch/browser-fetch';

const WATCHDOG = 'crawl-watchdog';
// MV3 stops an idle worker after 30 s; an extension API call resets that timer.
const KEEPALIVE_MS = 20_000;

type Runner = CrawlRunner | RefreshRunner;

export interface JobHooks {
  /** A refresh reached its end state (done, failed, cancelled). */
  onRefreshEnded(job: JobRecord): Promise<void>;
}

/**
 * Crawl and refresh runners live here, one per running job. The durable state is
 * in Dexie, so a worker that was stopped resumes its jobs on the next start, on
 * the watchdog alarm, or when a panel notices a stalled job and wakes it.
 */
export function setUpCrawls(hooks: JobHooks): { startRefresh(origin: string, scheduled: boolean): Promise<{ jobId: string } | { error: string }> } {
  const runners = new Map<string, Runner>();
  /** Settles when a job's runner has ended and left `runners`: what a resume waits for. */
  const ended = new Map<string, Promise<void>>();
  // Client-rendered pages: docsify read directly, other shells rendered in a tab (lib/render/).
  const renderer = setUpRendering();
  const crawlProcessor = createCrawlProcessor();
  const processor = withRendering(crawlProcessor.process, { renderer: renderer?.render ?? null, dom: linkedomAdapter, fetch: browserFetch });
  const deps = {
    db,
    fetch: browserFetch,
    process: processor,
    // Read when a run starts: the runner keeps its backlog of fetched pages under twice this.
    get converters() {
      return crawlProcessor.converters();
    },
  };
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

  const start = (job: JobRecord) => {
    if (runners.has(job.id)) return;
    const runner = job.kind === 'refresh' ? new RefreshRunner(deps, job.id) : new CrawlRunner(deps, job.id);
    runners.set(job.id, runner);
    track();
    // A job on the user's own intranet host may reach that host (and no other private one) while it runs.
    const done = holdStartHost(job.startUrl)
      .then((release) => runner.run().finally(() => void release()))
      .then(async (state) => {
        const ended = await db.jobs.get(job.id);
        if (!ended) return;
        // A finished crawl produces its llms.txt and llms-full.txt right away; a refresh only when something changed.
        if (ended.kind === 'crawl' && state === 'done') await regenerate(ended.origin);
        if (ended.kind === 'refresh' && state !== 'paused' && state !== 'running') await hooks.onRefreshEnded(ended);
      })
      .catch((error: unknown) => db.jobs.update(job.id, { state: 'failed', endedAt: Date.now(), message: `Stopped on an error: ${String(error)}` }))
      .finally(() => {
        runners.delete(job.id);
        ended.delete(job.id);
        track();
        // Every render closes its own tab; this catches any the job still has on record.
        void renderer?.sweep(job.id);
      });
    ended.set(job.id, done.then(() => undefined, () => undefined));
  };

  const resumeOrphans = async () => {
    const orphans = (await runningCrawls(db)).filter((j) => !runners.has(j.id));
    orphans.forEach(start);
    return orphans.length;
  };

  void resumeOrphans();
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === WATCHDOG) void resumeOrphans();
  });

  onCommand('startCrawl', async (data) => {
    const info = siteInfo(data.url);
    if (!(await browser.permissions.contains({ origins: info.hostPatterns }))) return { error: 'Scout has no access to this site yet.' };
    try {
      createScope({ startUrl: data.url, mode: data.settings.scope ?? 'site', include: data.settings.include, exclude: data.settings.exclude });
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
    const job = await startCrawlJob(db, data.url, data.settings);
    if ('error' in job) return job;
    start(job);
    return { jobId: job.id };
  });

  const startRefresh = async (origin: string, scheduled: boolean) => {
    if (!(await browser.permissions.contains({ origins: siteInfo(origin).hostPatterns }))) return { error: 'Scout no longer has access to this site. Open it and allow access again.' };
    const job = await createRefreshJob(db, origin, { scheduled });
    if ('error' in job) return job;
    start(job);
    return { jobId: job.id };
  };
  onCommand('startRefresh', (data) => startRefresh(data.origin, false));

  onCommand('pauseCrawl', (data) => {
    const runner = runners.get(data.jobId);
    runner?.pause();
    return { ok: Boolean(runner) };
  });

  onCommand('resumeCrawl', async (data) => {
    if (!(await markResumed(db, data.jobId))) return { ok: false };
    // A paused runner may still be finishing its last pages: the new one starts the moment it has ended.
    const previous = ended.get(data.jobId) ?? Promise.resolve();
    void previous
      .then(async () => {
        const job = await db.jobs.get(data.jobId);
        if (job?.state === 'paused') await markResumed(db, data.jobId);
        if (job) start(job);
      })
      .catch((error: unknown) => console.error('Scout could not resume the job', error));
    return { ok: true };
  });

  onCommand('cancelCrawl', async (data) => {
    const runner = runners.get(data.jobId);
    if (runner) runner.cancel();
    else await db.jobs.update(data.jobId, { state: 'cancelled', endedAt: Date.now(), message: 'Cancelled. Pages stored so far are kept.' });
    return { ok: true };
  });

  onCommand('wakeCrawls', async () => ({ resumed: await resumeOrphans() }));
  return { startRefresh };
}
