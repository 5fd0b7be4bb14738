import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@/lib/crawl/settings';
import { createDb, type CheckJob, type CrawlJob, type DiscoveryJob, type JobRecord, type JobState, type PageChange, type PageRecord, type PageVersionRecord, type ScoutDb } from '@/lib/store/db';
import { countPages, frontierOf, getJob, jobsNewestFirst, latestArtifact, latestCrawlWithPages, latestJob, pageChanges, updateJob } from '@/lib/store/queries';

let db: ScoutDb;
afterEach(() => db.delete());

const origin = 'https://docs.example.test';
const other = 'https://other.test';
const job = (id: string, kind: 'crawl' | 'discovery', createdAt: number, state: JobState = 'done'): JobRecord =>
  kind === 'crawl' ? { id, origin, kind, state, createdAt, startUrl: `${origin}/`, settings: DEFAULT_SETTINGS, counters: {} } : { id, origin, kind, state, createdAt, counters: {} };
const page = (jobId: string, path: string, state: PageRecord['state'] = 'stored'): PageRecord => ({
  jobId, key: `${origin}${path}`, url: `${origin}${path}`, finalUrl: `${origin}${path}`, state, depth: 1, title: path, markdown: '# x', format: 'html', contentHash: path, bytes: 1, fetchedAt: 1,
});

describe('the shared queries', () => {
  it('the crawl that feeds the outputs is the newest one with stored pages, not the newest one', async () => {
    db = createDb(`q-${Math.random()}`);
    await db.jobs.bulkAdd([job('old', 'crawl', 1), job('full', 'crawl', 2), job('empty', 'crawl', 3, 'cancelled'), job('disc', 'discovery', 4), { ...job('elsewhere', 'crawl', 5), origin: other }]);
    await db.pages.bulkAdd([page('old', '/a'), page('full', '/a'), page('full', '/b'), page('full', '/c', 'duplicate'), page('empty', '/x', 'duplicate')]);
    expect((await latestJob(db, origin, 'crawl'))?.id).toBe('empty');
    expect((await latestJob(db, origin, 'crawl', 'done'))?.id).toBe('full');
    expect((await latestCrawlWithPages(db, origin))?.id).toBe('full');
    expect(await countPages(db, 'full')).toBe(2);
    expect(await countPages(db, 'full', 'duplicate')).toBe(1);
    expect((await jobsNewestFirst(db, origin).toArray()).map((j) => j.id)).toEqual(['disc', 'empty', 'full', 'old']);
  });

  it('answers a job of the kind asked for, typed as that kind', async () => {
    db = createDb(`q-${Math.random()}`);
    await db.jobs.bulkAdd([job('c', 'crawl', 1), job('d', 'discovery', 2)]);
    expect((await getJob(db, 'c', 'crawl'))?.startUrl).toBe(`${origin}/`);
    expect(await getJob(db, 'd', 'crawl')).toBeUndefined();
    expect(await getJob(db, 'none', 'discovery')).toBeUndefined();
    expect((await latestJob(db, origin, 'discovery'))?.id).toBe('d');
    // The compiler checks these: a crawl's own fields need no `?.` once the kind is known.
    expectTypeOf(getJob(db, 'c', 'crawl')).resolves.toEqualTypeOf<CrawlJob | undefined>();
    expectTypeOf(latestJob(db, origin, 'discovery')).resolves.toEqualTypeOf<DiscoveryJob | undefined>();
    expectTypeOf(latestCrawlWithPages(db, origin)).resolves.toEqualTypeOf<CrawlJob | undefined>();
    expectTypeOf<CrawlJob['startUrl']>().toEqualTypeOf<string>();
    expectTypeOf<CheckJob['counters']['findings']>().toEqualTypeOf<number | undefined>();

    await updateJob(db, 'c', 'crawl', { nav: [{ title: 'Home', url: `${origin}/`, depth: 0 }], hashRoutes: true });
    expect(await getJob(db, 'c', 'crawl')).toMatchObject({ nav: [{ title: 'Home' }], hashRoutes: true, settings: DEFAULT_SETTINGS });
  });

  it('the latest version of an output, and a refresh’s changes by kind', async () => {
    db = createDb(`q-${Math.random()}`);
    const artifact = (version: number, kind: 'llms' | 'llms-full') => ({ origin, kind, version, jobId: 'c', text: `v${version}`, tokens: 1, createdAt: version });
    await db.artifacts.bulkAdd([artifact(1, 'llms'), artifact(2, 'llms'), artifact(3, 'llms-full')]);
    expect((await latestArtifact(db, origin, 'llms'))?.text).toBe('v2');
    expect(await latestArtifact(db, other, 'llms')).toBeUndefined();
    const version = (key: string, change: PageChange): PageVersionRecord => ({ jobId: 'r', crawlJobId: 'c', key, url: key, change, previousFingerprint: '', changedEnough: change !== 'unchanged', reason: change, checkedAt: 1 });
    await db.pageVersions.bulkAdd([version('a', 'changed'), version('b', 'unchanged'), version('c', 'removed')]);
    expect((await pageChanges(db, 'r', ['changed', 'removed']).toArray()).map((v) => v.key).sort()).toEqual(['a', 'c']);
  });

  it('a crawl’s queue in discovery order, or one state breadth-first', async () => {
    db = createDb(`q-${Math.random()}`);
    const entry = (url: string, seq: number, depth: number, state: 'pending' | 'done') => ({ jobId: 'c', key: url, url, seq, depth, state, source: 'link' as const, retries: 0, updatedAt: 1 });
    await db.frontier.bulkAdd([entry('/deep', 1, 2, 'pending'), entry('/b', 2, 1, 'pending'), entry('/a', 3, 1, 'done'), { ...entry('/z', 0, 0, 'pending'), jobId: 'other' }]);
    expect((await frontierOf(db, 'c').toArray()).map((r) => r.url)).toEqual(['/deep', '/b', '/a']);
    expect((await frontierOf(db, 'c', 'pending').toArray()).map((r) => r.url)).toEqual(['/b', '/deep']);
  });
});
