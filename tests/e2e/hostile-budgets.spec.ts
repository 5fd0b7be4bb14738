/**
 * Discovery of hostile sites in Chromium (#28): gzip bombs, a million-child sitemap index and an
 * llms.txt of 40,000 links to other sites end with each cut said on the file or in the view, and
 * the panel still answers. Memory figures are bench/hostile-memory.ts.
 */
import { bombSite, hugeIndexSite, linkFloodSite } from '../fixtures/hostile-budgets';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { expect, test } from './fixtures';

let server: FixtureServer;
test.beforeAll(async () => {
  server = await startFixtureServer({ 'bomb.test': bombSite(), 'huge-index.test': hugeIndexSite(), 'links.test': linkFloodSite() });
});
test.afterAll(() => server.close());

const row = (url: string) => `[data-testid=file-row][data-url="${url}"]`;

test('gzip bombs as llms.txt and sitemap stop at the cap, the cut said on each file', async ({ openPanel }) => {
  const panel = await openPanel(server.url('bomb.test', '/'));
  const llms = panel.locator(row(server.url('bomb.test', '/llms.txt')));
  await expect(llms.locator('> [data-testid=file-reason]')).toHaveText(/^Unpacks to more than 10 MB \(from [\d.]+ KB read so far\): only the first 10 MB were read$/, { timeout: 30_000 });
  await expect(llms.locator('> [data-testid=file-facts]')).toContainText('cut at the size limit');
  // The sitemaps are read beside the llms files, 50 MB each: on a loaded machine they end later.
  await expect(panel.locator(row(server.url('bomb.test', '/sitemap.xml'))).locator('> [data-testid=file-reason]')).toHaveText(/^Unpacks to more than 50 MB/, { timeout: 30_000 });
  await expect(panel.locator(row(server.url('bomb.test', '/encoded/sitemap.xml'))).locator('> [data-testid=file-reason]')).toHaveText('Unpacks to more than 50 MB: only the first 50 MB were read', { timeout: 30_000 });
});

test('a sitemap index of a million sitemaps is one row saying how many it listed and read', async ({ openPanel }) => {
  const panel = await openPanel(server.url('huge-index.test', '/'));
  const index = panel.locator(row(server.url('huge-index.test', '/sitemap.xml')));
  await expect(index.locator('> [data-testid=file-reason]')).toHaveText(/^Sitemap index lists more than [\d,]{7} sitemaps \(unpacks to more than 50 MB: only the first 50 MB were read\); Scout fetched the first 49$/, { timeout: 60_000 });
  await expect(index.locator('> [data-testid=children] > [data-testid=file-row]')).toHaveCount(59);
});

test('an llms.txt of 40,000 links to other sites lists 1,000 locations and says the rest were not', async ({ openPanel }) => {
  const panel = await openPanel(server.url('links.test', '/flood/'));
  await expect(panel.getByTestId('rows-note')).toHaveText(/^Listed the first 1,000 locations; [\d,]+ more locations that this site’s files point to were not listed\.$/, { timeout: 60_000 });
  // The panel still answers: a file opens in the viewer.
  const flood = panel.locator(row(server.url('links.test', '/flood/llms.txt')));
  await flood.locator('> .file__head').click();
  await expect(panel.getByTestId('viewer')).toBeVisible();
});
