import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_DIR, expect, test } from './fixtures';
import { crawlToEnd } from './steps';

test('the Output tab compares the generated pages with the site’s published llms.txt and saves it', async ({ openPanel, server }) => {
  const panel = await openPanel(server.url('docs.scout-demo.test', '/guide/'));
  await expect(panel.locator('[data-testid=file-row]').first()).toBeVisible();
  await crawlToEnd(panel, { timeout: 20_000 });
  await panel.getByTestId('see-output').click();
  const card = panel.getByTestId('coverage');
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card).toContainText('/llms.txt');
  expect(Number(await panel.getByTestId('coverage-listed').innerText())).toBeGreaterThan(0);
  // The text is read from storage only to save it, and is the file as the site serves it.
  const [download] = await Promise.all([panel.waitForEvent('download'), card.getByRole('button', { name: 'Download the published llms.txt' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^docs\.scout-demo\.test.*-published-llms\.txt$/);
  expect(readFileSync(await download.path(), 'utf8')).toBe(readFileSync(join(DEMO_DIR, 'llms.txt'), 'utf8'));
});
