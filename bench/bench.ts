/**
 * `npm run bench`: the figures of issue 33's "Done when" in one run, this build beside a baseline,
 * interleaved run by run. Three measurements of the Python docs, each its own script with its
 * builds alternating (base, new, base, new…):
 *   loopback   bench/crawl.ts — all-Chromium CPU per page, wall ÷ the same-browser floor
 *   latency    bench/crawl.ts --latency 80 — wall ÷ the politeness floor
 *   cli        bench/cli.ts — the CLI's CPU per page, peak memory and wall, against crawlee + turndown
 * Then a table: each criterion, its target, the base and new figures, pass or fail for the new
 * build (bench/done-when.ts), printed and written to bench/results/bench-<date>.json and .md.
 *
 * Run: npm run bench -- --baseline <git rev> [--runs 3]
 *   --baseline <rev>          builds that revision's E2E extension and CLI bundle in a git worktree under
 *                             .cache/bench-baseline/<commit> (node_modules linked to this checkout's), once per commit
 *   --baseline-extension <dir> --baseline-cli <file>   builds already made (a .output/chrome-mv3-e2e folder; the
 *                             scout.js of a .output/cli folder, its chunks beside it), instead of --baseline
 *   --runs 3                  runs of each build per measurement; --loopback-runs, --latency-runs, --cli-runs per part
 *   --latency 80              the shaped run's time to first byte, ms
 *   --parts loopback,latency,cli   which measurements to run (rows of the others read "not measured")
 *   --out <path>              where the table goes: <path>.json and <path>.md (default bench/results/bench-<date>)
 *   --work <dir>              each measurement's own results file (default a new folder under .cache/bench-runs/);
 *                             a measurement whose file is already there is read, not run again
 *   --no-build                measure .output/ as it is (default: npm run build:e2e and the CLI bundle first)
 *   --note <text>             what else ran on the machine, kept with the figures
 * No baseline is the default: the table then shows this build alone. A revision written in this file
 * would hold for one issue and then silently compare against an old build; the revision before a
 * change is the caller's to name.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { measuredCommit } from './commit';
import {
  allPass,
  cliFigures,
  detailsTable,
  doneWhenRows,
  doneWhenTable,
  EMPTY_FIGURES,
  ISSUE_33,
  latencyFigures,
  loopbackFigures,
  parseBenchArgs,
  peerFigures,
  type BuildFigures,
  type Part,
} from './done-when';

const ROOT = resolve(import.meta.dirname, '..');
const CORPUS = 'python';
const args = parseBenchArgs(process.argv.slice(2));
const started = new Date();
const stamp = started.toISOString().replace(/[:.]/g, '-');

/** A command in `cwd`, its output shown as it runs; throws on a non-zero exit. */
async function run(command: string, argv: string[], cwd = ROOT, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  console.log(`\n$ ${command} ${argv.join(' ')}${cwd === ROOT ? '' : `   (in ${cwd})`}`);
  const child = spawn(command, argv, { cwd, env, stdio: 'inherit' });
  const code = await new Promise<number | null>((done) => child.on('close', done));
  if (code !== 0) throw new Error(`${command} ${argv.join(' ')} exited ${code}`);
}

const git = (...a: string[]) => execFileSync('git', a, { cwd: ROOT, encoding: 'utf8' }).trim();

interface Build {
  label: 'base' | 'new';
  /** What was built: a commit, or the folders given. */
  source: string;
  extension: string;
  cli: string;
}

/**
 * The baseline revision's builds, made once per commit in a worktree that links this checkout's
 * node_modules: a revision whose dependencies differ is built with today's (say so in the note).
 */
async function baselineBuild(rev: string): Promise<Build> {
  const commit = git('rev-parse', '--verify', `${rev}^{commit}`);
  const dir = join(ROOT, '.cache', 'bench-baseline', commit);
  const extension = join(dir, '.output', 'chrome-mv3-e2e');
  const cli = join(dir, '.output', 'cli', 'scout.js');
  if (!existsSync(join(extension, 'manifest.json')) || !existsSync(cli)) {
    if (!existsSync(join(dir, '.git'))) {
      mkdirSync(dirname(dir), { recursive: true });
      await run('git', ['worktree', 'add', '--detach', dir, commit]);
    }
    if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    if (!existsSync(join(dir, 'scripts', 'build-cli.mjs'))) throw new Error(`${rev} (${commit}) has no scripts/build-cli.mjs: give its builds with --baseline-extension and --baseline-cli`);
    await run('npm', ['run', 'build:e2e'], dir);
    await run(process.execPath, ['scripts/build-cli.mjs'], dir);
  }
  return { label: 'base', source: `${rev} (${commit.slice(0, 10)})`, extension, cli };
}

function givenBaseline(): Build | null {
  if (args.baselineExtension === undefined && args.baselineCli === undefined) return null;
  const extension = resolve(args.baselineExtension ?? '');
  const cliGiven = resolve(args.baselineCli ?? '');
  // A folder stands for the scout.js inside it: the bundle's chunks must sit beside it.
  const cli = args.baselineCli && existsSync(cliGiven) && statSync(cliGiven).isDirectory() ? join(cliGiven, 'scout.js') : cliGiven;
  if (args.baselineExtension && !existsSync(join(extension, 'manifest.json'))) throw new Error(`--baseline-extension ${extension} has no manifest.json`);
  if (args.baselineCli && !existsSync(cli)) throw new Error(`--baseline-cli ${cli} does not exist`);
  return {
    label: 'base',
    source: [args.baselineExtension && `extension ${extension}`, args.baselineCli && `CLI ${cli}`].filter(Boolean).join(', '),
    extension: args.baselineExtension ? extension : '',
    cli: args.baselineCli ? cli : '',
  };
}

