import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { changingSite, sixPages } from '../fixtures/changing-site';
import { generatedSite } from '../fixtures/generated-site';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { clickToolbarButton, closeSidebar, sidebarPage } from './chrome-scope';
import { FIREFOX_BUILD, launchScoutFirefox, type ScoutFirefox } from './firefox';
import { click, readStore, storedCount, textOf, waitForAttribute, waitForText, waitUntil } from './panel';
import { screenshot } from './screenshots';

/**
 * Scout's shipped Firefox build (not the <all_urls> test build) in real Firefox ESR, as a
 * new user meets it: no host access at install, access granted through the panel's own
 * button, then discovery, crawls, generate + download and refresh. One browser for the
 * whole file (launching Firefox costs ~2 s); the steps run in order and build on each other.
 */
const DEMO_DIR = fileURLToPath(new URL('../fixtures/sites/demo-docs/', import.meta.url));
const DEMO = 'docs.scout-demo.test';
// Subdomains of the same registrable domain: one grant covers them all (`*://*.scout-demo.test/*`).
const SLOW = 'slow.scout-demo.test';
const CHANGING = 'changing.scout-demo.test';

const changing = changingSite(sixPages());
let server: FixtureServer;
let ff: ScoutFirefox;
let demo: Page;

beforeAll(async () => {
  server = await startFixtureServer({ [DEMO]: { dir: DEMO_DIR }, [SLOW]: generatedSite(60, { delayMs: 120 }), [CHANGING]: changing.site });
  ff = await launchScoutFirefox([DEMO, SLOW, CHANGING]);
});
afterAll(async () => {
  await ff?.close();
  await server?.close();
});

