/**
 * Client-rendered sites (#16) in headless Chromium through the extension: pages per second for
 * the React app rendered in background tabs (render: Auto), for the same site on Never (fetch
 * only: what a crawl costs without rendering, and the empty shells it would store), and for the
 * docsify site read from its Markdown. Prints a table; writes bench/results/render-<date>.json.
 * Run: npm run bench:render [-- --runs N]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { launchWithExtension } from '../tests/e2e/browser';
import { readStore } from '../tests/e2e/extension-db';
import { startFixtureServer } from '../tests/fixtures/server';
import { docsifySite, reactSpaSite } from '../tests/fixtures/spa-sites';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

// The app's data API answers in 60 ms, as a fast real one might.
const server = await startFixtureServer({ 'app.lumen.test': reactSpaSite({ dataDelayMs: 60 }), 'docsify.lumen.test': docsifySite() });
const cases: Array<{ name: string; host: string; render: 'auto' | 'never' }> = [
  { name: 'React app, rendered in tabs (Auto)', host: 'app.lumen.test', render: 'auto' },
  { name: 'React app, fetch only (Never)', host: 'app.lumen.test', render: 'never' },
  { name: 'docsify, Markdown read directly (Auto)', host: 'docsify.lumen.test', render: 'auto' },
];
const rows: Array<{ name: string; pages: number; seconds: number[]; pagesPerSecond: number }> = [];
for (const c of cases) {
  const seconds: number[] = [];
  let pages = 0;
  for (let run = 0; run < RUNS; run++) {
    const { context, extensionId } = await launchWithExtension();
    const panel = await context.newPage();
    await panel.goto(`chrome-extension://${extensionId}/sidepanel.html?url=${encodeURIComponent(server.url(c.host, '/'))}`);
    await panel.getByRole('tab', { name: 'Generate' }).click();
    await panel.getByTestId('render-mode').selectOption(c.render);
    await panel.getByTestId('start-crawl').click();
    await panel.locator('[data-testid=crawl-progress][data-state=done]').waitFor({ timeout: 300_000 });
    const job = (await readStore<{ kind: string; startedAt: number; endedAt: number; counters: Record<string, number> }>(panel, 'jobs')).find((j) => j.kind === 'crawl');
    pages = job?.counters.stored ?? 0;
    seconds.push(((job?.endedAt ?? 0) - (job?.startedAt ?? 0)) / 1000);
    await context.close();
  }
  rows.push({ name: c.name, pages, seconds, pagesPerSecond: Math.round((pages / median(seconds)) * 10) / 10 });
}
await server.close();

console.log(`| case | pages | seconds (median of ${RUNS}) | pages/s |\n|---|---|---|---|`);
for (const r of rows) console.log(`| ${r.name} | ${r.pages} | ${median(r.seconds).toFixed(1)} (${r.seconds.map((s) => s.toFixed(1)).join(', ')}) | ${r.pagesPerSecond} |`);
mkdirSync('bench/results', { recursive: true });
const file = `bench/results/render-${new Date().toISOString().slice(0, 10)}.json`;
writeFileSync(file, `${JSON.stringify({ runs: RUNS, rows }, null, 2)}\n`);
console.log(`\nWritten to ${file}`);
