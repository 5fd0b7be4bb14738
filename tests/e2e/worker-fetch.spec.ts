import type { Worker } from '@playwright/test';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { expect, test } from './fixtures';
import { SIGNED_IN, sortedCookies, WORKER_FETCH_SITE, workerFetchSites, type ProbeAnswer } from '../fixtures/worker-fetch-site';

/**
 * Issue #33 asks for each page's whole path in the worker that converts it; first, proof that a
 * conversion worker's fetch reaches a site exactly as the service worker's does. The worker runs
 * where Scout starts it (Chrome's offscreen document). Compared, request by request, with the
 * service worker's own fetch: the cookies the site receives (the user's Strict and Lax session),
 * the network guard's rules (a private address is refused before it is requested), and a redirect
 * shown to the caller rather than followed.
 */
let site: FixtureServer;
test.beforeAll(async () => {
  site = await startFixtureServer(workerFetchSites());
});
test.afterAll(async () => site?.close());

/** A fetch made by the service worker itself, as the crawl makes it today. */
function serviceWorkerFetch(worker: Worker, url: string, redirect: RequestRedirect): Promise<ProbeAnswer> {
  return worker.evaluate(
    async ([u, r]) => {
      try {
        const res = await fetch(u, { credentials: 'include', redirect: r, cache: 'no-store' });
        return { ok: true, status: res.status, type: res.type, body: res.type === 'opaqueredirect' ? '' : await res.text() };
      } catch (error) {
        return { ok: false, error: String(error) };
      }
    },
    [url, redirect] as const,
  );
}

/** The same fetch made by a conversion worker in the offscreen document (the E2E build's probe). */
function conversionWorkerFetch(worker: Worker, url: string, redirect: RequestRedirect): Promise<ProbeAnswer> {
  return worker.evaluate(
    async ([u, r]) => {
      const chrome = (
        globalThis as unknown as {
          chrome: {
            runtime: { getContexts(f: object): Promise<unknown[]>; getURL(p: string): string; sendMessage(m: unknown): Promise<ProbeAnswer> };
            offscreen: { createDocument(o: object): Promise<void> };
          };
        }
      ).chrome;
      const open = await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] });
      if (!open.length) {
        await chrome.offscreen.createDocument({ url: chrome.runtime.getURL('/offscreen.html'), reasons: ['WORKERS'], justification: 'E2E probe' });
      }
      return chrome.runtime.sendMessage({ type: 'e2eWorkerFetch', timestamp: Date.now(), data: { url: u, redirect: r } });
    },
    [url, redirect] as const,
  );
}

test('a conversion worker’s fetch carries the user’s cookies and meets the network rules as the service worker’s does', async ({ context, worker }) => {
  // The reader signs in as in any browser tab: the site sets a Strict and a Lax session cookie.
  const tab = await context.newPage();
  await tab.goto(site.url(WORKER_FETCH_SITE, '/login'));
  await tab.close();
  const echo = site.url(WORKER_FETCH_SITE, '/echo');
  const moved = site.url(WORKER_FETCH_SITE, '/moved');
  const privateUrl = `http://127.0.0.1:${site.port}/echo`;

  const fromSw = await serviceWorkerFetch(worker, echo, 'manual');
  const fromWorker = await conversionWorkerFetch(worker, echo, 'manual');
  // The site saw the user's session on both (else the comparison proves nothing) ...
  expect(fromSw).toMatchObject({ ok: true, status: 200, body: SIGNED_IN });
  expect(fromWorker).toEqual(fromSw);

  // ... a redirect comes back unfollowed to both, so Scout can judge each hop ...
  const swMoved = await serviceWorkerFetch(worker, moved, 'manual');
  expect(swMoved).toMatchObject({ ok: true, type: 'opaqueredirect' });
  expect(await conversionWorkerFetch(worker, moved, 'manual')).toEqual(swMoved);

  // ... and the guard's rules, which name Scout's own host as the initiator, hold for both: a
  // private address is refused before it is requested.
  await expect.poll(async () => (await serviceWorkerFetch(worker, privateUrl, 'manual')).ok, { timeout: 10_000 }).toBe(false);
  expect(await conversionWorkerFetch(worker, privateUrl, 'manual')).toMatchObject({ ok: false });
  expect(site.requests.filter((r) => r.host === '127.0.0.1')).toEqual([]);
  expect(site.requests.filter((r) => r.path === '/echo').map((r) => sortedCookies(r.headers.cookie))).toEqual([SIGNED_IN, SIGNED_IN]);
});
