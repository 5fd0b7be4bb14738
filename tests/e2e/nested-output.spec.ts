import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { validateLlmsTxt } from '@/lib/generate/validate';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

test('over a small size budget: nested llms.txt files in a tree, each viewable and downloadable, a zip laid out by path, a context pack', async ({ openPanel, server }) => {
  const origin = new URL(server.url('docs.scout-demo.test', '/')).origin;
  const panel = await openPanel(server.url('docs.scout-demo.test', '/guide/'));
  await expect(panel.locator('[data-testid=file-row]').first()).toBeVisible();
  await crawlToEnd(panel, { timeout: 20_000 });
  await panel.getByTestId('see-output').click();

  // Under the default budget the demo site is one flat file.
  const tree = panel.getByTestId('file-tree');
  await expect(panel.getByTestId('files-summary')).toContainText('One llms.txt of', { timeout: 15_000 });
  await expect(tree.getByTestId('file-tree-row')).toHaveCount(1);

  // A budget smaller than the flat file: nested files, each within it.
  await panel.getByTestId('output-settings').locator('summary').click();
  await panel.getByTestId('budget-input').fill('2000');
  await panel.getByTestId('budget-input').press('Enter');
  await expect(panel.getByTestId('files-summary')).toContainText('Nested:', { timeout: 15_000 });
  const rows = tree.getByTestId('file-tree-row');
  expect(await rows.count()).toBeGreaterThan(1);
  const paths = await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-path') ?? ''));
  expect(paths[0]).toBe('/llms.txt');
  expect(paths).toContain('/guide/llms.txt');
  await expect(panel.getByTestId('llms-size')).toContainText('nested file');

  // Each file can be viewed: pick /guide/llms.txt, its text shows with no findings.
  await tree.locator('[data-path="/guide/llms.txt"]').click();
  await panel.getByTestId('file-actions').getByRole('button', { name: 'View' }).first().click();
  await expect(panel.getByTestId('llms-text')).toContainText('Part of');
  await expect(panel.getByTestId('findings')).toContainText('No findings');
  const [one] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('download-file').click()]);
  expect(one.suggestedFilename()).toBe('docs.scout-demo.test-guide-llms.txt');
  const guide = readFileSync(await one.path(), 'utf8');
  expect(guide.length).toBeLessThanOrEqual(2000);
  expect(validateLlmsTxt(guide, `${origin}/guide/llms.txt`).filter((f) => f.severity !== 'info')).toEqual([]);

  // A context pack of the whole site within 32k tokens: the count shown is the pack's.
  await panel.getByTestId('context-pack').locator('summary').click();
  await panel.getByTestId('pack-budget').selectOption('32000');
  await expect(panel.getByTestId('pack-result')).toContainText('token', { timeout: 15_000 });
  await expect(panel.getByTestId('pack-result')).toContainText('nothing left out');
  const [packFile] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('pack-download').click()]);
  expect(packFile.suggestedFilename()).toBe('docs.scout-demo.test-context-32k.md');
  expect(readFileSync(await packFile.path(), 'utf8')).toContain('Contents:');

  // Screenshots at the side panel's width; the sticky header would cover a scrolled full-page shot.
  await panel.setViewportSize({ width: 380, height: 1100 });
  await panel.addStyleTag({ content: '.site-header { position: static !important; }' });
  await panel.getByTestId('files-card').screenshot({ path: 'screenshots/output-nested-files.png' });
  await panel.screenshot({ path: 'screenshots/output-nested.png', fullPage: true });

  // The zip lays every llms.txt and llms-full.txt out by its path on the site, ready to upload.
  const [zip] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('download-zip').click()]);
  const files = unzipSync(new Uint8Array(readFileSync(await zip.path())));
  for (const path of paths) {
    const name = path.slice(1);
    expect(Object.keys(files)).toContain(name);
    expect(Object.keys(files)).toContain(name.replace(/llms\.txt$/, 'llms-full.txt'));
    const text = strFromU8(files[name] ?? new Uint8Array());
    expect(text.length, name).toBeLessThanOrEqual(2000);
    expect(parseLlmsTxt(text, `${origin}${path}`).warnings, name).toEqual([]);
  }
  // The root links each nested file where the zip puts it.
  const root = parseLlmsTxt(strFromU8(files['llms.txt'] ?? new Uint8Array()), `${origin}/llms.txt`);
  expect(root.links.map((l) => l.url)).toContain(`${origin}/guide/llms.txt`);
  expect(strFromU8(files['guide/llms-full.txt'] ?? new Uint8Array())).toContain('Source: ');
});
