/**
 * The browser runtimes: pages are fetched in the crawl's thread with the browser's own fetch (the
 * user's cookies, the extension's network rules) and converted on a conversion queue sized by
 * `navigator.hardwareConcurrency` (converter-plan.ts): on Chromium the offscreen document's
 * workers and native parser (chromium.ts), on Firefox the background page's workers (firefox.ts).
 * linkedom in the crawl's own thread is the converter of last resort, and a lane when the plan says `sw`.
 */
import { linkedomAdapter } from '../convert/dom';
import type { CrawlProcessor } from '../crawl/processor';
import { browserFetch } from '../fetch/browser-fetch';
import type { TabRenderer } from '../render/tab-renderer';
import { backgroundLanes } from './firefox';
import { hasOffscreen, listenForConverterPorts, offscreenLanes } from './chromium';
import { ConversionQueue, type ConverterLane } from './conversion-queue';
import { defaultPlan, parsePlan, planCapacity, planName, type ConverterPlan } from './converter-plan';
import { createPagePipeline } from './page-pipeline';
import { convertBody } from './steps';
import { reconnecting } from './worker-lanes';
import type { WxtBrowser } from 'wxt/browser';

export interface BrowserPipelineOptions {
  /** Reads client-rendered pages in tabs; null where the browser has no scripting API. */
  renderer: TabRenderer | null;
  /**
   * Benchmark builds only: `storage.local.benchConverters` ("1w+native", "2w", "sw"…) replaces
   * the plan, so bench/crawl.ts measures each in one run of the same build.
   */
  benchPlans?: boolean;
}

const localLane = (): ConverterLane => ({ name: 'linkedom in the service worker', capacity: 1, convert: async (job) => convertBody(job, linkedomAdapter) });

async function connect(browser: WxtBrowser, plan: ConverterPlan): Promise<ConversionQueue> {
  const lanes: ConverterLane[] = [];
  try {
    if (hasOffscreen(browser)) lanes.push(...(await offscreenLanes(browser, plan)));
    else if (typeof Worker === 'function') lanes.push(...backgroundLanes(browser, plan));
  } catch (error) {
    console.warn('Scout could not start its conversion workers; converting in the service worker', error);
  }
  if (plan.local || lanes.length === 0) lanes.push(localLane());
  return new ConversionQueue(lanes);
}

/** The browser's pipeline. Call it while the background script first runs (see listenForConverterPorts). */
export function browserPipeline(browser: WxtBrowser, { renderer, benchPlans = false }: BrowserPipelineOptions): CrawlProcessor {
  let plan = defaultPlan(globalThis.navigator?.hardwareConcurrency);
  // Every converter gone (the offscreen document was closed) or a new plan: the next page connects
  // again, and the old queue's workers are ended first (Firefox's would otherwise run on beside the new).
  const connection = reconnecting(
    () =>
      connect(browser, plan).then((queue) => {
        console.info(`Scout converts pages with: ${queue.laneNames.join(', ')} (plan ${planName(plan)})`);
        return queue;
      }),
    (queue) => queue.close(),
  );
  if (hasOffscreen(browser)) listenForConverterPorts();
  if (benchPlans) {
    const read = (value: unknown) => {
      plan = typeof value === 'string' ? parsePlan(value) : defaultPlan(globalThis.navigator?.hardwareConcurrency);
      connection.reset();
    };
    void browser.storage.local.get('benchConverters').then((r) => read(r.benchConverters));
    browser.storage.onChanged.addListener((changes) => {
      if (changes.benchConverters) read(changes.benchConverters.newValue);
    });
  }
  const pipeline = createPagePipeline({
    fetch: browserFetch,
    convert: {
      lanes: {
        convert: (job, signal, taken) => connection.use((queue) => queue.convert(job, signal, taken)),
        get capacity() {
          return planCapacity(plan);
        },
      },
    },
    rendering: { renderer: renderer?.render ?? null, dom: linkedomAdapter },
    // Every render closes its own tab; this catches any the job still has on record.
    ended: async (jobId) => void (await renderer?.sweep(jobId)),
  });
  // Starting the offscreen document and its workers takes a while: begun as the crawl starts, it
  // overlaps the crawl's robots.txt and seeds instead of delaying the first page's conversion.
  return { ...pipeline, prepare: () => connection.warm() };
}
