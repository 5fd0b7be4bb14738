import { test as base, expect } from '@playwright/test';
import { startFixtureServer } from '../fixtures/server';
import { launchWithExtension, PROD_BUILD } from './browser';

/**
 * What the worker can fetch with each manifest, measured for real. The shipped
 * manifest has only optional host permissions; the E2E build grants <all_urls>.
 */
const test = base;

async function workerFetch(worker: import('@playwright/test').Worker, url: string, credentials: RequestCredentials = 'include') {
  return worker.evaluate(async ([u, c]) => {
    try {
      const res = await fetch(u, { credentials: c });
      return { ok: true, status: res.status, body: await res.text() };
    } catch (error) {
      return { ok: false, error: String(error) };
    }
  }, [url, credentials] as const);
}

test('the shipped manifest cannot read a site until the user grants access', async () => {
  const server = await startFixtureServer({
    'docs.example.test': { routes: { '/llms.txt': { body: '# Docs\n', headers: { 'content-type': 'text/plain' } } } },
    'open.example.test': {
      routes: { '/llms.txt': { body: '# Open\n', headers: { 'content-type': 'text/plain', 'access-control-allow-origin': '*' } } },
    },
  });
  const { context, worker, extensionId } = await launchWithExtension({ extensionDir: PROD_BUILD });
  try {
    const manifest = await worker.evaluate(() => (globalThis as unknown as { chrome: { runtime: { getManifest(): { permissions?: string[]; optional_permissions?: string[]; host_permissions?: string[]; optional_host_permissions?: string[] } } } }).chrome.runtime.getManifest());
    expect(manifest.host_permissions ?? []).toEqual([]);
    expect(manifest.optional_host_permissions).toEqual(['http://*/*', 'https://*/*']);
    // Exactly the permissions the README explains, no more.
    expect([...(manifest.permissions ?? [])].sort()).toEqual(['activeTab', 'alarms', 'declarativeNetRequest', 'offscreen', 'scripting', 'sidePanel', 'storage', 'unlimitedStorage']);
    expect(manifest.optional_permissions).toEqual(['notifications']);

    // No CORS headers (nearly every docs site): the browser blocks the response.
    expect(await workerFetch(worker, server.url('docs.example.test', '/llms.txt'))).toMatchObject({ ok: false, error: expect.stringMatching(/Failed to fetch/) });
    // A server that opts into CORS for everyone is readable without cookies, but not with them.
    expect(await workerFetch(worker, server.url('open.example.test', '/llms.txt'), 'omit')).toMatchObject({ ok: true, body: '# Open\n' });
    expect(await workerFetch(worker, server.url('open.example.test', '/llms.txt'))).toMatchObject({ ok: false });

    // The panel says so, and offers the one-click grant.
    const panel = await context.newPage();
    await panel.goto(`chrome-extension://${extensionId}/sidepanel.html?url=${encodeURIComponent(server.url('docs.example.test', '/guide/'))}`);
    await expect(panel.getByTestId('host-access')).toContainText('Allow access to example.test');
    await expect(panel.getByTestId('host-access-state')).toHaveText('Not yet allowed');
  } finally {
    await context.close();
    await server.close();
  }
});

test('with host access the worker fetches the site with the user’s cookies', async () => {
  const server = await startFixtureServer({
    'docs.example.test': {
      routes: { '/whoami': (req) => ({ body: `cookie=${req.headers.cookie ?? ''}`, headers: { 'content-type': 'text/plain' } }) },
    },
  });
  const { context, worker } = await launchWithExtension();
  try {
    await context.addCookies([{ name: 'session', value: 'abc', domain: 'docs.example.test', path: '/' }]);
    expect(await workerFetch(worker, server.url('docs.example.test', '/whoami'))).toEqual({ ok: true, status: 200, body: 'cookie=session=abc' });
  } finally {
    await context.close();
    await server.close();
  }
});
