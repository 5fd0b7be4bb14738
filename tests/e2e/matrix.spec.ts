import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { type MatrixSite, matrixSites } from '../fixtures/matrix';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { latestCrawl } from './extension-db';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

// One crawl per site of the generator matrix (scripts/build-matrix.sh), through the side
// panel in real Chromium, capped at 150 pages to keep the run short. Python and Node have
// their own tests. The generated files are kept in test-results/matrix/ to read.
//
// On each site, what a site owner's CI writes (`scout generate <built folder>`, the same cap) is
// what the extension made of the same site served over HTTP — the offscreen document's parser and
// the conversion workers against linkedom in Node — the same files, byte for byte: every llms.txt
// and llms-full.txt of the layout, at the same paths, with the default budget (flat on these sites).
// A budget small enough to nest them is no test of the two: it counts characters of the files,
// whose links carry the fixture server's port on the extension's side only, so at the margin of a
// part the two would cut a section differently (seen on mdbook-reference at 2,000).
const sites = matrixSites().filter((s) => s.id !== 'python' && s.id !== 'node');
const MAX_PAGES = 150;

let server: FixtureServer;
test.beforeAll(async () => {
  server = await startFixtureServer(Object.fromEntries(sites.map((s) => [s.host, s.site()])));
});
test.afterAll(() => server?.close());

/** Every file under `dir`, by its path relative to it ('llms.txt', 'api/llms-full.txt'). */
function filesUnder(dir: string, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const [path, text] of filesUnder(dir, relative)) out.set(path, text);
    else out.set(relative, readFileSync(join(dir, relative), 'utf8'));
  }
  return out;
}

/** `scout generate` on the site's built folder, published at `base`: every file it writes, by path. */
async function cliFiles(site: MatrixSite, base: string): Promise<Map<string, string>> {
  if (!site.folder) throw new Error(`${site.id} has no built folder`);
  const out = mkdtempSync(join(tmpdir(), `scout-parity-${site.id}-`));
  try {
    const args = ['--import', 'tsx', 'cli/scout.ts', 'generate', site.folder.root, '--base-url', base, '--start', site.startPath, '--max-pages', String(MAX_PAGES), '--out', out, '--quiet'];
    if (site.folder.cleanUrls) args.push('--clean-urls');
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr }));
    });
    expect(run.code, run.stderr).toBe(0);
    return filesUnder(out);
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

    // The files the extension publishes, as the Output tab's zip holds them at their paths on the
    // site: the llms.txt and llms-full.txt of each file of the layout (the zip's pages/*.md and
    // pages.json are the per-page export, which `scout generate` writes only with --for-agents).
    const zippedFiles = async () => {
      const [download] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('download-zip').click()]);
      const zipped = unzipSync(new Uint8Array(readFileSync((await download.path()) ?? '')));
      return new Map(Object.entries(zipped).filter(([path]) => ['llms.txt', 'llms-full.txt'].includes(basename(path))).map(([path, data]) => [path, strFromU8(data).replaceAll(server.origin(s.host), `http://${s.host}`)] as const));
    };
    // The folder is read as published where it was built for (http://<host>/: its sitemap and
    // canonical links name it), as a site owner's CI runs it; the fixture server, on its own port,
    // rewrites those links to that port. The extension's files, with the port taken out, are compared.
    const compare = (label: string, fromExtension: Map<string, string>, fromCli: Map<string, string>) => {
      const kept = `test-results/matrix/${s.id}-${label}`;
      for (const [side, files] of [['extension', fromExtension], ['cli', fromCli]] as const) {
        rmSync(`${kept}-${side}`, { recursive: true, force: true });
        for (const [path, text] of files) {
          mkdirSync(dirname(`${kept}-${side}/${path}`), { recursive: true });
          writeFileSync(`${kept}-${side}/${path}`, text);
        }
      }
      const why = `scout generate differs from the extension on ${s.id} (${label}): diff -r ${kept}-{extension,cli}`;
      expect([...fromCli.keys()].sort(), why).toEqual([...fromExtension.keys()].sort());
      expect(fromExtension.get('llms.txt'), 'the root llms.txt').toBeTruthy();
      expect(fromExtension.get('llms-full.txt'), 'the root llms-full.txt').toBeTruthy();
      // At the cap too: pages are written in the order they started (lib/crawl/in-order.ts), so the
      // cap admits the same pages in both, whichever fetches finish first.
      for (const [path, text] of fromExtension) expect.soft(fromCli.get(path), `${why} (${path})`).toBe(text);
    };
    compare('default', await zippedFiles(), await cliFiles(s, `http://${s.host}/`));
    const sections = [...llms.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    test.info().annotations.push({ type: 'matrix', description: `${s.id}: ${paths.length} pages${paths.length === MAX_PAGES ? ' (the cap)' : ''}; H1 "${h1}" (site name "${s.siteName}"); sections: ${sections.join(' | ')}` });
  });
}
