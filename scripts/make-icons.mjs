// Renders public/icon/*.png from the inline SVG mark with headless Chromium, so the
// toolbar icon and the in-panel logo stay one drawing. Run: node scripts/make-icons.mjs
import { chromium } from '@playwright/test';
import { mkdirSync } from 'node:fs';

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
  <rect x="5" y="3" width="18" height="24" rx="3" fill="#3b5bdb"/>
  <path d="M9 9h10M9 13h10M9 17h6" stroke="#fff" stroke-width="2" stroke-linecap="round"/>
  <circle cx="21" cy="21" r="5.5" fill="#fff" stroke="#1b1f24" stroke-width="2.2"/>
  <path d="M25 25l4 4" stroke="#1b1f24" stroke-width="2.6" stroke-linecap="round"/>
</svg>`;

mkdirSync('public/icon', { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
// 96: Firefox shows the 48 px icon at 2× on high-density screens (addons.mozilla.org asks for 48 and 96).
for (const size of [16, 32, 48, 96, 128]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<style>html,body{margin:0;background:transparent}</style>${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}`);
  await page.screenshot({ path: `public/icon/${size}.png`, omitBackground: true });
  await page.close();
}
await browser.close();
console.log('wrote public/icon/{16,32,48,96,128}.png');
