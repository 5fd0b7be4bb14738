/**
 * Where Chromium's CPU goes during one crawl, by process, thread and task. The crawl runs with the
 * built extension under Chromium's startup tracing (toplevel and V8 categories); the trace's
 * top-level tasks are summed by their thread CPU time (`tdur`: a task waiting for a core counts
 * nothing). The trace runs from the browser's start for --seconds: the panel's load, the crawl and
 * the llms.txt generation after it, all divided by the pages stored. What bench/cpu.ts cannot tell apart from /proc — the V8 background threads'
 * (ThreadPoolForegroundWorker) share of optimising compilers, scavenges, concurrent marking — this
 * names by where each task was posted from. Prints CPU ms per stored page for each process, then
 * the top tasks; writes the summary to --out (JSON) and keeps the raw trace at --trace (open it in
 * https://ui.perfetto.dev or chrome://tracing).
 *
 * Run: npm run build:e2e && npx tsx bench/trace.ts [--corpus python] [--extension <dir>] [--seconds 60] [--top 30]
 *                                               [--out bench/results/trace-<date>.json] [--trace /tmp/scout-trace.json]
 *   --categories: the trace categories (default toplevel,v8,disabled-by-default-v8.gc); add e.g. IndexedDB,leveldb,sql to see storage.
 *   --seconds: how long Chromium traces from its start; the crawl must end within it (the script says when it did not).
 * The trace's own bookkeeping costs CPU too: read the shares, not the absolute figures, against bench/crawl.ts.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { startFixtureServer } from '../tests/fixtures/server';
import { launchWithExtension } from '../tests/e2e/browser';
import { arg, corpora, type JobRow, newestCrawlJob, openCrawlPanel } from './harness';

const CORPUS = arg('corpus', 'python');
const SECONDS = Number(arg('seconds', '60'));
const TOP = Number(arg('top', '30'));
const EXTENSION = process.argv.includes('--extension') ? resolve(arg('extension', '')) : undefined;
const TRACE = resolve(arg('trace', '/tmp/scout-trace.json'));
const OUT = resolve(arg('out', `bench/results/trace-${new Date().toISOString().slice(0, 10)}.json`));
const CATEGORIES = arg('categories', 'toplevel,v8,disabled-by-default-v8.gc');

interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: Record<string, unknown>;
}


const corpus = corpora()[CORPUS];
if (!corpus) throw new Error(`Unknown corpus ${CORPUS}`);
rmSync(TRACE, { force: true });
const server = await startFixtureServer({ [corpus.host]: corpus.site() });
const launchedAt = Date.now();
const { context, extensionId } = await launchWithExtension({
  ...(EXTENSION ? { extensionDir: EXTENSION } : {}),
  args: [`--trace-startup=${CATEGORIES}`, `--trace-startup-file=${TRACE}`, `--trace-startup-duration=${SECONDS}`, '--trace-startup-format=json'],
});
let job: JobRow | undefined;
try {
  const panel = await openCrawlPanel(context, extensionId, server.url(corpus.host, corpus.start), null);
  await panel.getByTestId('start-crawl').click();
  for (;;) {
    await panel.waitForTimeout(500);
    job = await newestCrawlJob(panel);
    if (job && job.state !== 'running') break;
  }
  // Chromium writes the trace when its duration is up, not at exit: wait for the file.
  const deadline = launchedAt + SECONDS * 1000 + 30_000;
  while (!existsSync(TRACE) && Date.now() < deadline) await panel.waitForTimeout(500);
} finally {
  await context.close();
  await server.close();
}
if (!existsSync(TRACE)) throw new Error(`Chromium wrote no trace to ${TRACE} within ${SECONDS + 30} s`);
const stored = job?.counters?.stored ?? 0;
const crawlEndedIn = ((job?.endedAt ?? Date.now()) - launchedAt) / 1000;
if (crawlEndedIn > SECONDS) console.log(`The crawl ended ${crawlEndedIn.toFixed(0)} s after launch, after the trace's ${SECONDS} s: its end is not in the trace (raise --seconds).`);

const raw = JSON.parse(readFileSync(TRACE, 'utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] };
const events = Array.isArray(raw) ? raw : raw.traceEvents;
const processName = new Map<number, string>();
const threadName = new Map<string, string>();
for (const e of events) {
  if (e.ph !== 'M') continue;
  if (e.name === 'process_name') processName.set(e.pid, String(e.args?.name ?? e.pid));
  if (e.name === 'process_labels' && e.args?.labels) processName.set(e.pid, `${processName.get(e.pid) ?? e.pid} (${String(e.args.labels)})`);
  if (e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, String(e.args?.name ?? e.tid));
}

/** A task by what it is: a thread pool task by the function that posted it, anything else by its name. */
// The posting function's name alone is often generic (`Schedule`, `QueueRunTasks`): its file says whose task it is.
const postedFrom = (e: TraceEvent): string => `${String(e.args?.src_func).slice(0, 90)}${e.args?.src_file ? ` (${String(e.args.src_file).split('/').slice(-2).join('/')})` : ''}`;
const taskName = (e: TraceEvent): string => (e.name === 'ThreadPool_RunTask' && e.args?.src_func ? `ThreadPool_RunTask ← ${postedFrom(e)}` : e.name);

// Top-level complete events only (nested ones are inside their parent's thread time), per thread.
const byThread = new Map<string, TraceEvent[]>();
for (const e of events) {
  if (e.ph !== 'X' || e.tdur === undefined) continue;
  const key = `${e.pid}:${e.tid}`;
  let list = byThread.get(key);
  if (!list) byThread.set(key, (list = []));
  list.push(e);
}
const perProcess = new Map<string, number>();
const perTask = new Map<string, number>();
const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
for (const [key, list] of byThread) {
  const pid = Number(key.split(':')[0]);
  const proc = processName.get(pid) ?? String(pid);
  const thread = (threadName.get(key) ?? '?').replace(/[\d/#\s]+$/, '');
  list.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  let end = -Infinity;
  for (const e of list) {
    if (e.ts < end) continue;
    end = e.ts + (e.dur ?? 0);
    const ms = (e.tdur ?? 0) / 1000;
    add(perProcess, proc, ms);
    add(perTask, `${proc} | ${thread} | ${taskName(e)}`, ms);
  }
}
const perPage = (ms: number) => (stored ? ms / stored : Number.NaN);
const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
console.log(`\n${CORPUS}: ${stored} pages stored, crawl ${job?.state ?? 'unknown'}; thread CPU of top-level trace tasks, ms per stored page\n`);
console.log('| process | ms/page |\n|---|---:|');
for (const [proc, ms] of sorted(perProcess)) if (perPage(ms) >= 0.05) console.log(`| ${proc} | ${perPage(ms).toFixed(2)} |`);
console.log('\n| process · thread · task | ms/page |\n|---|---:|');
for (const [task, ms] of sorted(perTask).slice(0, TOP)) console.log(`| ${task.replaceAll('|', '·')} | ${perPage(ms).toFixed(2)} |`);
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(
  OUT,
  `${JSON.stringify({ date: new Date().toISOString(), corpus: CORPUS, extension: EXTENSION ?? 'default', categories: CATEGORIES, seconds: SECONDS, stored, processes: Object.fromEntries(sorted(perProcess)), tasks: Object.fromEntries(sorted(perTask).slice(0, 200)) }, null, 2)}\n`,
);
console.log(`\nWrote ${OUT}; the trace is ${TRACE}`);
