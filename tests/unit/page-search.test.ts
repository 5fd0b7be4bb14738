/**
 * The side panel's search over a crawl's stored pages (lib/agents/page-search.ts): the index
 * `scout mcp` uses, built from the database a batch at a time, from a real crawl of the demo site
 * on loopback. A batch-built index answers as one built whole; a result says the heading it was
 * found under and a snippet in plain words; pages that are not stored (duplicates) are not found.
 * The panel's side (PanelSearch) talks to the worker's (serveSearch) over a real MessageChannel.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PanelSearch, type PanelSearchState, type WorkerLike } from '@/components/output/panel-search';
import { buildPageIndex, indexPageOf, searchPages, serveSearch, type BuildProgress, type SearchWorkerReply } from '@/lib/agents/page-search';
import { DocsIndex } from '@/lib/agents/search-index';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { crawlSite } from '@/lib/headless/crawl-site';
import { countPages, pagesOf } from '@/lib/store/queries';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

/** The search worker's code on the other end of a MessageChannel, as the panel's Worker would be. */
function inProcessWorker(db: ScoutDb): WorkerLike {
  const channel = new MessageChannel();
  const serve = serveSearch(db, (reply) => channel.port2.postMessage(reply));
  channel.port2.onmessage = (event) => serve(event.data);
  const worker: WorkerLike = {
    onmessage: null,
    onerror: null,
    postMessage: (message) => channel.port1.postMessage(message),
    terminate: () => {
      channel.port1.close();
      channel.port2.close();
    },
  };
  channel.port1.onmessage = (event: MessageEvent<SearchWorkerReply>) => worker.onmessage?.(event);
  return worker;
}

