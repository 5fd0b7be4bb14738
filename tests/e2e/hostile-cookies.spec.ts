import type { Page } from '@playwright/test';
import { HOSTILE_COOKIE, hostileCookieSites, OTHER_SECRET } from '../fixtures/hostile-cookie-sites';
import { startFixtureServer, startPortAwareServer, type FixtureServer } from '../fixtures/server';
import { HIDDEN_HOP_REFUSED, SIGNED_IN_REDIRECT } from '@/lib/fetch/redirects';
import { latestCrawl, readQueue, readStore } from './extension-db';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

/**
 * Issue #28, item 3, in real Chromium (the E2E build has host access to every site): the user
 * is signed in to other.test (a Strict and a Lax session cookie) and opens Scout on hostile.test,
 * which redirects cookie-less requests on its own site and cookie-bearing ones to other.test
 * (tests/fixtures/hostile-cookie-sites.ts). Chromium hides redirects from the extension's fetch,
 * so this is the path where Scout cannot check a hop itself.
 */
test('a site that redirects signed-in requests elsewhere gets no other site’s cookies sent, nor its answer stored', async ({ openPanel, context }) => {
  const site: FixtureServer = await startPortAwareServer(hostileCookieSites);
  try {
    const [name, value] = HOSTILE_COOKIE.split('=') as [string, string];
    await context.addCookies([
      { name, value, domain: 'hostile.test', path: '/', sameSite: 'Lax' },
      { name: 'strict-session', value: 's1', domain: 'other.test', path: '/', sameSite: 'Strict' },
      { name: 'lax-session', value: 'l1', domain: 'other.test', path: '/', sameSite: 'Lax' },
    ]);
    const panel = await openPanel(site.url('hostile.test', '/'));
    await discoveryDone(panel);
    await crawlToEnd(panel);

    // The browser really sends cookies on Scout's requests (else this test would prove nothing) ...
    expect(site.requests.filter((r) => r.host === 'hostile.test' && r.headers.cookie === HOSTILE_COOKIE).length).toBeGreaterThan(3);
    // ... and none of other.test's.
    expect(site.requests.filter((r) => r.host === 'other.test' && r.headers.cookie !== undefined).map((r) => `${r.path} ${r.headers.cookie}`)).toEqual([]);

    const discovered = await readStore<{ url: string; status: string; reason?: string; text?: string }>(panel, 'discovered');
    const pages = await readStore<{ url: string; markdown?: string }>(panel, 'pages');
    expect(JSON.stringify([discovered, pages])).not.toContain(OTHER_SECRET);
    expect(discovered.find((d) => d.url === site.url('hostile.test', '/llms.txt'))).toMatchObject({ status: 'error', reason: expect.stringContaining(SIGNED_IN_REDIRECT) });

    // The panel answers, and says why the start page was not crawled.
    const { job } = await latestCrawl(panel);
    const frontier = await readQueue(panel, job?.id);
    expect(frontier.find((f) => f.url === site.url('hostile.test', '/'))).toMatchObject({ state: 'skipped', reason: SIGNED_IN_REDIRECT });
    await panel.getByRole('button', { name: 'Skipped', exact: true }).click();
    await expect(panel.getByTestId('page-list')).toContainText(SIGNED_IN_REDIRECT);
  } finally {
    await site.close();
  }
});

test('signed-in docs that redirect on their own site are still read with the user’s cookies; an endless chain is named as one', async ({ openPanel, context }) => {
  const page = (title: string, body: string) => ({
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}: enough words here to count as a real documentation page.</p></main></body></html>`,
  });
  const site = await startFixtureServer({
    'docs.login.test': {
      routes: {
        '/': page('Home', '<a href="/old">Old</a> <a href="/r0">Loop</a>'),
        '/old': { status: 302, headers: { location: '/new' } },
        '/new': (req) => (req.headers.cookie === 'session=me' ? page('New', 'Signed in as me') : page('New', 'Signed out')),
      },
      // /r0 → /r1 → … without end.
      fallback: (req) => (/^\/r\d+$/.test(req.path) ? { status: 302, headers: { location: `/r${Number(req.path.slice(2)) + 1}` } } : null),
    },
  });
  try {
    await context.addCookies([{ name: 'session', value: 'me', domain: 'docs.login.test', path: '/', sameSite: 'Strict' }]);
    const panel = await openPanel(site.url('docs.login.test', '/'));
    await discoveryDone(panel);
    await crawlToEnd(panel);
    const { job } = await latestCrawl(panel);
    const pages = (await readStore<{ jobId: string; url: string; finalUrl: string; markdown: string }>(panel, 'pages')).filter((p) => p.jobId === job?.id);
    const moved = pages.find((p) => p.url === site.url('docs.login.test', '/old'));
    expect(moved).toMatchObject({ finalUrl: site.url('docs.login.test', '/new'), markdown: expect.stringContaining('Signed in as me') });

    const frontier = await readQueue(panel, job?.id);
    expect(frontier.find((f) => f.url === site.url('docs.login.test', '/r0'))).toMatchObject({ state: 'skipped', reason: HIDDEN_HOP_REFUSED });
    await panel.getByRole('button', { name: 'Skipped', exact: true }).click();
    await expect(panel.getByTestId('page-list')).toContainText('they loop or run past 20 hops');
    // Chromium's own limit, once: the 'manual' request, then 20 followed hops and the 21st it refuses; no retries.
    expect(site.requests.filter((r) => /^\/r\d+$/.test(r.path)).length).toBeLessThanOrEqual(22);
  } finally {
    await site.close();
  }
});

async function discoveryDone(panel: Page): Promise<void> {
  await expect(panel.getByTestId('discovered')).toBeVisible({ timeout: 15_000 });
  await expect
    .poll(async () => (await readStore<{ kind: string; state: string }>(panel, 'jobs')).some((j) => j.kind === 'discovery' && j.state === 'done'), { timeout: 15_000 })
    .toBe(true);
}