describe('Scout in Firefox ESR, shipped build', () => {
  it('the toolbar button opens Scout’s sidebar on the active tab’s site, and closes it again', async () => {
    // An extension page to read Scout's IndexedDB from, opened first: the sidebar follows whichever tab is active.
    const look = await ff.openPanel('http://elsewhere.test/');
    const site = await ff.browser.newPage();
    await site.goto(server.url(DEMO, '/guide/quickstart.html'));
    await site.bringToFront();
    // Firefox opens a new add-on's sidebar by itself once it is installed: start from a closed one.
    await waitUntil(() => sidebarPage(ff.browser), (p) => p !== null, 'the sidebar Firefox opens at install', 5_000).catch(() => undefined);
    await closeSidebar(ff.browser);
    expect(await sidebarPage(ff.browser)).toBeNull();

    await clickToolbarButton(ff.browser, ff.id);
    await waitUntil(() => sidebarPage(ff.browser), (p) => p === `moz-extension://${ff.uuid}/sidepanel.html`, 'Scout’s sidebar to open');
    // The sidebar read the tab's address (activeTab, granted by the click) and opened that site: its row says so.
    const visits = await waitUntil(async () => (await readStore<{ origin: string; openCount: number }>(look, 'sites')).find((s) => s.origin === server.origin(DEMO)), Boolean, 'the sidebar to open the demo site');
    expect(visits?.openCount).toBe(1);

    await clickToolbarButton(ff.browser, ff.id);
    await waitUntil(() => sidebarPage(ff.browser), (p) => p === null, 'the sidebar to close');
    await site.close();
    await look.close();
  });

  it('asks for nothing at install; the Allow access button grants the site and its subdomains', async () => {
    demo = await ff.openPanel(server.url(DEMO, '/guide/quickstart.html'));
    await waitForText(demo, '[data-testid=host-access-state]', /^Not yet allowed$/);
    const before = await demo.evaluate(() => browser.permissions.getAll());
    expect(before.origins).toEqual([]);
    // Exactly what the README's permissions table explains for Firefox, no more.
    const manifest = await demo.evaluate(() => browser.runtime.getManifest());
    expect([...(manifest.permissions ?? [])].sort()).toEqual(['activeTab', 'alarms', 'declarativeNetRequest', 'scripting', 'storage', 'unlimitedStorage']);
    expect(manifest.optional_permissions).toEqual(['*://*/*', 'notifications']);
    // Firefox leaves browser_specific_settings out of getManifest(): read the file it installed.
    const file = JSON.parse(readFileSync(join(FIREFOX_BUILD, 'manifest.json'), 'utf8')) as { browser_specific_settings?: unknown };
    expect(file.browser_specific_settings).toEqual({ gecko: { id: ff.id, strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } } });
    // The tab above loaded the page itself; Scout has fetched nothing from the site yet.
    expect(server.requests.filter((r) => r.host === DEMO && /llms|robots|sitemap|\.md$/.test(r.path))).toEqual([]);

    await click(demo, '[data-testid=host-access] button');
    // Either the grant or the card's error (e.g. a pattern the manifest doesn't cover): fail with the error's words.
    const settled = () => demo.evaluate(() => document.querySelector('[data-testid=host-access-error]')?.textContent ?? document.querySelector('[data-testid=host-access-state]')?.textContent);
    expect(await waitUntil(settled, (t) => t !== 'Not yet allowed', 'the grant to settle')).toBe('Allowed on scout-demo.test and subdomains');
    const after = await demo.evaluate(() => browser.permissions.getAll());
    expect([...(after.origins ?? [])].sort()).toEqual(['*://*.scout-demo.test/*', '*://scout-demo.test/*']);
  });

  it('discovery runs by itself once allowed and lists the site’s llms.txt files', async () => {
    await waitForText(demo, '[data-testid=site-status]', /\d+ llms files? found/);
    const rows = await demo.$$eval('[data-testid=file-row]', (els) => els.map((e) => e.getAttribute('data-url')));
    expect(rows).toEqual(expect.arrayContaining([server.url(DEMO, '/llms.txt'), server.url(DEMO, '/llms-full.txt'), server.url(DEMO, '/robots.txt')]));
    const best = await demo.$eval('[data-testid=file-row]:has([data-testid=best])', (e) => e.getAttribute('data-url'));
    expect(best).toBe(server.url(DEMO, '/llms.txt'));
    await screenshot(demo, '1-discovered');
  });

  it('a crawl pauses, resumes and cancels (on a subdomain the grant already covers)', async () => {
    const panel = await ff.openPanel(server.url(SLOW, '/'));
    await waitForText(panel, '[data-testid=host-access-state]', /^Allowed on scout-demo\.test and subdomains$/);
    await click(panel, '[data-tab=generate]');
    await click(panel, '[data-testid=start-crawl]');
    await waitUntil(() => storedCount(panel), (n) => n > 3, 'more than 3 pages stored');
    await click(panel, '[data-testid=pause]');
    await waitForText(panel, '[data-testid=crawl-state]', /^paused$/);
    const paused = await storedCount(panel);
    await new Promise((r) => setTimeout(r, 800));
    expect(await storedCount(panel)).toBe(paused);

    await click(panel, '[data-testid=resume]');
    await waitForText(panel, '[data-testid=crawl-state]', /^running$/);
    await waitUntil(() => storedCount(panel), (n) => n > paused, 'the count to move after resume');
    await click(panel, '[data-testid=cancel]');
    await waitForText(panel, '[data-testid=crawl-state]', /^cancelled$/);
    await waitForText(panel, '[data-testid=crawl-message]', /^Cancelled\. Pages stored so far are kept\.$/);
    const stored = await storedCount(panel);
    expect(stored).toBeGreaterThan(paused);
    expect(stored).toBeLessThan(60);
    await panel.close();
  });

  it('Generate crawls the demo site, writes llms.txt, and the download lands on disk', async () => {
    await click(demo, '[data-tab=generate]');
    await click(demo, '[data-testid=start-crawl]');
    await waitForAttribute(demo, '[data-testid=crawl-progress]', 'data-state', 'done', 30_000);
    expect(await storedCount(demo)).toBe(14);
    await waitForText(demo, '[data-testid=crawl-message]', /^Done: 14 pages stored/);
    await screenshot(demo, '2-generate');

    await click(demo, '[data-testid=see-output]');
    await waitForText(demo, '[data-testid=llms-size]', /tokens/);
    await screenshot(demo, '3-output');
    await click(demo, '[aria-label="Output view"] [role=tab]:nth-child(2)'); // "llms.txt"
    const shown = await waitForText(demo, '[data-testid=llms-text]', /^# Acorn DB/);
    await click(demo, '[data-testid=download-llms]');
    const file = join(ff.downloads, `${DEMO}-llms.txt`);
    // Firefox writes to a .part file and renames it when complete.
    await waitUntil(async () => existsSync(file) && !readdirSync(ff.downloads).some((f) => f.endsWith('.part')), Boolean, `${file} to be saved`);
    const text = readFileSync(file, 'utf8');
    expect(text.trim()).toBe(shown.trim());
    const parsed = parseLlmsTxt(text, server.url(DEMO, '/llms.txt'));
    expect(parsed.title).toBe('Acorn DB');
    expect(parsed.warnings).toEqual([]);
    expect(parsed.sections.flatMap((s) => s.links).length).toBeGreaterThanOrEqual(10);
  });

  it('refresh finds the page that changed and makes a new llms.txt version', async () => {
    const panel = await ff.openPanel(server.url(CHANGING, '/'));
    await click(panel, '[data-tab=generate]');
    await click(panel, '[data-testid=start-crawl]');
    await waitForAttribute(panel, '[data-testid=crawl-progress]', 'data-state', 'done', 30_000);
    const origin = server.origin(CHANGING);
    await waitUntil(async () => (await readStore<{ origin: string; kind: string }>(panel, 'artifacts')).filter((a) => a.origin === origin && (a.kind === 'llms' || a.kind === 'llms-full')).length, (n) => n === 2, 'llms.txt and llms-full.txt of the first crawl');

    changing.change('/install', 'Installing now needs Node 22: run the new installer script and follow its prompts. The old tarball route is gone and no longer supported in any form.');
    await click(panel, '[data-tab=history]');
    await click(panel, '[data-testid=refresh-now]');
    await waitForAttribute(panel, '[data-testid=refresh-card]', 'data-state', 'done', 30_000);
    expect(await textOf(panel, '[data-testid=refresh-checked]')).toBe('6');
    expect(await textOf(panel, '[data-testid=refresh-changed]')).toBe('1');
    expect(await textOf(panel, '[data-testid=refresh-unchanged]')).toBe('5');
    expect(await textOf(panel, '[data-testid=refresh-failed]')).toBe('0');
    await waitForText(panel, '[data-testid=refresh-message]', /new llms\.txt version 2/);
    await screenshot(panel, '4-history');
    await panel.close();
  });

  it('the extension logged no errors (console.error, uncaught errors and rejections)', () => {
    expect(ff.errors).toEqual([]);
  });
});
