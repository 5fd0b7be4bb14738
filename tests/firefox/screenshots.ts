import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';

/**
 * Where this run's screenshots go. `npm run store:screenshots` sets SCOUT_STORE_SCREENSHOTS=1
 * to refresh the committed store listing images (store/screenshots/); an ordinary test run
 * writes to the git-ignored screenshots/firefox/ so it never dirties the tree.
 */
export const SCREENSHOT_DIR = process.env.SCOUT_STORE_SCREENSHOTS === '1' ? 'store/screenshots' : 'screenshots/firefox';

/**
 * Saves the panel, opened as a tab, at 1280×800: the size both the Chrome Web Store and
 * addons.mozilla.org take for listing screenshots.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.setViewport({ width: 1280, height: 800 });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) as `${string}.png` });
}
