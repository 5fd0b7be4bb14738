/**
 * Generation's CPU alone, per page: a corpus's pages are converted once (linkedom, as a crawl
 * stores them), then generateOutputs and buildOutputFiles run cold N times, as generateForSite
 * runs them at the end of a crawl (the tokenizer's merge cache emptied first, as in a new
 * process). With --pair <other checkout>/lib both generators run interleaved in one process, in
 * turns (A B, B A, …), and every written file (llms.txt, llms-full.txt, each nested file and its
 * llms-full.txt) is compared byte for byte.
 *
 *   npx tsx bench/generate-cpu.ts --sites python,node,sphinx-doc [--runs 5] [--pair /tmp/wt/lib] [--cache /tmp/gen-pages] [--out f.json]
 *
 * Sites are python, node, or a matrix id (.cache/matrix/<id>). Prints a table; writes JSON to --out.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { clearMergeCache } from 'gpt-tokenizer';
import { convertHtml, type NavLink } from '../lib/convert/convert-page';
import { linkedomAdapter } from '../lib/convert/dom';
import type { GeneratedOutput, SourcePage } from '../lib/generate/types';
import type { OutputFiles } from '../lib/generate/output-files';
import { arg, corpora, htmlFilesOf } from './harness';

const sites = arg('sites', 'python').split(',').filter(Boolean);
const runs = Number(arg('runs', '5'));
const pair = arg('pair', '');
const cacheDir = arg('cache', '');
const origin = 'https://docs.example.test';

interface Site {
  pages: SourcePage[];
  nav: NavLink[];
  startUrl: string;
}

function siteFolder(id: string): { dir: string; start: string } {
  const dir = corpora()[id]?.dir?.();
  if (dir) return { dir, start: '/index.html' };
  const entry = resolve('.cache/matrix', id, 'entry.json');
  if (!existsSync(entry)) throw new Error(`No corpus or matrix site ${id}`);
  const { root, startPath } = JSON.parse(readFileSync(entry, 'utf8')) as { root: string; startPath: string };
  return { dir: root, start: startPath.endsWith('/') ? `${startPath}index.html` : startPath };
}

/**
 * The pages as a crawl of the folder stores them (the fields the generator reads). With
 * --cache <dir> the converted pages are kept there, so reruns time generation in seconds.
 */
