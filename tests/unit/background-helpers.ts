import { expect } from 'vitest';
import { linkedomAdapter } from '@/lib/convert/dom';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { createLocalProcessor } from '@/lib/crawl/processor';
import { CrawlRunner } from '@/lib/crawl/runner';
import type { CrawlSettings } from '@/lib/crawl/settings';
import type { ScoutDb } from '@/lib/db';
import { frontierOf } from '@/lib/queries';
import { loopbackFetch } from '../fixtures/server';

/** Waits for what the worker writes to Dexie (the test polls; the code under test must not). */
export async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('Timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A crawl job as a worker that MV3 stopped mid-crawl leaves it: `running`, some pages stored,
 * some URLs `inflight`. Its runner froze after a few requests (they never answer, as in a
 * stopped worker) and claims nothing more; `stop` ends it for good before the test's database goes.
 */
export async function jobLeftRunning(db: ScoutDb, startUrl: string, settings: Partial<CrawlSettings>): Promise<{ jobId: string; stop(): Promise<void> }> {
  const job = await createCrawlJob(db, startUrl, settings);
  const real = loopbackFetch();
  let calls = 0;
  const hang = (signal?: AbortSignal | null) => new Promise<Response>((_, reject) => signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))));
  const dying: typeof fetch = (input, init) => (++calls > 3 ? hang(init?.signal) : real(input, init));
  const runner = new CrawlRunner({ db, fetch: dying, process: createLocalProcessor(dying, linkedomAdapter), timeoutMs: 60_000 }, job.id);
  const run = runner.run();
  await expect.poll(() => calls, { timeout: 5000 }).toBeGreaterThan(3);
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
