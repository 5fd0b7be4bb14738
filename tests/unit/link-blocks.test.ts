import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type FrontierRecord, type ScoutDb } from '@/lib/store/db';
import { Frontier } from '@/lib/crawl/frontier';
import { addBatch as add } from './frontier-batch';
import type { NewEntry } from '@/lib/store/db';
import { frontierWindow } from '@/lib/crawl/frontier-view';

// A page's many links kept as one record (lib/crawl/link-blocks.ts) and claimed row by row: the
// queue must behave exactly as if every URL were a row — order, dedupe, counts, and a worker
// killed at any moment. A block is made here from 4 links of one page (the crawl's is 500).
const MIN = 4;
let db: ScoutDb;
afterEach(async () => db?.delete());

const u = (path: string) => `https://docs.example.test${path}`;
const link = (path: string, depth: number, parent: string, extra: Partial<NewEntry> = {}): NewEntry => ({ url: u(path), key: u(path), depth, source: 'link', parentUrl: u(parent), ...extra });
const page = (parent: string, depth: number, paths: string[]) => paths.map((p) => link(p, depth, parent));
const paths = (rs: FrontierRecord[]) => rs.map((r) => new URL(r.url).pathname);

async function open(): Promise<Frontier> {
  const f = new Frontier(db, 'job', MIN);
  await f.init();
  return f;
}


/** Claims everything, `per` at a time, settling each claim as done (what the crawl does). */
async function drainAll(f: Frontier, per: number): Promise<string[]> {
  const out: string[] = [];
  for (let claimed = await f.claim(per); claimed.length; claimed = await f.claim(per)) {
    out.push(...paths(claimed));
    await db.frontier.bulkPut(claimed.map((r) => ({ ...r, state: 'done' as const })));
    f.settled(claimed.map(() => 'done'));
  }
  return out;
}

/** A depth-1 page /a with 2 links (rows), /b with 6 (a block, one skipped link), /c with 2 (rows). */
async function threePages(f: Frontier) {
  await add(f, [...page('/', 1, ['/a', '/b', '/c'])]);
  const claimed = await f.claim(3);
  expect(paths(claimed)).toEqual(['/a', '/b', '/c']);
  return add(f, [
    ...page('/a', 2, ['/a1', '/a2']),
    ...page('/b', 2, ['/b1', '/b2', '/b3']),
    link('/away', 2, '/b', { state: 'skipped', reason: 'Outside the site (away.test)' }),
    ...page('/b', 2, ['/b4', '/b5', '/b6']),
    ...page('/c', 2, ['/c1', '/a1', '/c2']),
  ]);
}

