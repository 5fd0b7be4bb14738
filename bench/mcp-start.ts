/**
 * `scout mcp` as an agent starts it: a new process (node + the CLI through tsx, as `npx scout mcp`
 * runs), connected with the MCP SDK's stdio client, then one search. Prints, per run, the time to a
 * connected client and to the first search's answer, over the 10,000-page folder bench/retrieval.ts
 * --scale 10000 makes (.cache/retrieval/scale-10000); the first run may build the saved index.
 *
 *   npx tsx bench/mcp-start.ts [--runs 5] [--folder <dir>] [--out <file>]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, folder: { type: 'string', default: '.cache/retrieval/scale-10000' }, out: { type: 'string' } } });
const RUNS = Math.max(1, Number(values.runs) || 5);
const cacheDir = join(tmpdir(), 'scout-mcp-start-cache');

const rows: { run: number; connectMs: number; firstSearchMs: number }[] = [];
for (let run = 0; run <= RUNS; run++) {
  const started = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: ['cli/bin.mjs', 'mcp', values.folder], cwd: process.cwd(), stderr: 'ignore', env: { ...process.env, SCOUT_CACHE_DIR: cacheDir } as Record<string, string> });
  const client = new Client({ name: 'scout-bench', version: '1.0.0' });
  await client.connect(transport);
  const connectMs = performance.now() - started;
  const result = await client.callTool({ name: 'search_docs', arguments: { query: 'read a file line by line' } });
  const firstSearchMs = performance.now() - started;
  if (result.isError) throw new Error(`search failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  await client.close();
  // Run 0 builds the saved index (and warms tsx's transform cache): reported apart.
  console.log(`${run === 0 ? 'first start (builds the index)' : `start ${run}`}: connected ${connectMs.toFixed(0)} ms, first search answered ${firstSearchMs.toFixed(0)} ms`);
  if (run > 0) rows.push({ run, connectMs, firstSearchMs });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const summary = { folder: values.folder, runs: RUNS, connectMedianMs: median(rows.map((r) => r.connectMs)), firstSearchMedianMs: median(rows.map((r) => r.firstSearchMs)), rows };
console.log(`median of ${RUNS} later starts: connected ${summary.connectMedianMs.toFixed(0)} ms, first search ${summary.firstSearchMedianMs.toFixed(0)} ms`);
if (values.out) {
  mkdirSync(dirname(values.out), { recursive: true });
  writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`);
}
