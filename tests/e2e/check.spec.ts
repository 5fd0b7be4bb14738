/**
 * The Check view (#19): on a site with four known problems — a section missing from llms.txt, a
 * twin that differs from its page, a 120,000-character llms.txt, a page without describedby —
 * the panel lists exactly those findings, and `scout check` prints the same ones (its Markdown is
 * the panel's export, byte for byte). The score and its categories at the top (#31), on a site
 * that publishes everything and on a bare static one. After a crawl, the publishing kit unpacks
 * to the layout the README documents.
 */
import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { runCheck } from '../../cli/check';
import type { SiteCheck } from '@/lib/headless/check';
import { findingKey } from '../fixtures/finding-key';
import { CHECK_SITE_PAGES, checkSite, E2E_FAULTS, twinPath } from '../fixtures/check-site';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';
import { expect, test } from './fixtures';

const HOST = 'docs.acorn.test';
const FULL = 'full.acorn.test';
const BARE = 'bare.acorn.test';

async function cli(args: { url: string; json?: boolean; markdown?: boolean; date?: string }): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await runCheck({ url: args.url, strict: false, verbose: false, json: Boolean(args.json), markdown: Boolean(args.markdown), ...(args.date ? { date: args.date } : {}) }, { out: (line) => out.push(line), progress: () => undefined }, loopbackFetch());
  return { code, out: out.join('\n') };
}

