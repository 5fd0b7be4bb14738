import { hubSites } from '../fixtures/hub';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { expect, test } from './fixtures';

let hub: FixtureServer;
test.beforeAll(async () => {
  hub = await startFixtureServer(hubSites());
});
test.afterAll(() => hub.close());

test('a hub of linked llms.txt files across subdomains shows as a tree; other sites are listed, not fetched', async ({ openPanel }) => {
  const panel = await openPanel(hub.url('example.test', '/'));
  const root = panel.locator(`[data-testid=file-row][data-url="${hub.url('example.test', '/llms.txt')}"]`);
  await expect(root.getByTestId('best')).toHaveText('Best match');
  await expect(root.locator('> [data-testid=file-facts]')).toContainText('“Example Platform”');

  const children = root.locator('> [data-testid=children] > [data-testid=file-row]');
  await expect(children).toHaveCount(3);
  const docs = children.filter({ hasText: 'docs.example.test' });
  await expect(docs).toHaveAttribute('data-status', 'found');
  await expect(docs.getByTestId('file-facts').first()).toContainText('“Example Docs”');
  await expect(children.filter({ hasText: 'api.example.test' }).getByTestId('file-facts')).toContainText('1 warning');
  const other = children.filter({ hasText: 'other.test' });
  await expect(other).toHaveAttribute('data-status', 'not-followed');
  await expect(other.getByTestId('file-reason')).toHaveText(/On another site \(other\.test\): listed, not fetched/);
  await expect(panel.getByTestId('site-status')).toContainText(/3 llms files found/);

  // The cycle back to the hub did not fetch it twice; other.test saw no request at all.
  expect(hub.requests.filter((r) => r.host === 'other.test')).toEqual([]);
  expect(hub.requests.filter((r) => r.host === 'example.test' && r.path === '/llms.txt')).toHaveLength(1);

  await panel.setViewportSize({ width: 380, height: 720 });
  await panel.screenshot({ path: 'screenshots/discovery-hub.png' });

  // The viewer: outline, raw text (as text) and warnings with line numbers.
  await children.filter({ hasText: 'api.example.test' }).locator('.file__head').click();
  const viewer = panel.getByTestId('viewer');
  await expect(viewer.getByTestId('outline')).toContainText('Endpoints');
  await viewer.getByRole('tab', { name: /Findings/ }).click();
  await expect(viewer.getByTestId('findings')).toContainText('Line 5');
  await expect(viewer.getByTestId('findings')).toContainText('error');
  await viewer.getByRole('tab', { name: 'Raw' }).click();
  await expect(viewer.getByTestId('raw')).toContainText('This line is not a link.');
});

test('a site without llms files says so, with its robots.txt and sitemap', async ({ openPanel }) => {
  const panel = await openPanel(hub.url('plain.example.test', '/docs/page'));
  await expect(panel.getByTestId('no-llms')).toContainText('No llms.txt on this site');
  await expect(panel.locator('[data-testid=file-row][data-kind=robots]')).toContainText('1 sitemap');
  await expect(panel.locator('[data-testid=file-row][data-kind=sitemap]')).toContainText('2 URLs');
  await panel.getByTestId('checked').locator('summary').click();
  await expect(panel.getByTestId('checked')).toContainText('/docs/llms.txt');
  await expect(panel.getByTestId('checked')).toContainText('Not found (HTTP 404)');
  await panel.setViewportSize({ width: 380, height: 720 });
  await panel.screenshot({ path: 'screenshots/discovery-none.png' });
});

test('results are kept per site and shown again on reopen; Re-run refreshes them', async ({ openPanel, server }) => {
  const url = server.url('docs.scout-demo.test', '/api/database.html');
  const panel = await openPanel(url);
  const best = panel.locator('[data-testid=file-row]').filter({ has: panel.getByTestId('best') });
  await expect(best).toHaveAttribute('data-url', server.url('docs.scout-demo.test', '/api/llms.txt'));
  await panel.setViewportSize({ width: 380, height: 900 });
  await panel.screenshot({ path: 'screenshots/discovery-demo.png', fullPage: true });

  const before = server.requests.length;
  await panel.reload();
  await expect(panel.locator('[data-testid=file-row]').first()).toBeVisible();
  await panel.getByTestId('rerun').click();
  // Re-run checks the whole site again, /.well-known/ included, which a reopened panel does not ask for
  // (discovery is kept per site; robots.txt and sitemaps may come from the browser's cache). Waited
  // for: the button can read "Re-run" again before the run begins.
  await expect.poll(() => server.requests.slice(before).some((r) => r.path === '/.well-known/llms.txt')).toBe(true);
  await expect(panel.getByTestId('rerun')).toHaveText('Re-run');
  await expect(best).toHaveAttribute('data-url', server.url('docs.scout-demo.test', '/api/llms.txt'));
});
