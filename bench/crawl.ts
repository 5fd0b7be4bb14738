/**
 * Crawl speed on real documentation, in headless Chromium with the built
 * extension, next to the browser's own floor (fetch + native DOMParser of the
 * same URLs at the same concurrency, nothing stored), and the conversion step
 * alone in Node. After each crawl, a refresh of it with nothing changed on the
 * server (every page re-checked with If-None-Match / If-Modified-Since): its time,
 * bytes and requests next to the crawl's. Prints Markdown tables; writes
 * bench/results/crawl-<date>.json (or --out).
 *
 * Run: npm run bench:crawl [-- --runs 3 --corpus python,node,synthetic]
 *   --refresh python,node   corpora refreshed after every crawl (the default); bare --refresh: all; --no-refresh: none
 *   --out <file>            where the JSON goes
 *   --no-node-convert       skip the conversion-alone figure in Node (a corpus's every page, once per process)
 *   --converters 1w+native  where pages convert (lib/pipeline/converter-plan.ts): Nw = N conversion workers,
 *                           native = the offscreen document's DOMParser, sw = linkedom in the service worker.
 *                           A list (1w,2w,1w+native) measures each, runs interleaved; default: the build's own plan.
 *   --extension <dir>[,<dir>]  other builds to measure (a baseline's .output/chrome-mv3-e2e); --label <name>[,<name>]
 *                           names them in the results. Several builds run interleaved, run by run (base, new,
 *                           base, new…), each crawl in its own browser. A build that predates --converters ignores it.
 *   --panel open,closed     whether the side panel stays open while the crawl runs (open, the default, as a user
 *                           watching it) or is navigated away right after Start (closed: the job is watched from a
 *                           blank extension page, the manifest). A list measures each, interleaved like builds; the
 *                           difference is the panel's share (its main thread is the offscreen document's: one process).
 *   CPU per page: every run reports the CPU time Chromium spent per stored page (bench/cpu.ts: the
 *   extension's process per thread — service worker, main thread with the offscreen document and the
 *   panel, conversion workers — the network service, the browser process), and the floor's.
 *   --latency 80            the fixture server waits 80 ms (± --jitter, a quarter of it by default) before each
 *                           response; --bandwidth 50 caps its one shared link at 50 Mbit/s. Then the wall time is
 *                           compared with the politeness floor (pages × latency ÷ the job's per-host concurrency)
 *                           and the overlap of fetch, conversion and storage is reported (bench/figures.ts).
 *   --pages 10000           pages of the synthetic site (and of `wide`, whose page 1 also links --wide 100000
 *                           leaf pages); --max-pages 200 sets the crawl's page limit (10000 by default).
 *                           Every crawl reports its pace: pages/s over the first and the last tenth of its pages.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import { convertHtml } from '../lib/convert/convert-page';
import { linkedomAdapter } from '../lib/convert/dom';
import { startFixtureServer, type FixtureServer } from '../tests/fixtures/server';
import { NETWORK_HEADER, PACE_HEADER, networkFigures, networkRow, pace, paceRow, type NetworkFigures, type PaceFigures } from './figures';
import { allChromium, cpuBetween, perPage, sampleCpu, type CpuSample } from './cpu';
import { arg, corpora, htmlFilesOf, type JobRow, networkFromArgs, newestCrawlJob, openCrawlPanel } from './harness';
import { launchWithExtension } from '../tests/e2e/browser';
import { readStore } from '../tests/e2e/extension-db';

const RUNS = Number(arg('runs', '3'));
const CORPORA = corpora(Number(arg('pages', '5000')), Number(arg('wide', '100000')));
const NETWORK = networkFromArgs();
const MAX_PAGES = Number(arg('max-pages', '10000'));
const NO_NODE_CONVERT = process.argv.includes('--no-node-convert');
const selected = arg('corpus', 'python,node').split(',');
const SLOTS = arg('converters', 'default').split(',');
const PANELS = arg('panel', 'open').split(',');
for (const p of PANELS) if (p !== 'open' && p !== 'closed') throw new Error(`--panel takes open and/or closed, not ${p}`);
const CPU_HEADER = [
  '| corpus (build, converters) | extension process | service worker | main thread (offscreen + panel) | conversion workers | network service | browser | all Chromium | floor: extension (DOMParser + fetch) | floor: all Chromium | crawl ÷ floor (extension) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];
const EXTENSIONS: Array<string | undefined> = process.argv.includes('--extension') ? arg('extension', '').split(',') : [undefined];
const LABELS = process.argv.includes('--label') ? arg('label', '').split(',') : EXTENSIONS.map((e, i) => (e === undefined ? 'this build' : EXTENSIONS.length > 1 ? `build ${i + 1}` : 'other build'));
if (LABELS.length !== EXTENSIONS.length) throw new Error('--label needs one name per --extension build');
const BUILDS = EXTENSIONS.map((dir, i) => ({ dir, label: LABELS[i] as string }));
type Build = (typeof BUILDS)[number];
const refreshArg = process.argv.indexOf('--refresh');
const refreshed = new Set(
  process.argv.includes('--no-refresh') ? []
  : refreshArg > 0 && !(process.argv[refreshArg + 1] ?? '--').startsWith('--') ? (process.argv[refreshArg + 1] ?? '').split(',')
  : refreshArg > 0 ? selected
  : ['python', 'node'],
);


/**
 * Reads the crawl's job and pages from one of the extension's pages, once the crawl is over: read
 * while it ran, the page records (tens of MB of Markdown) held a read lock on the pages store that
 * the crawler's write transactions queued behind (the poll reads the jobs store only: newestCrawlJob).
 */
