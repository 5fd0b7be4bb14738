import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MatrixSite, matrixSites } from '../fixtures/matrix';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { latestCrawl, readStore } from './extension-db';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

// One crawl per site of the generator matrix (scripts/build-matrix.sh), through the side
// panel in real Chromium, capped at 150 pages to keep the run short. Python and Node have
// their own tests. The generated files are kept in test-results/matrix/ to read.
//
// On each site, what a site owner's CI writes (`scout generate <built folder>`, the same cap) is
// what the extension made of the same site served over HTTP — the offscreen document's parser and
// the conversion workers against linkedom in Node — the same llms.txt, byte for byte.
const sites = matrixSites().filter((s) => s.id !== 'python' && s.id !== 'node');
const MAX_PAGES = 150;

let server: FixtureServer;
test.beforeAll(async () => {
  server = await startFixtureServer(Object.fromEntries(sites.map((s) => [s.host, s.site()])));
});
test.afterAll(() => server?.close());

/** `scout generate` on the site's built folder, published at `base`: the llms.txt it writes. */
async function cliLlms(site: MatrixSite, base: string): Promise<string> {
  if (!site.folder) throw new Error(`${site.id} has no built folder`);
  const out = mkdtempSync(join(tmpdir(), `scout-parity-${site.id}-`));
  try {
    const args = ['--import', 'tsx', 'cli/scout.ts', 'generate', site.folder.root, '--base-url', base, '--start', site.startPath, '--max-pages', String(MAX_PAGES), '--out', out, '--quiet'];
    if (site.folder.cleanUrls) args.push('--clean-urls');
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr }));
    });
    expect(run.code, run.stderr).toBe(0);
    return readFileSync(join(out, 'llms.txt'), 'utf8');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

for (const s of sites) {
  test(`${s.family} (${s.id}): a crawl through the side panel stores pages and generates an llms.txt with an H1`, async ({ openPanel }) => {
    test.setTimeout(210_000);
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

    // The root llms.txt Scout publishes (flat, or the index of the nested files).
    const storedFile = (await readStore<{ kind: string; version: number; text: string }>(panel, 'artifacts')).filter((a) => a.kind === 'files').sort((a, b) => b.version - a.version)[0]?.text ?? '';
    // The folder is read as published where it was built for (http://<host>/: its sitemap and
    // canonical links name it), as a site owner's CI runs it; the fixture server, on its own port,
    // rewrites those links to that port. The extension's file, with the port taken out, is compared.
    const fromCli = await cliLlms(s, `http://${s.host}/`);
    const stored = storedFile.replaceAll(server.origin(s.host), `http://${s.host}`);
    writeFileSync(`test-results/matrix/${s.id}-cli-llms.txt`, fromCli);
    writeFileSync(`test-results/matrix/${s.id}-extension-llms.txt`, stored);
    // At the cap too: pages are written in the order they started (lib/crawl/in-order.ts), so the
    // cap admits the same pages in both, whichever fetches finish first.
    const why = `scout generate differs from the extension on ${s.id}: diff test-results/matrix/${s.id}-{extension,cli}-llms.txt`;
    expect(fromCli, why).toBe(stored);
    const sections = [...llms.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    test.info().annotations.push({ type: 'matrix', description: `${s.id}: ${paths.length} pages${paths.length === MAX_PAGES ? ' (the cap)' : ''}; H1 "${h1}" (site name "${s.siteName}"); sections: ${sections.join(' | ')}` });
  });
}
