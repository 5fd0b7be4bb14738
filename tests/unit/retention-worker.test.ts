import Dexie, { type DBCoreMutateRequest } from 'dexie';
import { wrapTable } from '@/lib/store/table-middleware';
import { afterEach, describe, expect, it } from 'vitest';
import { browser } from 'wxt/browser';
import { nodePipeline } from '@/lib/pipeline/node';
import { createDb, type PageRecord, type ScoutDb } from '@/lib/store/db';
import { setUpCrawls } from '@/entrypoints/background/crawl';
import { setUpStorage } from '@/entrypoints/background/storage';
import { JobRegistry } from '@/lib/jobs/registry';
import { jobsNewestFirst, latestArtifact, pagesOf } from '@/lib/store/queries';
import { generatedSite } from '../fixtures/generated-site';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';
import { command, fakeExtension } from './fake-extension';
import { cancelRunningAndDelete, until } from './background-helpers';

// The worker's retention under WXT's fake browser: real crawls of a loopback site through the
// crawl commands, and a database whose page store holds a fixed number of pages, as a full disk does.
const HOST = 'docs.example.test';
let server: FixtureServer | undefined;
let db: ScoutDb;
/** The worker's registry, as index.ts shares it: the crawl's end prunes on it, the storage commands delete on it. */
let jobs: JobRegistry;
/** The keep-alive's calls: true when the worker is held up, false when let go. */
let keptUp: boolean[];
afterEach(async () => {
  await until(async () => (await db.jobs.where('state').equals('running').count()) === 0).catch(() => undefined);
  await jobs.idle();
  await cancelRunningAndDelete(db);
  await server?.close();
  server = undefined;
});

const settings = { useSeeds: false, respectRobots: false, perHostConcurrency: 2 };
const stateOf = async (jobId: string) => (await db.jobs.get(jobId))?.state;
const rowsOf = async (jobId: string) => ({
  pages: await db.pages.where('[jobId+key]').between([jobId, Dexie.minKey], [jobId, Dexie.maxKey]).count(),
  frontier: await db.frontier.where('[jobId+key]').between([jobId, Dexie.minKey], [jobId, Dexie.maxKey]).count(),
});

/**
 * A database whose pages table holds at most `capacity` pages: a write past it is refused with
 * QuotaExceededError, and deleting pages makes room again.
 */
function dbWithRoomFor(capacity: number): ScoutDb {
  const quota = createDb(`t-${Math.random()}`);
  const held = new Set<string>();
  const keyOf = (page: PageRecord) => `${page.jobId} ${page.key}`;
  wrapTable(quota, 'page-quota', 'pages', (t) => ({
    ...t,
    mutate: async (req: DBCoreMutateRequest) => {
      if (req.type === 'add' || req.type === 'put') {
        const added = (req.values as PageRecord[]).map(keyOf).filter((k) => !held.has(k));
        if (held.size + added.length > capacity) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        const result = await t.mutate(req);
        for (const k of added) held.add(k);
        return result;
      }
      if (req.type === 'delete') for (const key of req.keys as Array<[string, string]>) held.delete(`${key[0]} ${key[1]}`);
      if (req.type === 'deleteRange') held.clear();
      return t.mutate(req);
    },
  }));
  return quota;
}

function wire(database: ScoutDb) {
  fakeExtension({ without: ['offscreen', 'scripting'] });
  db = database;
  const fetch = loopbackFetch();
  keptUp = [];
  jobs = new JobRegistry({ start: () => keptUp.push(true), stop: () => keptUp.push(false) });
  setUpCrawls({ db, browser, fetch, processor: { process: nodePipeline({ fetch: fetch }).process, converters: () => 1 }, jobs });
  setUpStorage({ db, browser, jobs });
}

async function crawl(url: string, keepCrawls?: number): Promise<string> {
  const started = await command('startCrawl', { url, settings: { ...settings, ...(keepCrawls ? { keepCrawls } : {}) } });
  if (!('jobId' in started)) throw new Error(started.error);
  await until(async () => (await stateOf(started.jobId)) !== 'running');
  // A finished crawl's outputs are made after its state is written: wait for them, as a user would.
  const job = await db.jobs.get(started.jobId);
  if (job?.state === 'done') await until(async () => (await latestArtifact(db, job.origin, 'llms'))?.jobId === job.id);
  return started.jobId;
}

/** The site's crawl ids, oldest first. */
const crawlIds = async (origin: string) => (await jobsNewestFirst(db, origin).toArray()).filter((j) => j.kind === 'crawl').map((j) => j.id).reverse();

