import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { DEFAULT_SETTINGS } from '@/lib/crawl/settings';
import type { CrawlJob, DescribeJob, FrontierRecord, JobRecord, LinkBlockRecord, PageRecord, PlanRecord, RefreshJob, ScoutDb } from '@/lib/store/db';
import { discardDb, scratchDb } from '@/lib/store/db';
import { queueRowsIn } from '@/lib/store/crawl-report';
import { addToQueue, claimRows, countsByState, insertRows, putRows, queuedCount, recoverInflight, rowKeys, rowsBetween, rowsInState, rowsNumbered } from '@/lib/store/frontier';
import {
  activeJobFor,
  addJob,
  createIfIdle,
  createOnLatestCrawl,
  jobById,
  jobsOfKind,
  markResumed,
  runningPageJobs,
  setJobFields,
  stopWithoutRunner,
} from '@/lib/store/jobs';
import { addBlocks, blockAt, blockSeqs, blocksOf } from '@/lib/store/link-blocks';
import { limitPageRoom } from '@/lib/store/page-room';
import { type PageBatch, pageByKey, pageHashes, writePageBatch } from '@/lib/store/pages';
import { failPlan, failRunningPlans, findingsOfRun, planFor, plansOfSite, savePlan } from '@/lib/store/plans';
import { countPages, failInterrupted, getJob, latestArtifact, latestCrawlWithPages, latestJob, updateJob } from '@/lib/store/queries';
import { forgetTab, recordedTabs, recordTab } from '@/lib/store/render-tabs';
import { putSiteRows, readSiteRows, type SiteRows } from '@/lib/store/site-state';
import { BodySpill } from '@/lib/store/memory/body-spill';
import { MemoryStore, type Store } from '@/lib/store/store';
import { type FixtureServer, loopbackFetch, startFixtureServer } from '../fixtures/server';
import { seededRandom } from '../fixtures/seeded-random';

// The crawl side's repository functions on both stores: IndexedDB through Dexie (the extension's)
// and the CLI's memory store. Each scenario writes and asks through the functions alone and keeps
// every answer; the memory store must answer what Dexie answers, to the order of the rows.

const opened: ScoutDb[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map(discardDb));
});

const dexie = (): Store => {
  const db = scratchDb('contract');
  opened.push(db);
  return db;
};
// Every memory store keeps its rows' text on disk, down to one character: each function is run on spilled rows (body-spill.ts).
const spills: BodySpill[] = [];
afterEach(() => {
  for (const spill of spills.splice(0)) spill.close();
});
const memory = (): Store => {
  const spill = new BodySpill(undefined, 1);
  spills.push(spill);
  return new MemoryStore({ spill });
};

const origin = 'https://docs.example.test';
const other = 'https://other.example.test';
const url = (path: string) => `${origin}${path}`;

function crawl(id: string, createdAt: number, state: JobRecord['state'] = 'done', at = origin): CrawlJob {
  return { id, origin: at, kind: 'crawl', state, createdAt, startUrl: `${at}/`, settings: DEFAULT_SETTINGS, counters: { stored: 1 } };
}
function refresh(id: string, createdAt: number, state: JobRecord['state']): RefreshJob {
  return { id, origin, kind: 'refresh', state, createdAt, crawlJobId: 'c1', startUrl: url('/'), settings: DEFAULT_SETTINGS, counters: {} };
}
function describeJob(id: string, createdAt: number, state: JobRecord['state'] = 'running'): DescribeJob {
  return { id, origin, kind: 'describe', state, createdAt, crawlJobId: 'c1', counters: {} };
}
function row(path: string, seq: number, state: FrontierRecord['state'] = 'pending', depth = 1, jobId = 'job'): FrontierRecord {
  return { jobId, key: url(path), url: url(path), state, depth, seq, source: 'link', retries: 0, updatedAt: seq, conditional: { etag: `"${seq}"` } };
}
function page(path: string, contentHash: string, state: PageRecord['state'] = 'stored', jobId = 'job'): PageRecord {
  return {
    jobId,
    key: url(path),
    url: url(path),
    finalUrl: url(path),
    state,
    depth: 1,
    title: path,
    markdown: `# ${path}\n\nText of ${path}.`,
    format: 'html',
    contentHash,
    bytes: 20,
    fetchedAt: 5,
    fullTokens: { title: path, count: 7 },
  };
}
function block(seq: number, count: number, jobId = 'job'): LinkBlockRecord {
  return { jobId, seq, depth: 2, source: 'link', parentUrl: url('/'), urls: Array.from({ length: count }, (_, i) => url(`/b${seq + i}`)), keys: { 0: url(`/b${seq}/`) }, createdAt: 1 };
}
function plan(startUrl: string, state: PlanRecord['state'], at = origin): PlanRecord {
  return { startUrl, origin: at, state, createdAt: 3, message: state, sitemapUrls: [`${startUrl}a`] };
}
const noRows: SiteRows = { sites: [], jobs: [], pages: [], plans: [], discovered: [], descriptions: [], artifacts: [] };