describe('search over a crawl stored in the database', () => {
  let server: FixtureServer;
  let db: ScoutDb;
  let jobId: string;
  beforeAll(async () => {
    server = await startFixtureServer({ 'docs.scout-demo.test': { dir: 'tests/fixtures/sites/demo-docs' } });
    db = createDb(`page-search-${crypto.randomUUID()}`);
    const { job } = await crawlSite({ db, startUrl: server.url('docs.scout-demo.test', '/'), fetch: loopbackFetch(), output: {} });
    jobId = job.id;
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await db.delete();
  });

  it('indexes every stored page a batch at a time, saying how far it got', async () => {
    const stored = await countPages(db, jobId);
    expect(stored).toBeGreaterThan(8);
    const progress: BuildProgress[] = [];
    const index = await buildPageIndex(db, jobId, { batch: 3, onProgress: (p) => progress.push(p) });
    expect(index).not.toBeNull();
    expect(progress[0]).toEqual({ indexed: 0, total: stored });
    expect(progress.at(-1)).toEqual({ indexed: stored, total: stored });
    expect(progress.length).toBeGreaterThanOrEqual(Math.ceil(stored / 3));
    for (const [i, p] of progress.entries()) if (i > 0) expect(p.indexed).toBeGreaterThanOrEqual(progress[i - 1]?.indexed ?? 0);
  });

  it('finds the page and the heading that answer, with a plain-text snippet', async () => {
    const index = await buildPageIndex(db, jobId);
    if (!index) throw new Error('no index');
    const [first] = searchPages(index, 'writes lost on power failure');
    expect(first?.url).toMatch(/\/guide\/configuration\.html$/);
    expect(first?.title).toMatch(/Configuration/);
    expect(first?.heading).toBe('Durability');
    expect(first?.snippet).toContain('power failure');
    expect(first?.snippet).not.toMatch(/[`[\]]|\*\*/);
    // It starts at a word a little before the first word searched, so three lines show the match.
    expect(first?.snippet).toMatch(/^…?[A-Za-z']/);
    expect(first?.snippet.toLowerCase().search(/writes|lost|power|failure/)).toBeLessThan(60);
    // The key opens the stored page (the panel's preview reads it by [jobId, key]).
    const page = await db.pages.get([jobId, first?.key ?? '']);
    expect(page?.url).toBe(first?.url);
    // Typed so far: the last word is half written.
    expect(searchPages(index, 'log lock acquisi')[0]?.heading).toBe('Environment variables');
  });

  it('answers nothing for a blank query or words no page has', async () => {
    const index = await buildPageIndex(db, jobId);
    if (!index) throw new Error('no index');
    expect(searchPages(index, '   ')).toEqual([]);
    expect(searchPages(index, 'zxqvbnm wqpfjk')).toEqual([]);
  });

  it('ranks as the index built whole does (the one scout mcp builds from a folder)', async () => {
    const batched = await buildPageIndex(db, jobId, { batch: 2 });
    if (!batched) throw new Error('no index');
    const whole = new DocsIndex();
    whole.replaceSite(jobId, (await pagesOf(db, jobId).toArray()).map(indexPageOf));
    for (const query of ['open a transaction', 'compaction', 'install the command-line tool', 'error codes']) {
      const a = searchPages(batched, query).map((hit) => [hit.key, hit.heading]);
      expect(a.length).toBeGreaterThan(0);
      expect(a).toEqual(whole.query(query, { limit: 10 }).map((hit) => [hit.path, hit.heading]));
    }
  });

  it('leaves out pages that are not stored, and stops when cancelled', async () => {
    const [some] = await pagesOf(db, jobId).limit(1).toArray();
    if (!some) throw new Error('no page');
    await db.pages.put({ ...some, key: `${some.key}#copy`, state: 'duplicate', title: 'Quetzalcoatl', markdown: '# Quetzalcoatl\n\nA feathered serpent.' });
    const index = await buildPageIndex(db, jobId);
    if (!index) throw new Error('no index');
    expect(searchPages(index, 'quetzalcoatl serpent')).toEqual([]);
    let batches = 0;
    expect(await buildPageIndex(db, jobId, { batch: 2, onProgress: () => batches++, cancelled: () => batches >= 2 })).toBeNull();
    expect(batches).toBe(2);
  });

  it('the panel: indexes the crawl, keeps only the latest answer, and indexes again when pages change', async () => {
    const stored = await countPages(db, jobId);
    const search = new PanelSearch(inProcessWorker(db));
    const seen: PanelSearchState[] = [];
    search.subscribe(() => seen.push(search.snapshot()));
    try {
      search.want({ jobId, stamp: 'first' });
      await vi.waitFor(() => expect(search.snapshot().ready?.pages).toBe(stored), { timeout: 10_000 });
      expect(seen.some((state) => state.indexing && state.indexing.indexed < state.indexing.total)).toBe(true);

      search.search('compaction');
      search.search('writes lost on power failure');
      await vi.waitFor(() => expect(search.snapshot().results?.query).toBe('writes lost on power failure'));
      expect(search.snapshot().results?.hits[0]?.heading).toBe('Durability');
      expect(search.snapshot().results?.words).toEqual(['writes', 'lost', 'power', 'failure']);
      expect(seen.some((state) => state.results?.query === 'compaction')).toBe(false);
      search.search('  ');
      expect(search.snapshot().results).toBeNull();

      // A page stored since: the old index answers until the new stamp's build is done, then the query is asked again.
      const [some] = await pagesOf(db, jobId).limit(1).toArray();
      if (!some) throw new Error('no page');
      await db.pages.put({ ...some, key: `${some.key}?new`, url: `${some.url}?new`, title: 'Axolotl', markdown: '# Axolotl\n\nA salamander that keeps its gills.' });
      search.search('axolotl gills');
      await vi.waitFor(() => expect(search.snapshot().results?.query).toBe('axolotl gills'));
      expect(search.snapshot().results?.hits).toEqual([]);
      search.want({ jobId, stamp: 'second' });
      await vi.waitFor(() => expect(search.snapshot().results?.hits[0]?.title).toBe('Axolotl'), { timeout: 10_000 });
      expect(search.snapshot().ready?.pages).toBe(stored + 1);

      search.want(null);
      expect(search.snapshot().ready).toBeNull();
    } finally {
      search.dispose();
    }
  });
});
