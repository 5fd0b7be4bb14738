/**
 * Discovery speed on the fixture hub (example.test → docs./api. subdomains, a
 * cycle, an other.test link) on loopback: in Node, and in headless Chromium
 * through the extension's worker. Prints a table; writes bench/results/.
 * Run: npm run bench:discovery
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { discover } from '../lib/discovery/discover';
import { loopbackFetch, startFixtureServer } from '../tests/fixtures/server';
import { launchWithExtension } from '../tests/e2e/browser';
import { readStore } from '../tests/e2e/extension-db';
import { hubSites } from '../tests/fixtures/hub';

const RUNS = 15;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const spread = (xs: number[]) => `${Math.min(...xs)}–${Math.max(...xs)}`;

const server = await startFixtureServer(hubSites());
const pageUrl = server.url('example.test', '/');

const node: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  await discover({ pageUrl, fetch: loopbackFetch() });
  node.push(Math.round(performance.now() - started));
}

// In the browser: the panel starts discovery; the worker records its duration on the job.
const { context, extensionId } = await launchWithExtension();
const chromium: number[] = [];
const panel = await context.newPage();
for (let i = 0; i < RUNS; i++) {
  // Opening the panel runs discovery by itself; wait for the job created after this moment.
  const since = Date.now();
  await panel.goto(`chrome-extension://${extensionId}/sidepanel.html?url=${encodeURIComponent(pageUrl)}`);
  let ms = NaN;
  for (;;) {
    const jobs = await readStore<{ kind: string; state: string; createdAt: number; counters: { ms?: number } }>(panel, 'jobs');
    const done = jobs.filter((j) => j.kind === 'discovery' && j.state === 'done').sort((a, b) => b.createdAt - a.createdAt)[0];
    if (done && done.createdAt >= since) {
      ms = done.counters.ms ?? NaN;
      break;
    }
    await panel.waitForTimeout(20);
  }
  chromium.push(ms);
}
await context.close();
await server.close();

const result = { date: new Date().toISOString(), runs: RUNS, hub: pageUrl.replace(/:\d+/, ''), nodeMs: node, chromiumMs: chromium };
mkdirSync('bench/results', { recursive: true });
const file = `bench/results/discovery-${result.date.slice(0, 10)}.json`;
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
console.log(`\nDiscovery on the fixture hub (${RUNS} runs each, loopback)\n`);
console.log('| where | median ms | min–max ms |');
console.log('|---|---:|---:|');
console.log(`| Node (lib/discovery) | ${median(node)} | ${spread(node)} |`);
console.log(`| Chromium, extension worker | ${median(chromium)} | ${spread(chromium)} |`);
console.log(`\nWrote ${file}`);
