import type { BrowserContext, Page } from '@playwright/test';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { SPA_HOME, SPA_PAGES } from '../fixtures/spa-content';
import { docsifyRoutes, docsifySite, reactSpaPaths, reactSpaSite } from '../fixtures/spa-sites';
import { latestCrawl, readQueue, readStore } from './extension-db';
import { DEMO_DIR, expect, test } from './fixtures';
import { startCrawl } from './steps';
import { workerStopper } from './worker-stops';

// Client-rendered docs (#16) in real Chromium: a React app whose text exists only after its
// scripts run, rendered in background tabs; a docsify 5 site read from its Markdown; no tab left.
// Fixtures: scripts/build-spa-sites.sh (npm test runs it first).

/** The tabs API an extension page has (the panel page evaluates these calls). */
type ChromeTabs = { chrome: { tabs: { get(id: number): Promise<unknown> } } };

/** Whether a tab shows a page of `host` (the panel's own address names the site too, so not by substring). */
const onHost = (url: string, host: string) => /^https?:/.test(url) && new URL(url).hostname === host;

/** Tabs open on `host` (not the panel): what the user would find left in their tab strip. */
function tabsOn(context: BrowserContext, host: string): Page[] {
  return context.pages().filter((p) => onHost(p.url(), host));
}

/** Counts tabs Scout opens on `host` and the most open at once. */
function watchTabs(context: BrowserContext, host: string): { opened: () => number; maxOpen: () => number } {
  let opened = 0;
  let open = 0;
  let max = 0;
  const seen = new WeakSet<Page>();
  context.on('page', (page) => {
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame() || !onHost(frame.url(), host) || seen.has(page)) return;
      seen.add(page);
      opened++;
      max = Math.max(max, ++open);
      page.on('close', () => open--);
    });
  });
  return { opened: () => opened, maxOpen: () => max };
}

interface PageRow { jobId: string; url: string; markdown: string; rendered?: boolean; shell?: string; state: string }

async function storedPages(panel: Page): Promise<PageRow[]> {
  const { job } = await latestCrawl(panel);
  return (await readStore<PageRow>(panel, 'pages')).filter((p) => p.jobId === job?.id && p.state === 'stored');
}

/** For a failure message: what became of the expected URLs that were not stored (a render that timed out says so here). */
async function whyNotStored(panel: Page, pages: PageRow[], expected: string[]): Promise<string> {
  const missing = expected.filter((url) => !pages.some((p) => p.url === url));
  const { job } = await latestCrawl(panel);
  const rows = (await readQueue(panel, job?.id)).filter((r) => missing.includes(r.url));
  return `not stored: ${JSON.stringify(rows.length ? rows : missing)}`;
}

const SPA = 'app.lumen.test';
const DOCSIFY = 'docsify.lumen.test';
let server: FixtureServer;
test.beforeAll(async () => {
  server = await startFixtureServer({
    [SPA]: reactSpaSite({ dataDelayMs: 60 }),
    'slow.lumen.test': reactSpaSite({ dataDelayMs: 1500 }),
    'hash.lumen.test': reactSpaSite({ router: 'hash' }),
    [DOCSIFY]: docsifySite(),
    'docs.scout-demo.test': { dir: DEMO_DIR },
  });
});
test.afterAll(() => server?.close());

test('a client-rendered React app is rendered in background tabs (Auto): every page with its text, the reason shown, no tab left', async ({ context, openPanel }) => {
  test.setTimeout(120_000);
  const tabs = watchTabs(context, SPA);
  const panel = await openPanel(server.url(SPA, '/'));
  await panel.setViewportSize({ width: 380, height: 760 });
  await panel.getByRole('tab', { name: 'Generate' }).click();
  await expect(panel.getByTestId('render-mode')).toHaveValue('auto');
  await panel.screenshot({ path: 'screenshots/crawl-render-setting.png' });
  await startCrawl(panel);
  await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 100_000 });
  await panel.screenshot({ path: 'screenshots/crawl-rendered.png' });
  const pages = await storedPages(panel);
  expect(pages.map((p) => new URL(p.url).pathname).sort()).toEqual(reactSpaPaths());
  for (const page of SPA_PAGES) expect(pages.find((p) => p.url.endsWith(`/docs/${page.slug}`))?.markdown).toContain(page.marker);
  expect(pages.find((p) => new URL(p.url).pathname === '/')?.markdown).toContain(SPA_HOME.marker);
  expect(pages.every((p) => p.rendered)).toBe(true);
  await expect(panel.getByTestId('crawl-message')).toHaveText(/^Done: 26 pages stored · 26 rendered in a tab/);
  await expect(panel.getByTestId('rendered-note')).toHaveText('26 pages needed JavaScript and were rendered in a background tab.');
  await expect(panel.getByTestId('page-list')).toContainText('Rendered in a tab: Client-rendered shell: 0 characters of text · empty #root · <noscript> asks for JavaScript · 1 script bundle');
  // Each render is one run of the app, which asks the API for its page once: 26 renders, no more.
  expect(server.requests.filter((r) => r.host === SPA && r.path.startsWith('/api/pages/')).length).toBe(26);
  expect(tabs.opened()).toBeGreaterThan(0);
  expect(tabs.maxOpen()).toBeLessThanOrEqual(2);
  expect(tabsOn(context, SPA)).toHaveLength(0);
  expect(await readStore(panel, 'renderTabs')).toEqual([]);
  const job = (await latestCrawl(panel)).job;
  console.log(`rendered SPA: 26 pages in ${(((job?.endedAt ?? 0) - (job?.startedAt ?? 0)) / 1000).toFixed(1)} s`);

  await panel.getByRole('button', { name: 'Crawled', exact: true }).click();
  await panel.getByTestId('page-row').filter({ hasText: '/docs/forms' }).getByRole('button').click();
  await expect(panel.getByTestId('page-preview')).toContainText('Rendered in a background tab, converted');
  await expect(panel.getByTestId('page-markdown')).toContainText('# Forms');
});

