/**
 * Where a crawl's time goes: CPU profiles of the extension's service worker, its offscreen
 * document and the side panel during one crawl (DevTools protocol Profiler), summed by function.
 * Prints the top functions by self time for each; writes the raw profiles to
 * bench/results/profile-<corpus>-<target>.cpuprofile (open them in Chrome DevTools).
 *
 * Run: SCOUT_PROFILE=1 npm run build:e2e && npx tsx bench/profile.ts [--corpus synthetic|python|node] [--pages 2000] [--after 6]
 * (SCOUT_PROFILE=1 keeps function names readable.)
 *
 * `--node`: conversion alone in Node with linkedom, milliseconds per page for each step of
 * convertHtml (bench/profile-steps.ts), written to bench/results/profile-steps-<date>.json.
 *   npx tsx bench/profile.ts --node [--corpus python,node] [--runs 5] [--limit <pages>] [--pair <other checkout>/lib] [--lib <dir>]
 * `--pair` measures an older lib/ in the same process, passes interleaved, as the baseline.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CDPSession } from '@playwright/test';
import { startFixtureServer } from '../tests/fixtures/server';
import { launchWithExtension } from '../tests/e2e/browser';
import { readStore } from '../tests/e2e/extension-db';
import { arg, corpora, openCrawlPanel } from './harness';
import { profileSteps } from './profile-steps';
import { SOURCE_PATCHES } from '../scripts/source-patches';

const corpus = arg('corpus', 'synthetic');
const pages = Number(arg('pages', '2000'));
/** Seconds to keep profiling after the crawl ends: the worker then builds llms.txt and llms-full.txt. */
const after = Number(arg('after', '0'));
/** Where pages convert (see bench/crawl.ts --converters, e.g. 1w+native); default: the extension's own plan. */
const converters = process.argv.includes('--converters') ? arg('converters', '1w+native') : null;
const SITES = corpora(pages);

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[]; startTime: number; endTime: number }

/** A non-flat CDP session to one target (service worker or offscreen page), driven by raw messages. */
async function attach(cdp: CDPSession, match: (t: { type: string; url: string }) => boolean) {
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string; url: string }> };
  const target = targetInfos.find(match);
  if (!target) return null;
  const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
  let id = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  cdp.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => {
    if (e.sessionId !== sessionId) return;
    const msg = JSON.parse(e.message) as { id?: number; result?: unknown };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result);
  });
  const send = async (method: string, params: object = {}) => {
    const n = ++id;
    const answer = new Promise((resolve) => waiting.set(n, resolve));
    await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: n, method, params }) });
    return answer;
  };
  return { send, url: target.url };
}

/** Self time per function (ms), from the samples. */
function summarize(profile: Profile, top = 25): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((nodeId, i) => {
    const node = byId.get(nodeId);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.split('/').pop() ?? '';
    const key = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = self.get('(idle)') ?? 0;
  return [
    `total ${(total / 1000).toFixed(1)} s, busy ${((total - idle) / 1000).toFixed(1)} s (${((100 * (total - idle)) / total).toFixed(0)} %)`,
    ...[...self.entries()].filter(([k]) => k !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${k}`),
  ];
}

/** Conversion step by step in Node (--node), against another lib/ when --pair names one. */
async function profileInNode(): Promise<void> {
  const pair = arg('pair', '');
  const lib = resolve(arg('lib', 'lib'));
  const libs: Record<string, string> = pair ? { baseline: resolve(pair), current: lib } : { current: lib };
  const names = arg('corpus', 'python,node').split(',');
  const results = await profileSteps(names, libs, Number(arg('runs', '5')), Number(arg('limit', 'Infinity')));
  mkdirSync('bench/results', { recursive: true });
  const date = new Date().toISOString();
  const file = arg('out', `bench/results/profile-steps-${date.slice(0, 10)}.json`);
  // How it ran: Node's flags say whether the bundle's linkedom patches were loaded (bench/linkedom-patched.mjs).
  const command = `node ${process.execArgv.join(' ')} bench/profile.ts ${process.argv.slice(2).join(' ')}`;
  const patches = process.execArgv.some((a) => a.includes('linkedom-patched')) ? (process.env.SCOUT_LINKEDOM_PATCHES ?? `all (${SOURCE_PATCHES.map((p) => p.name).join(', ')})`) : 'none';
  writeFileSync(file, `${JSON.stringify({ date, node: process.version, command, linkedomPatches: patches, libs, msPerPage: results }, null, 2)}\n`);
  console.log(`\nWrote ${file}`);
}

if (process.argv.includes('--node')) {
  await profileInNode();
  process.exit(0);
}

const spec = SITES[corpus];
if (!spec) throw new Error(`Unknown corpus ${corpus}`);
const server = await startFixtureServer({ [spec.host]: spec.site() });
const { context, extensionId } = await launchWithExtension();
try {
  const startUrl = server.url(spec.host, spec.start);
  const panel = await openCrawlPanel(context, extensionId, startUrl, converters);
  const cdp = await context.newCDPSession(panel);
  const worker = await attach(cdp, (t) => t.type === 'service_worker' && t.url.includes(extensionId));
  if (!worker) throw new Error('no service worker target');
  await worker.send('Profiler.enable');
  await worker.send('Profiler.setSamplingInterval', { interval: 200 });
  await worker.send('Profiler.start');
  // The side panel shares its thread with the offscreen document: profiled apart, it says what showing progress costs.
  const panelTarget = { send: (method: string, params: object = {}) => cdp.send(method as 'Profiler.start', params), url: panel.url() };
  await panelTarget.send('Profiler.enable');
  await panelTarget.send('Profiler.setSamplingInterval', { interval: 200 });
  await panelTarget.send('Profiler.start');
  const started = Date.now();
  await panel.getByTestId('start-crawl').click();
  // The offscreen document appears with the first page; profile it from then on.
  let offscreen: Awaited<ReturnType<typeof attach>> = null;
  for (;;) {
    await panel.waitForTimeout(200);
    if (!offscreen) {
      offscreen = await attach(cdp, (t) => t.url.includes(`${extensionId}/offscreen.html`));
      if (offscreen) {
        await offscreen.send('Profiler.enable');
        await offscreen.send('Profiler.setSamplingInterval', { interval: 200 });
        await offscreen.send('Profiler.start');
      }
    }
    const job = (await readStore<{ kind: string; state: string; counters: Record<string, number> }>(panel, 'jobs')).find((j) => j.kind === 'crawl');
    if (job && job.state !== 'running') {
      console.log(`${corpus}: crawl ${job.state}, ${job.counters.stored} pages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      break;
    }
  }
  await panel.waitForTimeout(after * 1000);
  mkdirSync('bench/results', { recursive: true });
  for (const [name, target] of [['worker', worker], ['offscreen', offscreen], ['panel', panelTarget]] as const) {
    if (!target) continue;
    const { profile } = (await target.send('Profiler.stop')) as { profile: Profile };
    writeFileSync(`bench/results/profile-${corpus}-${name}.cpuprofile`, JSON.stringify(profile));
    console.log(`\n${name} (${target.url})\n${summarize(profile).join('\n')}`);
  }
} finally {
  await context.close();
  await server.close();
}
