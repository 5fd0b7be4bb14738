import { afterEach, describe, expect, it } from 'vitest';
import Dexie, { type DBCoreQueryRequest } from 'dexie';
import { wrapTable } from '@/lib/store/table-middleware';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { generateForSite } from '@/lib/generate/run-generate';
import { createRefreshJob } from '@/lib/refresh/jobs';
import { RefreshRunner } from '@/lib/refresh/runner';
import { recordSiteOpened } from '@/lib/sites';
import { countTokens } from '@/lib/tokens';
import { changingSite, sixPages } from '../fixtures/changing-site';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

const HOST = 'docs.example.test';
const fetchFn = loopbackFetch();
const processor = nodePipeline({ fetch: fetchFn }).process;

let db: ScoutDb;
let server: FixtureServer;
afterEach(async () => {
  await db?.delete();
  await server?.close();
});

/**
 * Runs `between` once, right after the `nth` read of a crawl's pages has its rows and before the
 * reader sees them: what a refresh committing while generation works looks like. From IndexedDB
 * generation reads a small site's pages in one read, held for both its passes (its chrome, then
 * the text it writes from).
 */
async function afterPagesRead(target: ScoutDb, nth: number, between: () => Promise<void>): Promise<void> {
  let reads = 0;
  let armed = true;
  // Dexie builds its middleware stack when the database opens.
  target.close();
  wrapTable(target, 'race', 'pages', (table) => ({
    ...table,
    query: async (req: DBCoreQueryRequest) => {
      const result = await table.query(req);
      if (armed && req.values && ++reads === nth) {
        armed = false;
        // Outside the reader's transaction, as another job's writes are.
        await Dexie.ignoreTransaction(between);
      }
      return result;
    },
  }));
  await target.open();
}

describe('generation while a refresh writes the same pages', () => {
  it('keeps the refresh’s new text and validators, and writes only its own counts', async () => {
    const site = changingSite(sixPages());
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({ [HOST]: site.site });
    const origin = server.origin(HOST);
    await recordSiteOpened(db, server.url(HOST, '/'));
    const crawl = await createCrawlJob(db, server.url(HOST, '/'), { useSeeds: false });
    expect(await new CrawlRunner({ db, fetch: fetchFn, process: processor, timeoutMs: 2000 }, crawl.id).run()).toBe('done');

    const newText = 'The API was rewritten around streams. Every call now returns an async iterator, and callbacks were dropped entirely in this release.';
    site.change('/api', newText);
    const apiKey = `${origin}/api`;
    const before = await db.pages.get([crawl.id, apiKey]);
    expect(before?.markdown).not.toContain('async iterator');

    let raced = false;
    await afterPagesRead(db, 1, async () => {
      const job = await createRefreshJob(db, origin);
      if ('error' in job) throw new Error(job.error);
      expect(await new RefreshRunner({ db, fetch: fetchFn, process: processor, timeoutMs: 2000 }, job.id).run()).toBe('done');
      expect((await db.pages.get([crawl.id, apiKey]))?.markdown).toContain('async iterator');
      raced = true;
    });
    const generated = await generateForSite(db, origin);
    expect(raced).toBe(true);
    // Generation worked from the pages it had read (the old text)…
    expect(generated?.output.llmsFullTxt).not.toContain('async iterator');

    // …but the refresh's write stands: new text, new hash and validators, no count of the old text.
    const after = await db.pages.get([crawl.id, apiKey]);
    expect(after?.markdown).toContain('async iterator');
    expect(after?.contentHash).not.toBe(before?.contentHash);
    expect(after?.etag).not.toBe(before?.etag);
    expect(after?.fullTokens).toBeUndefined();
    // Pages the refresh left alone do keep the counts generation made for them.
    const faq = await db.pages.get([crawl.id, `${origin}/faq`]);
    expect(faq?.fullTokens?.count).toBeGreaterThan(0);

    // The next generation counts the new text afresh and gets the file's exact count.
    const next = await generateForSite(db, origin);
    expect(next?.output.llmsFullTxt).toContain('async iterator');
    expect(next?.output.tokens.llmsFullTxt).toBe(countTokens(next?.output.llmsFullTxt ?? ''));
  });
});
