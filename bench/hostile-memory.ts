/**
 * Memory of the extension while discovery meets hostile sites (#28): gzip bombs as /llms.txt and
 * /sitemap.xml (a .gz body and an endless Content-Encoding: gzip stream), a gzip-served sitemap
 * index of a million children, and an llms.txt of 40,000 links to other sites. Each site gets a
 * fresh Chromium with the built extension; the side panel is opened on it (which starts
 * discovery) and the run ends when the discovery job does.
 *
 * Memory is resident set size (VmRSS in /proc/<pid>/status), sampled every 50 ms for each of the
 * browser's processes, found by the profile folder in their command line and their parents:
 * - "extension": the renderer with --extension-process, where the service worker (discovery),
 *   the side panel and the offscreen document run — the figure #28 asks to keep under 500 MB;
 * - "network": the network service, which undoes Content-Encoding;
 * - "all": the sum over every Chromium process (shared pages counted once per process: an upper bound).
 * Afterwards the worker and the panel must still answer, and the time they take is printed.
 * Each site runs RUNS times (default 3), a fresh browser each.
 *
 * Run: flock /tmp/scout-e2e.lock sh -c 'npm run build:e2e && npx tsx bench/hostile-memory.ts'
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiscoveredFileRecord, JobRecord } from '../lib/store/db';
import { launchWithExtension } from '../tests/e2e/browser';
import { readStore } from '../tests/e2e/extension-db';
import { bombSite, hugeIndexSite, linkFloodSite } from '../tests/fixtures/hostile-budgets';
import { startFixtureServer } from '../tests/fixtures/server';

const MB = 1024 * 1024;
const LIMIT_MS = 120_000;
/** Runs per site (a fresh browser each): the peak varies with when the garbage collector runs. */
const RUNS = Number(process.env.RUNS ?? 3);

interface Proc {
  pid: number;
  ppid: number;
  cmd: string;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1] ?? 0);
      out.push({ pid: Number(name), ppid, cmd });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return out;
}

/** Chromium's processes for one profile: the browser (by --user-data-dir) and all its descendants. */
function browserTree(profile: string): Proc[] {
  const all = processes();
  const roots = all.filter((p) => p.cmd.includes(`--user-data-dir=${profile}`) && !p.cmd.includes('--type='));
  const tree = new Set(roots.map((p) => p.pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) if (!tree.has(p.pid) && tree.has(p.ppid)) grew = tree.add(p.pid).size > 0;
  }
  return all.filter((p) => tree.has(p.pid));
}

function rss(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

interface Peaks {
  extension: number;
  network: number;
  all: number;
}

function sample(profile: string, peaks: Peaks): void {
  let extension = 0;
  let network = 0;
  let all = 0;
  for (const p of browserTree(profile)) {
    const bytes = rss(p.pid);
    all += bytes;
    if (p.cmd.includes('--extension-process')) extension += bytes;
    if (p.cmd.includes('network.mojom.NetworkService')) network += bytes;
  }
  peaks.extension = Math.max(peaks.extension, extension);
  peaks.network = Math.max(peaks.network, network);
  peaks.all = Math.max(peaks.all, all);
}

interface Row {
  site: string;
  run: number;
  ended: string;
  seconds: number;
  peakExtensionMB: number;
  peakNetworkMB: number;
  peakAllMB: number;
  rows: number;
  workerAnswerMs: number;
  panelAnswerMs: number;
  message: string;
  cuts: string[];
}

const calm = { routes: { '/llms.txt': { headers: { 'content-type': 'text/plain' }, body: '# Calm\n\n## Docs\n- [Guide](/guide): a page\n' } } };
const server = await startFixtureServer({ 'calm.test': calm, 'bomb.test': bombSite(), 'huge-index.test': hugeIndexSite(), 'links.test': linkFloodSite() });
// calm.test is the baseline: the same panel and worker on a small, ordinary site.
const sites: Array<[string, string]> = [
  ['calm.test', '/'],
  ['bomb.test', '/'],
  ['huge-index.test', '/'],
  ['links.test', '/flood/'],
];
const results: Row[] = [];

for (const [host, path] of sites) for (let run = 1; run <= RUNS; run++) {
  const profile = mkdtempSync(join(tmpdir(), 'scout-bench-hostile-'));
  const { context, worker, extensionId } = await launchWithExtension({ userDataDir: profile });
  const peaks: Peaks = { extension: 0, network: 0, all: 0 };
  const sampler = setInterval(() => sample(profile, peaks), 50);
  const started = Date.now();
  const panel = await context.newPage();
  const pageUrl = server.url(host, path);
  await panel.goto(`chrome-extension://${extensionId}/sidepanel.html?url=${encodeURIComponent(pageUrl)}`);
  let job: JobRecord | undefined;
  while (Date.now() - started < LIMIT_MS) {
    // The stores exist only once the worker has opened the database.
    const jobs = await readStore<JobRecord>(panel, 'jobs').catch(() => []);
    job = jobs.find((j) => j.kind === 'discovery' && j.state !== 'running');
    if (job) break;
    await panel.waitForTimeout(200);
  }
  const seconds = (Date.now() - started) / 1000;
  // A few more samples: memory freed after the end should not hide a late peak.
  await panel.waitForTimeout(500);
  clearInterval(sampler);
  let t = Date.now();
  await worker.evaluate(() => 1);
  const workerAnswerMs = Date.now() - t;
  t = Date.now();
  await panel.evaluate(() => document.title);
  const panelAnswerMs = Date.now() - t;
  const rows = (await readStore<DiscoveredFileRecord>(panel, 'discovered')).filter((r) => r.jobId === job?.id);
  const cuts = rows.filter((r) => r.reason && (r.status === 'found' || /limit|lists/.test(r.reason))).map((r) => `${new URL(r.url).pathname}: ${r.reason}`);
  results.push({
    site: pageUrl.replace(/:\d+/, ''),
    run,
    ended: job ? job.state : `still running after ${LIMIT_MS / 1000} s`,
    seconds,
    peakExtensionMB: Math.round(peaks.extension / MB),
    peakNetworkMB: Math.round(peaks.network / MB),
    peakAllMB: Math.round(peaks.all / MB),
    rows: rows.length,
    workerAnswerMs,
    panelAnswerMs,
    message: job?.message ?? '',
    cuts: cuts.slice(0, 6),
  });
  await context.close();
  rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
await server.close();

const date = new Date().toISOString();
mkdirSync('bench/results', { recursive: true });
const file = `bench/results/hostile-memory-${date.slice(0, 10)}.json`;
writeFileSync(file, `${JSON.stringify({ date, memory: 'peak VmRSS from /proc, sampled every 50 ms', results }, null, 2)}\n`);
console.log('\nDiscovery of hostile sites in Chromium with the built extension (peak resident memory)\n');
console.log('| site | run | ended | s | extension MB | network MB | all Chromium MB | rows | worker / panel answer ms |');
console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  console.log(`| ${r.site} | ${r.run} | ${r.ended} | ${r.seconds.toFixed(1)} | ${r.peakExtensionMB} | ${r.peakNetworkMB} | ${r.peakAllMB} | ${r.rows} | ${r.workerAnswerMs} / ${r.panelAnswerMs} |`);
}
for (const r of results.filter((x) => x.run === 1)) {
  console.log(`\n${r.site}: ${r.message}`);
  for (const c of r.cuts) console.log(`  ${c}`);
}
console.log(`\nWrote ${file}`);