describe('link blocks in the frontier', () => {
  it('claims rows and a block breadth-first in the order the links were found, whatever the claim size', async () => {
    for (const per of [1, 2, 3, 7, 50]) {
      db = createDb(`blocks-${Math.random()}`);
      const f = await open();
      const added = await threePages(f);
      expect(added).toMatchObject({ pending: 10, skipped: 1 });
      expect(await db.linkBlocks.count()).toBe(1);
      // A shallower URL found later still comes first.
      await add(f, [link('/late', 1, '/')]);
      expect(await drainAll(f, per)).toEqual(['/late', '/a1', '/a2', '/b1', '/b2', '/b3', '/b4', '/b5', '/b6', '/c1', '/c2']);
      // /a, /b and /c stay in flight (threePages never settles them).
      expect(f.counts()).toMatchObject({ pending: 0, inflight: 3, skipped: 1, done: 11 });
      await db.delete();
    }
  });

  it('refuses a URL already in a block, in this run and after a restart', async () => {
    db = createDb(`blocks-${Math.random()}`);
    const f = await open();
    await threePages(f);
    expect(await add(f, [link('/b4', 3, '/a1'), link('/new', 3, '/a1')])).toMatchObject({ pending: 1 });
    const restarted = await open();
    expect(await add(restarted, [link('/b6', 3, '/a2'), link('/b1', 3, '/a2'), link('/newer', 3, '/a2')])).toMatchObject({ pending: 1, keys: [u('/newer')] });
    // The restarted queue numbers new URLs after the block's range.
    const rowsAfter = await db.frontier.toArray();
    const block = (await db.linkBlocks.toArray())[0];
    expect(rowsAfter.find((r) => r.url === u('/newer'))?.seq).toBeGreaterThan((block?.seq ?? 0) + (block?.urls.length ?? 0) - 1);
  });

  it('keeps a URL and its key apart when they differ (a folded trailing slash)', async () => {
    db = createDb(`blocks-${Math.random()}`);
    const f = await open();
    await add(f, page('/', 1, ['/d1/', '/d2/', '/d3/', '/d4/']).map((e) => ({ ...e, key: e.url.slice(0, -1) })));
    const claimed = await f.claim(4);
    expect(claimed.map((r) => [r.url, r.key])).toEqual(['/d1', '/d2', '/d3', '/d4'].map((p) => [u(`${p}/`), u(p)]));
    expect(await add(await open(), [link('/d1', 1, '/', { key: u('/d1') })])).toMatchObject({ pending: 0 });
  });

  it('resumes after a worker killed mid-batch or mid-claim: nothing lost, nothing claimed twice but what was in flight', async () => {
    db = createDb(`blocks-${Math.random()}`);
    const f = await open();
    await add(f, [link('/a', 1, '/')]);
    await f.claim(1);
    // The batch that found /a's links dies before committing: neither the block nor its keys stay.
    await expect(
      db.transaction('rw', f.tables, async () => {
        await f.addNew(page('/a', 2, ['/x1', '/x2', '/x3', '/x4', '/x5']));
        throw new Error('worker stopped');
      }),
    ).rejects.toThrow('worker stopped');
    expect(await db.linkBlocks.count()).toBe(0);
    // The page is processed again (it was in flight) and its links are queued this time.
    expect(await add(f, page('/a', 2, ['/x1', '/x2', '/x3', '/x4', '/x5']))).toMatchObject({ pending: 5 });

    // Two claims commit, then the worker dies with them in flight.
    const first = [...(await f.claim(1)), ...(await f.claim(1))];
    expect(paths(first)).toEqual(['/x1', '/x2']);
    // A claim whose transaction dies (here inside an outer one that fails) leaves nothing claimed.
    await expect(
      db.transaction('rw', f.tables, async () => {
        await new Frontier(db, 'job', MIN).claim(2);
        throw new Error('worker stopped');
      }),
    ).rejects.toThrow('worker stopped');

    const second = await open();
    expect(second.counts()).toMatchObject({ pending: 3, inflight: 3 });
    expect(await second.recover()).toBe(3);
    expect(second.counts()).toMatchObject({ pending: 6, inflight: 0, done: 0 });
    // In-flight URLs again first, then the rest of the block once each.
    expect(await drainAll(second, 2)).toEqual(['/a', '/x1', '/x2', '/x3', '/x4', '/x5']);
    expect(await db.frontier.count()).toBe(6);
  });

  it('lists every URL the counters count: the block’s unclaimed URLs as pending, where they were found', async () => {
    db = createDb(`blocks-${Math.random()}`);
    const f = await open();
    await threePages(f);
    await f.claim(4); // /a1 /a2 /b1 /b2
    const c = f.counts();
    const discovered = c.pending + c.inflight + c.done + c.failed + c.skipped;
    const all = await frontierWindow(db, 'job', 'all', 0, 100);
    expect(all).toHaveLength(discovered);
    expect(paths(all)).toEqual(['/', '/a', '/b', '/c', '/a1', '/a2', '/b1', '/b2', '/b3', '/b4', '/b5', '/b6', '/away', '/c1', '/c2'].filter((p) => p !== '/'));
    expect(all.find((r) => r.url === u('/b5'))).toMatchObject({ state: 'pending', depth: 2, parentUrl: u('/b') });
    // Any window of the list is the same slice of it.
    for (const [offset, limit] of [[0, 3], [3, 4], [6, 5], [9, 10], [13, 5]] as const) {
      expect(paths(await frontierWindow(db, 'job', 'all', offset, limit))).toEqual(paths(all).slice(offset, offset + limit));
    }
    const pending = await frontierWindow(db, 'job', 'pending', 0, 100);
    expect(pending).toHaveLength(c.pending);
    expect(paths(pending)).toEqual(['/b3', '/b4', '/b5', '/b6', '/c1', '/c2']);
    expect(paths(await frontierWindow(db, 'job', 'pending', 2, 3))).toEqual(['/b5', '/b6', '/c1']);
    expect(await frontierWindow(db, 'job', 'skipped', 0, 10)).toMatchObject([{ url: u('/away'), reason: 'Outside the site (away.test)' }]);
  });

  it('keeps small pages, seeds and refresh entries in rows', async () => {
    db = createDb(`blocks-${Math.random()}`);
    const f = await open();
    await add(f, [
      ...page('/', 1, ['/s1', '/s2', '/s3']),
      ...['/l1', '/l2', '/l3', '/l4', '/l5'].map((p) => ({ ...link(p, 0, '/'), source: 'sitemap' as const })),
      ...['/m1', '/m2', '/m3', '/m4', '/m5'].map((p) => link(p, 1, '/', { preferMarkdown: true })),
    ]);
    expect(await db.linkBlocks.count()).toBe(0);
    expect(await db.frontier.count()).toBe(13);
  });
});
