import { startFixtureServer, type FixtureSite, type Route } from '../fixtures/server';
import { expect, test } from './fixtures';
import { startCrawl } from './steps';

const html = (title: string, links: string[] = []): Route => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>All about ${title}, for the readers of these docs.</p><ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('')}</ul></main></body></html>`,
});

test('opening 20 pages of a site with the panel open: one discovery of the site, then only one probe round per new folder', async ({ context, extensionId }) => {
  const HOST = 'docs.visits.test';
  const pages = [
    ...['intro', 'install', 'faq', 'terms', 'changelog'].map((p) => `/docs/${p}.html`),
    ...['start', 'config', 'deploy', 'scale', 'debug'].map((p) => `/docs/guide/${p}.html`),
    ...['auth', 'users', 'orders', 'errors', 'limits', 'hooks'].map((p) => `/docs/api/${p}.html`),
    ...['auth', 'users', 'orders', 'search'].map((p) => `/docs/api/v2/${p}.html`),
  ];
  const routes: FixtureSite['routes'] = {
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    '/docs/llms.txt': { headers: { 'content-type': 'text/plain' }, body: '# Visits docs\n\n> Docs.\n' },
  };
  for (const p of pages) routes[p] = html(p);
  const site = await startFixtureServer({ [HOST]: { routes } });
  try {
    // The reader's tab, then the panel following the active tab (not pinned to a page).
    const tab = await context.newPage();
    await tab.goto(site.url(HOST, pages[0]));
    const panel = await context.newPage();
    await panel.goto(`chrome-extension://${extensionId}/sidepanel.html`);
    await tab.bringToFront();
    await expect(panel.getByTestId('discovery-time')).toBeVisible({ timeout: 15_000 });
    await expect(panel.getByTestId('site-status')).toContainText('1 llms file found');
    const notPages = () => site.requests.filter((r) => !pages.includes(r.path) && r.path !== '/favicon.ico').map((r) => r.path);
    const fullRun = notPages().length;

    for (const p of pages.slice(1)) {
      await tab.goto(site.url(HOST, p));
      // The panel follows the tab: the page's own fetch by the visit is its second request.
      await expect.poll(() => site.requests.filter((r) => r.path === p).length, { timeout: 10_000 }).toBe(2);
    }
    await tab.waitForTimeout(1000);
    const extra = notPages().slice(fullRun);
    console.log(`panel: first page ${fullRun} discovery requests; 19 more pages: ${extra.length} beyond the pages (${extra.join(' ')})`);
    // Three new folders (/docs/guide/, /docs/api/, /docs/api/v2/), five llms names each; nothing else.
    expect(extra.length).toBeLessThanOrEqual(3 * 5);
    expect(site.requests.filter((r) => r.path === '/robots.txt')).toHaveLength(1);
    expect(site.requests.filter((r) => r.path === '/sitemap.xml')).toHaveLength(1);

    // Re-run discovers the site again.
    await panel.bringToFront();
    await panel.getByTestId('rerun').click();
    await expect.poll(() => site.requests.filter((r) => r.path === '/robots.txt').length, { timeout: 10_000 }).toBe(2);
  } finally {
    await site.close();
  }
});

test('a site that refuses every page: the crawl pauses within 30 requests and says why; resumed, it goes on', async ({ openPanel }) => {
  const HOST = 'docs.refuses.test';
  const paths = Array.from({ length: 200 }, (_, i) => `/docs/page-${i}.html`);
  const site = await startFixtureServer({
    [HOST]: {
      routes: {
        '/robots.txt': (req) => ({ headers: { 'content-type': 'text/plain' }, body: `User-agent: *\nAllow: /\nSitemap: http://${req.headers.host}/sitemap.xml\n` }),
        '/sitemap.xml': (req) => ({
          headers: { 'content-type': 'application/xml' },
          body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>http://${req.headers.host}${p}</loc></url>`).join('')}</urlset>`,
        }),
      },
      // Slow refusals: resumed, the crawl must still be running when the test cancels it.
      fallback: () => ({ status: 403, delayMs: 150, headers: { 'content-type': 'text/html' }, body: '<h1>Access denied</h1>' }),
    },
  });
  try {
    const panel = await openPanel(site.url(HOST, '/docs/'));
    await expect(panel.getByTestId('site-status')).toContainText(/sitemap/, { timeout: 15_000 });
    const before = site.requests.length;
    await startCrawl(panel);
    const card = panel.getByTestId('crawl-progress');
    await expect(card).toHaveAttribute('data-state', 'paused', { timeout: 20_000 });
    await expect(panel.getByTestId('crawl-message')).toContainText(/Paused: the site refused (\d+ of )?the first \d+ pages \(\d+ × HTTP 403\)/);
    await expect(panel.getByTestId('crawl-message')).toContainText('resume to go on anyway');
    const spent = site.requests.length - before;
    console.log(`refusing site: paused after ${spent} requests`);
    expect(spent).toBeLessThanOrEqual(30);
    await panel.setViewportSize({ width: 380, height: 760 });
    await card.screenshot({ path: 'screenshots/good-guest-refused.png' });

    await panel.getByTestId('resume').click();
    await expect.poll(() => site.requests.length - before, { timeout: 20_000 }).toBeGreaterThan(60);
    await panel.getByTestId('cancel').click();
    await expect(card).toHaveAttribute('data-state', 'cancelled', { timeout: 20_000 });
  } finally {
    await site.close();
  }
});

test('Crawl-delay: 3600 is capped at 30 s, shown with the time left; lifted, it is honoured', async ({ openPanel }) => {
  const HOST = 'docs.slow.test';
  const links = Array.from({ length: 40 }, (_, i) => `/p${i}`);
  const site = await startFixtureServer({ [HOST]: { routes: { '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nCrawl-delay: 3600\n' }, '/': html('Slow docs', links) }, fallback: () => html('A page') } });
  try {
    const panel = await openPanel(site.url(HOST, '/'));
    await startCrawl(panel);
    const note = panel.getByTestId('pace-note');
    await expect(note).toContainText('The site’s robots.txt asks for 1 h between requests; Scout waits 30 s (its cap', { timeout: 20_000 });
    await expect(panel.getByTestId('time-left')).toHaveText(/^(19|20) min$/);
    await panel.setViewportSize({ width: 380, height: 760 });
    await panel.getByTestId('crawl-progress').screenshot({ path: 'screenshots/good-guest-crawl-delay.png' });
    // One page in 30 s: the start page only.
    expect(site.requests.filter((r) => r.path.startsWith('/p'))).toHaveLength(0);
    await panel.getByTestId('cancel').click();
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'cancelled', { timeout: 20_000 });

    // The user lifts the cap for this site's next crawl.
    await panel.getByTestId('new-crawl').click();
    await panel.getByText('More options').click();
    await panel.getByTestId('lift-delay-cap').check();
    await panel.getByTestId('start-crawl').click();
    await expect(note).toContainText('asks for 1 h between requests, and Scout waits that long', { timeout: 20_000 });
    await expect(panel.getByTestId('time-left')).toHaveText(/^1 day 1[56] h$/);
    await panel.getByTestId('cancel').click();
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'cancelled', { timeout: 20_000 });
    // The site's next crawl keeps the choice.
    await panel.getByTestId('new-crawl').click();
    await panel.getByText('More options').click();
    await expect(panel.getByTestId('lift-delay-cap')).toBeChecked();
  } finally {
    await site.close();
  }
});
