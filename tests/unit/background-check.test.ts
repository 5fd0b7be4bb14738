import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { db } from '@/lib/store/db';
import { setUpCheck } from '@/entrypoints/background/check';
import { JobRegistry } from '@/lib/jobs/registry';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { command, fakeExtension } from './fake-extension';

const demoDir = fileURLToPath(new URL('../fixtures/sites/demo-docs/', import.meta.url));
const HOST = '127.0.0.1';

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  await db.jobs.clear();
});

describe('startCheck in the worker', () => {
  it('runs one check per site on the worker’s registry: a second start joins it, the worker is kept up until it ends, the next start runs afresh', async () => {
    fakeExtension();
    server = await startFixtureServer({ [HOST]: { dir: demoDir } });
    const keptAlive: string[] = [];
    const jobs = new JobRegistry({ start: () => keptAlive.push('start'), stop: () => keptAlive.push('stop') });
    setUpCheck({ db, jobs });
    const pageUrl = server.url(HOST, '/guide/quickstart.html');

    const [first, second] = await Promise.all([command('startCheck', { url: pageUrl, crawl: false }), command('startCheck', { url: pageUrl, crawl: false })]);
    if (!('jobId' in first) || !('jobId' in second)) throw new Error(`expected jobs: ${JSON.stringify([first, second])}`);
    expect(second.jobId).toBe(first.jobId);
    // The row is written before the command answers.
    expect(await db.jobs.get(first.jobId)).toMatchObject({ kind: 'check', state: 'running' });
    expect(jobs.holding(`check:${new URL(pageUrl).origin}`)).toBe(first.jobId);
    await jobs.ended(first.jobId);
    expect(await db.jobs.get(first.jobId)).toMatchObject({ kind: 'check', state: 'done' });
    expect(keptAlive).toEqual(['start', 'stop']);

    const third = await command('startCheck', { url: pageUrl, crawl: false });
    if (!('jobId' in third)) throw new Error('expected a job');
    expect(third.jobId).not.toBe(first.jobId);
    await jobs.ended(third.jobId);
    expect((await db.jobs.toArray()).filter((job) => job.kind === 'check')).toHaveLength(2);
  });
});
