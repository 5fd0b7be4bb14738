/**
 * The Chromium runtime's conversion lanes: a service worker can neither parse HTML natively nor
 * start a Web Worker, so an offscreen document (entrypoints/offscreen/) starts the conversion
 * workers and serves its own native parser, and hands the service worker a MessagePort to each.
 */
import type { ConverterLane } from './conversion-queue';
import { ownedElsewhereConverter } from './convert-port';
import { ownedWorkerLanes, type WorkerOwner } from './worker-lanes';
import { NATIVE_LANE, type ConverterPlan } from './converter-plan';
import { sendMessage } from '../messaging';
import type { WxtBrowser } from 'wxt/browser';

let creating: Promise<void> | undefined;

async function documentOpen(browser: WxtBrowser): Promise<boolean> {
  const existing = await browser.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT' as Browser.runtime.ContextType] });
  return existing.length > 0;
}

async function ensureDocument(browser: WxtBrowser): Promise<void> {
  if (await documentOpen(browser)) return;
  creating ??= browser.offscreen
    .createDocument({
      url: browser.runtime.getURL('/offscreen.html'),
      reasons: ['DOM_PARSER' as Browser.offscreen.Reason, 'WORKERS' as Browser.offscreen.Reason],
      justification: 'Convert crawled documentation pages to Markdown in worker threads and with the browser’s HTML parser.',
    })
    .finally(() => (creating = undefined));
  await creating;
}

/**
 * The native parser's DOM costs about twice a worker's linkedom per page, and on a big page that
 * is seconds (5 MB with 100,000 links: 6.3 s against 3.8 s, bench/results/crawl-wide-lanes-2026-11-23.json):
 * bigger pages wait for a worker.
 */
const NATIVE_MAX_BYTES = 1_000_000;

/** Ports from the offscreen document arrive as a message to the service worker, not as the answer: by request. */
const portsArriving = new Map<number, (value: { names: string[]; ports: readonly MessagePort[] }) => void>();
let lastRequest = 0;

/** Sends `ask` with a new request number and waits for the ports marked with it (10 s at most). */
async function portsFor(ask: (request: number) => Promise<unknown>): Promise<{ names: string[]; ports: readonly MessagePort[] }> {
  const request = ++lastRequest;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arrived = new Promise<{ names: string[]; ports: readonly MessagePort[] }>((resolve, reject) => {
    portsArriving.set(request, resolve);
    timer = setTimeout(() => reject(new Error('The offscreen document sent no converters within 10 s')), 10_000);
  });
  try {
    await ask(request);
    return await arrived;
  } finally {
    clearTimeout(timer);
    portsArriving.delete(request);
  }
}

/**
 * Chromium: the workers and the native parser live in the offscreen document; the service worker
 * gets a port to each. A worker a page holds over the time limit is ended and started again by the
 * document on request (ownedWorkerLanes); the native parser runs on the document's own thread,
 * which nothing can end, so a page over the limit there waits for it (ownedElsewhereConverter).
 */
export async function offscreenLanes(browser: WxtBrowser, plan: ConverterPlan): Promise<ConverterLane[]> {
  if (!plan.workers && !plan.native) return [];
  await ensureDocument(browser);
  const { names, ports } = await portsFor((request) => sendMessage('connectConverters', { workers: plan.workers, native: plan.native, request }));
  const owner: WorkerOwner = {
    start: async (index) => {
      const { ports: [port] } = await portsFor((request) => sendMessage('startConverter', { index, request }));
      if (!port) throw new Error('The offscreen document sent no converter');
      return port;
    },
    end: (index) => void sendMessage('endConverter', { index }).catch(() => undefined),
  };
  const workerPorts = ports.filter((_, i) => names[i] !== NATIVE_LANE);
  const lanes = ownedWorkerLanes(workerPorts, owner);
  const native = ports.findIndex((_, i) => names[i] === NATIVE_LANE);
  if (native >= 0) {
    const port = ports[native] as MessagePort;
    lanes.push({ name: NATIVE_LANE, capacity: 1, convert: ownedElsewhereConverter(port, () => documentOpen(browser)), maxBytes: NATIVE_MAX_BYTES });
  }
  return lanes;
}

/** Whether this browser converts in an offscreen document (Chromium), not in its background page (Firefox). */
export function hasOffscreen(browser: WxtBrowser): boolean {
  return typeof browser.offscreen?.createDocument === 'function';
}

/**
 * Takes the ports the offscreen document posts to the service worker. Call it while the worker's
 * script first runs: Chrome dispatches a service worker's `message` events only to listeners added then.
 */
export function listenForConverterPorts(): void {
  globalThis.addEventListener('message', (event) => {
    const { data, ports } = event as MessageEvent<{ scoutConverters?: string[]; request?: number }>;
    if (data?.scoutConverters && data.request !== undefined) portsArriving.get(data.request)?.({ names: data.scoutConverters, ports });
  });
}
