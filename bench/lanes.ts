/**
 * What one page costs each converter in Chromium: the offscreen document's native DOMParser and
 * linkedom (what the conversion workers run, with the bundle's linkedom patches), both on one
 * page's main thread, over the same pages, passes alternating, after a warm-up pass each.
 * Wall time of a thread that does nothing else, so it includes the garbage collection the
 * conversion causes on that thread (not the GC helper threads).
 *
 * Each converter also parses alone, the part of its cost that is the parser's.
 *
 * Run: npx tsx bench/lanes.ts [--corpus python,node] [--runs 3] [--out file] [--pair <other checkout>]
 * `--pair`: that checkout's lib/ too (as the baseline), passes interleaved; copy bench/lanes-page.ts into it first.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { chromium } from '@playwright/test';
import { startFixtureServer } from '../tests/fixtures/server';
import { CHROMIUM, HOST_RULES } from '../tests/e2e/browser';
import { arg, corpora, htmlFilesOf } from './harness';
import { SOURCE_PATCHES } from '../scripts/source-patches';

const RUNS = Number(arg('runs', '3'));
const NAMES = arg('corpus', 'python,node').split(',');
const LANES = ['native', 'linkedom', 'native parse', 'linkedom parse'] as const;

/** The extension bundle's build-time patches (scripts/source-patches.ts), for esbuild: each only for a checkout that has it. */
const patches = (has: (script: string) => boolean): Plugin => ({
  name: 'source-patches',
  setup(b) {
    for (const { name, module, patch } of SOURCE_PATCHES) {
      if (has(name)) b.onLoad({ filter: module }, (a) => ({ contents: patch(readFileSync(a.path, 'utf8')), loader: 'js' }));
    }
  },
});
/** This checkout's page script, and with --pair <checkout> that checkout's (copy bench/lanes-page.ts there first). */
const pair = arg('pair', '');
const entries: Record<string, string> = { current: fileURLToPath(new URL('./lanes-page.ts', import.meta.url)), ...(pair ? { baseline: `${pair}/bench/lanes-page.ts` } : {}) };
const bundles: Record<string, string> = {};
for (const [label, entry] of Object.entries(entries)) {
  // Each build as its checkout ships it: each patch where that checkout has it.
  const has = (script: string) => existsSync(`${entry.replace(/bench[\\/]lanes-page\.ts$/, '')}scripts/${script}.ts`);
  const out = await build({ entryPoints: [entry], bundle: true, format: 'iife', platform: 'browser', write: false, logLevel: 'error', plugins: [patches(has)], define: { 'process.env.NODE_ENV': '"production"' } });
  bundles[label] = out.outputFiles[0]?.text ?? '';
}
const all = corpora();
const sites: Record<string, { dir: string }> = {};
for (const name of NAMES) {
  const dir = all[name]?.dir?.();
  if (!dir) throw new Error(`Corpus ${name} has no files on disk`);
  sites[`${name}.lanes.test`] = { dir };
}
const server = await startFixtureServer({
  ...sites,
});
const browser = await chromium.launch({ executablePath: CHROMIUM, args: [`--host-resolver-rules=${HOST_RULES}`, '--no-sandbox'] });
const results: Record<string, Record<string, number[]>> = {};
try {
  for (const name of NAMES) {
    const dir = sites[`${name}.lanes.test`]?.dir ?? '';
    // Same origin as the page, so fetch needs no CORS: the corpus is served under the page's host too.
    const urls = htmlFilesOf(dir).map((f) => server.url(`${name}.lanes.test`, f.slice(dir.length)));
    // One page per bundle (a fresh realm each), on the corpus's origin.
    const pages: Record<string, Awaited<ReturnType<typeof browser.newPage>>> = {};
    for (const [label, code] of Object.entries(bundles)) {
      const page = await browser.newPage();
      await page.goto(server.url(`${name}.lanes.test`, '/'));
      await page.addScriptTag({ content: code });
      pages[label] = page;
    }
    for (let run = -1; run < RUNS; run++) {
      const order = run % 2 === 0 ? LANES : [...LANES].reverse();
      for (const lane of order) {
        for (const [label, page] of Object.entries(pages)) {
          const r = await page.evaluate(([u, l]) => (globalThis as unknown as { lanesRun: (u: string[], l: string) => Promise<{ ms: number; pages: number }> }).lanesRun(u, l), [urls, lane] as const);
          if (run < 0) continue; // warm-up: JIT
          ((results[`${name} ${label}`] ??= {})[lane] ??= []).push(r.ms / r.pages);
          console.log(`${name} ${label} run ${run + 1} ${lane}: ${(r.ms / r.pages).toFixed(1)} ms/page (${r.pages} pages)`);
        }
      }
    }
    for (const page of Object.values(pages)) await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const medians = Object.fromEntries(Object.entries(results).map(([c, lanes]) => [c, Object.fromEntries(Object.entries(lanes).map(([l, xs]) => [l, Number(median(xs).toFixed(1))]))]));
console.log('\n| corpus | native: convertHtml | of which parsing | linkedom (patched): convertHtml | of which parsing |\n|---|---:|---:|---:|---:|');
for (const [c, m] of Object.entries(medians)) console.log(`| ${c} | ${m.native} | ${m['native parse']} | ${m.linkedom} | ${m['linkedom parse']} |`);
const out = arg('out', `bench/results/lanes-${new Date().toISOString().slice(0, 10)}.json`);
mkdirSync('bench/results', { recursive: true });
writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), command: `npx tsx bench/lanes.ts ${process.argv.slice(2).join(' ')}`, runs: RUNS, results, medians, note: arg('note', '') }, null, 2)}\n`);
console.log(`\nWrote ${out}`);
