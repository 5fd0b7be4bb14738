import type { DBCoreMutateRequest } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type CrawlJob, type FrontierRecord, type PageRecord, type ScoutDb } from '@/lib/store/db';
import { createIfIdle } from '@/lib/store/jobs';
import { writePageBatch } from '@/lib/store/pages';
import { failPlan, planFor, savePlan } from '@/lib/store/plans';
import { wrapTable } from '@/lib/store/table-middleware';

// The crawl side's store repositories on their own: what each answers, and that the writes a
// caller needs together happen together or not at all.
let db: ScoutDb;
afterEach(async () => db?.delete());

const url = (path: string) => `https://docs.example.test${path}`;

function crawl(id: string): CrawlJob {
  return { id, origin: url(''), kind: 'crawl', state: 'running', createdAt: Date.now(), startUrl: url('/'), settings: {} as CrawlJob['settings'], counters: {} };
}

function row(path: string, seq: number, state: FrontierRecord['state'] = 'inflight'): FrontierRecord {
  return { jobId: 'job', key: url(path), url: url(path), state, depth: 1, seq, source: 'link', retries: 0, updatedAt: 0 };
}

function page(path: string, contentHash: string, state: PageRecord['state'] = 'stored'): PageRecord {
  return { jobId: 'job', key: url(path), url: url(path), finalUrl: url(path), state, depth: 1, title: path, markdown: `# ${path}`, format: 'html', contentHash, bytes: 10, fetchedAt: 0 };
}

