import { linkedomAdapter } from '@/lib/convert/dom';
import { ConversionQueue, type ConverterLane } from '@/lib/crawl/conversion-queue';
import { ownedElsewhereConverter } from '@/lib/crawl/convert-port';
import { ownedWorkerLanes, reconnecting, workerLanes, type WorkerOwner } from '@/lib/crawl/worker-lanes';
import { defaultPlan, NATIVE_LANE, parsePlan, planCapacity, planName, type ConverterPlan } from '@/lib/crawl/converter-plan';
import { convertBody } from '@/lib/crawl/process-page';
import { createLocalProcessor, type PageProcessor } from '@/lib/crawl/processor';
import { sendMessage } from '@/lib/messaging';
import { browserFetch } from '@/lib/fetch/browser-fetch';
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

/** The service worker's own linkedom: the converter of last resort, and one lane when the plan says `sw`. */
const localLane = (): ConverterLane => ({ name: 'linkedom in the service worker', capacity: 1, convert: async (job) => convertBody(job, linkedomAdapter) });

/**
 * The native parser's DOM costs about twice a worker's linkedom per page, and on a big page that
 * is seconds (5 MB with 100,000 links: 6.3 s against 3.8 s, bench/results/crawl-wide-lanes-2026-11-23.json):
 * bigger pages wait for a worker.
 */
const NATIVE_MAX_CHARS = 1_000_000;

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
async function offscreenLanes(browser: WxtBrowser, plan: ConverterPlan): Promise<ConverterLane[]> {
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
    lanes.push({ name: NATIVE_LANE, capacity: 1, convert: ownedElsewhereConverter(port, () => documentOpen(browser)), maxChars: NATIVE_MAX_CHARS });
  }
  return lanes;
}

/**
 * Firefox: the background page has a DOM of its own and starts the same workers itself, so it can
 * end them: a page over the time limit fails alone and its worker is replaced (workerLanes).
 */
function backgroundLanes(browser: WxtBrowser, plan: ConverterPlan): ConverterLane[] {
  return workerLanes(plan.workers, () => new Worker(browser.runtime.getURL('/convert-worker.js')));
}

async function connect(browser: WxtBrowser, plan: ConverterPlan): Promise<ConversionQueue> {
  const lanes: ConverterLane[] = [];
  try {
    if (typeof browser.offscreen?.createDocument === 'function') lanes.push(...(await offscreenLanes(browser, plan)));
    else if (typeof Worker === 'function') lanes.push(...backgroundLanes(browser, plan));
  } catch (error) {
    console.warn('Scout could not start its conversion workers; converting in the service worker', error);
  }
  if (plan.local || lanes.length === 0) lanes.push(localLane());
  return new ConversionQueue(lanes);
}

/**
 * The page processor for crawls: the crawl's thread fetches (holding the host's request slot
 * only that long) and hands each body to a conversion queue — Web Workers with linkedom and, on
 * Chromium, the offscreen document's native parser — sized by `navigator.hardwareConcurrency`.
 * `converters()` is what the runner bounds its backlog by.
 */
export function createCrawlProcessor(browser: WxtBrowser): { process: PageProcessor; converters: () => number } {
  let plan = defaultPlan(globalThis.navigator?.hardwareConcurrency);
  // Every converter gone (the offscreen document was closed) or a new plan: the next page connects
  // again, and the old queue's workers are ended first (Firefox's would otherwise run on beside the new).
  const connection = reconnecting(
    () =>
      connect(browser, plan).then((queue) => {
        console.info(`Scout converts pages with: ${queue.laneNames.join(', ')} (plan ${planName(plan)})`);
        return { queue, process: createLocalProcessor(browserFetch, queue) };
      }),
    ({ queue }) => queue.close(),
  );
  if (typeof browser.offscreen?.createDocument === 'function') {
    globalThis.addEventListener('message', (event) => {
      const { data, ports } = event as MessageEvent<{ scoutConverters?: string[]; request?: number }>;
      if (data?.scoutConverters && data.request !== undefined) portsArriving.get(data.request)?.({ names: data.scoutConverters, ports });
    });
  }
  // Benchmark builds only (SCOUT_E2E): `storage.local.benchConverters` ("1w+native", "2w", "sw"…)
  // replaces the plan, so bench/crawl.ts measures each in one run of the same build.
  if (import.meta.env.SCOUT_E2E) {
    const read = (value: unknown) => {
      plan = typeof value === 'string' ? parsePlan(value) : defaultPlan(globalThis.navigator?.hardwareConcurrency);
      connection.reset();
    };
    void browser.storage.local.get('benchConverters').then((r) => read(r.benchConverters));
    browser.storage.onChanged.addListener((changes) => {
      if (changes.benchConverters) read(changes.benchConverters.newValue);
    });
  }
  const process: PageProcessor = (request, signal) => connection.use(({ process: run }) => run(request, signal));
  return { process, converters: () => planCapacity(plan) };
}
