import { afterEach, describe, expect, it } from 'vitest';
import type { DBCoreTable } from 'dexie';
import { wrapTable } from '@/lib/store/table-middleware';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { watchPublishedListing, type PublishedListing } from '@/lib/output/published-listing';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

let db: ScoutDb;
let server: FixtureServer;
afterEach(async () => {
  await db?.delete();
  await server?.close();
});

/**
 * Counts the reads of the `discovered` table (its rows carry whole files, up to 10 MB each) made
 * in read-only transactions: the panel's, not the discovery writer's own.
 */
async function countDiscoveredReads(target: ScoutDb): Promise<{ reads: number }> {
  const counter = { reads: 0 };
  const counted = <K extends keyof DBCoreTable>(table: DBCoreTable, name: K): DBCoreTable[K] =>
    ((...args: unknown[]) => {
      if ((args[0] as { trans: IDBTransaction }).trans.mode === 'readonly') counter.reads++;
      return (table[name] as (...a: unknown[]) => unknown)(...args);
    }) as DBCoreTable[K];
  wrapTable(target, 'count-discovered-reads', 'discovered', (table) => ({ ...table, get: counted(table, 'get'), getMany: counted(table, 'getMany'), query: counted(table, 'query'), openCursor: counted(table, 'openCursor') }));
  await target.open();
  return counter;
}

const HOST = 'docs.example.test';
const text = (body: string) => ({ body, headers: { 'content-type': 'text/plain; charset=utf-8' } });

describe('the published llms.txt the coverage card compares with', () => {
  it('is read once a discovery run is done, not on each of its writes, and keeps only the URLs', async () => {
    db = createDb(`t-${Math.random()}`);
    const counter = await countDiscoveredReads(db);
    // A site with an llms.txt, a large llms-full.txt and nested llms files: discovery writes a row for each location.
    const full = `# Docs\n\n${'Every page of the docs, in full. '.repeat(30_000)}\n`;
    const nested = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`/part${i}/llms.txt`, text(`# Part ${i}\n\n## Pages\n- [P${i}](/part${i}/p.html)\n`)]));
    server = await startFixtureServer({
      [HOST]: { routes: { '/llms.txt': text(`# Docs\n\n> The docs.\n\n## Guide\n- [Install](/guide/install.html)\n- [Use](/guide/use.html)\n${Object.keys(nested).map((p, i) => `- [Part ${i}](${p})`).join('\n')}\n\n## Optional\n- [FAQ](/faq.html)\n`), '/llms-full.txt': text(full), ...nested } },
    });
    const origin = server.origin(HOST);
    const seen: Array<PublishedListing | null> = [];
    const subscription = watchPublishedListing(db, origin).subscribe((value) => seen.push(value));
    try {
      const job = await runDiscoveryJob(db, { jobId: 'one', pageUrl: server.url(HOST, '/guide/'), fetch: loopbackFetch() });
      expect(job.state).toBe('done');
      expect(await db.discovered.where('jobId').equals('one').count()).toBeGreaterThan(6);
      await expect.poll(() => seen.at(-1)?.url ?? null).toBe(`${origin}/llms.txt`);
      const listing = seen.at(-1);
      expect(listing?.urls).toEqual([`${origin}/guide/install.html`, `${origin}/guide/use.html`, ...Object.keys(nested).map((p) => `${origin}${p}`), `${origin}/faq.html`]);
      // The URLs only: no file text is held for the card.
      expect(JSON.stringify(listing).length).toBeLessThan(2_000);
      // The rows were read for the finished run, not again on every row discovery wrote.
      expect(counter.reads).toBe(1);
    } finally {
      subscription.unsubscribe();
    }
  });
});
