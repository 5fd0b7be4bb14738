/**
 * Issue #28 part 5 in the extension: a site whose folders are named to escape (`..%5C..%5Cevil`,
 * `C%3A%5CUsers`, `CON`, a NUL, 300 characters…) is crawled, and the Output tab's zip and the
 * publishing kit the user downloads hold no name that is unsafe on any system, keep every page,
 * and say what they left out. tests/unit/safe-output.test.ts covers the same site in Node and the CLI.
 */
import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { hostilePagePaths, hostilePathsSite, LINKED_FOLDER } from '../fixtures/hostile-paths-site';
import { startFixtureServer } from '../fixtures/server';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

const HOST = 'docs.paths.test';

/** Why an entry name is unsafe somewhere, checked by hand rather than with the code under test. */
function unsafe(path: string): string | null {
  for (const name of path.split('/')) {
    if (name === '' || /^\.+$/.test(name)) return `"${name}" segment`;
    if (/[\\:*?"<>|]/.test(name)) return 'forbidden character';
    if (/\p{Cc}|\p{Cf}/u.test(name)) return 'control or formatting character';
    if (/[. ]$/.test(name)) return 'trailing dot or space';
    if (/^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i.test(name.split('.')[0]?.trimEnd() ?? '')) return 'device name';
    if (new TextEncoder().encode(name).length > 255) return 'over 255 bytes';
  }
  return null;
}
const unsafeNames = (names: string[]) => names.filter((n) => unsafe(n) !== null).map((n) => `${n}: ${unsafe(n)}`);

test('a site with folders named to escape: the zip and the kit hold only safe names and say what they left out', async ({ openPanel }) => {
  test.setTimeout(120_000);
  const site = await startFixtureServer({ [HOST]: hostilePathsSite() });
  try {
    const panel = await openPanel(site.url(HOST, '/'));
    await crawlToEnd(panel, { timeout: 60_000 });
    await panel.getByTestId('see-output').click();
    // A small budget, so the layout nests: hostile folders must not become nested files' folders.
    await panel.getByTestId('output-settings').locator('summary').click();
    await panel.getByTestId('budget-input').fill('2000');
    await panel.getByTestId('budget-input').press('Enter');
    await expect(panel.getByTestId('files-summary')).toContainText('Nested:', { timeout: 15_000 });

    const [zip] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('download-zip').click()]);
    const zipped = unzipSync(new Uint8Array(readFileSync(await zip.path())));
    const names = Object.keys(zipped);
    expect(unsafeNames(names)).toEqual([]);
    // Every page is there, each in a file of its own; pages.json says which.
    const pageFiles = names.filter((n) => n.startsWith('pages/'));
    expect(pageFiles.length).toBe(hostilePagePaths().length);
    const meta = JSON.parse(strFromU8(zipped['pages.json'] ?? new Uint8Array())) as Array<{ url: string; path: string }>;
    expect(meta.map((m) => m.path).sort()).toEqual(pageFiles.sort());
    expect(names).toContain(`${LINKED_FOLDER}/llms.txt`);
    await expect(panel.getByTestId('export-bar')).toContainText(`Zip of ${hostilePagePaths().length} pages`);

    await panel.getByTestId('open-kit').click();
    const kit = panel.getByTestId('kit-card');
    const [download] = await Promise.all([panel.waitForEvent('download'), kit.getByTestId('download-kit').click()]);
    const files = unzipSync(new Uint8Array(readFileSync(await download.path())));
    expect(unsafeNames(Object.keys(files))).toEqual([]);
    // The safe folder's pages and the home page get twins; every page under a hostile folder is listed without one, with why.
    const twins = Object.keys(files).filter((n) => n.startsWith('site/') && n.endsWith('.md'));
    expect(twins.sort()).toEqual(['site/index.md', ...[1, 2, 3, 4].map((i) => `site/${LINKED_FOLDER}/page-${i}.md`)].sort());
    const readme = strFromU8(files['README.md'] ?? new Uint8Array());
    expect(readme).toMatch(/36 pages have no twin: .*its twin cannot be a file on every system: its path has /);
    await expect(kit.getByTestId('kit-note')).toContainText('36 pages without a twin: see README.md');
  } finally {
    await site.close();
  }
});