/** How a call failed, in terms both stores share (Dexie wraps errors its own way). */
function failure(error: unknown): string {
  const e = error as { name?: string; inner?: { name?: string } };
  return e.name === 'QuotaExceededError' || e.inner?.name === 'QuotaExceededError' ? 'quota' : 'refused';
}
async function settle<T>(p: Promise<T>): Promise<T | { failed: string }> {
  return p.catch((error: unknown) => ({ failed: failure(error) }));
}

/** Every row of the job's queue, in the order found, and its blocks: what a scenario checks after a write. */
async function queueOf(store: Store, jobId = 'job') {
  return { rows: await rowsBetween(store, jobId, 'all', [0, 0], [0, Infinity]).read(0, 1000), blocks: await blocksOf(store, jobId) };
}

type Scenario = (store: Store, log: (label: string, answer: unknown) => void) => Promise<void>;

const scenarios: Record<string, Scenario> = {
  'frontier rows: inserts past taken keys, counts, keys, numbers and lists': async (s, log) => {
    log('insert', await insertRows(s, [row('/a', 1), row('/b', 2, 'pending', 0), { ...row('/a', 3), url: url('/a-again') }, row('/c', 4, 'done'), row('/d', 5, 'skipped', 2)]));
    log('insert again', await insertRows(s, [row('/b', 6), row('/e', 7, 'pending', 0)]));
    await insertRows(s, [row('/x', 1, 'pending', 0, 'other')]);
    log('count', await queuedCount(s, 'job'));
    log('count none', await queuedCount(s, 'nobody'));
    log('keys', await rowKeys(s, 'job'));
    log('keys none', await rowKeys(s, 'nobody'));
    log('numbered', [await rowsNumbered(s, 'job', 1, 5), await rowsNumbered(s, 'job', 2, 3), await rowsNumbered(s, 'job', 4, 4), await rowsNumbered(s, 'job', 6, 2), await rowsNumbered(s, 'job', 0, 100)]);
    log('states', await countsByState(s, 'job', ['pending', 'done', 'skipped', 'inflight', 'failed', 'pending']));
    await putRows(s, [{ ...row('/b', 2, 'done', 0), reason: undefined }, row('/e', 7, 'inflight', 0)]);
    log('states after put', await countsByState(s, 'job', ['pending', 'inflight', 'done']));
    for (const state of ['pending', 'inflight', 'done', 'skipped'] as const) log(`in ${state}`, await rowsInState(s, 'job', state));
    log('recovered', await recoverInflight(s, 'job'));
    log('recovered none', await recoverInflight(s, 'nobody'));
    log('pending after recovery', await rowsInState(s, 'job', 'pending'));
    for (const [filter, lo, hi] of [
      ['all', [0, 0], [0, Infinity]],
      ['all', [9, 2], [0, 5]],
      ['all', [0, 5], [0, 5]],
      ['all', [0, 7], [0, 1]],
      ['pending', [0, 0], [Infinity, Infinity]],
      ['pending', [0, 7], [1, 2]],
      ['pending', [1, 1], [1, 1]],
      ['done', [0, 0], [2, 0]],
    ] as const) {
      const range = rowsBetween(s, 'job', filter, [lo[0], lo[1]], [hi[0], hi[1]]);
      log(`between ${filter} ${lo} ${hi}`, { count: await range.count(), all: await range.read(0, 100), window: await range.read(1, 2), past: await range.read(50, 2) });
    }
  },

  'claims: pending rows breadth-first up to the limit, picked rows written, block rows inserted past taken keys': async (s, log) => {
    await insertRows(s, [row('/d2', 1, 'pending', 2), row('/d1a', 2), row('/d0', 3, 'pending', 0), row('/d1b', 4), row('/gone', 5, 'done'), row('/d1c', 6)]);
    const seen: FrontierRecord[][] = [];
    const claim = await claimRows(s, 'job', 3, (pending) => {
      seen.push(pending);
      return { fromRows: pending.slice(0, 2).map((r) => ({ ...r, state: 'inflight' as const, updatedAt: 99 })), fromBlocks: [row('/new', 7, 'inflight', 2), row('/gone', 8, 'inflight', 2), row('/new', 9, 'inflight', 2)] };
    });
    log('claim', claim);
    log('pick saw', seen);
    log('queue after claim', await queueOf(s));
    log('claim none', await claimRows(s, 'job', 0, (pending) => ({ fromRows: pending, fromBlocks: [] })));
    log('claim rest', await claimRows(s, 'job', 10, (pending) => ({ fromRows: pending.map((r) => ({ ...r, state: 'inflight' as const })), fromBlocks: [] })));
    log(
      'throwing pick',
      await settle(
        claimRows(s, 'job', 10, () => {
          throw new Error('no');
        }),
      ),
    );
    log('queue after throw', await queueOf(s));
    log('recovered', await recoverInflight(s, 'job'));
    log('queue after recovery', await queueOf(s));
  },

  'link blocks, and queueing rows with blocks all or none': async (s, log) => {
    await addBlocks(s, [block(30, 3), block(10, 2)]);
    log('blocks', await blocksOf(s, 'job'));
    log('seqs', await blockSeqs(s, 'job'));
    log('at', [await blockAt(s, 'job', 10), await blockAt(s, 'job', 11), await blockAt(s, 'other', 10)]);
    log('taken block', await settle(addBlocks(s, [block(50, 1), block(10, 1)])));
    log('after taken block', await blockSeqs(s, 'job'));
    await insertRows(s, [row('/a', 1)]);
    log('queued', await addToQueue(s, [row('/a', 60), row('/q', 61)], [block(62, 2)]));
    log('queue', await queueOf(s));
    log('queued with a taken block', await settle(addToQueue(s, [row('/r', 70)], [block(71, 1), block(62, 1)])));
    log('queue after', await queueOf(s));
    log('queued nothing', await addToQueue(s, [], []));
  },

  'page batches: the decision’s stored pages, all the writes, and none of them when one is refused': async (s, log) => {
    await addJob(s, crawl('job', 1, 'running'));
    await writePageBatch(s, 'job', {
      hashes: [],
      pages: () => [page('/old', 'h1'), page('/older', 'h1'), page('/dup', 'h2', 'duplicate'), page('/other', 'h3'), page('/x', 'h1', 'stored', 'elsewhere')],
      job: {},
      queue: { rows: [], blocks: [] },
      settled: [],
    });
    await insertRows(s, [row('/a', 10, 'inflight'), row('/b', 11, 'inflight'), row('/seen', 12, 'done')]);
    const given: Array<[string, string][]> = [];
    const batch: PageBatch = {
      hashes: ['h2', 'h1', 'h1', 'h9'],
      pages: (stored) => {
        given.push([...stored]);
        return [{ ...page('/a', 'h1', 'duplicate'), duplicateOf: stored.get('h1') }, page('/b', 'h9')];
      },
      job: { hashRoutes: true, nav: [{ title: 'A', url: url('/a'), depth: 0 }] },
      queue: { rows: [row('/new', 20), row('/seen', 21)], blocks: [block(22, 2)] },
      settled: [row('/a', 10, 'done'), row('/b', 11, 'done')],
    };
    log('refused', await writePageBatch(s, 'job', batch));
    log('given', given);
    log('pages', [await pageByKey(s, 'job', url('/a')), await pageByKey(s, 'job', url('/b')), await pageByKey(s, 'job', url('/none')), await pageByKey(s, 'elsewhere', url('/x'))]);
    log('hashes', await pageHashes(s, 'job'));
    log('hashes none', await pageHashes(s, 'nobody'));
    log('job', await jobById(s, 'job'));
    log('queue', await queueOf(s));
    const before = { queue: await queueOf(s), pages: await countPages(s, 'job'), job: await jobById(s, 'job') };
    log(
      'throwing decision',
      await settle(
        writePageBatch(s, 'job', {
          ...batch,
          pages: () => {
            throw new Error('no');
          },
        }),
      ),
    );
    log('taken block', await settle(writePageBatch(s, 'job', { ...batch, pages: () => [page('/c', 'h7')], job: { hashRoutes: false }, queue: { rows: [row('/z', 30)], blocks: [block(22, 1)] } })));
    log('unchanged', { queue: await queueOf(s), pages: await countPages(s, 'job'), job: await jobById(s, 'job') });
    log('was', before);
    log('no job fields, no queue', await writePageBatch(s, 'job', { hashes: ['h9'], pages: (stored) => [page('/e', stored.get('h9') ?? 'none')], job: {}, queue: { rows: [], blocks: [] }, settled: [] }));
    log('e', await pageByKey(s, 'job', url('/e')));
  },

  'the page room refuses new pages past it, and rewrites of held pages take none': async (s, log) => {
    let room: number | undefined = 3;
    limitPageRoom(s, () => room);
    const batch = (pages: PageRecord[]): PageBatch => ({ hashes: [], pages: () => pages, job: {}, queue: { rows: [row(`/q${pages.length}`, pages.length)], blocks: [] }, settled: [] });
    log('fits', await settle(writePageBatch(s, 'job', batch([page('/a', 'a'), page('/b', 'b')]))));
    log('too many', await settle(writePageBatch(s, 'job', batch([page('/c', 'c'), page('/d', 'd')]))));
    log('rewrite', await settle(writePageBatch(s, 'job', batch([{ ...page('/a', 'a'), title: 'new' }]))));
    log('one more', await settle(writePageBatch(s, 'other', batch([page('/c', 'c', 'stored', 'other')]))));
    log('full', await settle(putSiteRows(s, { ...noRows, pages: [page('/z', 'z')], plans: [plan(url('/p'), 'done')] })));
    log('plans after full', await plansOfSite(s, origin));
    room = undefined;
    log('no room limit', await settle(writePageBatch(s, 'job', batch([page('/d', 'd')]))));
    log('counts', [await countPages(s, 'job'), await countPages(s, 'other')]);
    log('queue', await queueOf(s));
  },

  'jobs: added once, read, changed, started when idle, resumed and stopped': async (s, log) => {
    await addJob(s, crawl('c1', 1));
    log('taken id', await settle(addJob(s, crawl('c1', 2))));
    log('by id', [await jobById(s, 'c1'), await jobById(s, 'none')]);
    log('set', [await setJobFields(s, 'c1', { state: 'running', message: 'Going', startedAt: 4 }), await setJobFields(s, 'none', { state: 'failed' })]);
    log('unset', await setJobFields(s, 'c1', { message: undefined }));
    log('c1', await jobById(s, 'c1'));
    await addJob(s, refresh('r1', 2, 'running'));
    await addJob(s, describeJob('d1', 3));
    await addJob(s, crawl('o1', 4, 'running', other));
    log('active', [await activeJobFor(s, origin), await activeJobFor(s, other), await activeJobFor(s, 'https://idle.test')]);
    log('running', await runningPageJobs(s));
    let made = 0;
    const make = () => {
      made++;
      return crawl(`new${made}`, 10 + made, 'running', 'https://idle.test');
    };
    log('create busy', await createIfIdle(s, origin, make));
    log('create idle', await createIfIdle(s, 'https://idle.test', make));
    log('create busy now', await createIfIdle(s, 'https://idle.test', make));
    log('made', made);
    for (const [id, to] of [
      ['c1', 'paused'],
      ['c1', 'cancelled'],
      ['c1', 'paused'],
      ['r1', 'cancelled'],
      ['d1', 'cancelled'],
      ['none', 'paused'],
    ] as const) {
      log(`stop ${id} ${to}`, await stopWithoutRunner(s, id, to));
    }
    log('stopped', [await jobById(s, 'c1'), await jobById(s, 'r1'), await jobById(s, 'd1')]);
    await addJob(s, crawl('p1', 5, 'paused'));
    log('resume', [await markResumed(s, 'p1'), await markResumed(s, 'c1'), await markResumed(s, 'd1'), await markResumed(s, 'none'), await markResumed(s, 'new1')]);
    log('resumed', await jobById(s, 'p1'));
    log('of kind', [await jobsOfKind(s, origin, 'crawl'), await jobsOfKind(s, origin, 'describe'), await jobsOfKind(s, other, 'refresh')]);
  },

  'jobs on the newest crawl with pages: none, busy, refused by make, made': async (s, log) => {
    const make = (crawlJob: CrawlJob, now: number) => describeJob(`d-${crawlJob.id}-${now}`, now);
    log('no crawl', await createOnLatestCrawl(s, origin, make));
    await addJob(s, crawl('c1', 1));
    await addJob(s, crawl('c2', 2));
    await addJob(s, crawl('c3', 3, 'cancelled'));
    log('no pages', await createOnLatestCrawl(s, origin, make));
    await putSiteRows(s, { ...noRows, pages: [page('/a', 'a', 'stored', 'c1'), page('/b', 'b', 'stored', 'c2'), page('/c', 'c', 'duplicate', 'c3')] });
    log('made', await createOnLatestCrawl(s, origin, make));
    log('refused', await createOnLatestCrawl(s, origin, async (crawlJob) => ({ blocked: `mine ${crawlJob.id}` })));
    await addJob(s, refresh('r1', 4, 'running'));
    log('busy', await createOnLatestCrawl(s, origin, make));
    log('jobs', await jobsOfKind(s, origin, 'describe'));
    // Two starts at once whose `make` reads the jobs (an await inside the transaction): one job is made.
    await addJob(s, crawl('o1', 5, 'done', other));
    await putSiteRows(s, { ...noRows, pages: [page('/o', 'o', 'stored', 'o1')] });
    let n = 0;
    const once = async (crawlJob: CrawlJob, now: number) => {
      const running = (await jobsOfKind(s, other, 'describe')).some((j) => j.state === 'running');
      n++;
      return running ? { blocked: 'running' } : { ...describeJob(`o-${crawlJob.id}-${n}`, now), origin: other };
    };
    log('two at once', await Promise.all([createOnLatestCrawl(s, other, once), createOnLatestCrawl(s, other, once)]));
    log('made of two', await jobsOfKind(s, other, 'describe'));
  },

  'the shared queries: kinds, the newest, the crawl with pages, updates, counts, outputs, interrupted jobs': async (s, log) => {
    await putSiteRows(s, {
      ...noRows,
      jobs: [crawl('old', 1), crawl('full', 2), crawl('empty', 3, 'cancelled'), { id: 'disc', origin, kind: 'discovery', state: 'running', createdAt: 4, counters: {} }, crawl('tie-b', 5, 'running'), crawl('tie-a', 5, 'running'), crawl('elsewhere', 9, 'running', other)],
      pages: [page('/a', 'a', 'stored', 'old'), page('/a', 'a', 'stored', 'full'), page('/b', 'b', 'stored', 'full'), page('/c', 'c', 'duplicate', 'full'), page('/x', 'x', 'duplicate', 'empty')],
      artifacts: [
        { id: 4, origin, kind: 'llms', version: 2, jobId: 'full', text: 'v2', tokens: 1, createdAt: 2 },
        { id: 3, origin, kind: 'llms', version: 1, jobId: 'old', text: 'v1', tokens: 1, createdAt: 1 },
        { id: 5, origin, kind: 'llms-full', version: 3, jobId: 'full', text: 'f3', tokens: 1, createdAt: 3 },
      ],
    });
    log('get', [await getJob(s, 'full', 'crawl'), await getJob(s, 'disc', 'crawl'), await getJob(s, 'none', 'discovery')]);
    log('latest', [await latestJob(s, origin, 'crawl'), await latestJob(s, origin, 'crawl', 'done'), await latestJob(s, origin, 'check'), await latestJob(s, other, 'crawl')]);
    log('with pages', [await latestCrawlWithPages(s, origin), await latestCrawlWithPages(s, 'https://none.test')]);
    log('update', [await updateJob(s, 'full', 'crawl', { nav: [{ title: 'Home', url: url('/'), depth: 0 }], hashRoutes: true }), await updateJob(s, 'none', 'crawl', { hashRoutes: true })]);
    log('updated', await getJob(s, 'full', 'crawl'));
    log('counts', [await countPages(s, 'full'), await countPages(s, 'full', 'duplicate'), await countPages(s, 'full', 'removed'), await countPages(s, 'none')]);
    log('artifacts', [await latestArtifact(s, origin, 'llms'), await latestArtifact(s, origin, 'llms-full'), await latestArtifact(s, origin, 'files'), await latestArtifact(s, other, 'llms')]);
    log('interrupted crawls', await failInterrupted(s, 'crawl', { endedAt: 77 }));
    log('interrupted discoveries', await failInterrupted(s, 'discovery'));
    log('interrupted checks', await failInterrupted(s, 'check'));
    log('after', await jobsOfKind(s, origin, 'crawl'));
    log('discovery', await getJob(s, 'disc', 'discovery'));
  },

  'plans and a discovery run’s findings': async (s, log) => {
    await savePlan(s, plan(url('/b/'), 'running'));
    await savePlan(s, plan(url('/a/'), 'done'));
    await savePlan(s, plan(`${other}/`, 'running', other));
    await savePlan(s, { ...plan(url('/b/'), 'running'), message: 'again' });
    log('for', [await planFor(s, url('/b/')), await planFor(s, url('/none/'))]);
    log('of site', [await plansOfSite(s, origin), await plansOfSite(s, 'https://none.test')]);
    await failPlan(s, url('/a/'), origin, 'first');
    await failPlan(s, url('/a/'), origin, 'second');
    await failPlan(s, url('/new/'), origin, 'never made');
    log('failed', [await planFor(s, url('/a/')), await planFor(s, url('/new/'))]);
    log('running failed', await failRunningPlans(s, 'stopped'));
    log('after', [await plansOfSite(s, origin), await plansOfSite(s, other)]);
    log('none running', await failRunningPlans(s, 'stopped'));
    await putSiteRows(s, {
      ...noRows,
      discovered: [
        { id: 7, origin, jobId: 'disc', url: url('/llms.txt'), fetchedAt: 1 } as SiteRows['discovered'][number],
        { id: 2, origin, jobId: 'disc', url: url('/sitemap.xml'), fetchedAt: 1 } as SiteRows['discovered'][number],
        { id: 3, origin, jobId: 'other', url: url('/x'), fetchedAt: 1 } as SiteRows['discovered'][number],
      ],
    });
    log('findings', [await findingsOfRun(s, 'disc'), await findingsOfRun(s, 'none')]);
  },

  'a site’s rows read out and put back': async (s, log) => {
    const rows: SiteRows = {
      sites: [{ origin, host: 'docs.example.test', site: 'example.test', firstOpenedAt: 1, lastOpenedAt: 2, openCount: 3 }, { origin: other, host: 'other.example.test', site: 'example.test', firstOpenedAt: 1, lastOpenedAt: 2, openCount: 1 }],
      jobs: [crawl('c2', 2), crawl('c1', 1), describeJob('d1', 3, 'done'), refresh('r1', 4, 'done'), crawl('x', 5, 'done', other)],
      pages: [page('/b', 'b', 'stored', 'c1'), page('/a', 'a', 'stored', 'c1'), page('/r', 'r', 'removed', 'c1'), page('/d', 'd', 'duplicate', 'c1'), page('/z', 'z', 'stored', 'c2')],
      plans: [plan(url('/b/'), 'done'), plan(url('/a/'), 'done'), plan(`${other}/`, 'done', other)],
      discovered: [{ id: 5, origin, jobId: 'disc', url: url('/llms.txt'), fetchedAt: 1 } as SiteRows['discovered'][number], { id: 1, origin: other, jobId: 'disc2', url: `${other}/llms.txt`, fetchedAt: 1 } as SiteRows['discovered'][number]],
      descriptions: [{ key: 'k2', text: 'two', createdAt: 1 }, { key: 'k1', text: 'one', createdAt: 1 }],
      artifacts: [],
    };
    await putSiteRows(s, rows);
    const artifacts = [{ origin, kind: 'llms' as const, version: 1, jobId: 'c1', text: 't', tokens: 1, createdAt: 1 }];
    log('read', await readSiteRows(s, origin, 'c1', artifacts));
    log('read other crawl', await readSiteRows(s, origin, 'c2', []));
    log('read nothing', await readSiteRows(s, 'https://none.test', 'none', []));
  },

  'render tabs and the crawl report': async (s, log) => {
    await recordTab(s, { tabId: 9, jobId: 'a', url: url('/9'), openedAt: 1, session: 's' });
    await recordTab(s, { tabId: 3, jobId: 'b', url: url('/3'), openedAt: 1, session: 's' });
    await recordTab(s, { tabId: 5, jobId: 'a', url: url('/5'), openedAt: 1, session: 's' });
    await recordTab(s, { tabId: 9, jobId: 'a', url: url('/9-again'), openedAt: 2, session: 's' });
    log('tabs', [await recordedTabs(s), await recordedTabs(s, 'a'), await recordedTabs(s, 'none')]);
    await forgetTab(s, 9);
    await forgetTab(s, 404);
    log('tabs after', await recordedTabs(s));
    await insertRows(s, [row('/z', 1, 'skipped'), row('/a', 2, 'failed', 0), row('/m', 3, 'skipped', 0), row('/b', 4, 'done'), row('/c', 5, 'failed', 3)]);
    log('report', [await queueRowsIn(s, 'job', ['skipped', 'failed', 'skipped']), await queueRowsIn(s, 'job', ['failed']), await queueRowsIn(s, 'job', []), await queueRowsIn(s, 'none', ['failed'])]);
  },
};

