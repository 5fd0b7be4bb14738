/**
 * The CLI's crawl speed on real documentation, next to a peer a user could pick instead: `scout
 * generate <start url> --out <dir>` from the built CLI (scripts/build-cli.mjs) against crawlee's
 * CheerioCrawler + turndown writing each page's Markdown to disk (bench/cli-peer.ts: same start
 * URL, same page limit, same concurrency as Scout's per-host default, same-origin links only).
 * Both crawl a corpus served by the loopback fixture server; runs interleaved, each in its own
 * child process, so every figure is that process's own: wall (spawn to exit), CPU (user + system,
 * getrusage of the child as it exits), peak RSS (ru_maxrss), pages stored, CPU per page. Prints a
 * Markdown table (medians, then each run); writes bench/results/cli-<date>.json (or --out).
 *
 * Run: npm run bench:cli [-- --runs 3]
 *   --corpus python          a corpus of bench/harness.ts with files on disk (python, node)
 *   --runs 3                 runs of each contender, interleaved
 *   --max-pages 10000        the page limit of both (the whole corpus by default)
 *   --cli <file>[,<file>]    the built CLI(s) to measure (default .output/cli/scout.js); a baseline
 *                            worktree's bundle next to this one measures both in one run. Each runs
 *                            as `node <flags> <file>`, its flags those its build recorded for generate
 *                            (inputs.json's generateNodeFlags: cli/bin.mjs starts generate with them)
 *                            and any more written after the file: <file>@--max-semi-space-size=32
 *   --label <name>[,<name>]  their names in the table (default "this build" / the file)
 *   --no-peer                the CLI(s) only
 *   --latency 80             the fixture server's time to first byte (bench/harness.ts networkFromArgs)
 *   --profile <dir>          after the runs, one more CLI run under `node --cpu-prof` from a checkout's
 *                            TypeScript (through tsx, so frames name their source files, with the linkedom
 *                            patches the bundle has: bench/linkedom-patched.mjs), its profile written to
 *                            <dir> and summed by step of the page pipeline (bench/cli-figures.ts)
 *   --profile-source <dir>   the checkout profiled (default this one; a worktree holds a revision still)
 *   --out <file>             where the JSON goes
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { DEFAULT_SETTINGS } from '../lib/crawl/settings';
import { startFixtureServer } from '../tests/fixtures/server';
import { medians, parseUsage, runFigures, splitProfile, USAGE_WRAPPER, type CpuProfile, type RunFigures } from './cli-figures';
import { arg, corpora, networkFromArgs } from './harness';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(arg('runs', '3'));
const CORPUS = arg('corpus', 'python');
const MAX_PAGES = Number(arg('max-pages', '10000'));
const NETWORK = networkFromArgs();
const CONCURRENCY = DEFAULT_SETTINGS.perHostConcurrency;
const PROFILE_DIR = process.argv.includes('--profile') ? resolve(arg('profile', 'cli-profile')) : undefined;
const PROFILE_SOURCE = resolve(arg('profile-source', ROOT));
const cliSpecs = arg('cli', join(ROOT, '.output/cli/scout.js')).split(',').map((f) => f.split('@'));
const cliFiles = cliSpecs.map(([file]) => resolve(file ?? ''));
/** The Node flags the bin runs `scout generate` with, as the bundle's build recorded them (none before they were). */
const generateNodeFlags = (file: string): string[] => {
  const inputs = join(file, '..', 'inputs.json');
  return existsSync(inputs) ? ((JSON.parse(readFileSync(inputs, 'utf8')) as { generateNodeFlags?: string[] }).generateNodeFlags ?? []) : [];
};
const cliFlags = cliSpecs.map(([file, ...flags]) => [...generateNodeFlags(resolve(file ?? '')), ...flags]);
const labels = process.argv.includes('--label') ? arg('label', '').split(',') : cliFiles.length === 1 ? ['this build'] : cliFiles;
if (labels.length !== cliFiles.length) throw new Error('--label needs one name per --cli file');
for (const file of cliFiles) if (!existsSync(file)) throw new Error(`${file} does not exist: build the CLI first (npm run build:cli)`);
const corpus = corpora()[CORPUS];
if (!corpus?.dir) throw new Error(`Corpus ${CORPUS} has no files on disk; use python or node.`);