/** A database whose `pages` table refuses every write once `refusing.on` is set (as a full disk does). */
function refusingPages(name: string): { db: ScoutDb; refusing: { on: boolean } } {
  const d = createDb(name);
  const refusing = { on: false };
  wrapTable(d, 'refuse-pages', 'pages', (t) => ({
    ...t,
    mutate: (req: DBCoreMutateRequest) => (refusing.on ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')) : t.mutate(req)),
  }));
  return { db: d, refusing };
}

describe('writePageBatch', () => {
  it('hands the decision the stored pages with the batch’s hashes only, and writes pages, job fields, links and row states', async () => {
    db = createDb(`store-crawl-${Math.random()}`);
    await db.jobs.add(crawl('job'));
    await db.pages.bulkPut([page('/old', 'h1'), page('/dup', 'h2', 'duplicate'), page('/other', 'h3')]);
    await db.frontier.bulkPut([row('/a', 10), row('/b', 11), row('/seen', 12, 'done')]);
    let given: Map<string, string> | undefined;
    const refused = await writePageBatch(db, 'job', {
      hashes: ['h1', 'h2'],
      pages: (stored) => {
        given = new Map(stored);
        return [{ ...page('/a', 'h1', 'duplicate'), duplicateOf: stored.get('h1') }, page('/b', 'h9')];
      },
      job: { hashRoutes: true, nav: [{ title: 'A', url: url('/a'), depth: 0 }] },
      queue: { rows: [row('/new', 20, 'pending'), row('/seen', 21, 'pending')], blocks: [{ jobId: 'job', seq: 22, depth: 2, source: 'link', urls: [url('/x'), url('/y')], createdAt: 0 }] },
      settled: [row('/a', 10, 'done'), row('/b', 11, 'done')],
    });
    // Only a stored page counts as the original; a duplicate with a wanted hash and a page with another hash are not read.
    expect([...(given ?? [])]).toEqual([['h1', url('/old')]]);
    expect(refused).toEqual(new Set([1]));
    expect((await db.pages.get(['job', url('/a')]))?.duplicateOf).toBe(url('/old'));
    expect(await db.pages.count()).toBe(5);
    const job = (await db.jobs.get('job')) as CrawlJob;
    expect(job.hashRoutes).toBe(true);
    expect(job.nav).toHaveLength(1);
    const frontier = await db.frontier.where('[jobId+seq]').between(['job', 0], ['job', Infinity]).toArray();
    expect(frontier.map((r) => [r.url.slice(url('').length), r.state])).toEqual([
      ['/a', 'done'],
      ['/b', 'done'],
      ['/seen', 'done'],
      ['/new', 'pending'],
    ]);
    expect(await db.linkBlocks.count()).toBe(1);
  });

  it('writes nothing of a batch whose pages the database refuses: rows stay in flight, no link is queued, the job is unchanged', async () => {
    const made = refusingPages(`store-crawl-${Math.random()}`);
    db = made.db;
    await db.jobs.add(crawl('job'));
    await db.frontier.bulkPut([row('/a', 10)]);
    made.refusing.on = true;
    await expect(
      writePageBatch(db, 'job', {
        hashes: [],
        pages: () => [page('/a', 'h1')],
        job: { hashRoutes: true },
        queue: { rows: [row('/new', 20, 'pending')], blocks: [{ jobId: 'job', seq: 21, depth: 2, source: 'link', urls: [url('/x')], createdAt: 0 }] },
        settled: [row('/a', 10, 'done')],
      }),
    ).rejects.toThrow(/quota/i);
    expect(await db.pages.count()).toBe(0);
    expect(await db.linkBlocks.count()).toBe(0);
    expect((await db.frontier.toArray()).map((r) => [r.url, r.state])).toEqual([[url('/a'), 'inflight']]);
    expect(((await db.jobs.get('job')) as CrawlJob).hashRoutes).toBeUndefined();
  });
});

describe('createIfIdle', () => {
  it('makes one job of two asked at once for a site, and answers the running one to the other', async () => {
    db = createDb(`store-crawl-${Math.random()}`);
    const [a, b] = await Promise.all([createIfIdle(db, url(''), () => crawl('one')), createIfIdle(db, url(''), () => crawl('two'))]);
    expect(await db.jobs.count()).toBe(1);
    const made = [a, b].filter((r) => !('active' in r));
    const refused = [a, b].filter((r) => 'active' in r);
    expect(made).toHaveLength(1);
    expect(refused).toEqual([{ active: made[0] }]);
  });
});

describe('failPlan', () => {
  it('ends a running plan with the words given and keeps a failed plan’s own words', async () => {
    db = createDb(`store-crawl-${Math.random()}`);
    await savePlan(db, { startUrl: url('/'), origin: url(''), state: 'running', createdAt: 5 });
    await failPlan(db, url('/'), url(''), 'The worker stopped.');
    expect(await planFor(db, url('/'))).toMatchObject({ state: 'failed', message: 'The worker stopped.', createdAt: 5 });
    await failPlan(db, url('/'), url(''), 'Something else.');
    expect((await planFor(db, url('/')))?.message).toBe('The worker stopped.');
  });
});

describe('queueRowsIn', () => {
  it('answers the rows in the states asked, by state then key, each once', async () => {
    const { queueRowsIn } = await import('@/lib/store/crawl-report');
    db = createDb(`t-${Math.random()}`);
    const rows = [row('/b', 1, 'skipped'), row('/a', 2, 'failed'), row('/c', 3, 'skipped'), row('/d', 4, 'done'), row('/e', 5, 'failed')];
    await db.frontier.bulkAdd([...rows, { ...row('/a', 9, 'skipped'), jobId: 'other' }]);
    const got = await queueRowsIn(db, 'job', ['skipped', 'failed', 'skipped']);
    expect(got.map((r) => `${r.state} ${r.key.slice(-2)}`)).toEqual(['failed /a', 'failed /e', 'skipped /b', 'skipped /c']);
    expect(await queueRowsIn(db, 'job', [])).toEqual([]);
  });
});

describe('eachPageToRecheck', () => {
  it('visits the crawl’s stored pages by key, then its removed ones, and nothing else', async () => {
    const { eachPageToRecheck } = await import('@/lib/store/page-versions');
    db = createDb(`t-${Math.random()}`);
    await db.pages.bulkAdd([page('/d', 'h1', 'removed'), page('/c', 'h2'), page('/a', 'h3'), page('/b', 'h4', 'duplicate'), page('/e', 'h5', 'removed'), { ...page('/0', 'h6'), jobId: 'other' }]);
    const seen: string[] = [];
    await eachPageToRecheck(db, 'job', (p) => seen.push(`${p.state} ${p.key.slice(-2)}`));
    expect(seen).toEqual(['stored /a', 'stored /c', 'removed /d', 'removed /e']);
  });
});
