import type { Page } from '@playwright/test';
import { generatedPaths, generatedSite } from '../fixtures/generated-site';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { latestCrawl, readStore } from './extension-db';
import { expect, test } from './fixtures';
import { startCrawl } from './steps';
import { workerStopper } from './worker-stops';

/** Paths of the pages the newest crawl stored, from the extension's IndexedDB. */
async function storedPaths(panel: Page): Promise<string[]> {
  return (await latestCrawl(panel)).paths;
}

test('Generate crawls the demo site into Markdown, with progress and a previewable page list', async ({ openPanel, server }) => {
  const panel = await openPanel(server.url('docs.scout-demo.test', '/guide/quickstart.html'));
  await expect(panel.locator('[data-testid=file-row]').first()).toBeVisible();
  await startCrawl(panel);
  await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(panel.getByTestId('count-stored')).toContainText('14');
  await expect(panel.getByTestId('crawl-message')).toHaveText(/^Done: 14 pages stored( · 1 duplicate)? · \d+ skipped$/);
  expect(await storedPaths(panel)).toHaveLength(14);

  await panel.getByRole('button', { name: 'Skipped', exact: true }).click();
  await expect(panel.getByTestId('page-list')).toContainText('Disallowed by robots.txt');
  await panel.getByRole('button', { name: 'Crawled', exact: true }).click();
  await panel.getByTestId('page-row').filter({ hasText: '/guide/installation.html' }).getByRole('button').click();
  await expect(panel.getByTestId('page-preview')).toContainText('Markdown twin');
  await expect(panel.getByTestId('page-markdown')).toContainText('# Installation');
  await panel.setViewportSize({ width: 380, height: 900 });
  await panel.screenshot({ path: 'screenshots/crawl-demo.png', fullPage: true });
});

test('the depth the user sets in the panel is the depth the crawl keeps to', async ({ openPanel }) => {
  // A tree of 60 pages, 8 links per page: depth 1 holds the home page and its 8 children.
  const deep = await startFixtureServer({ 'deep.example.test': generatedSite(60) });
  try {
    const panel = await openPanel(deep.url('deep.example.test', '/'));
    await startCrawl(panel, { maxDepth: 1 });
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    const pages = await readStore<{ jobId: string; depth: number; state: string }>(panel, 'pages');
    const { job } = await latestCrawl(panel);
    const stored = pages.filter((p) => p.jobId === job?.id && p.state === 'stored');
    expect(stored.length).toBe(9);
    expect(Math.max(...stored.map((p) => p.depth))).toBe(1);
  } finally {
    await deep.close();
  }
});

test.describe('on a slow site', () => {
  let slow: FixtureServer;
  test.beforeAll(async () => {
    // 400 pages at 250 ms each, 4 at a time, take at least 25 s: however loaded the machine, the
    // crawl cannot finish between resuming and the click on Cancel.
    slow = await startFixtureServer({ 'slow.example.test': generatedSite(400, { delayMs: 250 }) });
  });
  test.afterAll(() => slow.close());

  test('a crawl can be paused, resumed and cancelled', async ({ openPanel }) => {
    const panel = await openPanel(slow.url('slow.example.test', '/'));
    await startCrawl(panel);
    await expect.poll(async () => Number((await panel.getByTestId('count-stored').innerText()).split('/')[0]), { timeout: 15_000 }).toBeGreaterThan(3);
    await panel.getByTestId('pause').click();
    await expect(panel.getByTestId('crawl-state')).toHaveText('paused');
    const paused = await panel.getByTestId('count-stored').innerText();
    await panel.waitForTimeout(600);
    await expect(panel.getByTestId('count-stored')).toHaveText(paused);

    await panel.getByTestId('resume').click();
    await expect(panel.getByTestId('crawl-state')).toHaveText('running');
    await expect.poll(async () => await panel.getByTestId('count-stored').innerText(), { timeout: 15_000 }).not.toBe(paused);
    await panel.getByTestId('cancel').click();
    await expect(panel.getByTestId('crawl-state')).toHaveText('cancelled');
    await expect(panel.getByTestId('crawl-message')).toHaveText('Cancelled. Pages stored so far are kept.');
    expect((await storedPaths(panel)).length).toBeGreaterThan(3);
  });
});

test('a crawl survives the browser stopping its service worker 5 times: no page lost, none stored twice', async ({ openPanel, context, extensionId }) => {
  test.setTimeout(150_000);
  const site = await startFixtureServer({ 'big.example.test': generatedSite(500, { delayMs: 40 }) });
  try {
    const panel = await openPanel(site.url('big.example.test', '/'));
    await startCrawl(panel);
    const worker = await workerStopper(context, panel, extensionId);
    const stored = async () => Number((await panel.getByTestId('count-stored').innerText()).split('/')[0]);
    for (let kill = 0; kill < 5; kill++) {
      const before = await stored();
      await expect.poll(stored, { timeout: 20_000 }).toBeGreaterThan(before + 20);
      await worker.stop();
    }
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 90_000 });
    expect(worker.stops()).toBeGreaterThanOrEqual(5);
    // Exactly the site's pages: none lost, none twice (pages are keyed by URL; duplicates would be counted apart).
    expect(await storedPaths(panel)).toEqual(generatedPaths(500).sort());
    await expect(panel.getByTestId('crawl-message')).toHaveText(/^Done: 500 pages stored$/);
    await expect(panel.getByTestId('count-stored')).toHaveText('500 / 500');
    await expect(panel.getByTestId('count-failed')).toHaveText('0');
  } finally {
    await site.close();
  }
});

test('docs behind the user’s login are crawled with the browser’s session cookie', async ({ openPanel, context }) => {
  const site = await startFixtureServer({
    'private.example.test': {
      ...generatedSite(20, { requireCookie: 'session=ok' }),
      routes: {
        '/login': { status: 302, headers: { location: '/', 'set-cookie': 'session=ok; Path=/; HttpOnly; SameSite=Lax' } },
        ...generatedSite(20).routes,
      },
    },
  });
  try {
    const login = await context.newPage();
    await login.goto(site.url('private.example.test', '/login'));
    const panel = await openPanel(site.url('private.example.test', '/'));
    await startCrawl(panel);
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
    expect(await storedPaths(panel)).toEqual(generatedPaths(20).sort());
    const pageRequests = site.requests.filter((r) => r.path.startsWith('/docs/'));
    expect(pageRequests.length).toBeGreaterThan(0);
    expect(pageRequests.every((r) => (r.headers.cookie ?? '').includes('session=ok'))).toBe(true);
  } finally {
    await site.close();
  }
});
