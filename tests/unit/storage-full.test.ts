import { afterEach, describe, expect, it } from 'vitest';
import type { DBCoreMutateRequest } from 'dexie';
import { wrapTable } from '@/lib/store/table-middleware';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { generatedPaths, generatedSite } from '../fixtures/generated-site';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';
import { pagesOf } from '@/lib/store/queries';

let server: FixtureServer;
let name: string;
afterEach(async () => {
  await createDb(name).delete();
  await server.close();
});

/**
 * The same database with one difference: after `allowed` page writes, IndexedDB
 * refuses the next ones with QuotaExceededError — what a full disk looks like.
 */
function dbThatFillsUp(dbName: string, allowed: number): ScoutDb {
  const db = createDb(dbName);
  let writes = 0;
  wrapTable(db, 'storage-full', 'pages', (t) => ({
    ...t,
    mutate: (req: DBCoreMutateRequest) => (++writes > allowed ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')) : t.mutate(req)),
  }));
  return db;
}

describe('when storage is full', () => {
  it('pauses with a clear message, keeps what was stored, and resumes to completion', async () => {
    name = `t-${Math.random()}`;
    server = await startFixtureServer({ 'docs.example.test': generatedSite(60) });
    const full = dbThatFillsUp(name, 3);
    const fetchFn = loopbackFetch();
    const job = await createCrawlJob(full, server.url('docs.example.test', '/'), { useSeeds: false });
    const state = await new CrawlRunner({ db: full, fetch: fetchFn, process: nodePipeline({ fetch: fetchFn }).process }, job.id).run();
    expect(state).toBe('paused');
    const paused = await full.jobs.get(job.id);
    expect(paused?.message).toMatch(/^Paused: the browser refused to store more \(storage is full\)\..*Nothing already stored was lost\.$/);
    const kept = await pagesOf(full, job.id).count();
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(60);
    full.close();

    // Space freed: the same database without the refusal resumes the crawl.
    const roomy = createDb(name);
    await roomy.jobs.update(job.id, { state: 'running' });
    expect(await new CrawlRunner({ db: roomy, fetch: fetchFn, process: nodePipeline({ fetch: fetchFn }).process }, job.id).run()).toBe('done');
    const pages = await pagesOf(roomy, job.id).toArray();
    expect(pages.map((p) => new URL(p.url).pathname).sort()).toEqual(generatedPaths(60).sort());
    roomy.close();
  });
});
