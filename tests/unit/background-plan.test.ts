import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { db, type PlanRecord } from '@/lib/store/db';
import { setUpDiscovery } from '@/entrypoints/background/discovery';
import { setUpPlans } from '@/entrypoints/background/plan';
import { JobRegistry } from '@/lib/jobs/registry';
import { startFixtureServer, type FixtureServer, type Route } from '../fixtures/server';
import { command, fakeExtension } from './fake-extension';

// 127.0.0.1 is the user's own machine: reading it needs an allow rule (network-guard.ts), held
// while the plan runs, as discovery holds it. Node's fetch reaches it directly.
const HOST = '127.0.0.1';

const page = (title: string, nav: string[], delayMs = 0): Route => ({
  delayMs,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>${title} — Kit docs</title></head><body><nav class="sidebar"><ul>${nav.map((p) => `<li><a href="${p}">${p}</a></li>`).join('')}</ul></nav><main><h1>${title}</h1><p>${title}, explained for the readers of these docs with an example.</p></main></body></html>`,
});
const NAV = ['/docs/', '/docs/install', '/docs/usage', '/docs/api'];
/** `slowMs`: how long each page takes to answer. */
const docsSite = (slowMs = 0) => ({ routes: Object.fromEntries(NAV.map((p) => [p, page(p, NAV, slowMs)])) });

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  await db.plans.clear();
  await db.jobs.clear();
  await db.discovered.clear();
});

/** The plan once it has ended (done or failed). */
const settled = async (startUrl: string): Promise<PlanRecord | undefined> => {
  for (let i = 0; i < 200; i++) {
    const plan = await db.plans.get(startUrl);
    if (plan && plan.state !== 'running') return plan;
    await new Promise((r) => setTimeout(r, 25));
  }
  return db.plans.get(startUrl);
};

describe('planCrawl in the worker', () => {
  it('answers at once, reads the site with the start host allowed, and stores the plan; the rule is given back', async () => {
    const ext = fakeExtension();
    const rulesAtRequest: number[] = [];
    // Every request, page or not, notes how many allow rules were in force when it arrived.
    const noted = <T,>(answer: T) => {
      rulesAtRequest.push(ext.sessionRules().length);
      return answer;
    };
    const routes = Object.fromEntries(Object.entries(docsSite().routes).map(([path, route]) => [path, () => noted(route)]));
    server = await startFixtureServer({ [HOST]: { routes, fallback: () => noted(null) } });
    setUpPlans();
    const url = server.url(HOST, '/docs/install');
    expect(await command('planCrawl', { url })).toEqual({ ok: true });
    const plan = await settled(url);
    expect(plan).toMatchObject({ state: 'done', origin: server.origin(HOST) });
    expect(plan?.boundary?.roots.length).toBeGreaterThan(0);
    expect(rulesAtRequest.length).toBeGreaterThan(0);
    expect(rulesAtRequest.every((n) => n === 1)).toBe(true);
    expect(ext.sessionRules()).toEqual([]);
  });

  it('when the browser refuses the allow rule, the plan fails with the reason in words; Try again runs afresh', async () => {
    const ext = fakeExtension();
    server = await startFixtureServer({ [HOST]: docsSite() });
    setUpPlans();
    const url = server.url(HOST, '/docs/');
    ext.refuseNextSessionUpdate('Internal error: too many session rules.');
    expect(await command('planCrawl', { url })).toEqual({ ok: true });
    const failed = await settled(url);
    expect(failed).toMatchObject({ state: 'failed', message: expect.stringContaining('too many session rules') });
    expect(failed?.message).toMatch(/^Scout could not read the site to find its documentation: /);
    expect(server.requests).toHaveLength(0);

    expect(await command('planCrawl', { url, again: true })).toEqual({ ok: true });
    await vi.waitFor(async () => expect((await db.plans.get(url))?.state).toBe('done'), { timeout: 5_000 });
    expect(ext.sessionRules()).toEqual([]);
  });

  it('without host access it answers no-access and asks the site nothing', async () => {
    fakeExtension();
    vi.spyOn(fakeBrowser.permissions, 'contains').mockImplementation(async () => false);
    server = await startFixtureServer({ [HOST]: docsSite() });
    setUpPlans();
    const url = server.url(HOST, '/docs/');
    expect(await command('planCrawl', { url })).toEqual({ error: 'no-access' });
    await new Promise((r) => setTimeout(r, 100));
    expect(await db.plans.get(url)).toBeUndefined();
    expect(server.requests).toHaveLength(0);
  });

  it('a plan the worker was making when it stopped ends failed, with the reason, when the worker starts', async () => {
    fakeExtension();
    const running: PlanRecord = { startUrl: 'https://docs.example.com/', origin: 'https://docs.example.com', state: 'running', message: 'Finding where the documentation is…', createdAt: 1 };
    const done: PlanRecord = { startUrl: 'https://docs.example.com/a', origin: 'https://docs.example.com', state: 'done', createdAt: 1 };
    await db.plans.bulkPut([running, done]);
    setUpPlans();
    await vi.waitFor(async () => expect((await db.plans.get(running.startUrl))?.state).toBe('failed'));
    expect((await db.plans.get(running.startUrl))?.message).toContain('Stopped before it finished');
    expect((await db.plans.get(done.startUrl))?.state).toBe('done');
  });

  it('asked for while the site’s discovery is only just asked for, the plan waits for it and reads its sitemaps', async () => {
    // The panel asks for discovery as it opens and for the plan moments later; under load the
    // plan's command can run before discovery has written its job row. The demo site's licence
    // page is listed only by its sitemap and llms.txt: a plan made without discovery misses it.
    fakeExtension();
    server = await startFixtureServer({ [HOST]: { dir: fileURLToPath(new URL('../fixtures/sites/demo-docs/', import.meta.url)) } });
    setUpDiscovery();
    setUpPlans();
    const url = server.url(HOST, '/guide/quickstart.html');
    const [discovery, planned] = await Promise.all([command('startDiscovery', { url, visit: true }), command('planCrawl', { url })]);
    expect(planned).toEqual({ ok: true });
    if (!('jobId' in discovery)) throw new Error('expected a discovery job');
    const plan = await settled(url);
    expect(plan).toMatchObject({ state: 'done', discoveryJobId: discovery.jobId });
    expect((await db.jobs.get(discovery.jobId))?.state).toBe('done');
    expect(plan?.sitemapUrls).toContain(server.url(HOST, '/legal/license.html'));
  });

  it('runs on the worker’s job registry: a second ask for the page joins it, and the worker is kept up until it ends', async () => {
    fakeExtension();
    server = await startFixtureServer({ [HOST]: docsSite(300) });
    const keptUp: boolean[] = [];
    const jobs = new JobRegistry({ start: () => keptUp.push(true), stop: () => keptUp.push(false) });
    setUpPlans({ db, browser: fakeBrowser, jobs });
    const url = server.url(HOST, '/docs/install');
    expect(await Promise.all([command('planCrawl', { url }), command('planCrawl', { url })])).toEqual([{ ok: true }, { ok: true }]);
    expect(jobs.size).toBe(1);
    expect(keptUp).toEqual([true]);
    expect(await settled(url)).toMatchObject({ state: 'done' });
    await vi.waitFor(() => expect(jobs.size).toBe(0));
    expect(keptUp).toEqual([true, false]);
    expect(server.requests.filter((r) => r.path === '/docs/install')).toHaveLength(1);
  });
});
