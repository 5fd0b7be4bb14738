import { JobRegistry, type KeepAlive } from '@/lib/jobs/registry';
import { db, type ScoutDb } from '@/lib/store/db';
import type { WxtBrowser } from 'wxt/browser';

/** The alarm that resumes crawls and refreshes a stopped worker left running (crawl.ts listens). */
export const WATCHDOG = 'crawl-watchdog';
// MV3 stops an idle worker after 30 s; an extension API call resets that timer.
const KEEPALIVE_MS = 20_000;

export type WorkerBrowser = Pick<WxtBrowser, 'alarms' | 'runtime'>;

/**
 * While any job runs: an extension call every 20 s keeps the worker up, and the watchdog alarm
 * wakes a worker the browser stopped anyway, so its crawls resume.
 */
export function browserKeepAlive(browser: WorkerBrowser): KeepAlive {
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    start: () => {
      timer ??= setInterval(() => void browser.runtime.getPlatformInfo(), KEEPALIVE_MS);
      void browser.alarms.create(WATCHDOG, { periodInMinutes: 1 });
    },
    stop: () => {
      clearInterval(timer);
      timer = undefined;
      void browser.alarms.clear(WATCHDOG);
    },
  };
}

/** The worker's registry of running jobs, every kind on it; one per worker (index.ts makes it). */
export const workerJobs = (browser: WorkerBrowser): JobRegistry => new JobRegistry(browserKeepAlive(browser));

/** What every setUp* of a kind of job takes: the database, the browser, and the worker's registry. */
export interface JobWiring {
  db: ScoutDb;
  browser: WxtBrowser;
  jobs: JobRegistry;
}

/** The wiring with what a caller left out filled in (a test passes its own database or registry). */
export function wiring(given: Partial<JobWiring> = {}): JobWiring {
  const b = given.browser ?? browser;
  return { db: given.db ?? db, browser: b, jobs: given.jobs ?? workerJobs(b) };
}