function loadSite(id: string): Site {
  const cached = cacheDir ? resolve(cacheDir, `${id}.json`) : '';
  if (cached && existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as Site;
  const site = convertSite(id);
  if (cached) {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(cached, JSON.stringify(site));
  }
  return site;
}

function convertSite(id: string): Site {
  const { dir, start } = siteFolder(id);
  const startUrl = `${origin}${start}`;
  let nav: NavLink[] = [];
  const pages = htmlFilesOf(dir).map((file): SourcePage => {
    const url = `${origin}${file.slice(dir.length)}`;
    const page = convertHtml(readFileSync(file, 'utf8'), url, linkedomAdapter, { startPage: url === startUrl });
    if (url === startUrl) nav = page.navLinks;
    return { key: url, url, finalUrl: url, title: page.title, ...(page.description ? { description: page.description } : {}), markdown: page.markdown, depth: 1, format: 'html', state: 'stored' };
  });
  return { pages, nav, startUrl };
}

interface Generator {
  generateOutputs(input: unknown): GeneratedOutput;
  buildOutputFiles(input: unknown): OutputFiles;
  fileFullText(fullText: string, files: OutputFiles, file: OutputFiles['files'][number], origin: string): string;
  BodyCounts: new (stored?: Map<string, unknown>, count?: (text: string) => number) => unknown;
  normalizeOutputSettings(input: undefined): unknown;
  segmentCounter: () => (text: string) => number;
}

async function load(lib: string): Promise<Generator> {
  const [g, o, b, s, c] = await Promise.all(['generate/generate.ts', 'generate/output-files.ts', 'generate/body-counts.ts', 'generate/output-settings.ts', 'generate/segment-count.ts'].map((p) => import(resolve(lib, p))));
  return { generateOutputs: g.generateOutputs, buildOutputFiles: o.buildOutputFiles, fileFullText: o.fileFullText, BodyCounts: b.BodyCounts, normalizeOutputSettings: s.normalizeOutputSettings, segmentCounter: c.segmentCounter };
}

const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

/** One cold generation as generateForSite runs it; the digest covers every byte written. */
function generateOnce(gen: Generator, site: Site) {
  // The tokenizer keeps the merges of the words it has seen for the life of the process; a CLI
  // run generates once, with none of them, and both checkouts share the one package instance.
  clearMergeCache();
  const started = process.cpuUsage();
  const count = gen.segmentCounter();
  const output = gen.generateOutputs({ startUrl: site.startUrl, pages: site.pages, nav: site.nav, generatedAt: new Date('2026-11-23T00:00:00Z'), countTokens: count });
  const outputsMs = cpuMs(started);
  const counts = new gen.BodyCounts(new Map(), count);
  const files = gen.buildOutputFiles({ model: output, flatText: output.llmsTxt, fullText: output.llmsFullTxt, origin, settings: gen.normalizeOutputSettings(undefined), counts, plainCounts: output.fullTokens });
  const totalMs = cpuMs(started);
  const hash = createHash('sha256');
  // Everything a version stores: both files, every nested file and its llms-full.txt, and the counts.
  hash.update(output.llmsTxt).update('\0').update(output.llmsFullTxt).update('\0').update(JSON.stringify([output.tokens, output.sections, [...output.fullTokens]]));
  hash.update(JSON.stringify(files.index));
  for (const f of files.files) hash.update(`\0${f.path}\0${f.text}\0${gen.fileFullText(output.llmsFullTxt, files, f, origin)}\0${JSON.stringify(f)}`);
  return { outputsMs, totalMs, digest: hash.digest('hex'), files: files.files.length };
}

const libs: Record<string, string> = pair ? { baseline: resolve(pair), current: resolve('lib') } : { current: resolve('lib') };
const generators = Object.fromEntries(await Promise.all(Object.entries(libs).map(async ([label, lib]) => [label, await load(lib)] as const)));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? Number.NaN;
const report: Record<string, unknown> = {};
let differ = false;
console.log(`Cold generation, CPU ms per page (median of ${runs} runs after one warm-up, Node ${process.version})`);
console.log('| site | pages | lib | generateOutputs ms/page | + buildOutputFiles ms/page (range) | files | digest |\n|---|---:|---|---:|---:|---:|---|');
for (const id of sites) {
  const site = loadSite(id);
  const results: Record<string, Array<ReturnType<typeof generateOnce>>> = {};
  const order = Object.entries(generators);
  for (let run = -1; run < runs; run++) {
    // Each run reverses the order, so neither generator always runs on the heap and caches the
    // other left behind.
    for (const [label, gen] of run % 2 === 0 ? order : [...order].reverse()) {
      const result = generateOnce(gen, site);
      if (run >= 0) (results[label] ??= []).push(result);
    }
  }
  const rows: Record<string, unknown> = {};
  for (const [label, rs] of Object.entries(results)) {
    const perPage = (ms: number[]) => ms.map((m) => m / site.pages.length);
    const totals = perPage(rs.map((r) => r.totalMs));
    const row = { outputsMsPerPage: median(perPage(rs.map((r) => r.outputsMs))), totalMsPerPage: median(totals), totalMsPerPageRange: [Math.min(...totals), Math.max(...totals)], files: rs[0]?.files, digest: rs[0]?.digest };
    rows[label] = row;
    const range = `${row.totalMsPerPageRange[0]?.toFixed(2)}–${row.totalMsPerPageRange[1]?.toFixed(2)}`;
    console.log(`| ${id} | ${site.pages.length} | ${label} | ${row.outputsMsPerPage.toFixed(2)} | ${row.totalMsPerPage.toFixed(2)} (${range}) | ${row.files} | ${row.digest?.slice(0, 12)} |`);
  }
  const digests = new Set(Object.values(results).map((r) => r[0]?.digest));
  if (pair && digests.size !== 1) differ = true;
  report[id] = { pages: site.pages.length, sameOutput: pair ? digests.size === 1 : undefined, results: rows };
}
if (pair) console.log(differ ? '\nOutputs DIFFER between the two.' : '\nEvery site: both write byte-identical files.');
if (differ) process.exitCode = 1;
const out = arg('out', '');
if (out) {
  writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), runs, node: process.version, libs, sites: report }, null, 2)}\n`);
  console.log(`Wrote ${out}`);
}
