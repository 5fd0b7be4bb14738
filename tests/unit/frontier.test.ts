import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { Frontier } from '@/lib/crawl/frontier';
import { addBatch as add } from './frontier-batch';
import type { NewEntry } from '@/lib/store/db';
import { toEntries } from '@/lib/crawl/links';
import { createScope } from '@/lib/url/scope';

// The crawl's durable queue on its own: what it keeps, what it refuses twice, what survives a
// worker that dies between a write and the in-memory bookkeeping.
let db: ScoutDb;
afterEach(async () => db?.delete());

const entry = (path: string, depth = 1, extra: Partial<NewEntry> = {}): NewEntry => ({ url: `https://docs.example.test${path}`, key: `https://docs.example.test${path}`, depth, source: 'link', ...extra });

async function fresh(): Promise<Frontier> {
  db = createDb(`frontier-${Math.random()}`);
  const f = new Frontier(db, 'job');
  await f.init();
  return f;
}


const rows = () => db.frontier.where('[jobId+seq]').between(['job', 0], ['job', Infinity]).toArray();

describe('frontier', () => {
  it('queues each key once: repeats within a call and across calls are dropped, the first sighting wins', async () => {
    const f = await fresh();
    const first = await add(f, [entry('/a', 1, { preferMarkdown: true }), entry('/b'), entry('/a', 1, { preferMarkdown: false }), entry('/x', 1, { state: 'skipped', reason: 'Outside' })]);
    expect(first).toMatchObject({ pending: 2, skipped: 1 });
    const second = await add(f, [entry('/b', 2), entry('/c', 2), entry('/c', 2)]);
    expect(second).toMatchObject({ keys: ['https://docs.example.test/c'], pending: 1, skipped: 0 });
    const all = await rows();
    expect(all.map((r) => new URL(r.url).pathname)).toEqual(['/a', '/b', '/x', '/c']);
    expect(all[0]?.preferMarkdown).toBe(true);
    expect(all.find((r) => r.url.endsWith('/b'))?.depth).toBe(1);
    expect(f.counts()).toMatchObject({ pending: 3, skipped: 1 });
  });

  it('keeps a row another runner of the job wrote after this one loaded, and counts only what it added', async () => {
    const f = await fresh();
    const other = new Frontier(db, 'job');
    await other.init();
    await add(other, [entry('/taken', 1, { state: 'skipped', reason: 'Outside' })]);
    const added = await add(f, [entry('/taken'), entry('/new')]);
    expect(added).toMatchObject({ pending: 1, skipped: 0 });
    const all = await rows();
    expect(all).toHaveLength(2);
    expect(all.find((r) => r.url.endsWith('/taken'))).toMatchObject({ state: 'skipped', reason: 'Outside' });
    // The transaction carried on past the refused row: its other insert committed.
    expect(all.find((r) => r.url.endsWith('/new'))?.state).toBe('pending');
  });

  it('queues a page of 100,000 links in one call as one block: every URL once, counted, claimed in the order found', async () => {
    const f = await fresh();
    const scope = createScope({ startUrl: 'https://docs.example.test/', mode: 'site' });
    const links = Array.from({ length: 100_000 }, (_, k) => ({ url: `https://docs.example.test/w/${k % 50_000}.html`, depth: 2, source: 'link' as const, parentUrl: 'https://docs.example.test/' }));
    const added = await add(f, toEntries(links, { scope, robots: () => null }));
    expect(added.pending).toBe(50_000);
    // One record, not 50,000 rows: a row costs Chromium's IndexedDB ~0.1 ms.
    expect(await rows()).toHaveLength(0);
    const blocks = await db.linkBlocks.toArray();
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.urls).toHaveLength(50_000);
    expect(f.counts().pending).toBe(50_000);
    // Claimed breadth-first, in that order; each claimed URL becomes its row.
    expect((await f.claim(2)).map((r) => r.url)).toEqual(['https://docs.example.test/w/0.html', 'https://docs.example.test/w/1.html']);
    expect(await rows()).toMatchObject([{ state: 'inflight', depth: 2, parentUrl: 'https://docs.example.test/' }, { state: 'inflight' }]);
    expect(f.counts()).toMatchObject({ pending: 49_998, inflight: 2 });
  }, 120_000);

  it('loses nothing when the worker dies: an aborted write is queued again, a committed one is known after restart', async () => {
    const f = await fresh();
    // The batch's transaction fails after addNew (the worker is stopped mid-write): nothing of it stays.
    await expect(
      db.transaction('rw', db.frontier, async () => {
        await f.addNew([entry('/lost-1'), entry('/lost-2')]);
        throw new Error('worker stopped');
      }),
    ).rejects.toThrow('worker stopped');
    expect(await rows()).toHaveLength(0);
    // Not remembered, so the same links are queued when the page is processed again.
    expect(await add(f, [entry('/lost-1'), entry('/lost-2')])).toMatchObject({ pending: 2 });

    // Committed but the worker died before remember(): a new runner loads the keys and the counts.
    await db.transaction('rw', db.frontier, () => f.addNew([entry('/kept')]));
    const restarted = new Frontier(db, 'job');
    await restarted.init();
    expect(restarted.counts().pending).toBe(3);
    expect(await add(restarted, [entry('/kept'), entry('/lost-1'), entry('/after')])).toMatchObject({ pending: 1 });
    // New rows carry on the sequence: breadth-first order survives the restart.
    const all = await rows();
    expect(all.map((r) => new URL(r.url).pathname)).toEqual(['/lost-1', '/lost-2', '/kept', '/after']);

    // Claimed URLs of a dead worker go back to pending.
    const claimed = await restarted.claim(2);
    expect(claimed).toHaveLength(2);
    const third = new Frontier(db, 'job');
    await third.init();
    expect(await third.recover()).toBe(2);
    expect(third.counts()).toMatchObject({ pending: 4, inflight: 0 });
  });
});