test.describe('Check view', () => {
  let site: FixtureServer;
  test.beforeAll(async () => {
    site = await startFixtureServer({ [HOST]: checkSite(E2E_FAULTS), [FULL]: checkSite({}), [BARE]: checkSite({ bare: true }) });
  });
  test.afterAll(() => site.close());

  test('lists exactly the known problems, and the CLI prints the same findings', async ({ openPanel }) => {
    const start = site.url(HOST, '/');
    const panel = await openPanel(start);
    await panel.setViewportSize({ width: 380, height: 1000 });
    await panel.getByRole('tab', { name: 'Check' }).click();
    await panel.getByTestId('run-check').click();
    await expect(panel.getByTestId('check-verdict')).toHaveText('Agents can use this site, but miss parts of it: 26 of 30 checks pass', { timeout: 30_000 });

    const rows = panel.getByTestId('check-finding');
    const panelKeys = await rows.evaluateAll((items) => items.map((li) => {
      const d = (li as HTMLElement).dataset;
      return `${d.severity} ${d.check} ${d.code} ${d.url ? new URL(d.url).pathname : '-'}`;
    }));
    expect(panelKeys).toEqual([
      'error size over-hard-limit /api/llms.txt',
      'warning describedby missing-describedby /guide/install.html',
      'warning coverage section-not-listed /extras/',
      'warning parity twin-differs /guide/usage.md',
    ]);
    // Every finding shows its evidence and its fix.
    for (const item of await rows.all()) {
      await expect(item.locator('.check-finding__evidence')).not.toBeEmpty();
      await expect(item.locator('.check-finding__fix')).toContainText(/^Fix: \S/);
    }
    await expect(panel.getByTestId('check-row').filter({ hasText: 'Size within' })).toContainText('120,000 characters');
    await panel.screenshot({ path: 'screenshots/check.png', fullPage: true });

    // The CLI on the same site: the same findings, and its Markdown is the panel's export.
    const json = await cli({ url: start, json: true });
    expect(json.code).toBe(1);
    const report = (JSON.parse(json.out) as SiteCheck).report;
    expect(report.findings.map(findingKey)).toEqual(panelKeys);
    expect(report.verdict).toBe('Agents can use this site, but miss parts of it: 26 of 30 checks pass');
    await expect(panel.getByTestId('check-score')).toHaveAttribute('data-score', String(report.score?.overall));

    const [download] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('export-check').click()]);
    expect(download.suggestedFilename()).toBe('docs.acorn.test-agent-check.md');
    const exported = readFileSync(await download.path(), 'utf8');
    const date = /on (\d{4}-\d{2}-\d{2}):/.exec(exported)?.[1];
    expect(date).toBeTruthy();
    expect((await cli({ url: start, markdown: true, date })).out).toBe(exported);
    expect(exported).toContain('| Size within what an agent reads whole | FAIL |');
  });

  test('the score and its categories sit at the top: a site that publishes everything, and a bare one', async ({ openPanel }) => {
    const full = await openPanel(site.url(FULL, '/'));
    await full.setViewportSize({ width: 380, height: 1000 });
    await full.getByRole('tab', { name: 'Check' }).click();
    await full.getByTestId('run-check').click();
    const score = full.getByTestId('check-score');
    await expect(score).toHaveAttribute('data-score', '100', { timeout: 30_000 });
    await expect(full.getByTestId('check-score-number')).toHaveText('100');
    await expect(full.getByTestId('check-score-grade')).toHaveText('A+');
    const discoverability = full.locator('[data-testid=check-category][data-category=content-discoverability]');
    await expect(discoverability).toHaveAttribute('data-score', '100');
    await expect(discoverability).toContainText('Content discoverability');
    await expect(full.locator('[data-testid=check-category][data-category=url-stability]')).toHaveAttribute('data-score', '100');
    // The score comes before the verdict and the checks.
    const top = await score.boundingBox();
    const verdict = await full.getByTestId('check-verdict').boundingBox();
    expect(top && verdict && top.y < verdict.y).toBe(true);
    await full.screenshot({ path: 'screenshots/check-score-full.png', fullPage: true });

    const bare = await openPanel(site.url(BARE, '/'));
    await bare.setViewportSize({ width: 380, height: 1000 });
    await bare.getByRole('tab', { name: 'Check' }).click();
    await bare.getByTestId('run-check').click();
    // What a static site does right earns 61 of 93 (docs/check.md), capped at 59 without an llms.txt.
    await expect(bare.getByTestId('check-score')).toHaveAttribute('data-score', '59', { timeout: 30_000 });
    // Content structure is scored on the HTML alone (tabs, tab headings, bulk data), twins or not.
    await expect(bare.locator('[data-testid=check-category][data-category=content-structure]')).toHaveAttribute('data-score', '100');
    await expect(bare.getByTestId('check-score-grade')).toHaveText('F');
    await expect(bare.locator('[data-testid=check-category][data-category=markdown-availability]')).toHaveAttribute('data-score', '0');
    await expect(bare.locator('[data-testid=check-group][data-category=content-discoverability] [data-testid=check-finding][data-code=no-directive]')).toContainText('For the complete documentation index');
    await bare.screenshot({ path: 'screenshots/check-score-bare.png', fullPage: true });
  });

  test('after a crawl, the publishing kit unpacks to the documented layout', async ({ openPanel }) => {
    const panel = await openPanel(site.url(HOST, '/'));
    await panel.setViewportSize({ width: 380, height: 1000 });
    await panel.getByRole('tab', { name: 'Generate' }).click();
    await panel.getByTestId('start-crawl').click();
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
    await panel.getByRole('tab', { name: 'Output' }).click();
    await expect(panel.getByTestId('output')).toBeVisible({ timeout: 15_000 });
    // The Output tab's export bar leads to the kit, on the Check tab.
    await panel.getByTestId('open-kit').click();
    await expect(panel.getByRole('tab', { name: 'Check' })).toHaveAttribute('aria-selected', 'true');

    const kit = panel.getByTestId('kit-card');
    await kit.getByTestId('kit-twins-html-md').check();
    await kit.getByTestId('show-snippets').click();
    await expect(kit.getByTestId('snippet')).toHaveCount(6);
    await expect(kit.locator('[data-snippet=nginx] pre')).toContainText('map $uri $scout_llms');
    await panel.screenshot({ path: 'screenshots/check-kit.png', fullPage: true });

    const [download] = await Promise.all([panel.waitForEvent('download'), kit.getByTestId('download-kit').click()]);
    expect(download.suggestedFilename()).toBe('docs.acorn.test-publishing-kit.zip');
    const files = unzipSync(new Uint8Array(readFileSync(await download.path())));
    const names = Object.keys(files).sort();
    // The v1 layout asked for: page.html → page.html.md, folder/ → folder/index.html.md.
    const twins = CHECK_SITE_PAGES.map((p) => `site${twinPath(p.path, true)}`);
    expect(names).toEqual([
      'README.md', 'site/llms-full.txt', 'site/llms.txt', ...twins,
      'snippets/_headers', 'snippets/apache.conf', 'snippets/directive.html', 'snippets/head.html', 'snippets/nginx.conf', 'snippets/vercel.json',
    ].sort());
    const text = (name: string) => strFromU8(files[name] ?? new Uint8Array());
    expect(text('site/llms.txt')).toMatch(/^# /);
    expect(text('site/guide/install.html.md')).toContain('Download the archive for your platform');
    expect(text('site/guide/install.html.md').split('\n')[0]).toBe(`> For the complete documentation index, see [llms.txt](${site.url(HOST, '/llms.txt')}).`);
    expect(JSON.parse(text('snippets/vercel.json'))).toHaveProperty('headers');
    await expect(kit.getByTestId('kit-note')).toContainText('9 Markdown twins');
  });
});
