import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@/lib/crawl/settings';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { failInterrupted } from '@/lib/store/queries';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

let db: ScoutDb;
let server: FixtureServer;
afterEach(async () => {
  await db.delete();
  await server.close();
});

describe('discovery as a job', () => {
  it('stores each result under the job, summarises it, and drops older runs only when done', async () => {
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({ 'docs.example.test': { routes: { '/llms.txt': { body: '# Docs\n\n## A\n- [x](/x)\n', headers: { 'content-type': 'text/plain' } } } } });
    const pageUrl = server.url('docs.example.test', '/guide/');
    const first = await runDiscoveryJob(db, { jobId: 'one', pageUrl, fetch: loopbackFetch() });
    expect(first.state).toBe('done');
    expect(first.message).toMatch(/^1 llms file found · checked \d+ locations in (\d+ ms|\d+\.\d s)$/);
    const rows = await db.discovered.where('jobId').equals('one').toArray();
    expect(rows.find((r) => r.url.endsWith('/llms.txt') && r.status === 'found')).toMatchObject({ origin: server.origin('docs.example.test'), best: true, title: 'Docs' });
    // Every location is stored once, even those updated after their first write (the best flag).
    expect(new Set(rows.map((r) => r.url)).size).toBe(rows.length);

    await runDiscoveryJob(db, { jobId: 'two', pageUrl, fetch: loopbackFetch() });
    expect(await db.jobs.get('one')).toBeUndefined();
    expect(await db.discovered.where('jobId').equals('one').count()).toBe(0);
    expect(await db.discovered.where('jobId').equals('two').count()).toBe(rows.length);
  });

  it('marks a discovery left running by a dead worker as interrupted', async () => {
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({});
    await db.jobs.bulkAdd([
      { id: 'a', origin: 'https://x.test', kind: 'discovery', state: 'running', createdAt: 1, counters: {} },
      { id: 'b', origin: 'https://x.test', kind: 'crawl', state: 'running', createdAt: 1, startUrl: 'https://x.test/', settings: DEFAULT_SETTINGS, counters: {} },
    ]);
    expect(await failInterrupted(db, 'discovery')).toBe(1);
    expect(await db.jobs.get('a')).toMatchObject({ state: 'failed', message: expect.stringMatching(/Interrupted/) });
    expect((await db.jobs.get('b'))?.state).toBe('running');
  });
});
