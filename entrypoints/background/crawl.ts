import { markResumed, runningCrawls, startCrawlJob, stopWithoutRunner } from '@/lib/crawl/jobs';
import type { CrawlProcessor } from '@/lib/crawl/processor';
import { CrawlRunner } from '@/lib/crawl/runner';
import type { CrawlJob, RefreshJob, ScoutDb } from '@/lib/store/db';
import { jobById, setJobFields } from '@/lib/store/jobs';
import { browserFetch } from '@/lib/fetch/browser-fetch';
import { createRefreshJob } from '@/lib/refresh/jobs';
import { RefreshRunner } from '@/lib/refresh/runner';
import { browserPipeline } from '@/lib/pipeline/browser';
import { createScope } from '@/lib/url/scope';
import { siteInfo } from '@/lib/url/site';
import type { WxtBrowser } from 'wxt/browser';
import { discoveryStarted } from './discovery';
import { regenerate } from './generate';
import { holdStartHost } from './network-guard';
import { onCommand } from './on-command';
import { setUpRendering } from './render';
import { WATCHDOG, workerJobs } from './jobs';
import type { JobRegistry } from '@/lib/jobs/registry';
import { pruneOldCrawls } from './storage';


/** What the crawl wiring uses, passed in so tests can run it with the fake browser and a test database. */
export interface CrawlWiring {
  db: ScoutDb;
  /** Host access, the watchdog alarm, and the keepalive call. */
  browser: Pick<WxtBrowser, 'alarms' | 'permissions' | 'runtime'>;
  processor: CrawlProcessor;
  /** For robots.txt (pages go through the processor); the browser's fetch unless a test passes a loopback one. */
  fetch?: typeof fetch;
  /** The worker's registry of running jobs (its keep-alive sets the watchdog; the schedule's end hook is on it); a test may leave it out. */
  jobs?: JobRegistry;
}

export type StartRefresh = (origin: string, scheduled: boolean) => Promise<{ jobId: string } | { error: string }>;

/** The browser's page pipeline (lib/pipeline/browser.ts), with tabs to render pages in where the browser can. */
export function browserProcessor({ db, browser }: { db: ScoutDb; browser: WxtBrowser }): CrawlProcessor {
  return browserPipeline(browser, { renderer: setUpRendering({ db, browser }), benchPlans: Boolean(import.meta.env.SCOUT_E2E) });
}

/**
 * Crawl and refresh runners run on the worker's job registry, one per running job. The durable
 * state is in the store, so a worker that was stopped resumes its jobs on the next start, on the
 * watchdog alarm (set by the registry's keep-alive while any job runs), or when a panel notices a
 * stalled job and wakes it.
 */
export function setUpCrawls({ db, browser, processor, fetch = browserFetch, jobs = workerJobs(browser) }: CrawlWiring): { startRefresh: StartRefresh } {
  const deps = {
    db,
    fetch,
    process: processor.process,
    get converters() {
      return processor.converters();
    },
    prepare: () => processor.prepare?.(),
  };
  const start = (job: CrawlJob | RefreshJob) => {
    if (jobs.has(job.id)) return;
    const runner = job.kind === 'refresh' ? new RefreshRunner(deps, job.id) : new CrawlRunner(deps, job.id);
    // A job on the user's own intranet host may reach that host (and no other private one) while it runs.
    const run = () =>
      holdStartHost(job.startUrl)
        .then((release) => runner.run().finally(() => void release()))
        .then(async (state) => {
          const ended = await jobById(db, job.id);
          if (!ended) return;
          // A finished crawl produces its llms.txt and llms-full.txt right away; a refresh only when something changed.
          if (ended.kind === 'crawl' && state === 'done') await regenerate(ended.origin, db);
          // Old crawls go once this one has ended (after the outputs moved to it), in batches. Awaited
          // so the keep-alive holds the worker until the deletion is done; it never throws.
          if (ended.kind === 'crawl' && (state === 'done' || state === 'cancelled')) await pruneOldCrawls(jobs, db, ended.origin, ended.settings.keepCrawls);
          // A refresh's end (its outputs, the schedule's next site) is the schedule's hook on the registry.
        })
        .catch((error: unknown) => setJobFields(db, job.id, { state: 'failed', endedAt: Date.now(), message: `Stopped on an error: ${String(error)}` }))
        .finally(() => void processor.ended?.(job.id));
    jobs.start({ id: job.id, kind: job.kind, run, pause: () => runner.pause(), cancel: () => runner.cancel() });
  };

  const resumeOrphans = async () => {
    const orphans = (await runningCrawls(db)).filter((j) => !jobs.has(j.id));
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
    // The crawl's plan reads what discovery found (its llms.txt files and sitemaps seed the crawl).
    await discoveryStarted(info.origin);
    const job = await startCrawlJob(db, data.url, data.settings);
    if ('error' in job) return job;
    start(job);
    return { jobId: job.id };
  });

  const startRefresh: StartRefresh = async (origin, scheduled) => {
    if (!(await browser.permissions.contains({ origins: siteInfo(origin).hostPatterns }))) return { error: 'Scout no longer has access to this site. Open it and allow access again.' };
    const job = await createRefreshJob(db, origin, { scheduled });
    if ('error' in job) return job;
    start(job);
    return { jobId: job.id };
  };
  onCommand('startRefresh', (data) => startRefresh(data.origin, false));

  onCommand('pauseCrawl', async (data) => {
    if (jobs.pause(data.jobId, 'crawl', 'refresh')) return { ok: true };
    return { ok: await stopWithoutRunner(db, data.jobId, 'paused') };
  });

  onCommand('resumeCrawl', async (data) => {
    if (!(await markResumed(db, data.jobId))) return { ok: false };
    // A paused runner may still be finishing its last pages: the new one starts the moment it has ended.
    const previous = jobs.ended(data.jobId);
    void previous
      .then(async () => {
        const job = await jobById(db, data.jobId);
        if (job?.state === 'paused') await markResumed(db, data.jobId);
        // markResumed took only a crawl or a refresh; the check narrows the row's type to those.
        if (job?.kind === 'crawl' || job?.kind === 'refresh') start(job);
      })
      .catch((error: unknown) => console.error('Scout could not resume the job', error));
    return { ok: true };
  });

  onCommand('cancelCrawl', async (data) => {
    if (jobs.cancel(data.jobId, 'crawl', 'refresh')) return { ok: true };
    return { ok: await stopWithoutRunner(db, data.jobId, 'cancelled') };
  });

  onCommand('wakeCrawls', async () => ({ resumed: await resumeOrphans() }));
  return { startRefresh };
}