// The CLI runs in a child process, which cannot use the tests' loopback resolver for *.test names:
// the corpus is served as 127.0.0.1 itself, a private start the CLI's network guard allows.
const HOST = '127.0.0.1';
const server = await startFixtureServer({ [HOST]: corpus.site() }, NETWORK ? { network: NETWORK } : {});
const startUrl = server.url(HOST, corpus.start);
const work = mkdtempSync(join(tmpdir(), 'scout-bench-cli-'));
const wrapper = join(work, 'usage.mjs');
writeFileSync(wrapper, USAGE_WRAPPER);

// The peer bundled once (its packages left in node_modules), so no TypeScript transform is in its figures.
const peerBundle = join(ROOT, '.output/bench/cli-peer.mjs');
await build({ entryPoints: [join(ROOT, 'bench/cli-peer.ts')], outfile: peerBundle, bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });

interface Contender {
  name: string;
  args: (out: string) => string[];
  /** Pages stored, from the child's stdout. */
  pages: (stdout: string) => number;
}

const scoutArgs = (out: string) => ['generate', startUrl, '--out', out, '--max-pages', String(MAX_PAGES), '--max-depth', '50', '--json', '--quiet'];
const scoutPages = (stdout: string) => {
  const result = JSON.parse(stdout) as { crawl?: { stored?: number } };
  return result.crawl?.stored ?? 0;
};
const contenders: Contender[] = [
  ...cliFiles.map((file, i) => ({ name: `Scout CLI (${labels[i]})`, args: (out: string) => [...(cliFlags[i] ?? []), file, ...scoutArgs(out)], pages: scoutPages })),
  ...(process.argv.includes('--no-peer')
    ? []
    : [{ name: 'crawlee CheerioCrawler + turndown', args: (out: string) => [peerBundle, startUrl, out, String(MAX_PAGES), String(CONCURRENCY)], pages: (stdout: string) => (JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { pages?: number }).pages ?? 0 }]),
];

