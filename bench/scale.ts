/**
 * What a page with 100,000 links costs the crawl's storage (#17 item 5), in headless Chromium's
 * IndexedDB: the real PageWriter writing the batch that holds it (Markdown, links classified and
 * queued, one transaction), the next 200 claims, and a restarted runner's init. Each run measures
 * the frontier as it was (every found URL a row) and with link blocks, interleaved, in fresh
 * databases. The crawl's own figure (bench/crawl.ts --corpus synthetic,wide) adds conversion.
 *
 * Run: npx tsx bench/scale.ts [--links 100000] [--claims 200] [--runs 3] [--out file]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from '@playwright/test';
import { startFixtureServer } from '../tests/fixtures/server';
import { CHROMIUM, HOST_RULES } from '../tests/e2e/browser';
import { arg } from './harness';
import type { ScaleFigures } from './scale-page';

const LINKS = Number(arg('links', '100000'));
const CLAIMS = Number(arg('claims', '200'));
const RUNS = Number(arg('runs', '3'));
const MODES = { rows: Infinity, blocks: 500 } as const;

const bundle = await build({ entryPoints: [fileURLToPath(new URL('./scale-page.ts', import.meta.url))], bundle: true, format: 'iife', platform: 'browser', write: false, logLevel: 'error' });
const script = bundle.outputFiles[0]?.text ?? '';
const server = await startFixtureServer({
  'scale.test': {
    routes: {
      '/': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>scale</title><script src="/scale.js"></script>' },
      '/scale.js': { headers: { 'content-type': 'text/javascript' }, body: script },
    },
  },
});
const browser = await chromium.launch({ executablePath: CHROMIUM, args: [`--host-resolver-rules=${HOST_RULES}`, '--no-sandbox'] });
const runs: Array<Record<keyof typeof MODES, ScaleFigures>> = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const page = await browser.newPage();
    page.on('console', (m) => m.type() === 'error' && console.error(m.text()));
    await page.goto(server.url('scale.test', '/'));
    const figures = {} as Record<keyof typeof MODES, ScaleFigures>;
    // Alternate which goes first, so neither always runs on a warmer page.
    const order = (run % 2 === 0 ? ['rows', 'blocks'] : ['blocks', 'rows']) as Array<keyof typeof MODES>;
    for (const mode of order) {
      figures[mode] = await page.evaluate(
        ([n, c, min, tag]) => (globalThis as unknown as { scaleRun: (n: number, c: number, min: number, tag: string) => Promise<ScaleFigures> }).scaleRun(n, c, min, tag),
        [LINKS, CLAIMS, MODES[mode] === Infinity ? Number.MAX_SAFE_INTEGER : MODES[mode], `${mode}-${Date.now()}`] as const,
      );
      console.log(`run ${run + 1} ${mode}: write ${figures[mode].writeMs.toFixed(0)} ms, ${CLAIMS} claims ${figures[mode].claimMs.toFixed(0)} ms, resume ${figures[mode].resumeMs.toFixed(0)} ms, ${figures[mode].rows} rows`);
    }
    runs.push(figures);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const medians = Object.fromEntries(
  (Object.keys(MODES) as Array<keyof typeof MODES>).map((mode) => [mode, { writeMs: median(runs.map((r) => r[mode].writeMs)), classifyMs: median(runs.map((r) => r[mode].classifyMs)), claimMs: median(runs.map((r) => r[mode].claimMs)), resumeMs: median(runs.map((r) => r[mode].resumeMs)), rows: median(runs.map((r) => r[mode].rows)) }]),
);
const results = { date: new Date().toISOString(), links: LINKS, claims: CLAIMS, runs, medians, machine: '2 cores', note: arg('note', '') };
mkdirSync('bench/results', { recursive: true });
const file = arg('out', `bench/results/scale-${results.date.slice(0, 10)}.json`);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nA page with ${LINKS} links through the crawl's PageWriter and Frontier, headless Chromium IndexedDB (median of ${RUNS})\n`);
console.log(`| frontier | write its batch, ms | of which classifying the links | next ${CLAIMS} claims, ms | restart init, ms | rows after |\n|---|---:|---:|---:|---:|---:|`);
for (const [mode, m] of Object.entries(medians)) console.log(`| ${mode === 'rows' ? 'a row per URL (before)' : 'link blocks'} | ${m.writeMs.toFixed(0)} | ${m.classifyMs.toFixed(0)} | ${m.claimMs.toFixed(0)} | ${m.resumeMs.toFixed(0)} | ${m.rows} |`);
console.log(`\nWrote ${file}`);
