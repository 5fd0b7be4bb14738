import type { Page } from '@playwright/test';
import { PUBLIC_HOST, privateNetworkSite, privateTargets } from '../fixtures/private-network-site';
import { crossSiteTwinSites, SCRIPT_MARKER, scriptSite } from '../fixtures/security-sites';
import { startFixtureServer, startPortAwareServer } from '../fixtures/server';
import { HIDDEN_HOP_REFUSED } from '@/lib/fetch/redirects';
import { latestCrawl, readQueue, readStore } from './extension-db';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

/**
 * The user's browser must never be turned against the user's own network or other sites.
 * Each test crawls a hostile fixture site in real Chromium (the E2E build) and checks the
 * fixture server's request log: it listens on 127.0.0.1, so a request that got through to
 * localhost / 127.0.0.1 would show up there with that Host.
 */
const NEVER = /Scout never fetches these from a public site/;

async function discoveryDone(panel: Page): Promise<void> {
  // Read IndexedDB only once the worker has created it (opening it first would create an empty one).
  await expect(panel.getByTestId('discovered')).toBeVisible({ timeout: 15_000 });
  await expect
    .poll(async () => (await readStore<{ kind: string; state: string }>(panel, 'jobs')).some((j) => j.kind === 'discovery' && j.state === 'done'), { timeout: 15_000 })
    .toBe(true);
}

interface FrontierRow { jobId: string; url: string; state: string; reason?: string }

async function frontierOf(panel: Page): Promise<FrontierRow[]> {
  const { job } = await latestCrawl(panel);
  return readQueue(panel, job?.id);
}

test('a public site’s links, llms files and sitemaps into the user’s network are listed with the reason and never requested', async ({ openPanel }) => {
  const site = await startPortAwareServer((port) => privateNetworkSite(port, { redirects: false }));
  try {
    const panel = await openPanel(site.url(PUBLIC_HOST, '/'));
    await discoveryDone(panel);
    const discovered = await readStore<{ url: string; status: string; reason?: string }>(panel, 'discovered');
    for (const url of [`http://127.0.0.1:${site.port}/llms.txt`, `http://localhost:${site.port}/index.md`, `http://127.0.0.1:${site.port}/hub/llms.txt`, `http://127.0.0.1:${site.port}/robots-sitemap.xml`, `http://localhost:${site.port}/child.xml`]) {
      expect(discovered.find((d) => d.url === url), url).toMatchObject({ status: 'not-followed', reason: expect.stringMatching(NEVER) });
    }

    await crawlToEnd(panel);
    const frontier = await frontierOf(panel);
    for (const [name, url] of Object.entries(privateTargets(site.port))) {
      expect(frontier.find((f) => f.url === new URL(url).href), name).toMatchObject({ state: 'skipped', reason: expect.stringMatching(NEVER) });
    }
    expect((await latestCrawl(panel)).paths).toEqual(['/', '/guide.html']);

    await panel.getByRole('button', { name: 'Skipped', exact: true }).click();
    const list = panel.getByTestId('page-list');
    await expect(list).toContainText('A private network address (192.168.1.1): Scout never fetches these from a public site');
    await expect(list).toContainText('This computer (localhost): Scout never fetches these from a public site');
    await expect(list).toContainText('A local network name (router.local)');

    expect([...new Set(site.requests.map((r) => r.host))]).toEqual([PUBLIC_HOST]);
  } finally {
    await site.close();
  }
});

test('a redirect into the user’s network is not requested', async ({ openPanel }) => {
  // Browsers follow redirects without showing fetch() the hops; Scout's declarativeNetRequest
  // rules refuse the hop to 127.0.0.1 inside the browser, so that request is never made.
  const site = await startPortAwareServer((port) => privateNetworkSite(port));
  try {
    const panel = await openPanel(site.url(PUBLIC_HOST, '/'));
    await discoveryDone(panel);
    await crawlToEnd(panel);
    const moved = (await frontierOf(panel)).find((f) => f.url === site.url(PUBLIC_HOST, '/moved'));
    expect(moved).toMatchObject({ state: 'skipped', reason: HIDDEN_HOP_REFUSED });
    expect([...new Set(site.requests.map((r) => r.host))]).toEqual([PUBLIC_HOST]);
    // The page's other requests still go: the rules only refuse private addresses.
    expect(site.requests.filter((r) => r.path === '/moved').length).toBeGreaterThan(0);
  } finally {
    await site.close();
  }
});

