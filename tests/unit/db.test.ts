import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { Frontier } from '@/lib/crawl/frontier';
import { createDb, SCHEMA_VERSION, type ScoutDb } from '@/lib/store/db';
import { recordSiteOpened } from '@/lib/sites';

let db: ScoutDb | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

describe('the Scout database', () => {
  it('opens at the declared schema version with every table later work needs', async () => {
    db = createDb(`t-${Math.random()}`);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(db.tables.map((t) => t.name).sort()).toEqual(['artifacts', 'descriptions', 'discovered', 'frontier', 'jobs', 'linkBlocks', 'pageVersions', 'pages', 'plans', 'renderTabs', 'sites']);
  });

  it('upgrades a version-1 database (the first release) without losing its crawls', async () => {
    const name = `t-${Math.random()}`;
    // The v1 schema exactly as shipped: a user's database before refresh existed.
    const v1 = shippedDatabase(name, 1);
    await v1.table('jobs').add({ id: 'j1', origin: 'https://a.test', kind: 'crawl', state: 'done', createdAt: 1, counters: { stored: 1 } });
    await v1.table('pages').add({ jobId: 'j1', key: 'https://a.test/', url: 'https://a.test/', state: 'stored', markdown: '# A', contentHash: 'h' });
    v1.close();

    db = createDb(name);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(await db.jobs.get('j1')).toMatchObject({ kind: 'crawl', state: 'done' });
    expect(await db.pages.where('[jobId+state]').equals(['j1', 'stored']).count()).toBe(1);
    await db.pageVersions.add({ jobId: 'r1', crawlJobId: 'j1', key: 'https://a.test/', url: 'https://a.test/', change: 'unchanged', previousFingerprint: 'h', changedEnough: false, reason: 'Not modified (HTTP 304)', checkedAt: 2 });
    expect(await db.pageVersions.where('[crawlJobId+key]').equals(['j1', 'https://a.test/']).count()).toBe(1);
  });

  it('upgrades a version-2 database (refresh and descriptions) with the render-tab table, keeping every row', async () => {
    const name = `t-${Math.random()}`;
    // The v2 schema exactly as shipped.
    const v2 = shippedDatabase(name, 2);
    await v2.table('jobs').add({ id: 'j1', origin: 'https://a.test', kind: 'crawl', state: 'running', createdAt: 1, counters: { stored: 1 } });
    await v2.table('descriptions').add({ key: 'k', text: 'A page.', createdAt: 1 });
    v2.close();

    db = createDb(name);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(await db.jobs.get('j1')).toMatchObject({ state: 'running' });
    expect(await db.descriptions.get('k')).toMatchObject({ text: 'A page.' });
    await db.renderTabs.put({ tabId: 7, jobId: 'j1', url: 'https://a.test/app', openedAt: 2, session: 's' });
    expect(await db.renderTabs.where('jobId').equals('j1').primaryKeys()).toEqual([7]);
  });

  it('upgrades a version-3 database with a crawl under way to v4 (link blocks): its queue is kept and resumes', async () => {
    const name = `t-${Math.random()}`;
    const v3 = shippedDatabase(name, 3);
    const row = (path: string, seq: number, state: string) => ({ jobId: 'j1', key: `https://a.test${path}`, url: `https://a.test${path}`, state, depth: 1, seq, source: 'link', retries: 0, updatedAt: 1 });
    await v3.table('frontier').bulkAdd([row('/', 1, 'done'), row('/a', 2, 'pending'), row('/b', 3, 'inflight')]);
    v3.close();

    db = createDb(name);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    const frontier = new Frontier(db, 'j1');
    await frontier.init();
    await frontier.recover();
    expect(frontier.counts()).toMatchObject({ done: 1, pending: 2, inflight: 0 });
    expect((await frontier.claim(5)).map((r) => r.url)).toEqual(['https://a.test/a', 'https://a.test/b']);
    expect(await db.linkBlocks.count()).toBe(0);
  });

  it('never indexes bodies (text, markdown), only keys and states', async () => {
    db = createDb(`t-${Math.random()}`);
    await db.open();
    const indexed = db.tables.flatMap((t) => [t.schema.primKey, ...t.schema.indexes].flatMap((i) => [i.keyPath ?? []].flat()));
    expect(indexed).toContain('state');
    for (const body of ['text', 'markdown', 'description', 'title']) expect(indexed).not.toContain(body);
  });

  it('keeps the frontier keyed by job and URL key so a URL is queued once per job', async () => {
    db = createDb(`t-${Math.random()}`);
    const row = { jobId: 'j1', key: 'https://a.test/', url: 'https://a.test/', state: 'pending' as const, depth: 0, seq: 1, source: 'start' as const, retries: 0, updatedAt: 1 };
    await db.frontier.add(row);
    await expect(db.frontier.add(row)).rejects.toThrow(/ConstraintError|Key already exists/);
    await db.frontier.add({ ...row, jobId: 'j2' });
    expect(await db.frontier.where('[jobId+state]').equals(['j1', 'pending']).count()).toBe(1);
  });

  it('records site opens per origin and counts visits', async () => {
    db = createDb(`t-${Math.random()}`);
    const first = await recordSiteOpened(db, 'https://docs.example.co.uk/guide/', 1000);
    expect(first).toMatchObject({ origin: 'https://docs.example.co.uk', site: 'example.co.uk', openCount: 1, firstOpenedAt: 1000 });
    await Promise.all([recordSiteOpened(db, 'https://docs.example.co.uk/a', 2000), recordSiteOpened(db, 'https://docs.example.co.uk/b', 3000)]);
    const again = await db.sites.get('https://docs.example.co.uk');
    expect(again).toMatchObject({ openCount: 3, firstOpenedAt: 1000 });
    expect(await db.sites.count()).toBe(1);
  });
});

/**
 * A database with the schema versions 1…`upTo` exactly as they shipped, written out here rather
 * than taken from lib/store/db.ts: an upgrade test must start from what users have on disk.
 */
function shippedDatabase(name: string, upTo: 1 | 2 | 3): Dexie {
  const old = new Dexie(name);
  old.version(1).stores({
    sites: 'origin, lastOpenedAt',
    jobs: 'id, origin, state, [origin+createdAt]',
    discovered: '++id, jobId, &[jobId+url], origin',
    frontier: '[jobId+key], [jobId+state], [jobId+state+depth+seq], [jobId+seq]',
    pages: '[jobId+key], [jobId+state], [jobId+contentHash]',
    artifacts: '++id, [origin+kind+version]',
  });
  if (upTo >= 2) old.version(2).stores({ pageVersions: '++id, [jobId+change], [crawlJobId+key]', descriptions: 'key' });
  if (upTo >= 3) old.version(3).stores({ renderTabs: 'tabId, jobId' });
  return old;
}