async function transcript(make: () => Store, scenario: Scenario): Promise<Array<[string, unknown]>> {
  const answers: Array<[string, unknown]> = [];
  // Fixed time, so the rows a call stamps with Date.now() compare.
  vi.spyOn(Date, 'now').mockReturnValue(1_000_000);
  await scenario(make(), (label, answer) => answers.push([label, structuredClone(answer)]));
  vi.restoreAllMocks();
  return answers;
}

describe('the memory store answers what the Dexie store answers', () => {
  it.each(Object.entries(scenarios))('%s', async (_name, scenario) => {
    const expected = await transcript(dexie, scenario);
    const actual = await transcript(memory, scenario);
    expect(actual.map(([label]) => label)).toEqual(expected.map(([label]) => label));
    for (const [i, [label, answer]] of actual.entries()) expect({ label, answer }).toEqual({ label, answer: expected[i]?.[1] });
  });
});

/**
 * A crawl's queue traffic drawn from `seed`: batches of new rows (some keys seen before, depths
 * out of order), claims of a few rows at a time with new rows from "blocks", and claimed rows put
 * back done, failed or pending. Answers every claim's rows and the queue at the end.
 */
async function workload(store: Store, seed: number, rows: number): Promise<unknown[]> {
  const next = seededRandom(seed);
  const pick = (n: number) => Math.floor(next() * n);
  const claims: unknown[] = [];
  let seq = 0;
  let inflight: FrontierRecord[] = [];
  while (seq < rows) {
    const batch = Array.from({ length: 1 + pick(30) }, () => row(`/p${pick(rows)}`, ++seq, next() < 0.1 ? 'skipped' : 'pending', pick(6)));
    await insertRows(store, batch);
    for (let round = pick(3); round >= 0; round--) {
      const { picked, refused } = await claimRows(store, 'job', 1 + pick(12), (pending) => ({
        fromRows: pending.filter(() => next() < 0.8).map((r) => ({ ...r, state: 'inflight' as const, updatedAt: seq })),
        fromBlocks: next() < 0.3 ? [row(`/p${pick(rows)}`, ++seq, 'inflight', pick(6))] : [],
      }));
      claims.push([picked.fromRows.map((r) => r.key), [...refused]]);
      inflight.push(...picked.fromRows, ...picked.fromBlocks.filter((_, i) => !refused.has(i)));
    }
    const settled = inflight.filter(() => next() < 0.7);
    inflight = inflight.filter((r) => !settled.includes(r));
    await putRows(
      store,
      settled.map((r) => ({ ...r, state: (['done', 'done', 'failed', 'pending'] as const)[pick(4)] ?? 'done' })),
    );
  }
  claims.push(await countsByState(store, 'job', ['pending', 'inflight', 'done', 'failed', 'skipped']));
  claims.push((await rowsInState(store, 'job', 'pending')).map((r) => r.key));
  return claims;
}

