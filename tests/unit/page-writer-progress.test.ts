import { afterEach, describe, expect, it } from 'vitest';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { Frontier } from '@/lib/crawl/frontier';
import { toEntries, type ClassifyContext } from '@/lib/crawl/links';
import { PageWriter } from '@/lib/crawl/page-writer';
import type { PageOutcome } from '@/lib/crawl/processor';
import type { CrawlCounters } from '@/lib/crawl/progress';
import { createDb, type CrawlJob, type FrontierState, type ScoutDb } from '@/lib/store/db';
import { countPages, getJob } from '@/lib/store/queries';
import { wrapTable } from '@/lib/store/table-middleware';
import { createScope } from '@/lib/url/scope';

// The page writer writes the job's progress in each batch's own transaction (no transaction of
// its own for it), with the counts that batch makes true: stored and duplicate pages, and the
// frontier's rows by state once the batch's links are queued and its entries settled.

const START = 'https://docs.example.test/';
let db: ScoutDb;
afterEach(async () => {
  await db?.delete();
});

const done = (path: string, hash: string, links: string[]): PageOutcome => ({
  state: 'done',
  page: { url: START + path, finalUrl: START + path, title: path, markdown: `# ${path}\n\nSome text.`, format: 'html', contentHash: hash, bytes: 20 },
  links: links.map((l) => (l.startsWith('http') ? l : START + l)),
  nav: [],
  retries: 0,
});

describe('page writer progress', () => {
  it('writes the counts each batch makes true, in that batch’s transaction', async () => {
    db = createDb(`t-${Math.random()}`);
    // Every write of the job record, with whether its transaction also wrote pages (a batch's).
    const jobWrites: Array<{ inBatch: boolean; counters?: Partial<CrawlCounters> }> = [];
    wrapTable(db, 'watch-jobs', 'jobs', (table) => ({
      ...table,
      mutate: (req) => {
        if (req.type === 'put') {
          const stores = (req.trans as unknown as IDBTransaction).objectStoreNames;
          for (const value of req.values as CrawlJob[]) jobWrites.push({ inBatch: stores.contains('pages'), counters: value.counters });
        }
        return table.mutate(req);
      },
    }));
    const job = await createCrawlJob(db, START, { useSeeds: false });
    const ctx: ClassifyContext = { scope: createScope({ startUrl: START, mode: 'host' }), robots: () => null };
    const frontier = new Frontier(db, job.id);
    await frontier.init();
    await frontier.enqueue(toEntries(['a', 'b', 'c', 'd'].map((p) => ({ url: START + p, depth: 0, source: 'start' as const })), ctx));
    const writer = new PageWriter(db, job.id, frontier, ctx, 5, () => undefined);
    await writer.init();
    writer.progress = (after) => {
      const view = after();
      return { counters: { ...view.counts, stored: view.stored, duplicates: view.duplicates } as unknown as CrawlCounters, message: `${view.stored} stored` };
    };

    const rowsIn = (state: FrontierState) => db.frontier.where('[jobId+state]').equals([job.id, state]).count();
    const expectTrue = async () => {
      const counters = (await getJob(db, job.id, 'crawl'))?.counters;
      expect(counters).toMatchObject({
        stored: await countPages(db, job.id, 'stored'),
        duplicates: await countPages(db, job.id, 'duplicate'),
        pending: await rowsIn('pending'),
        inflight: await rowsIn('inflight'),
        done: await rowsIn('done'),
        failed: await rowsIn('failed'),
        skipped: await rowsIn('skipped'),
      });
    };

    // First batch: two pages (one repeats the other's text), a failure; new links, one out of scope.
    const [a, b, c, d] = await frontier.claim(4);
    if (!a || !b || !c || !d) throw new Error('claimed fewer than 4');
    jobWrites.length = 0;
    writer.add(a, done('a', 'h1', ['e', 'f', 'https://elsewhere.test/x']));
    writer.add(b, done('b', 'h1', ['e']));
    writer.add(c, { state: 'failed', reason: 'HTTP 500', status: 500, retries: 0 });
    await writer.drain();
    await expectTrue();
    expect(jobWrites.length).toBeGreaterThan(0);
    expect(jobWrites.every((w) => w.inBatch)).toBe(true);

    // Second batch: a page whose text the job already stored (a duplicate found by the look-up).
    writer.add(d, done('d', 'h1', []));
    await writer.drain();
    await expectTrue();
    expect((await getJob(db, job.id, 'crawl'))?.message).toBe('1 stored');
    expect(jobWrites.every((w) => w.inBatch)).toBe(true);
  });
});
