import { readFileSync } from 'node:fs';
import { unzipSync, strFromU8 } from 'fflate';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

test('after a crawl: review the generated llms.txt, curate it, and export files that land on disk', async ({ openPanel, server }) => {
  const panel = await openPanel(server.url('docs.scout-demo.test', '/guide/'));
  await expect(panel.locator('[data-testid=file-row]').first()).toBeVisible();
  await crawlToEnd(panel, { timeout: 20_000 });
  await panel.getByTestId('see-output').click();

  const output = panel.getByTestId('output');
  await expect(output).toBeVisible({ timeout: 15_000 });
  await expect(panel.getByTestId('llms-size')).toContainText('tokens');
  const sections = panel.getByTestId('section');
  await expect(sections.first()).toBeVisible();
  const first = sections.first();
  const firstName = await first.locator('.section-card__name').inputValue();

  // Rename the first section; the file follows.
  await first.locator('.section-card__name').fill('Start here');
  await first.locator('.section-card__name').press('Enter');
  await panel.getByRole('tab', { name: /^llms\.txt/ }).click();
  await expect(panel.getByTestId('llms-text')).toContainText('## Start here');
  await expect(panel.getByTestId('llms-text')).not.toContainText(`## ${firstName}\n`);

  // Leave one page out; it disappears from the file.
  await panel.getByRole('tab', { name: 'Review' }).click();
  const entry = panel.getByTestId('entry').filter({ hasText: 'Transactions' }).first();
  const title = await entry.locator('.entry__title').innerText();
  await entry.getByRole('button', { name: `Leave out ${title}` }).click();
  await expect(panel.getByTestId('excluded-note')).toContainText('1 page left out');
  await panel.getByRole('tab', { name: /^llms\.txt/ }).click();
  await expect(panel.getByTestId('llms-text')).not.toContainText(`[${title}]`);
  await expect(panel.getByTestId('findings')).toContainText('No findings');
  await panel.getByRole('button', { name: 'Check links' }).click();
  await expect(panel.getByTestId('link-check-result')).toHaveText(/^All \d+ links answer\.$/);

  await panel.setViewportSize({ width: 380, height: 900 });
  await panel.getByRole('tab', { name: 'Review' }).click();
  await panel.screenshot({ path: 'screenshots/output-review.png', fullPage: true });

  // Download llms.txt: the file on disk is the one shown, and it parses cleanly.
  const [download] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('download-llms').click()]);
  expect(download.suggestedFilename()).toBe('docs.scout-demo.test-llms.txt');
  const text = readFileSync(await download.path(), 'utf8');
  const parsed = parseLlmsTxt(text, server.url('docs.scout-demo.test', '/llms.txt'));
  expect(parsed.title).toBe('Acorn DB');
  expect(parsed.warnings).toEqual([]);
  expect(parsed.sections.map((s) => s.name)).toContain('Start here');
  expect(text).not.toContain(`[${title}]`);

  // The zip opens and holds both files and one Markdown file per page.
  const [zip] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('download-zip').click()]);
  expect(zip.suggestedFilename()).toBe('docs.scout-demo.test-llms-txt.zip');
  const files = unzipSync(new Uint8Array(readFileSync(await zip.path())));
  expect(strFromU8(files['llms.txt'] ?? new Uint8Array())).toBe(text);
  expect(Object.keys(files)).toEqual(expect.arrayContaining(['llms-full.txt', 'pages.json', 'pages/guide/installation.md', 'pages/api/database.md']));
  expect(strFromU8(files['pages/guide/installation.md'] ?? new Uint8Array())).toContain('# Installation');
});