describe('the worker keeps the last crawls of a site', () => {
  it('four Generates with the default setting leave two crawls and their rows; the outputs come from the newest', async () => {
    wire(createDb(`t-${Math.random()}`));
    server = await startFixtureServer({ [HOST]: generatedSite(12) });
    const url = server.url(HOST, '/');
    const origin = server.origin(HOST);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(await crawl(url));
      // Each crawl's deletion of older ones has finished before the next starts.
      await until(async () => (await crawlIds(origin)).length <= 2);
    }
    expect(await crawlIds(origin)).toEqual(ids.slice(2));
    for (const gone of ids.slice(0, 2)) expect(await rowsOf(gone)).toEqual({ pages: 0, frontier: 0 });
    for (const kept of ids.slice(2)) expect((await rowsOf(kept)).pages).toBe(12);
    await until(async () => (await latestArtifact(db, origin, 'llms'))?.jobId === ids[3]);
    // No output version is left pointing at a deleted crawl.
    expect((await db.artifacts.toArray()).filter((a) => ids.slice(0, 2).includes(a.jobId))).toEqual([]);
  });

  it('keeps as many as the crawl’s setting says', async () => {
    wire(createDb(`t-${Math.random()}`));
    server = await startFixtureServer({ [HOST]: generatedSite(6) });
    const url = server.url(HOST, '/');
    const origin = server.origin(HOST);
    const ids = [await crawl(url, 3), await crawl(url, 3), await crawl(url, 3), await crawl(url, 3)];
    await until(async () => (await crawlIds(origin)).length === 3);
    expect(await crawlIds(origin)).toEqual(ids.slice(1));
  });
});

describe('a crawl paused on a full store', () => {
  it('is marked storage-full; deleting old crawls keeps it, and Resume carries it to done', async () => {
    wire(dbWithRoomFor(30));
    server = await startFixtureServer({ [HOST]: generatedSite(8), 'big.example.test': generatedSite(24) });
    // Two earlier crawls of the small site fill 16 of the 30 pages the store holds …
    const small = server.origin(HOST);
    const old = [await crawl(server.url(HOST, '/'), 5), await crawl(server.url(HOST, '/'), 5)];
    await until(async () => (await pagesOf(db, old[1] ?? '').count()) === 8);
    // … and a crawl of the big site runs out of room.
    const big = await crawl(server.url('big.example.test', '/'));
    expect(await db.jobs.get(big)).toMatchObject({ state: 'paused', storageFull: true, message: expect.stringContaining('storage is full') });
    const before = await pagesOf(db, big).count();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(24);

    // The big site has no old crawl: deleting its old crawls frees nothing, and keeps the paused one.
    expect(await command('deleteOldCrawls', { origin: server.origin('big.example.test') })).toEqual({ crawls: 0, rows: 0 });
    // The small site's data goes (what the storage card offers for another site), on the worker's
    // registry like every job: the worker is held up while it deletes, and let go after.
    await jobs.idle();
    const held = keptUp.length;
    const deleted = await command('deleteSiteData', { origin: small });
    expect(deleted).toMatchObject({ rows: expect.any(Number) });
    expect(await db.jobs.where('origin').equals(small).count()).toBe(0);
    await jobs.idle();
    expect(keptUp.slice(held)).toEqual([true, false]);

    expect(await command('resumeCrawl', { jobId: big })).toEqual({ ok: true });
    await until(async () => (await stateOf(big)) === 'done');
    await until(async () => (await latestArtifact(db, server?.origin('big.example.test') ?? '', 'llms'))?.jobId === big);
    expect(await pagesOf(db, big).count()).toBe(24);
    expect((await db.jobs.get(big))?.storageFull).toBeUndefined();
  });

  it('deleting its own site’s old crawls frees room, keeps the paused crawl and the one the outputs use, and Resume finishes', async () => {
    wire(dbWithRoomFor(20));
    server = await startFixtureServer({ [HOST]: generatedSite(8) });
    const url = server.url(HOST, '/');
    const origin = server.origin(HOST);
    const old = [await crawl(url, 5), await crawl(url, 5)];
    const third = await crawl(url, 5);
    expect(await db.jobs.get(third)).toMatchObject({ state: 'paused', storageFull: true });

    const freed = await command('deleteOldCrawls', { origin });
    expect(freed).toMatchObject({ crawls: 1 });
    expect(await crawlIds(origin)).toEqual([old[1], third]);
    expect(await command('resumeCrawl', { jobId: third })).toEqual({ ok: true });
    await until(async () => (await stateOf(third)) === 'done');
    await until(async () => (await latestArtifact(db, origin, 'llms'))?.jobId === third);
    expect(await pagesOf(db, third).count()).toBe(8);
  });
});
