/**
 * `scout mcp` as an agent starts it: a new process (`node cli/bin.mjs mcp <folder>`, as an agent's
 * configuration runs it), connected with the MCP SDK's stdio client, then one search. Prints, per
 * start, the time to a connected client and to the first search's answer, over the 10,000-page
 * folder bench/retrieval.ts --scale 10000 makes (.cache/retrieval/scale-10000).
 *
 * --modes picks how the bin runs the CLI, each start of a round in turn (interleaved, so a busy
 * machine slows each alike): "bundle" (the precompiled CLI, npm run build:cli), "tsx" (the
 * TypeScript through tsx: SCOUT_CLI_BUNDLE=off), "bundle-external" (precompiled, but the npm
 * packages imported from node_modules: .output/cli-external). A bundle older than a source is built again before its start (the
 * bin would run tsx instead; others may be editing the sources meanwhile). Round 0 builds the saved
 * index and warms the disk cache: reported apart. Besides wall times, the server process's CPU time
 * (user + system, from /proc) at its first answer: on a machine busy with other work, wall times
 * swing with the load, CPU time much less.
 *
 *   npx tsx bench/mcp-start.ts [--runs 5] [--modes tsx,bundle] [--folder <dir>] [--out <file>]
 *
 * Writes bench/results/mcp-start-<date>.json unless --out says where.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { freshBundle } from '../cli/bundle.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    modes: { type: 'string', default: 'tsx,bundle' },
    folder: { type: 'string', default: '.cache/retrieval/scale-10000' },
    out: { type: 'string' },
  },
});
const RUNS = Math.max(1, Number(values.runs) || 5);
const cacheDir = join(tmpdir(), 'scout-mcp-start-cache');

/** What SCOUT_CLI_BUNDLE is for each mode (undefined: the bin's own choice, the fresh bundle). */
const MODES: Record<string, { env: string | undefined; bundle?: string; build?: string[] }> = {
  tsx: { env: 'off' },
  bundle: { env: undefined, bundle: '.output/cli', build: [] },
  'bundle-external': { env: '.output/cli-external', bundle: '.output/cli-external', build: ['--outdir', '.output/cli-external', '--packages', 'external'] },
};
const modes = values.modes.split(',').map((m) => m.trim()).filter(Boolean);
for (const mode of modes) {
  const known = MODES[mode];
  if (!known) throw new Error(`Unknown mode "${mode}": ${Object.keys(MODES).join(', ')}`);
}
let rebuilds = 0;

/** Builds the mode's bundle again when a source changed since (the bin would run tsx instead). */
function ensureFresh(mode: string): void {
  const { bundle, build } = MODES[mode] ?? {};
  if (!bundle || !build || freshBundle(bundle)) return;
  execFileSync(process.execPath, ['scripts/build-cli.mjs', ...build], { stdio: 'ignore' });
  rebuilds++;
  if (!freshBundle(bundle)) throw new Error(`${bundle} is not fresh even after building it: a source is being edited, or the build failed (node scripts/build-cli.mjs ${build.join(' ')})`);
}
if (!existsSync(join(values.folder, 'manifest.json'))) throw new Error(`${values.folder} is not a docs folder: npx tsx bench/retrieval.ts --scale 10000 makes it`);

interface Row {
  mode: string;
  run: number;
  connectMs: number;
  firstSearchMs: number;
  cpuMs: number | undefined;
}

/** CPU time (user + system, all threads) the process `pid` has used so far, from /proc (Linux); undefined elsewhere. */
function cpuMsOf(pid: number | null): number | undefined {
  if (!pid) return undefined;
  try {
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

async function start(mode: string): Promise<Omit<Row, 'mode' | 'run'>> {
  const setting = MODES[mode]?.env;
  const env = { ...process.env, SCOUT_CACHE_DIR: cacheDir } as Record<string, string>;
  if (setting === undefined) delete env.SCOUT_CLI_BUNDLE;
  else env.SCOUT_CLI_BUNDLE = setting;
  ensureFresh(mode);
  const started = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: ['cli/bin.mjs', 'mcp', values.folder], cwd: process.cwd(), stderr: 'ignore', env });
  const client = new Client({ name: 'scout-bench', version: '1.0.0' });
  await client.connect(transport);
  const connectMs = performance.now() - started;
  const result = await client.callTool({ name: 'search_docs', arguments: { query: 'read a file line by line' } });
  const firstSearchMs = performance.now() - started;
  // The server's own CPU time to its first answer: what a busy machine's wall times hide.
  const cpuMs = cpuMsOf(transport.pid);
  if (result.isError) throw new Error(`search failed (${mode}): ${JSON.stringify(result.content).slice(0, 300)}`);
  await client.close();
  return { connectMs, firstSearchMs, cpuMs };
}

const loadBefore = loadavg();
const rows: Row[] = [];
for (let run = 0; run <= RUNS; run++) {
  for (const mode of modes) {
    const times = await start(mode);
    console.log(`${run === 0 ? 'round 0 (builds the index, warms caches)' : `start ${run}`} ${mode.padEnd(15)}: connected ${times.connectMs.toFixed(0)} ms, first search answered ${times.firstSearchMs.toFixed(0)} ms, server CPU ${times.cpuMs ?? '?'} ms`);
    if (run > 0) rows.push({ mode, run, ...times });
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const medians = Object.fromEntries(
  modes.map((mode) => {
    const own = rows.filter((r) => r.mode === mode);
    const cpu = own.flatMap((r) => (r.cpuMs === undefined ? [] : [r.cpuMs]));
    return [mode, { connectMs: Math.round(median(own.map((r) => r.connectMs))), firstSearchMs: Math.round(median(own.map((r) => r.firstSearchMs))), ...(cpu.length ? { cpuMs: Math.round(median(cpu)) } : {}) }];
  }),
);
const load = { before: loadBefore.map((l) => Number(l.toFixed(2))), after: loadavg().map((l) => Number(l.toFixed(2))) };
for (const [mode, m] of Object.entries(medians)) console.log(`median of ${RUNS} starts, ${mode.padEnd(15)}: connected ${m.connectMs} ms, first search answered ${m.firstSearchMs} ms, server CPU ${m.cpuMs ?? '?'} ms`);
console.log(`load average (1, 5, 15 min) before ${load.before.join(', ')}, after ${load.after.join(', ')}${rebuilds ? `; bundles built again ${rebuilds} times (sources changed while it ran)` : ''}`);
const out = values.out ?? `bench/results/mcp-start-${new Date().toISOString().slice(0, 10)}.json`;
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ folder: values.folder, runs: RUNS, modes, medians, load, rebuilds, rows }, null, 2)}\n`);
console.log(`written ${out}`);