await run('bash', ['scripts/fetch-docs.sh']);
const base = args.baseline ? await baselineBuild(args.baseline) : givenBaseline();
if (args.build) {
  await run('npm', ['run', 'build:e2e']);
  await run(process.execPath, ['scripts/build-cli.mjs']);
}
const current: Build = { label: 'new', source: measuredCommit() || 'this checkout', extension: join(ROOT, '.output', 'chrome-mv3-e2e'), cli: join(ROOT, '.output', 'cli', 'scout.js') };

const work = resolve(args.work ?? join(ROOT, '.cache', 'bench-runs', stamp));
mkdirSync(work, { recursive: true });
const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
const crawlBuilds = [...(base?.extension ? [base] : []), current];
const cliBuilds = [...(base?.cli ? [base] : []), current];

/** Each measurement: its script's arguments; its results file in the work folder. */
const measurements: Record<Part, { file: string; argv: string[] }> = {
  loopback: {
    file: join(work, 'crawl-loopback.json'),
    argv: ['bench/crawl.ts', '--corpus', CORPUS, '--runs', String(args.runs.loopback), '--no-refresh', '--no-node-convert', '--extension', crawlBuilds.map((b) => b.extension).join(','), '--label', crawlBuilds.map((b) => b.label).join(',')],
  },
  latency: {
    file: join(work, 'crawl-latency.json'),
    argv: ['bench/crawl.ts', '--corpus', CORPUS, '--runs', String(args.runs.latency), '--no-refresh', '--no-node-convert', '--latency', String(args.latencyMs), '--extension', crawlBuilds.map((b) => b.extension).join(','), '--label', crawlBuilds.map((b) => b.label).join(',')],
  },
  cli: {
    file: join(work, 'cli.json'),
    argv: ['bench/cli.ts', '--corpus', CORPUS, '--runs', String(args.runs.cli), '--cli', cliBuilds.map((b) => b.cli).join(','), '--label', cliBuilds.map((b) => b.label).join(',')],
  },
};

const partResults: Partial<Record<Part, unknown>> = {};
for (const part of args.parts) {
  const { file, argv } = measurements[part];
  if (!existsSync(file)) await run(tsx, [...argv, '--out', file, ...(args.note ? ['--note', args.note] : [])]);
  else console.log(`\n${part}: reading ${file} (already measured)`);
  partResults[part] = JSON.parse(readFileSync(file, 'utf8'));
}

function figuresOf(build: Build): BuildFigures {
  const loopback = partResults.loopback as Parameters<typeof loopbackFigures>[0] | undefined;
  const latency = partResults.latency as Parameters<typeof latencyFigures>[0] | undefined;
  const cli = partResults.cli as Parameters<typeof cliFigures>[0] | undefined;
  return {
    ...EMPTY_FIGURES,
    ...(loopback && build.extension ? loopbackFigures(loopback, CORPUS, build.label) : {}),
    ...(latency && build.extension ? latencyFigures(latency, CORPUS, build.label) : {}),
    ...(cli && build.cli ? cliFigures(cli, build.label) : {}),
  };
}

const newFigures = figuresOf(current);
const baseFigures = base ? figuresOf(base) : null;
const shared = peerFigures(partResults.cli as Parameters<typeof peerFigures>[0] | undefined);
const rows = doneWhenRows(ISSUE_33, newFigures, baseFigures, shared);
const table = doneWhenTable(ISSUE_33, rows, { base: base ? 'base' : null, new: 'new' });
const details = detailsTable([...(base && baseFigures ? [{ label: `base: ${base.source}`, figures: baseFigures }] : []), { label: `new: ${current.source}`, figures: newFigures }], shared);
const minutes = ((Date.now() - started.getTime()) / 60_000).toFixed(0);
const heading = [
  `# Issue 33, done when — ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  '',
  `Python docs; runs per build, interleaved with the baseline: loopback ${args.runs.loopback}, latency ${args.latencyMs} ms ${args.runs.latency}, CLI ${args.runs.cli} (medians). ` +
    `Base: ${base ? base.source : 'none'}. New: ${current.source}. ${minutes} min${args.note ? `. Note: ${args.note}` : ''}.`,
].join('\n');
const markdown = `${heading}\n\n${table}\n\n${details}\n\n${allPass(rows) ? 'Every row passes.' : 'Not every row passes.'}\n`;
console.log(`\n${markdown}`);

const out = resolve(args.out ?? join(ROOT, 'bench', 'results', `bench-${started.toISOString().slice(0, 10)}`));
mkdirSync(dirname(out), { recursive: true });
writeFileSync(`${out}.md`, markdown);
writeFileSync(
  `${out}.json`,
  `${JSON.stringify({ date: started.toISOString(), corpus: CORPUS, args, builds: { base, new: current }, figures: { base: baseFigures, new: newFigures, peer: shared }, rows, allPass: allPass(rows), parts: partResults }, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`,
);
console.log(`Wrote ${out}.md and ${out}.json (each measurement's own file in ${work})`);
