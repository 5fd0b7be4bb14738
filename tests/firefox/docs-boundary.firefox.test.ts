import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMPANIES } from '../fixtures/company-sites';
import type { CompanyFixture, HostPath } from '../fixtures/company-sites/common';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { launchScoutFirefox, type ScoutFirefox } from './firefox';
import { click, readStore, textOf, waitForAttribute, waitForText } from './panel';

/**
 * Issue #27 in Firefox ESR with the shipped build: once the site is allowed, the Generate tab shows
 * where the documentation is (its roots) and how many pages the site lists there, before any crawl.
 */
let fx: CompanyFixture;
let server: FixtureServer;
let ff: ScoutFirefox;

beforeAll(async () => {
  const found = COMPANIES.find((c) => c.id === 'acme');
  if (!found) throw new Error('No company fixture "acme"');
  fx = found;
  const sites = fx.sites();
  server = await startFixtureServer(sites);
  // Firefox resolves only the names it is given: every host of the company and the off-site ones it links to.
  const offSite = fx.offSite.map((h) => (h.includes('://') ? new URL(h).hostname : h));
  ff = await launchScoutFirefox([...new Set([...Object.keys(sites), ...offSite])]);
});
afterAll(async () => {
  await ff?.close();
  await server?.close();
});

it('the Generate tab shows the documentation’s roots and page count before the crawl', async () => {
  const start = fx.starts[0] as HostPath;
  const panel = await ff.openPanel(server.url(start.host, start.path));
  await click(panel, '[data-testid=host-access] button');
  await waitForText(panel, '[data-testid=host-access-state]', /^Allowed on /);
  await click(panel, '[data-tab=generate]');
  await waitForAttribute(panel, '[data-testid=boundary]', 'data-state', 'done', 30_000);
  expect(await textOf(panel, '[data-testid=boundary] h2')).toBe('Scout will crawl the documentation:');

  const roots = await panel.$$eval('[data-testid=boundary-root]', (els) => els.map((e) => e.textContent ?? ''));
  const docs = fx.docs.map((d) => {
    const url = new URL(server.url(d.host, d.path));
    return `${url.host}${url.pathname.replace(/\/$/, '')}/`;
  });
  const covered = docs.filter((d) => roots.some((root) => d.startsWith(root))).length;
  console.log(`Firefox: roots ${roots.join(', ')}; cover ${covered}/${docs.length} docs pages`);
  expect(roots.length).toBeGreaterThan(0);
  expect(covered / docs.length).toBeGreaterThanOrEqual(0.95);
  await waitForText(panel, '[data-testid=boundary-count]', /list [\d,]+ documentation pages?/);
  expect(await panel.$eval('[data-testid=scope]', (e) => (e as HTMLSelectElement).value)).toBe('docs');

  // Shown before the crawl: none has started.
  const crawls = (await readStore<{ kind: string }>(panel, 'jobs')).filter((j) => j.kind === 'crawl');
  expect(crawls).toEqual([]);
  expect(ff.errors).toEqual([]);
}, 90_000);