test('started on the user’s own intranet host, Scout crawls that host and still refuses other private ones', async ({ openPanel }) => {
  // *.local names resolve to the fixture server (HOST_RULES), so a request that got through would be logged.
  const site = await startPortAwareServer((port) => ({
    'wiki.local': {
      routes: {
        '/': { headers: { 'content-type': 'text/html' }, body: `<!doctype html><title>Team wiki</title><main><h1>Team wiki</h1><p>Our internal documentation, written at some length.</p><a href="/page">Page</a> <a href="/moved">Moved</a> <a href="http://router.local:${port()}/setup">Router</a></main>` },
        '/page': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>Page</title><main><h1>Page</h1><p>An internal page with enough words to keep.</p></main>' },
        '/moved': () => ({ status: 302, headers: { location: `http://router.local:${port()}/landed` } }),
      },
    },
    'router.local': { routes: { '/setup': { body: 'router' }, '/landed': { body: 'router' } } },
  }));
  try {
    const panel = await openPanel(site.url('wiki.local', '/'));
    await discoveryDone(panel);
    await crawlToEnd(panel);
    const { paths } = await latestCrawl(panel);
    expect(paths).toEqual(['/', '/page']);
    const frontier = await frontierOf(panel);
    expect(frontier.find((f) => f.url.endsWith('/moved'))).toMatchObject({ state: 'skipped', reason: HIDDEN_HOP_REFUSED });
    expect(frontier.find((f) => f.url.includes('router.local'))).toMatchObject({ state: 'skipped', reason: expect.stringMatching(/^A local network name \(router\.local\)/) });
    expect([...new Set(site.requests.map((r) => r.host))]).toEqual(['wiki.local']);
  } finally {
    await site.close();
  }
});

test('a cross-site Markdown twin is fetched without the user’s cookies; the crawled site gets its own', async ({ openPanel, context }) => {
  const site = await startPortAwareServer(crossSiteTwinSites);
  try {
    // The user is logged in to both sites.
    await context.addCookies([
      { name: 'session', value: 'site-secret', domain: 'docs.site.test', path: '/', sameSite: 'Lax' },
      { name: 'session', value: 'other-secret', domain: 'other.test', path: '/', sameSite: 'Lax' },
    ]);
    const panel = await openPanel(site.url('docs.site.test', '/'));
    await discoveryDone(panel);
    await crawlToEnd(panel);
    const pages = (await readStore<{ url: string; twinUrl?: string; state: string }>(panel, 'pages')).filter((p) => p.url.endsWith('/page.html'));
    expect(pages[0]).toMatchObject({ twinUrl: site.url('other.test', '/page.md') });

    const other = site.requests.filter((r) => r.host === 'other.test');
    expect(other.map((r) => r.path)).toEqual(expect.arrayContaining(['/index.md', '/page.md']));
    expect(other.map((r) => [r.path, r.headers.cookie ?? null])).toEqual(other.map((r) => [r.path, null]));
    const own = site.requests.filter((r) => r.host === 'docs.site.test' && (r.path === '/' || r.path === '/page.html'));
    expect(own.length).toBeGreaterThan(1);
    expect(own.every((r) => r.headers.cookie === 'session=site-secret')).toBe(true);
  } finally {
    await site.close();
  }
});

test('scripts, event handlers and javascript: links on a crawled page never run or get queued', async ({ openPanel }) => {
  const site = await startFixtureServer(scriptSite());
  try {
    const panel = await openPanel(site.url('docs.scripts.test', '/'));
    await discoveryDone(panel);
    await crawlToEnd(panel);
    // Let anything asynchronous a script might have started arrive before looking.
    await panel.waitForTimeout(500);
    // The one beacon Scout may fetch is the start page's external script, once, read as data for a
    // menu; run, it would call /beacon/external-ran, which the first check catches.
    const beacons = site.requests.filter((r) => r.path.startsWith('/beacon/')).map((r) => r.path);
    expect(beacons.filter((path) => path !== '/beacon/external.js')).toEqual([]);
    expect(beacons.filter((path) => path === '/beacon/external.js').length).toBeLessThanOrEqual(1);
    const frontier = await frontierOf(panel);
    expect(frontier.filter((f) => /^\s*javascript:/i.test(f.url))).toEqual([]);
    expect(frontier.map((f) => new URL(f.url).pathname).sort()).toEqual(['/', '/second.html']);
    const { job } = await latestCrawl(panel);
    const stored = (await readStore<{ jobId: string; state: string; markdown: string }>(panel, 'pages')).filter((p) => p.jobId === job?.id && p.state === 'stored');
    expect(stored).toHaveLength(2);
    for (const p of stored) {
      expect(p.markdown).not.toContain(SCRIPT_MARKER);
      expect(p.markdown).not.toContain('fetch(');
    }
  } finally {
    await site.close();
  }
});
