import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SIGNED_IN, sortedCookies, WORKER_FETCH_SITE, workerFetchSites, type ProbeAnswer } from '../fixtures/worker-fetch-site';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { launchScoutFirefox, type ScoutFirefox } from './firefox';

/**
 * Issue #33's proof, in Firefox (tests/e2e/worker-fetch.spec.ts is Chromium's): a conversion
 * worker started by the background page, where Scout starts them, fetches as the background page
 * itself does — the reader's session cookies sent, a redirect shown rather than followed, the
 * network guard's block on private addresses in force. Run on the test build
 * (`npm run build:firefox-e2e`), whose background page answers the probe message.
 */
const FIREFOX_E2E_BUILD = resolve(process.env.SCOUT_FIREFOX_E2E_BUILD ?? '.output/firefox-mv2-e2e');
let site: FixtureServer;
let ff: ScoutFirefox;

beforeAll(async () => {
  site = await startFixtureServer(workerFetchSites());
  ff = await launchScoutFirefox([WORKER_FETCH_SITE], FIREFOX_E2E_BUILD);
});
afterAll(async () => {
  await ff?.close();
  await site?.close();
});

it('a conversion worker’s fetch carries the reader’s cookies and meets the network rules as the background page’s does', async () => {
  // The reader signs in in an ordinary tab.
  const tab = await ff.browser.newPage();
  await tab.goto(site.url(WORKER_FETCH_SITE, '/login'));
  await tab.close();
  const panel = await ff.openPanel(site.url(WORKER_FETCH_SITE, '/'));
  const probe = (url: string, from: 'worker' | 'here'): Promise<ProbeAnswer> =>
    panel.evaluate(
      (data) => (globalThis as unknown as { browser: { runtime: { sendMessage(m: unknown): Promise<ProbeAnswer> } } }).browser.runtime.sendMessage({ type: 'e2eWorkerFetch', timestamp: Date.now(), data }),
      { url, redirect: 'manual' as RequestRedirect, from },
    );

  const echo = site.url(WORKER_FETCH_SITE, '/echo');
  const fromBackground = await probe(echo, 'here');
  expect(fromBackground).toMatchObject({ ok: true, status: 200, body: SIGNED_IN });
  expect(await probe(echo, 'worker')).toEqual(fromBackground);

  const moved = site.url(WORKER_FETCH_SITE, '/moved');
  const backgroundMoved = await probe(moved, 'here');
  expect(backgroundMoved).toMatchObject({ ok: true, type: 'opaqueredirect' });
  expect(await probe(moved, 'worker')).toEqual(backgroundMoved);

  const privateUrl = `http://127.0.0.1:${site.port}/echo`;
  expect(await probe(privateUrl, 'here')).toMatchObject({ ok: false });
  expect(await probe(privateUrl, 'worker')).toMatchObject({ ok: false });
  expect(site.requests.filter((r) => r.host === '127.0.0.1')).toEqual([]);
  expect(site.requests.filter((r) => r.path === '/echo').map((r) => sortedCookies(r.headers.cookie))).toEqual([SIGNED_IN, SIGNED_IN]);
  expect(ff.errors).toEqual([]);
});
