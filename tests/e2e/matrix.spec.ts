import { mkdirSync, writeFileSync } from 'node:fs';
import { matrixSites } from '../fixtures/matrix';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { latestCrawl } from './extension-db';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

// One crawl per site of the generator matrix (scripts/build-matrix.sh), through the side
// panel in real Chromium, capped at 150 pages to keep the run short. Python and Node have
// their own tests. The generated files are kept in test-results/matrix/ to read.
const sites = matrixSites().filter((s) => s.id !== 'python' && s.id !== 'node');
const MAX_PAGES = 150;

let server: FixtureServer;
test.beforeAll(async () => {
  server = await startFixtureServer(Object.fromEntries(sites.map((s) => [s.host, s.site()])));
});
test.afterAll(() => server?.close());

for (const s of sites) {
  test(`${s.family} (${s.id}): a crawl through the side panel stores pages and generates an llms.txt with an H1`, async ({ openPanel }) => {
    test.setTimeout(150_000);
    const panel = await openPanel(server.url(s.host, s.startPath));
    await crawlToEnd(panel, { maxPages: MAX_PAGES, timeout: 120_000 });
    const { paths } = await latestCrawl(panel);
    expect(paths.length).toBeGreaterThan(1);
    expect(paths.length).toBeLessThanOrEqual(MAX_PAGES);

    await panel.getByTestId('see-output').click();
    await expect(panel.getByTestId('output')).toBeVisible({ timeout: 15_000 });
    await panel.getByRole('tab', { name: /^llms\.txt/ }).click();
    const llms = await panel.getByTestId('llms-text').innerText();
    const h1 = /^# (.+)$/m.exec(llms)?.[1]?.trim() ?? '';
    // The H1 names the site, and no entry or section carries that name again.
    expect(h1.toLowerCase(), llms.slice(0, 500)).toContain(s.siteName.toLowerCase());
    const withName = [...llms.matchAll(/^(?:## (.+)|- \[([^\]]+)\])/gm)].map((m) => m[1] ?? m[2] ?? '')
      .filter((name) => name !== h1 && [' — ', ' – ', ' | ', ' - ', ': ', ' ('].some((sep) => name.includes(`${sep}${h1}`) || name.startsWith(`${h1}${sep}`)));
    expect(withName).toEqual([]);
    await expect(panel.getByTestId('findings')).toContainText('No findings');
    await panel.getByRole('tab', { name: /^llms-full\.txt/ }).click();
    const full = await panel.getByTestId('full-text').innerText();
    // Headings come out plain: no permalinks, no self-links.
    expect(full.split('\n').filter((line) => /^#{1,6} /.test(line) && (/[¶\u200b]\s*$/.test(line) || /^#{1,6} \[[^\]]*\]\([^)]*#[^)]*\)$/.test(line)))).toEqual([]);

    mkdirSync('test-results/matrix', { recursive: true });
    writeFileSync(`test-results/matrix/${s.id}-llms.txt`, llms);
    writeFileSync(`test-results/matrix/${s.id}-llms-full.txt`, full);
    const sections = [...llms.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    test.info().annotations.push({ type: 'matrix', description: `${s.id}: ${paths.length} pages; H1 "${h1}" (site name "${s.siteName}"); sections: ${sections.join(' | ')}` });
  });
}
