import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';
import { frontierOf, pagesOf } from '@/lib/store/queries';

const HOST = 'notes.example.test';
let db: ScoutDb;
let server: FixtureServer;
afterEach(async () => {
  await db?.delete();
  await server?.close();
});

// A Markdown page with no heading takes its title from its URL. URLs keep a `%` that starts no
// valid escape as written (the URL parser and the frontier leave it alone), so the title must too.
describe('a Markdown page without a heading', () => {
  it('is stored with a title from its path even when the path has a malformed % escape', async () => {
    server = await startFixtureServer({
      [HOST]: {
        routes: {
          '/': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><title>Notes</title><main><h1>Notes</h1><p>Release notes and other short reads for the curious.</p><a href="/notes/100%-sure.md">sure</a></main>' },
          '/notes/100%-sure.md': { headers: { 'content-type': 'text/markdown; charset=utf-8' }, body: 'No heading here, just a paragraph that says the release is certain.\n' },
        },
      },
    });
    db = createDb(`t-${Math.random()}`);
    const fetchFn = loopbackFetch();
    const job = await createCrawlJob(db, server.url(HOST, '/'), { useSeeds: false });
    const state = await new CrawlRunner({ db, fetch: fetchFn, process: nodePipeline({ fetch: fetchFn }).process, timeoutMs: 2000 }, job.id).run();

    expect(state).toBe('done');
    const entry = (await frontierOf(db, job.id).toArray()).find((f) => f.url.endsWith('/notes/100%-sure.md'));
    expect(entry).toMatchObject({ state: 'done' });
    const page = (await pagesOf(db, job.id).toArray()).find((p) => p.url.endsWith('/notes/100%-sure.md'));
    expect(page).toMatchObject({ format: 'markdown', title: '100% sure' });
  });
});