/** One child: `node --import <usage wrapper> [nodeArgs] <args>`, timed from spawn to exit. */
async function runChild(args: string[], nodeArgs: string[] = [], cwd = ROOT): Promise<{ wallMs: number; stdout: string; usageFile: string; requests: number }> {
  const usageFile = join(work, `usage-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const before = server.requests.length;
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', pathToFileURL(wrapper).href, ...nodeArgs, ...args], { cwd, env: { ...process.env, SCOUT_BENCH_USAGE: usageFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const wallMs = performance.now() - started;
  // Exit 1 is a crawl with findings (a failed URL, an llms.txt lint error): still a measured run.
  if (code !== 0 && code !== 1) throw new Error(`${args.join(' ')} exited ${code}:\n${stderr.slice(-2000)}`);
  return { wallMs, stdout, usageFile, requests: server.requests.length - before };
}

const results = new Map<string, Array<RunFigures & { requests: number }>>(contenders.map((c) => [c.name, []]));
console.log(`${CORPUS} docs at ${startUrl}, ${RUNS} runs each, interleaved, concurrency ${CONCURRENCY}, page limit ${MAX_PAGES}${NETWORK ? `, latency ${NETWORK.latencyMs} ms` : ', loopback'} (Node ${process.version})`);
for (let run = 0; run < RUNS; run++) {
  for (const contender of contenders) {
    const out = join(work, `out-${run}-${contenders.indexOf(contender)}`);
    const child = await runChild(contender.args(out));
    const figures = { ...runFigures(child.wallMs, parseUsage(readFileSync(child.usageFile, 'utf8')), contender.pages(child.stdout)), requests: child.requests };
    results.get(contender.name)?.push(figures);
    rmSync(out, { recursive: true, force: true });
    console.log(`  run ${run + 1}, ${contender.name}: ${(figures.wallMs / 1000).toFixed(1)} s wall, ${(figures.cpuMs / 1000).toFixed(1)} s CPU, ${figures.pages} pages, ${figures.cpuPerPageMs.toFixed(0)} ms/page, ${figures.peakRssMb.toFixed(0)} MB peak, ${figures.requests} requests`);
  }
}

const s1 = (ms: number) => (ms / 1000).toFixed(1);
const lines = [
  '',
  `| ${CORPUS} docs, crawl + convert + write | pages | wall s (median) | CPU s | CPU per page ms | peak RSS MB | runs: wall s / CPU ms per page |`,
  '|---|---:|---:|---:|---:|---:|---|',
];
const summary: Record<string, unknown> = {};
for (const [name, runs] of results) {
  const m = medians(runs);
  summary[name] = { median: m, runs };
  lines.push(`| ${name} | ${m.pages} | ${s1(m.wallMs)} | ${s1(m.cpuMs)} | ${m.cpuPerPageMs.toFixed(0)} | ${m.peakRssMb.toFixed(0)} | ${runs.map((r) => `${s1(r.wallMs)} / ${r.cpuPerPageMs.toFixed(0)}`).join(', ')} |`);
}
console.log(lines.join('\n'));

let profile: unknown;
if (PROFILE_DIR) {
  // This checkout's TypeScript through tsx: every frame then names its source file, which the bundle's chunks do not.
  rmSync(PROFILE_DIR, { recursive: true, force: true });
  mkdirSync(PROFILE_DIR, { recursive: true });
  const out = join(work, 'out-profile');
  const child = await runChild([join(PROFILE_SOURCE, 'cli/scout.ts'), ...scoutArgs(out)], ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR, '--import', 'tsx', '--import', pathToFileURL(join(ROOT, 'bench/linkedom-patched.mjs')).href], PROFILE_SOURCE);
  const pages = scoutPages(child.stdout);
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread (tsx's loader hooks run on another).
  const file = readdirSync(PROFILE_DIR).find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  if (!file) throw new Error(`no .cpuprofile in ${PROFILE_DIR}`);
  const split = splitProfile(JSON.parse(readFileSync(join(PROFILE_DIR, file), 'utf8')) as CpuProfile, PROFILE_SOURCE);
  const perPage = (ms: number) => (pages ? ms / pages : Number.NaN).toFixed(1);
  const pc = (ms: number) => `${((100 * ms) / split.totalMs).toFixed(0)}%`;
  console.log(`\nWhere the CLI's CPU goes (one run under --cpu-prof through tsx from ${PROFILE_SOURCE}, ${pages} pages, ${s1(split.totalMs)} s sampled on the main thread; ${join(PROFILE_DIR, file)})`);
  // Steps under half a percent each, summed in one row: the table stays readable.
  const minor = split.steps.filter((s) => s.ms < split.totalMs / 200);
  const stepRows = [...split.steps.filter((s) => !minor.includes(s)), ...(minor.length ? [{ step: `${minor.length} others, each under 0.5%`, ms: minor.reduce((n, s) => n + s.ms, 0) }] : [])];
  console.log(['| step (innermost frame of the project or a known package) | ms per page | share |', '|---|---:|---:|', ...stepRows.map((s) => `| ${s.step} | ${perPage(s.ms)} | ${pc(s.ms)} |`)].join('\n'));
  console.log(['\n| where it ran (the leaf frame) | ms per page | share |', '|---|---:|---:|', ...split.sources.slice(0, 15).map((s) => `| ${s.source} | ${perPage(s.ms)} | ${pc(s.ms)} |`)].join('\n'));
  console.log(['\n| function (self time) | ms per page | share |', '|---|---:|---:|', ...split.functions.map((f) => `| ${f.name.replaceAll('|', '\\|')} | ${perPage(f.ms)} | ${pc(f.ms)} |`)].join('\n'));
  profile = { pages, file: join(PROFILE_DIR, file), ...split };
  rmSync(out, { recursive: true, force: true });
}

await server.close();
rmSync(work, { recursive: true, force: true });
const date = new Date().toISOString();
const outFile = arg('out', `bench/results/cli-${date.slice(0, 10)}.json`);
mkdirSync(resolve(outFile, '..'), { recursive: true });
writeFileSync(outFile, `${JSON.stringify({ date, corpus: CORPUS, startUrl, runs: RUNS, maxPages: MAX_PAGES, concurrency: CONCURRENCY, network: NETWORK ?? null, node: process.version, cli: Object.fromEntries(cliFiles.map((f, i) => [labels[i], f])), results: summary, profile }, null, 2)}\n`);
console.log(`Wrote ${outFile}`);