async function readDb(panel: Page): Promise<{ job?: JobRow; urls: string[]; bytes: number; writtenAt: number[] }> {
  const job = (await readStore<JobRow>(panel, 'jobs')).filter((j) => j.kind === 'crawl').sort((a, b) => b.createdAt - a.createdAt)[0];
  const pages = (await readStore<{ jobId: string; finalUrl: string; bytes: number; fetchedAt: number }>(panel, 'pages')).filter((p) => p.jobId === job?.id);
  return { job, urls: pages.map((p) => p.finalUrl), bytes: pages.reduce((n, p) => n + p.bytes, 0), writtenAt: pages.map((p) => p.fetchedAt) };
}


/**
 * Reads the service worker's used JS heap through the DevTools protocol: a
 * worker has no performance.memory. Attaches to the worker target (non-flat
 * session) and asks Runtime.getHeapUsage. Re-attaches if the worker restarted.
 */
async function workerHeapProbe(cdp: CDPSession, extensionId: string): Promise<() => Promise<number>> {
  let sessionId: string | null = null;
  let nextId = 1;
  const waiting = new Map<number, (used: number) => void>();
  cdp.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => {
    const msg = JSON.parse(e.message) as { id?: number; result?: { usedSize?: number } };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result?.usedSize ?? 0);
  });
  cdp.on('Target.detachedFromTarget', (e: { sessionId: string }) => {
    if (e.sessionId === sessionId) sessionId = null;
  });
  const attach = async () => {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string; url: string }> };
    const target = targetInfos.find((t) => t.type === 'service_worker' && t.url.includes(extensionId));
    if (!target) return null;
    return ((await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string }).sessionId;
  };
  return async () => {
    sessionId ??= await attach();
    if (!sessionId) return 0;
    const id = nextId++;
    const answer = new Promise<number>((resolve) => {
      waiting.set(id, resolve);
      setTimeout(() => resolve(0), 1000);
    });
    await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method: 'Runtime.getHeapUsage' }) });
    return answer.finally(() => waiting.delete(id));
  };
}

/** The floor: the same URLs fetched at the same concurrency and parsed by the browser's DOMParser. */
async function floor(panel: Page, urls: string[], concurrency: number): Promise<number> {
  return panel.evaluate(async ([list, n]) => {
    const started = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < list.length) {
        const url = list[next++] as string;
        // reload: the network every time, as before the fixture server sent Last-Modified (Chromium's heuristic
        // freshness would now answer from its HTTP cache); the response is still cached, like the crawl's.
        const html = await (await fetch(url, { credentials: 'include', cache: 'reload' })).text();
        new DOMParser().parseFromString(html, 'text/html');
      }
    };
    await Promise.all(Array.from({ length: n }, worker));
    return performance.now() - started;
  }, [urls, concurrency] as const);
}

interface RefreshResult {
  /** job.endedAt − job.startedAt, and from the click on Refresh now until the bench saw the job done. */
  wallMs: number;
  clickToDoneMs: number;
  /** The wait for the crawl's llms.txt and llms-full.txt, which the worker writes after the crawl job is done. */
  outputsWaitMs: number;
  counters: Record<string, number>;
  /** What the fixture server saw and sent from the click to the end (robots.txt included). */
  requests: number;
  serverBytes: number;
  statuses: Record<string, number>;
  /** Paths answered in full (200) during the refresh, the first 20. */
  downloaded: string[];
  /** pageVersions of the refresh by "change: reason", most frequent first. */
  reasons: Record<string, number>;
}

