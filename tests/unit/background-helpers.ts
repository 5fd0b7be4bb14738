import { expect, vi } from 'vitest';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import type { CrawlSettings } from '@/lib/crawl/settings';
import type { ScoutDb } from '@/lib/store/db';
import { frontierOf } from '@/lib/store/queries';
import { loopbackFetch } from '../fixtures/server';
import { command } from './fake-extension';

/** Waits for what the worker writes to Dexie (the test polls; the code under test must not). */
export async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('Timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A loopback fetch that freezes after `answered` requests: later ones never answer, as when MV3
 * stops the worker mid-crawl. (They end on abort, only so that a test can stop its runner before
 * its database goes.)
 */
export function freezingFetch(answered: number): { fetch: typeof fetch; calls(): number } {
  const real = loopbackFetch();
  let calls = 0;
  const hang = (signal?: AbortSignal | null) => new Promise<Response>((_, reject) => signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))));
  return { fetch: (input, init) => (++calls > answered ? hang(init?.signal) : real(input, init)), calls: () => calls };
}

/** After a wiring test: cancels what still runs (no runner outlives its test and its database), then deletes the database. */
export async function cancelRunningAndDelete(db: ScoutDb): Promise<void> {
  const running = () => db.jobs.where('state').equals('running').filter((j) => j.kind === 'crawl' || j.kind === 'refresh');
  for (const job of await running().toArray()) await command('cancelCrawl', { jobId: job.id });
  await until(async () => (await running().count()) === 0);
  await db.delete();
  vi.restoreAllMocks();
}

/**
 * A crawl job as a worker that MV3 stopped mid-crawl leaves it: `running`, some pages stored,
 * some URLs `inflight`. Its runner froze after a few requests (they never answer, as in a
 * stopped worker) and claims nothing more; `stop` ends it for good before the test's database goes.
 */
export async function jobLeftRunning(db: ScoutDb, startUrl: string, settings: Partial<CrawlSettings>): Promise<{ jobId: string; stop(): Promise<void> }> {
  const job = await createCrawlJob(db, startUrl, settings);
  const dying = freezingFetch(3);
  const runner = new CrawlRunner({ db, fetch: dying.fetch, process: nodePipeline({ fetch: dying.fetch }).process, timeoutMs: 60_000 }, job.id);
  const run = runner.run();
  await expect.poll(dying.calls, { timeout: 5000 }).toBeGreaterThan(3);
  await expect.poll(() => frontierOf(db, job.id, 'inflight').count(), { timeout: 5000 }).toBeGreaterThan(0);
  runner.pause();
  expect((await db.jobs.get(job.id))?.state).toBe('running');
  return {
    jobId: job.id,
    stop: async () => {
      runner.cancel();
      await run;
    },
  };
}