test('cancelling while pages render closes their tabs', async ({ context, openPanel }) => {
  const panel = await openPanel(server.url('slow.lumen.test', '/'));
  await startCrawl(panel);
  await expect.poll(() => tabsOn(context, 'slow.lumen.test').length, { timeout: 20_000 }).toBeGreaterThan(0);
  await panel.getByTestId('cancel').click();
  await expect(panel.getByTestId('crawl-state')).toHaveText('cancelled');
  await expect.poll(() => tabsOn(context, 'slow.lumen.test').length, { timeout: 5000 }).toBe(0);
  expect(await readStore(panel, 'renderTabs')).toEqual([]);
});

test('a worker stopped mid-render leaves no tab: the next worker closes it and the crawl completes', async ({ context, openPanel, extensionId }) => {
  test.setTimeout(150_000);
  const panel = await openPanel(server.url('slow.lumen.test', '/'));
  await startCrawl(panel);
  const worker = await workerStopper(context, panel, extensionId);
  for (let stop = 0; stop < 2; stop++) {
    // Wait for a render in progress (the page's data takes 1.5 s), then stop the worker under it.
    await expect.poll(() => tabsOn(context, 'slow.lumen.test').length, { timeout: 30_000 }).toBeGreaterThan(0);
    const left = (await readStore<{ tabId: number }>(panel, 'renderTabs')).map((r) => r.tabId);
    expect(left.length).toBeGreaterThan(0);
    await worker.stop();
    // The panel wakes a stalled crawl; the new worker's first act is closing what the old one left.
    const alive = () => panel.evaluate(async (ids) => (await Promise.all(ids.map((id) => (globalThis as unknown as ChromeTabs).chrome.tabs.get(id).then(() => id, () => null)))).filter((id) => id !== null), left);
    await expect.poll(alive, { timeout: 30_000 }).toEqual([]);
  }
  await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  expect(worker.stops()).toBeGreaterThanOrEqual(2);
  const pages = await storedPages(panel);
  expect(pages.map((p) => new URL(p.url).pathname).sort()).toEqual(reactSpaPaths());
  for (const page of SPA_PAGES) expect(pages.find((p) => p.url.endsWith(`/docs/${page.slug}`))?.markdown).toContain(page.marker);
  expect(tabsOn(context, 'slow.lumen.test')).toHaveLength(0);
  expect(await readStore(panel, 'renderTabs')).toEqual([]);
});

