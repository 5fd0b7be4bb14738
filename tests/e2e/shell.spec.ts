import { expect, test } from './fixtures';

test('the side panel shows the site of an http page', async ({ openPanel, server }) => {
  const panel = await openPanel(server.url('docs.scout-demo.test', '/guide/quickstart.html'));
  await expect(panel.getByTestId('site-host')).toHaveText('docs.scout-demo.test');
  await expect(panel.getByTestId('site-origin')).toHaveText(server.origin('docs.scout-demo.test'));
  // The E2E build has host access at install time, so no permission card.
  await expect(panel.getByTestId('host-access-state')).toHaveText('Allowed on scout-demo.test and subdomains');
  await expect(panel.getByTestId('host-access')).toHaveCount(0);
  await panel.setViewportSize({ width: 360, height: 640 });
  await panel.screenshot({ path: 'screenshots/shell-site.png' });
});

test('a browser page shows a clear message instead of an error', async ({ openPanel }) => {
  const errors: string[] = [];
  const panel = await openPanel('chrome://settings');
  panel.on('pageerror', (e) => errors.push(e.message));
  await expect(panel.getByTestId('no-site')).toContainText('This tab shows a browser page. Scout works on http and https websites.');
  await expect(panel.getByTestId('no-site')).toContainText('chrome://settings');
  for (const url of ['about:blank', 'file:///etc/hosts', 'https://chromewebstore.google.com/detail/abc']) {
    await panel.goto(panel.url().replace(/\?url=.*/, `?url=${encodeURIComponent(url)}`));
    await expect(panel.getByTestId('no-site')).toBeVisible();
  }
  await expect(panel.getByTestId('no-site')).toContainText('add-on stores');
  expect(errors).toEqual([]);
});

test('a command from the panel reaches the worker, which writes Dexie; other panels update live', async ({ openPanel, server }) => {
  const url = server.url('docs.scout-demo.test', '/api/');
  const first = await openPanel(url);
  // openSite → worker → db.sites → useLiveQuery in this page.
  await expect(first.getByTestId('site-visits')).toHaveText(/^1 time, first on /);
  // A second panel sends another openSite; the first re-renders without a reload.
  const second = await openPanel(url);
  await expect(second.getByTestId('site-visits')).toHaveText(/^2 times/);
  await expect(first.getByTestId('site-visits')).toHaveText(/^2 times/);
});
