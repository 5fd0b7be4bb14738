import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type PageRecord, type ScoutDb } from '@/lib/store/db';
import { createDescribeJob } from '@/lib/describe/run-describe';
import { createRefreshJob } from '@/lib/refresh/jobs';

// Two side panels on one site (or a scheduled refresh firing as the user clicks) start jobs at
// the same moment. The check for a running job and the new job's row must be one transaction,
// or both see "nothing running" and both start.
const ORIGIN = 'https://docs.example.test';
let db: ScoutDb;
afterEach(() => db?.delete());

/** A finished crawl with two stored pages, as the crawler leaves it. */
async function crawledSite(): Promise<void> {
  db = createDb(`t-${Math.random()}`);
  await db.jobs.add({ id: 'c1', origin: ORIGIN, kind: 'crawl', state: 'done', createdAt: 1, startUrl: `${ORIGIN}/`, settings: { maxPages: 10, maxDepth: 2, scope: 'site', include: [], exclude: [], respectRobots: true, perHostConcurrency: 2, useSeeds: false }, counters: {} });
  const pages: PageRecord[] = ['', 'install'].map((p) => ({
    jobId: 'c1', key: `${ORIGIN}/${p}`, url: `${ORIGIN}/${p}`, finalUrl: `${ORIGIN}/${p}`, state: 'stored', depth: 0,
    title: p || 'Home', markdown: `# ${p || 'Home'}\n\nText.`, format: 'html', contentHash: `hash-${p}`, bytes: 10, fetchedAt: 0,
  }));
  await db.pages.bulkAdd(pages);
}

const running = () => db.jobs.where('state').equals('running').toArray();

describe('starting jobs at the same moment', () => {
  it('two refreshes of one site: one starts, the other is told why', async () => {
    await crawledSite();
    const answers = await Promise.all([createRefreshJob(db, ORIGIN), createRefreshJob(db, ORIGIN)]);
    expect(answers.filter((a) => 'error' in a)).toEqual([{ error: 'A refresh of this site is already running.' }]);
    expect((await running()).map((j) => j.kind)).toEqual(['refresh']);
  });

  it('two describe jobs of one site: one starts', async () => {
    await crawledSite();
    const answers = await Promise.all([createDescribeJob(db, ORIGIN), createDescribeJob(db, ORIGIN)]);
    expect(answers.filter((a) => 'error' in a)).toEqual([{ error: 'Descriptions for this site are already being written.' }]);
    expect((await running()).map((j) => j.kind)).toEqual(['describe']);
  });

  it('a refresh and a describe job of one site: the first wins', async () => {
    await crawledSite();
    const answers = await Promise.all([createRefreshJob(db, ORIGIN), createDescribeJob(db, ORIGIN)]);
    expect(answers.filter((a) => 'error' in a)).toEqual([{ error: 'A refresh of this site is running; describe its pages when it is done.' }]);
    expect((await running()).map((j) => j.kind)).toEqual(['refresh']);
  });
});