describe('the memory frontier claims in Dexie’s order', () => {
  it('over a random workload of 2,000 rows of inserts, claims and state changes', async () => {
    const expected = await workload(dexie(), 7, 2000);
    const actual = await workload(memory(), 7, 2000);
    // Not a workload that never claims: hundreds of claims with rows in them.
    expect(expected.filter((c) => Array.isArray(c) && Array.isArray(c[0]) && c[0].length > 0).length).toBeGreaterThan(100);
    expect(actual).toEqual(expected);
  }, 60_000);
});

describe.each([
  ['dexie', dexie],
  ['memory', memory],
])('the %s store hands out copies', (_name, make) => {
  it('a record changed after it was written or read leaves the stored one as it was', async () => {
    const store = make();
    const written = row('/a', 1);
    await insertRows(store, [written]);
    written.url = url('/changed-after-write');
    const [read] = await rowsInState(store, 'job', 'pending');
    if (!read?.conditional) throw new Error('the row was not stored');
    read.url = url('/changed-after-read');
    read.conditional.etag = 'changed';
    expect(await rowsInState(store, 'job', 'pending')).toEqual([row('/a', 1)]);

    const job = crawl('c', 1, 'running');
    await addJob(store, job);
    job.counters.stored = 99;
    const got = await jobById(store, 'c');
    if (got?.kind !== 'crawl') throw new Error('the job was not stored');
    got.counters.stored = 42;
    got.settings.maxPages = 1;
    expect(await jobById(store, 'c')).toEqual(crawl('c', 1, 'running'));

    const p = page('/p', 'h');
    await writePageBatch(store, 'job', { hashes: [], pages: () => [p], job: {}, queue: { rows: [], blocks: [] }, settled: [] });
    p.title = 'changed';
    const stored = await pageByKey(store, 'job', url('/p'));
    if (!stored?.fullTokens) throw new Error('the page was not stored');
    stored.fullTokens.count = 0;
    expect(await pageByKey(store, 'job', url('/p'))).toEqual(page('/p', 'h'));

    const b = block(5, 2);
    await addBlocks(store, [b]);
    b.urls.push(url('/extra'));
    const [gotBlock] = await blocksOf(store, 'job');
    gotBlock?.urls.pop();
    expect(await blockAt(store, 'job', 5)).toEqual(block(5, 2));
  });
});