/** How many llms-full.txt versions the site has (an index count: the texts themselves are megabytes). */
async function llmsFullCount(panel: Page, origin: string): Promise<number> {
  return panel.evaluate(async (o) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('llms-txt-scout');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      const index = db.transaction('artifacts').objectStore('artifacts').index('[origin+kind+version]');
      return await new Promise<number>((resolve, reject) => {
        const req = index.count(IDBKeyRange.bound([o, 'llms-full', -Infinity], [o, 'llms-full', Infinity]));
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    } finally {
      db.close();
    }
  }, origin);
}

/**
 * Refresh now on the History tab, as a user would; waits for the refresh job to end. First waits
 * for the crawl's outputs: the worker generates them right after the crawl (seconds for the Python
 * docs), and a refresh started meanwhile would queue behind that work — a user refreshes later.
 */
async function refreshOnce(panel: Page, server: FixtureServer, origin: string): Promise<RefreshResult> {
  const waitStarted = Date.now();
  while ((await llmsFullCount(panel, origin)) === 0) {
    if (Date.now() - waitStarted > 120_000) throw new Error('No llms-full.txt 120 s after the crawl');
    await panel.waitForTimeout(100);
  }
  const outputsWaitMs = Date.now() - waitStarted;
  await panel.getByRole('tab', { name: 'History' }).click();
  const before = server.requests.length;
  const clicked = Date.now();
  await panel.getByTestId('refresh-now').click();
  const newest = async () => (await readStore<JobRow>(panel, 'jobs')).filter((j) => j.kind === 'refresh').sort((a, b) => b.createdAt - a.createdAt)[0];
  let job = await newest();
  while (!job || job.state === 'running') {
    await panel.waitForTimeout(100);
    job = await newest();
  }
  const clickToDoneMs = Date.now() - clicked;
  if (job.state !== 'done') throw new Error(`The refresh ended ${job.state}: ${JSON.stringify(job)}`);
  const log = server.requests.slice(before);
  const statuses: Record<string, number> = {};
  for (const r of log) statuses[r.status ?? 'none'] = (statuses[r.status ?? 'none'] ?? 0) + 1;
  const versions = (await readStore<{ jobId: string; change: string; reason: string }>(panel, 'pageVersions')).filter((v) => v.jobId === job.id);
  const reasons: Record<string, number> = {};
  for (const v of versions) reasons[`${v.change}: ${v.reason}`] = (reasons[`${v.change}: ${v.reason}`] ?? 0) + 1;
  return {
    wallMs: (job.endedAt ?? Date.now()) - (job.startedAt ?? job.createdAt),
    clickToDoneMs,
    outputsWaitMs,
    counters: job.counters,
    requests: log.length,
    serverBytes: log.reduce((n, r) => n + (r.bytes ?? 0), 0),
    statuses,
    downloaded: log.filter((r) => r.status === 200).slice(0, 20).map((r) => r.path),
    reasons: Object.fromEntries(Object.entries(reasons).sort((a, b) => b[1] - a[1])),
  };
}

/** Time the worker took to build the llms.txt and llms-full.txt after the crawl (waits for them). */
async function generateMs(panel: Page, origin: string): Promise<number> {
  const waitStarted = Date.now();
  while ((await llmsFullCount(panel, origin)) === 0) {
    if (Date.now() - waitStarted > 120_000) throw new Error('No llms-full.txt 120 s after the crawl');
    await panel.waitForTimeout(100);
  }
  const rows = await readStore<{ kind: string; buildMs?: number }>(panel, 'artifacts');
  return rows.find((r) => r.kind === 'llms-full')?.buildMs ?? NaN;
}

