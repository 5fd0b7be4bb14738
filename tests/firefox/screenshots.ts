import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { opaquePng } from './opaque-png';

/**
 * Where this run's screenshots go. `npm run store:screenshots` sets SCOUT_STORE_SCREENSHOTS=1
 * to refresh the committed store listing images (store/screenshots/); an ordinary test run
 * writes to the git-ignored screenshots/firefox/ so it never dirties the tree.
 */
export const SCREENSHOT_DIR = process.env.SCOUT_STORE_SCREENSHOTS === '1' ? 'store/screenshots' : 'screenshots/firefox';

/**
 * Saves the panel, opened as a tab, at 1280×800 as a PNG without alpha: what both the
 * Chrome Web Store and addons.mozilla.org take for listing screenshots.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.setViewport({ width: 1280, height: 800 });
  const png = Buffer.from(await page.screenshot({ type: 'png' }));
  writeFileSync(join(SCREENSHOT_DIR, `${name}.png`), opaquePng(png));
}