const html = (title: string, links: string[]) => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>All about ${title}, explained at length.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`,
});

/**
 * A real crawl over loopback HTTP of a site with a page of 700 links (a link block) and pages that
 * repeat each other, whose first runner dies after 10 requests: a second runner carries on.
 * Answers what the store holds at the end.
 */
async function crawlWithADeath(store: Store, server: FixtureServer) {
  const job = await createCrawlJob(store as ScoutDb, server.url('docs.example.test', '/'), { useSeeds: false, respectRobots: false, maxPages: 30, perHostConcurrency: 2 });
  const real = loopbackFetch();
  let calls = 0;
  const dying: typeof fetch = (input, init) => (++calls > 10 ? new Promise(() => undefined) : real(input, init));
  const first = new CrawlRunner({ db: store as ScoutDb, fetch: dying, process: nodePipeline({ fetch: dying }).process, timeoutMs: 60_000 }, job.id);
  void first.run();
  await expect.poll(() => calls, { timeout: 10_000 }).toBeGreaterThan(10);
  first.pause();
  const state = await new CrawlRunner({ db: store as ScoutDb, fetch: real, process: nodePipeline({ fetch: real }).process }, job.id).run();
  const ended = await getJob(store, job.id, 'crawl');
  const pages = await queueRowsIn(store, job.id, ['done']);
  return {
    state,
    counters: { stored: ended?.counters.stored, duplicates: ended?.counters.duplicates, discovered: ended?.counters.discovered, skipped: ended?.counters.skipped },
    stored: (await Promise.all(pages.map((r) => pageByKey(store, job.id, r.key)))).map((p) => p && [new URL(p.url).pathname, p.state, p.contentHash, p.duplicateOf && new URL(p.duplicateOf).pathname]).sort(),
    blocks: (await blocksOf(store, job.id)).map((b) => [b.seq, b.urls.length]),
    states: await countsByState(store, job.id, ['pending', 'inflight', 'done', 'failed', 'skipped']),
  };
}

describe('a crawl on the memory store', () => {
  let server: FixtureServer | undefined;
  afterEach(async () => server?.close());

  it('stores what it stores on Dexie, through a link block, duplicates and a runner’s death', async () => {
    const leaves = Array.from({ length: 700 }, (_, k) => `/leaf/${k}`);
    server = await startFixtureServer({
      'docs.example.test': {
        routes: { '/': html('Home', ['/wide', '/small', '/copy', '/away.pdf']), '/wide': html('Wide', leaves), '/small': html('Small', ['/small/1', '/small/2']), '/copy': html('Home', ['/wide', '/small', '/copy', '/away.pdf']) },
        fallback: (req) => html(`Page ${req.path.startsWith('/leaf/1') ? 'one' : req.path}`, ['/']),
      },
    });
    const expected = await crawlWithADeath(dexie(), server);
    const actual = await crawlWithADeath(memory(), server);
    expect(expected.state).toBe('done');
    expect(expected.counters.stored).toBe(30);
    expect(expected.blocks.length).toBe(1);
    expect(expected.counters.duplicates).toBeGreaterThan(0);
    expect(actual).toEqual(expected);
  }, 60_000);
});
