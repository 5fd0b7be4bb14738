import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { db } from '@/lib/store/db';
import { setUpDiscovery } from '@/entrypoints/background/discovery';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { command, fakeExtension } from './fake-extension';
import { until } from './background-helpers';

const demoDir = fileURLToPath(new URL('../fixtures/sites/demo-docs/', import.meta.url));
// 127.0.0.1 is the user's own machine: discovery there needs an allow rule (network-guard.ts),
// which is what can fail. Node's fetch reaches it directly.
const HOST = '127.0.0.1';

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  await db.jobs.clear();
  await db.discovered.clear();
});

const settled = async (jobId: string) => {
  for (let i = 0; i < 600; i++) {
    const job = await db.jobs.get(jobId);
    if (job && job.state !== 'running') return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  return db.jobs.get(jobId);
};

describe('startDiscovery in the worker', () => {
  it('when the browser refuses the allow rule, fails the job with the reason, and the next start runs afresh with its rule in force', async () => {
    const ext = fakeExtension();
    const rulesAtRequest: number[] = [];
    server = await startFixtureServer({ [HOST]: { dir: demoDir, fallback: () => {
      rulesAtRequest.push(ext.sessionRules().length);
      return null;
    } } });
    setUpDiscovery();
    const pageUrl = server.url(HOST, '/guide/quickstart.html');

    ext.refuseNextSessionUpdate('Internal error: too many session rules.');
    const first = await command('startDiscovery', { url: pageUrl });
    if (!('jobId' in first)) throw new Error('expected a job');
    expect(await settled(first.jobId)).toMatchObject({ kind: 'discovery', state: 'failed', message: expect.stringContaining('too many session rules') });
    expect(server.requests).toHaveLength(0);

    const second = await command('startDiscovery', { url: pageUrl });
    if (!('jobId' in second)) throw new Error('expected a job');
    expect(second.jobId).not.toBe(first.jobId);
    expect(await settled(second.jobId)).toMatchObject({ state: 'done', message: expect.stringMatching(/llms files? found/) });
    // Every request of the run was made while the allow rule for this host was in force (the
    // fallback sees the 404s, which discovery always has), and it was given back after.
    expect(rulesAtRequest.length).toBeGreaterThan(0);
    expect(rulesAtRequest.every((n) => n === 1)).toBe(true);
    // The job row says done a moment before the rule is given back.
    await until(async () => ext.sessionRules().length === 0);
    expect(ext.sessionRules()).toEqual([]);
  });
});
