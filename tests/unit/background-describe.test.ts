import { afterEach, describe, expect, it } from 'vitest';
import { setUpDescribe } from '@/entrypoints/background/describe';
import { JobRegistry } from '@/lib/jobs/registry';
import { db } from '@/lib/store/db';
import { saveDescribeSettings } from '@/lib/describe/settings-item';
import { normalizeDescribeSettings } from '@/lib/describe/settings';
import { answer, hang, startChatServer, type ChatServer } from '../fixtures/chat-server';
import { until } from './background-helpers';
import { clearDescribeRows, crawledSite } from './describe-site';
import { command, fakeExtension } from './fake-extension';

// The worker's describe command under WXT's fake browser: an endpoint on the user's own machine
// (127.0.0.1) needs an allow rule while the job runs, which the browser can refuse.
const ORIGIN = 'https://docs.example.test';

let chat: ChatServer | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
  await clearDescribeRows();
});

describe('startDescribe in the worker', () => {
  it('when the browser refuses the local endpoint’s allow rule, the job ends failed with the reason and the next one runs', async () => {
    const ext = fakeExtension();
    await crawledSite(ORIGIN, 1);
    chat = await startChatServer(() => answer('Explains the project.'));
    await saveDescribeSettings(normalizeDescribeSettings({ provider: 'endpoint', endpoint: { url: chat.baseUrl, model: 'm' }, consentedTo: chat.baseUrl }));
    setUpDescribe();

    ext.refuseNextSessionUpdate('Internal error: too many session rules.');
    const first = await command('startDescribe', { origin: ORIGIN });
    if (!('jobId' in first)) throw new Error(`expected a job: ${JSON.stringify(first)}`);
    expect(await db.jobs.get(first.jobId)).toMatchObject({ state: 'failed', message: expect.stringContaining('too many session rules') });
    expect(chat.requests).toHaveLength(0);

    const second = await command('startDescribe', { origin: ORIGIN });
    if (!('jobId' in second)) throw new Error(`expected a job: ${JSON.stringify(second)}`);
    await until(async () => (await db.jobs.get(second.jobId))?.state === 'done');
    expect(chat.requests.length).toBeGreaterThan(0);
    // The job row says done before the rule is lifted; the rule must go soon after, not stay.
    await until(async () => ext.sessionRules().length === 0);
    expect(ext.sessionRules()).toEqual([]);
  });

  it('Cancel stops the running job through the worker’s registry; a Cancel of another kind’s job is refused', async () => {
    fakeExtension();
    await crawledSite(ORIGIN, 3);
    // Every call hangs: only Cancel can end the job.
    chat = await startChatServer(() => hang());
    await saveDescribeSettings(normalizeDescribeSettings({ provider: 'endpoint', endpoint: { url: chat.baseUrl, model: 'm' }, consentedTo: chat.baseUrl, concurrency: 1 }));
    const jobs = new JobRegistry();
    setUpDescribe({ db, jobs });
    const started = await command('startDescribe', { origin: ORIGIN });
    if (!('jobId' in started)) throw new Error(`expected a job: ${JSON.stringify(started)}`);
    await until(async () => (chat?.requests.length ?? 0) > 0);
    expect(jobs.has(started.jobId)).toBe(true);
    expect(await command('cancelDescribe', { jobId: 'a-crawl-it-does-not-run' })).toEqual({ ok: false });
    expect(await command('cancelDescribe', { jobId: started.jobId })).toEqual({ ok: true });
    await jobs.ended(started.jobId);
    expect(await db.jobs.get(started.jobId)).toMatchObject({ state: 'cancelled' });
    expect(jobs.size).toBe(0);
  });
});