async function crawlOnce(name: string, slots: string, build: Build, panelMode: string) {
  const corpus = CORPORA[name];
  if (!corpus) throw new Error(`Unknown corpus ${name}`);
  const server = await startFixtureServer({ [corpus.host]: corpus.site() }, { network: NETWORK });
  const { context, extensionId } = await launchWithExtension(build.dir ? { extensionDir: build.dir } : {});
  try {
    const startUrl = server.url(corpus.host, corpus.start);
    const panel = await openCrawlPanel(context, extensionId, startUrl, slots === 'default' ? null : slots, MAX_PAGES);
    const cdp = await context.newCDPSession(panel);
    let peakHeap = 0;
    const heapOf = await workerHeapProbe(cdp, extensionId);
    const heapTimer = setInterval(() => {
      void heapOf().then((h) => (peakHeap = Math.max(peakHeap, h)), () => undefined);
    }, 250);
    const cpuBefore = sampleCpu();
    await panel.getByTestId('start-crawl').click();
    const panelUrl = panel.url();
    if (panelMode === 'closed') {
      // Wait for the job row (the start is acknowledged), then leave: an extension page that renders nothing
      // and watches nothing, yet can still read the extension's IndexedDB for the bench.
      while (!(await newestCrawlJob(panel))) await panel.waitForTimeout(20);
      await panel.goto(`chrome-extension://${extensionId}/manifest.json`);
    }
    let seen = await newestCrawlJob(panel);
    while (!seen || seen.state === 'running') {
      await panel.waitForTimeout(100);
      seen = await newestCrawlJob(panel);
    }
    // Sampled the moment the job is seen done: the llms.txt generation that follows is not the crawl's.
    const crawlCpu = cpuBetween(cpuBefore, sampleCpu());
    const row = await readDb(panel);
    clearInterval(heapTimer);
    if (panelMode === 'closed') {
      // The panel back for what follows the crawl (generate, refresh, the floor), as a user reopening it.
      await panel.goto(panelUrl);
      await panel.getByRole('tab', { name: 'Generate' }).waitFor();
    }
    const { job, urls, bytes, writtenAt } = row;
    if (job?.state !== 'done') throw new Error(`The ${name} crawl ended ${job?.state}: ${JSON.stringify(job)}`);
    const wallMs = (job.endedAt ?? Date.now()) - (job.startedAt ?? job.createdAt);
    const perHost = job.settings?.perHostConcurrency ?? 4;
    const network: NetworkFigures | undefined = NETWORK && {
      ...networkFigures({
        requests: server.requests, host: corpus.host, from: job.startedAt ?? job.createdAt, to: job.endedAt ?? Date.now(), pages: urls.length, bytes, perHost,
        latencyMs: NETWORK.latencyMs ?? 0, bandwidthBytesPerSecond: NETWORK.bandwidthBytesPerSecond, counters: job.counters,
      }),
    };
    const paceOf: PaceFigures | null = pace(writtenAt);
    // How long the crawl took to fetch its first page (what the pace's first tenth does not see).
    const firstPageMs = writtenAt.length ? Math.min(...writtenAt) - (job.startedAt ?? job.createdAt) : null;
    const usage = (await cdp.send('Storage.getUsageAndQuota', { origin: `chrome-extension://${extensionId}` })) as { usage: number };
    // Everything the server sent up to here: panel discovery, robots, sitemaps, twin probes, pages.
    const sent = { requests: server.requests.length, bytes: server.requests.reduce((n, r) => n + (r.bytes ?? 0), 0) };
    const buildMs = await generateMs(panel, server.origin(corpus.host));
    const refresh = refreshed.has(name) ? await refreshOnce(panel, server, server.origin(corpus.host)) : undefined;
    const floorBefore = sampleCpu();
    const floorMs = await floor(panel, urls, perHost);
    const cpu = { crawl: perPage(crawlCpu, urls.length), floor: perPage(cpuBetween(floorBefore, sampleCpu()), urls.length) };
    return { corpus: name, slots, build: build.label, panel: panelMode, cpu, pages: urls.length, bytes, wallMs, floorMs, generateMs: buildMs, counters: job.counters, peakHeap, idbBytes: usage.usage, server: sent, refresh, perHost, network, pace: paceOf, firstPageMs };
  } finally {
    await context.close();
    await server.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
// --note says what else ran on the machine (other work shares its 2 cores): figures are only as quiet as that.
const results: Record<string, unknown> = { date: new Date().toISOString(), builds: BUILDS.map((b) => ({ label: b.label, extension: b.dir ?? '.output/chrome-mv3-e2e' })), runs: RUNS, machine: '2 cores', note: arg('note', ''), network: NETWORK ?? null, maxPages: MAX_PAGES, corpora: {} };
const pct = (x: number) => `${(100 * x).toFixed(x < 0.1 ? 2 : 1)} %`;
const refreshTable: string[] = [
  '| corpus | pages | crawl s | refresh s (median, min–max) | refresh time % of crawl | crawl MB | refresh page bytes | % of crawl bytes | refresh requests (304 / 200 / other) | server bytes refresh / crawl | unchanged / checked | changed / minor / failed |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];
const table: string[] = ['| corpus | converters | pages | MB | wall s (median, min–max) | pages/s | MB/s | floor s | ratio | fetch / convert / store s (summed over requests) | generate s | peak worker heap MB | IndexedDB MB | Node convert ms/page |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|'];
type CrawlRun = Awaited<ReturnType<typeof crawlOnce>>;
const allRuns: Record<string, CrawlRun[]> = {};
for (const name of selected) {
  for (let i = 0; i < RUNS; i++) {
    // Builds and splits interleaved run by run, so drift on the machine (heat, other load) hits each alike.
    for (const build of BUILDS) for (const slots of SLOTS) for (const panelMode of PANELS) {
      const r = await crawlOnce(name, slots, build, panelMode);
      (allRuns[`${name}|${slots}|${build.label}|${panelMode}`] ??= []).push(r);
      console.log(`${name} (${build.label}, converters ${slots}, panel ${panelMode}) run ${i + 1}: ${r.pages} pages in ${(r.wallMs / 1000).toFixed(1)} s (first page at ${r.firstPageMs === null ? '–' : (r.firstPageMs / 1000).toFixed(2)} s; floor ${(r.floorMs / 1000).toFixed(1)} s, generate ${(r.generateMs / 1000).toFixed(1)} s)`);
      console.log(`  CPU ms/page: crawl ${cpuText(r.cpu.crawl)}; floor ${cpuText(r.cpu.floor)}`);
      if (r.network) console.log(`  network: wall ${(r.network.wallMs / 1000).toFixed(1)} s ÷ politeness floor ${(r.network.politenessFloorMs / 1000).toFixed(1)} s = ${r.network.ratio.toFixed(2)}×, ${r.network.meanInFlight.toFixed(2)} requests in flight on average (of ${r.perHost})`);
      if (r.pace) console.log(`  pace: ${r.pace.firstTenth.toFixed(1)} pages/s in the first tenth, ${r.pace.lastTenth.toFixed(1)} in the last (${r.pace.ratio.toFixed(2)}); by tenth ${r.pace.tenths.map((x) => x.toFixed(0)).join(' ')}`);
      if (r.refresh) console.log(`${name} run ${i + 1}: refresh ${(r.refresh.wallMs / 1000).toFixed(2)} s (click to done ${(r.refresh.clickToDoneMs / 1000).toFixed(2)} s), ${r.refresh.counters.unchanged}/${r.refresh.counters.checked} unchanged, ${r.refresh.counters.bytes} page bytes, ${r.refresh.requests} requests ${JSON.stringify(r.refresh.statuses)}`);
    }
  }
}
const nodeConvertMs: Record<string, number> = {};
const cpuTable = [...CPU_HEADER];
const networkTable = [...NETWORK_HEADER];
const paceTable = [...PACE_HEADER];
for (const key of Object.keys(allRuns)) {
  const [name = '', slotsText = '', buildLabel = '', panelMode = 'open'] = key.split('|');
  const runs = allRuns[key] ?? [];
  const mid = runs.find((r) => r.wallMs === median(runs.map((x) => x.wallMs))) ?? runs[0];
  if (!mid) continue;
  const dirFn = CORPORA[name]?.dir;
  const nodeConvert = dirFn && !NO_NODE_CONVERT ? (nodeConvertMs[name] ??= convertInNodeAll(dirFn)) : NaN;
  // Keyed by what varies in this run: the corpus, then the converters and the build when several were measured.
  const label = [name, SLOTS.length > 1 ? `(${slotsText})` : '', BUILDS.length > 1 ? `[${buildLabel}]` : '', PANELS.length > 1 ? `{panel ${panelMode}}` : ''].filter(Boolean).join(' ');
  (results.corpora as Record<string, unknown>)[label] = { runs, nodeConvertMsPerPage: nodeConvert, cpuMsPerPage: { crawl: medianCpu(runs.map((r) => r.cpu.crawl)), floor: medianCpu(runs.map((r) => r.cpu.floor)) } };
  cpuTable.push(cpuRow(`${name} (${buildLabel}, ${slotsText}${PANELS.length > 1 ? `, panel ${panelMode}` : ''})`, runs));
  const walls = runs.map((r) => r.wallMs / 1000);
  const c = mid.counters;
  const netRow = NETWORK ? networkRow(label, NETWORK, runs) : null;
  if (netRow) networkTable.push(netRow);
  const paceLine = paceRow(label, runs);
  if (paceLine) paceTable.push(paceLine);
  table.push(
    `| ${[name, BUILDS.length > 1 ? `[${buildLabel}]` : '', PANELS.length > 1 ? `{panel ${panelMode}}` : ''].filter(Boolean).join(' ')} | ${slotsText} | ${mid.pages} | ${(mid.bytes / 1e6).toFixed(1)} | ${median(walls).toFixed(1)} (${Math.min(...walls).toFixed(1)}–${Math.max(...walls).toFixed(1)}) | ${(mid.pages / (mid.wallMs / 1000)).toFixed(1)} | ${(mid.bytes / 1e6 / (mid.wallMs / 1000)).toFixed(1)} | ${(mid.floorMs / 1000).toFixed(1)} | ${(mid.wallMs / mid.floorMs).toFixed(1)}× | ${((c.fetchMs ?? 0) / 1000).toFixed(1)} / ${((c.convertMs ?? 0) / 1000).toFixed(1)} / ${((c.storeMs ?? 0) / 1000).toFixed(1)} | ${(median(runs.map((r) => r.generateMs)) / 1000).toFixed(1)} | ${(mid.peakHeap / 1e6).toFixed(0)} | ${(mid.idbBytes / 1e6).toFixed(0)} | ${Number.isFinite(nodeConvert) ? nodeConvert.toFixed(1) : '–'} |`,
  );
  // The refresh of each run against that run's crawl; every column is the median over the runs.
  const withRefresh = runs.flatMap((r) => (r.refresh ? [{ ...r, refresh: r.refresh }] : []));
  if (withRefresh.length > 0) {
    const m = (f: (r: (typeof withRefresh)[number]) => number) => median(withRefresh.map(f));
    const rs = withRefresh.map((r) => r.refresh.wallMs / 1000);
    const rc = (r: (typeof withRefresh)[number], k: string) => r.refresh.counters[k] ?? 0;
    const st = (r: (typeof withRefresh)[number], k: string) => r.refresh.statuses[k] ?? 0;
    refreshTable.push(
      `| ${label} | ${m((r) => r.pages)} | ${m((r) => r.wallMs / 1000).toFixed(1)} | ${median(rs).toFixed(2)} (${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)}) | ${pct(m((r) => r.refresh.wallMs / r.wallMs))} | ${(m((r) => r.bytes) / 1e6).toFixed(1)} | ${(m((r) => rc(r, 'bytes')) / 1e6).toFixed(2)} MB | ${pct(m((r) => rc(r, 'bytes') / r.bytes))} | ${m((r) => r.refresh.requests)} (${m((r) => st(r, '304'))} / ${m((r) => st(r, '200'))} / ${m((r) => r.refresh.requests - st(r, '304') - st(r, '200'))}) | ${(m((r) => r.refresh.serverBytes) / 1e6).toFixed(2)} / ${(m((r) => r.server.bytes) / 1e6).toFixed(1)} MB (${pct(m((r) => r.refresh.serverBytes / r.server.bytes))}) | ${m((r) => rc(r, 'unchanged'))} / ${m((r) => rc(r, 'checked'))} | ${m((r) => rc(r, 'changed'))} / ${m((r) => rc(r, 'minor'))} / ${m((r) => rc(r, 'failed'))} |`,
    );
  }
}

function cpuText(c: CpuSample): string {
  return Object.entries(c)
    .filter(([, v]) => v >= 0.05)
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join(', ');
}

/** Each key's median over the runs. */
function medianCpu(samples: CpuSample[]): CpuSample {
  const keys = new Set(samples.flatMap((s) => Object.keys(s)));
  return Object.fromEntries([...keys].map((k) => [k, median(samples.map((s) => s[k] ?? 0))]));
}


function cpuRow(label: string, runs: CrawlRun[]): string {
  const c = medianCpu(runs.map((r) => r.cpu.crawl));
  const f = medianCpu(runs.map((r) => r.cpu.floor));
  const v = (x: number | undefined) => (x ?? 0).toFixed(1);
  return `| ${label} | ${v(c.extension)} | ${v(c['thread: service worker'])} | ${v(c['thread: main (offscreen, panel)'])} | ${v(c['thread: conversion workers'])} | ${v(c.network)} | ${v(c.browser)} | ${v(allChromium(c))} | ${v(f.extension)} | ${v(allChromium(f))} | ${((c.extension ?? 0) / (f.extension ?? NaN)).toFixed(1)}× |`;
}

/** The conversion step alone, in Node: every .html file of the corpus through convertHtml. */
function convertInNodeAll(dirFn: () => string): number {
  const dir = dirFn();
  const files = htmlFilesOf(dir);
  const started = performance.now();
  for (const f of files) convertHtml(readFileSync(f, 'utf8'), `https://x.test${f.slice(dir.length)}`, linkedomAdapter);
  return (performance.now() - started) / files.length;
}

/**
 * What the wide page cost: the `wide` crawl against the `synthetic` one with the same page
 * limit (same site but for page 1's extra links), medians of each, per offscreen split.
 */
function widePageCost(runs: typeof allRuns): { text: string; bySlots: Record<string, unknown> } | null {
  const lines: string[] = [];
  const bySlots: Record<string, unknown> = {};
  for (const build of BUILDS) for (const slots of SLOTS) {
    const wide = runs[`wide|${slots}|${build.label}|${PANELS[0]}`];
    const plain = runs[`synthetic|${slots}|${build.label}|${PANELS[0]}`];
    if (!wide?.length || !plain?.length) continue;
    const m = (rs: CrawlRun[], f: (r: CrawlRun) => number) => median(rs.map(f));
    const cost = {
      wallMs: m(wide, (r) => r.wallMs) - m(plain, (r) => r.wallMs),
      convertMs: m(wide, (r) => r.counters.convertMs ?? 0) - m(plain, (r) => r.counters.convertMs ?? 0),
      storeMs: m(wide, (r) => r.counters.storeMs ?? 0) - m(plain, (r) => r.counters.storeMs ?? 0),
      queued: m(wide, (r) => r.counters.discovered ?? 0) - m(plain, (r) => r.counters.discovered ?? 0),
    };
    bySlots[BUILDS.length > 1 ? `${slots} [${build.label}]` : String(slots)] = cost;
    lines.push(`The page with ${arg('wide', '100000')} links (${build.label}, converters ${slots}): +${(cost.wallMs / 1000).toFixed(2)} s of crawl wall time (median ${(m(wide, (r) => r.wallMs) / 1000).toFixed(1)} s vs ${(m(plain, (r) => r.wallMs) / 1000).toFixed(1)} s without it), +${(cost.convertMs / 1000).toFixed(2)} s converting, +${(cost.storeMs / 1000).toFixed(2)} s in write transactions, +${cost.queued} URLs queued`);
  }
  return lines.length ? { text: lines.join('\n'), bySlots } : null;
}
const wideCost = widePageCost(allRuns);
if (wideCost) results.widePageCost = wideCost.bySlots;

const file = arg('out', `bench/results/crawl-${(results.date as string).slice(0, 10)}.json`);
mkdirSync(dirname(resolve(file)), { recursive: true });
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nCrawl → Markdown → IndexedDB in headless Chromium (${RUNS} runs, concurrency 4 per host, ${NETWORK ? 'shaped network' : 'loopback'})\n`);
console.log(table.join('\n'));
if (refreshTable.length > 2) {
  console.log(`\nRefresh of that crawl with nothing changed on the server (conditional requests; median of ${RUNS} runs)\n`);
  console.log(refreshTable.join('\n'));
}
if (networkTable.length > 2) {
  console.log(`\nOver a shaped network (${JSON.stringify(NETWORK)}; median of ${RUNS} runs). Shares: time summed over requests ÷ (wall × per-host concurrency)\n`);
  console.log(networkTable.join('\n'));
}
console.log(`\nCPU ms per stored page, crawl and floor (median of ${RUNS} runs; /proc, bench/cpu.ts). The extension's process is the service worker, the main thread (offscreen document + side panel) and the conversion workers; the floor is the panel's fetch + DOMParser\n`);
console.log(cpuTable.join('\n'));
console.log(`\nPace: pages/s over the first and the last tenth of the stored pages (median of ${RUNS} runs)\n`);
console.log(paceTable.join('\n'));
if (wideCost) console.log(`\n${wideCost.text}`);
console.log(`\nWrote ${file}`);
