/**
 * Generate time in Node: a corpus's pages (converted once with linkedom, as a crawl stores them)
 * through generateOutputs (llms.txt, llms-full.txt, every plain body counted) and
 * buildOutputFiles (the nested files, each file's llms-full.txt counted with its lean links),
 * cold: no counts kept from an earlier generation, as after a first crawl. CPU ms per run.
 *
 *   npx tsx bench/generate.ts [--corpus python] [--runs 5] [--pair <other checkout>/lib]
 *
 * `--pair` loads the generator from another checkout's lib/ too, runs both interleaved, and
 * checks that both write the same files with the same counts. Prints a table and writes
 * bench/results/generate-<date>.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { convertHtml, type NavLink } from '../lib/convert/convert-page';
import { linkedomAdapter } from '../lib/convert/dom';
import type { SourcePage } from '../lib/generate/types';
import type { GeneratedOutput } from '../lib/generate/types';
import type { OutputFiles } from '../lib/generate/output-files';
import { arg, corpora, htmlFilesOf } from './harness';

const corpus = arg('corpus', 'python');
const runs = Number(arg('runs', '5'));
const pair = arg('pair', '');
const dirFn = corpora()[corpus]?.dir;
if (!dirFn) throw new Error(`Corpus ${corpus} has no files on disk; use python or node.`);
const dir = dirFn();
const origin = 'https://docs.example.test';

// The pages as a crawl of the corpus stores them (fewer fields: what the generator reads).
const files = htmlFilesOf(dir);
let nav: NavLink[] = [];
const startUrl = `${origin}/index.html`;
const pages: SourcePage[] = files.map((file) => {
  const url = `${origin}${file.slice(dir.length)}`;
  const page = convertHtml(readFileSync(file, 'utf8'), url, linkedomAdapter, { startPage: url === startUrl });
  if (url === startUrl) nav = page.navLinks;
  return { key: url, url, finalUrl: url, title: page.title, ...(page.description ? { description: page.description } : {}), markdown: page.markdown, depth: 1, format: 'html', state: 'stored' };
});

interface Generator {
  generateOutputs(input: unknown): GeneratedOutput;
  buildOutputFiles(input: unknown): OutputFiles;
  BodyCounts: new (stored?: Map<string, unknown>, count?: (text: string) => number) => { misses: number };
  normalizeOutputSettings(input: undefined): unknown;
  /** The caching counter generateForSite shares between both steps, where the lib has one. */
  segmentCounter?: () => (text: string) => number;
}

async function load(lib: string): Promise<Generator> {
  const [g, o, b, s] = await Promise.all(['generate/generate.ts', 'generate/output-files.ts', 'generate/body-counts.ts', 'generate/output-settings.ts'].map((p) => import(resolve(lib, p))));
  const segments = await import(resolve(lib, 'generate/segment-count.ts')).catch(() => undefined);
  return { generateOutputs: g.generateOutputs, buildOutputFiles: o.buildOutputFiles, BodyCounts: b.BodyCounts, normalizeOutputSettings: s.normalizeOutputSettings, segmentCounter: segments?.segmentCounter };
}

const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

/** One cold generation: generateOutputs then buildOutputFiles, as generateForSite (run-generate.ts) runs them. */
function generateOnce(gen: Generator) {
  let started = process.cpuUsage();
  const count = gen.segmentCounter?.();
  const output = gen.generateOutputs({ startUrl, pages, nav, generatedAt: new Date('2026-11-23T00:00:00Z'), ...(count ? { countTokens: count } : {}) });
  const outputsMs = cpuMs(started);
  started = process.cpuUsage();
  const counts = count ? new gen.BodyCounts(new Map(), count) : new gen.BodyCounts();
  const files = gen.buildOutputFiles({ model: output, flatText: output.llmsTxt, fullText: output.llmsFullTxt, origin, settings: gen.normalizeOutputSettings(undefined), counts, plainCounts: output.fullTokens });
  const filesMs = cpuMs(started);
  const summary = files.files.map((f) => `${f.path} ${f.chars} ${f.tokens} ${f.full.chars} ${f.full.tokens} ${f.full.pages}`).join('\n');
  return { outputsMs, filesMs, totalMs: outputsMs + filesMs, misses: counts.misses, files: files.files.length, fullTokens: output.tokens.llmsFullTxt, summary };
}

const libs: Record<string, string> = pair ? { baseline: resolve(pair), current: resolve('lib') } : { current: resolve('lib') };
const generators = Object.fromEntries(await Promise.all(Object.entries(libs).map(async ([label, lib]) => [label, await load(lib)] as const)));
const results: Record<string, Array<ReturnType<typeof generateOnce>>> = {};
for (let run = -1; run < runs; run++) {
  for (const [label, gen] of Object.entries(generators)) {
    const result = generateOnce(gen);
    if (run >= 0) (results[label] ??= []).push(result);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;
const summaries = new Set(Object.values(results).map((r) => r[0]?.summary));
console.log(`\n${corpus}: ${pages.length} pages, cold generation, CPU ms (median of ${runs} runs, Node ${process.version})`);
console.log('| lib | generateOutputs | buildOutputFiles | total | bodies tokenized in buildOutputFiles | files | llms-full.txt tokens |\n|---|---:|---:|---:|---:|---:|---:|');
const table: Record<string, unknown> = {};
for (const [label, rs] of Object.entries(results)) {
  const row = { generateOutputsMs: median(rs.map((r) => r.outputsMs)), buildOutputFilesMs: median(rs.map((r) => r.filesMs)), totalMs: median(rs.map((r) => r.totalMs)), runsTotalMs: rs.map((r) => Math.round(r.totalMs)), misses: rs[0]?.misses, files: rs[0]?.files, fullTokens: rs[0]?.fullTokens };
  table[label] = row;
  console.log(`| ${label} | ${row.generateOutputsMs.toFixed(0)} | ${row.buildOutputFilesMs.toFixed(0)} | ${row.totalMs.toFixed(0)} | ${row.misses} | ${row.files} | ${row.fullTokens} |`);
}
if (pair) console.log(summaries.size === 1 ? '\nBoth write the same files with the same sizes and counts.' : '\nThe files DIFFER between the two.');
mkdirSync('bench/results', { recursive: true });
const date = new Date().toISOString();
const out = arg('out', `bench/results/generate-${date.slice(0, 10)}.json`);
writeFileSync(out, `${JSON.stringify({ date, corpus, pages: pages.length, runs, node: process.version, libs, sameOutput: pair ? summaries.size === 1 : undefined, results: table }, null, 2)}\n`);
console.log(`Wrote ${out}`);
