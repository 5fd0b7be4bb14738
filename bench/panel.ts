/**
 * Side panel responsiveness with a big crawl: 10 000 URLs in the frontier, the
 * Generate tab's page list opened and scrolled top to bottom. A PerformanceObserver
 * in the panel records long tasks (> 50 ms). Prints the figures; writes bench/results/.
 * Run: npm run bench:panel
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { DEFAULT_SETTINGS } from '../lib/crawl/settings';
import type { CrawlJob } from '../lib/store/db';
import { launchWithExtension } from '../tests/e2e/browser';

const ROWS = 10_000;
const origin = 'http://big.example.test';
const { context, extensionId } = await launchWithExtension();
const panel = await context.newPage();
await panel.addInitScript('globalThis.__name = (f) => f');
// Open the panel once so the extension creates its database (the worker records the site).
await panel.goto(`chrome-extension://${extensionId}/sidepanel.html?url=${encodeURIComponent(`${origin}/`)}`);
await panel.getByTestId('site-visits').filter({ hasText: 'time' }).waitFor();

// Write a finished crawl of 10 000 URLs straight into the extension's database.
await panel.evaluate(
  async ({ rows, origin, settings }) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('llms-txt-scout');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const tx = db.transaction(['jobs', 'frontier'], 'readwrite');
    const now = Date.now();
    // A crawl row as the crawler writes it (the panel reads its settings for the page limit).
    const job: CrawlJob = { id: 'bench', origin, kind: 'crawl', state: 'done', createdAt: now, startedAt: now, endedAt: now, startUrl: `${origin}/`, settings, counters: { stored: rows, done: rows, discovered: rows }, message: 'Done' };
    tx.objectStore('jobs').put(job);
    const states = ['done', 'done', 'done', 'failed', 'skipped'];
    for (let i = 0; i < rows; i++) {
      const url = `${origin}/docs/section-${Math.floor(i / 100)}/page-${i}.html`;
      const state = states[i % states.length];
      tx.objectStore('frontier').put({ jobId: 'bench', key: url, url, state, depth: Math.floor(i / 1000), seq: i + 1, source: 'link', retries: 0, reason: state === 'done' ? undefined : 'Not found (HTTP 404)', updatedAt: now });
    }
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  },
  { rows: ROWS, origin, settings: DEFAULT_SETTINGS },
);

await panel.goto(`chrome-extension://${extensionId}/sidepanel.html?url=${encodeURIComponent(`${origin}/`)}`);
await panel.evaluate(() => {
  const w = window as unknown as { longTasks: number[] };
  w.longTasks = [];
  new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push(e.duration))).observe({ type: 'longtask', buffered: false });
});
const opened = Date.now();
await panel.getByRole('tab', { name: 'Generate' }).click();
await panel.getByTestId('page-row').first().waitFor();
const openMs = Date.now() - opened;
const total = await panel.getByTestId('list-total').innerText();
// Scroll the list to the end in steps, like a person dragging the scrollbar.
const scroller = panel.getByTestId('page-scroller');
for (let i = 1; i <= 40; i++) {
  await scroller.evaluate((el, f) => el.scrollTo({ top: el.scrollHeight * f }), i / 40);
  await panel.waitForTimeout(50);
}
await panel.getByTestId('page-row').last().waitFor();
const lastRow = await panel.getByTestId('page-row').last().innerText();
const longTasks = await panel.evaluate(() => [...(window as unknown as { longTasks: number[] }).longTasks]);
// Proof the observer sees long tasks at all: an 80 ms busy loop must show up.
await panel.evaluate(() => {
  // A task of the page's own (script run through the DevTools protocol is not counted as one).
  setTimeout(() => {
    const t = performance.now();
    while (performance.now() - t < 80);
  }, 0);
});
await panel.waitForTimeout(200);
const observerWorks = (await panel.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks)).some((d) => d >= 80);
await context.close();
if (!observerWorks) throw new Error('The long-task observer did not see an 80 ms task: the figures above would mean nothing.');

const result = { date: new Date().toISOString(), rows: ROWS, listTotal: total, openMs, longTasks, maxLongTaskMs: Math.max(0, ...longTasks), lastRow };
mkdirSync('bench/results', { recursive: true });
const file = `bench/results/panel-${result.date.slice(0, 10)}.json`;
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
console.log(`\nSide panel with ${ROWS.toLocaleString('en')} crawled URLs (list shows ${total})\n`);
console.log('| measure | value |\n|---|---:|');
console.log(`| open the Generate tab until the first row shows | ${openMs} ms |`);
console.log(`| long tasks (> 50 ms) while opening and scrolling to the end | ${longTasks.length} |`);
console.log(`| longest task | ${result.maxLongTaskMs.toFixed(0)} ms |`);
console.log(`\nLast row reached: ${lastRow.replace(/\n/g, ' · ')}\nWrote ${file}`);