test('a docsify site is read from its Markdown: every route a page, sections from its sidebar, no tab opened', async ({ context, openPanel }) => {
  const tabs = watchTabs(context, DOCSIFY);
  const panel = await openPanel(server.url(DOCSIFY, '/'));
  await startCrawl(panel);
  await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  const pages = await storedPages(panel);
  expect(pages.map((p) => p.url).sort()).toEqual(docsifyRoutes(server.origin(DOCSIFY)));
  for (const page of SPA_PAGES) expect(pages.find((p) => p.url.endsWith(`#/${page.folder}/${page.slug}`))?.markdown).toContain(page.marker);
  expect(tabs.opened()).toBe(0);
  await expect(panel.getByTestId('page-list')).toContainText('docsify: /guide/introduction.md read directly, no tab');
  // The llms.txt is generated once the crawl has ended, after its card says done.
  await expect.poll(async () => (await readStore<{ kind: string }>(panel, 'artifacts')).some((a) => a.kind === 'llms'), { timeout: 30_000 }).toBe(true);
  const llms = (await readStore<{ kind: string; text: string; createdAt: number }>(panel, 'artifacts')).filter((a) => a.kind === 'llms').sort((a, b) => b.createdAt - a.createdAt)[0];
  // The home page leads the first section (the root group would hold it alone), then the sidebar's pages.
  expect(llms?.text).toMatch(/## Getting started\n\n- \[Lumen documentation\]\(http:\/\/docsify\.lumen\.test:\d+\/README\.md\)[^\n]*\n- \[Introduction\]\(http:\/\/docsify\.lumen\.test:\d+\/guide\/introduction\.md\)/);
  expect(llms?.text).toContain('## API reference');
});

test('docsify rendered by docsify itself (Always): hash routes become distinct pages with their text', async ({ context, openPanel }) => {
  test.setTimeout(120_000);
  const panel = await openPanel(server.url(DOCSIFY, '/'));
  await startCrawl(panel, { render: 'always' });
  await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 100_000 });
  const pages = await storedPages(panel);
  expect(pages.map((p) => p.url).sort(), await whyNotStored(panel, pages, docsifyRoutes(server.origin(DOCSIFY)))).toEqual(docsifyRoutes(server.origin(DOCSIFY)));
  expect(pages.every((p) => p.rendered)).toBe(true);
  for (const page of SPA_PAGES) expect(pages.find((p) => p.url.endsWith(`#/${page.folder}/${page.slug}`))?.markdown).toContain(page.marker);
  expect(tabsOn(context, DOCSIFY)).toHaveLength(0);
});

test('a hash-routed React app: each #/ route rendered as its own page', async ({ context, openPanel }) => {
  test.setTimeout(120_000);
  const panel = await openPanel(server.url('hash.lumen.test', '/'));
  await startCrawl(panel);
  await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 100_000 });
  const pages = await storedPages(panel);
  expect(pages).toHaveLength(SPA_PAGES.length + 1);
  expect(pages.find((p) => p.url.endsWith('#/docs/deep-dive'))?.markdown).toContain(SPA_PAGES.at(-1)?.marker);
  expect(tabsOn(context, 'hash.lumen.test')).toHaveLength(0);
});

test('a static site crawled with rendering on Auto opens no tab', async ({ context, openPanel }) => {
  const tabs = watchTabs(context, 'docs.scout-demo.test');
  const panel = await openPanel(server.url('docs.scout-demo.test', '/guide/quickstart.html'));
  await startCrawl(panel);
  await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  expect((await storedPages(panel)).length).toBe(14);
  expect(tabs.opened()).toBe(0);
});

test('a rendered page cannot reach the user’s network or take its tab off the site', async ({ context, openPanel }) => {
  const shell = (script: string) => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body: `<!doctype html><html><head><title>App</title><script>${script}</script></head><body><noscript>Please enable JavaScript.</noscript><div id="root"></div><script src="/app.js"></script></body></html>` });
  const port = server.port;
  const site = await startFixtureServer({
    'evil.lumen.test': {
      routes: {
        // Renders real text, and on the way asks for addresses on the user's machine and network.
        '/': shell(`fetch('http://router.local:${port}/admin').catch(() => {}); fetch('http://127.0.0.1:${port}/secret').catch(() => {}); new Image().src = 'http://printer.local:${port}/x.png';`),
        '/app.js': { headers: { 'content-type': 'text/javascript' }, body: `document.getElementById('root').innerHTML = '<main><h1>Evil docs</h1><p>${'Text that only the script writes, long enough to be a page of its own. '.repeat(4)}</p><a href="/away">Away</a></main>';` },
        // Sends its tab to another site as soon as it runs.
        '/away': shell(`location.href = 'http://elsewhere.test:${port}/landing';`),
      },
    },
  });
  // The page's requests to other hosts go to the shared fixture server's port: both logs count.
  const log = () => [...site.requests, ...server.requests].map((r) => r.host);
  try {
    const panel = await openPanel(site.url('evil.lumen.test', '/'));
    await startCrawl(panel);
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    const pages = await storedPages(panel);
    expect(pages.find((p) => new URL(p.url).pathname === '/')?.markdown).toContain('Text that only the script writes');
    const away = (await readStore<{ url: string; state: string; reason?: string }>(panel, 'frontier')).find((f) => f.url.endsWith('/away'));
    expect(away?.state).toBe('failed');
    expect(away?.reason).toMatch(/^The page did not load in the tab \(it failed, or went to an address Scout does not open/);
    expect(log()).not.toContain('router.local');
    expect(log()).not.toContain('printer.local');
    expect(log()).not.toContain('127.0.0.1');
    expect(log()).not.toContain('elsewhere.test');
    expect(tabsOn(context, 'evil.lumen.test')).toHaveLength(0);

    // The same page in a tab of the user's own reaches them: the rules bind Scout's render tabs only.
    const own = await context.newPage();
    await own.goto(site.url('evil.lumen.test', '/'));
    await expect.poll(log).toContain('router.local');
    await own.close();
  } finally {
    await site.close();
  }
});
