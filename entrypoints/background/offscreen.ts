import { linkedomAdapter } from '@/lib/convert/dom';
import { createLocalProcessor, type PageProcessor, type ProcessRequest, type ProcessResult } from '@/lib/crawl/processor';
import { sendMessage } from '@/lib/messaging';

let creating: Promise<void> | undefined;
/** Set once the document answered; cleared when a message fails (Chrome may have closed it). */
let documentReady = false;

async function ensureDocument(): Promise<void> {
  if (documentReady) return;
  const existing = await browser.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT' as Browser.runtime.ContextType] });
  if (existing.length > 0) return;
  creating ??= browser.offscreen
    .createDocument({
      url: browser.runtime.getURL('/offscreen.html'),
      reasons: ['DOM_PARSER' as Browser.offscreen.Reason],
      justification: 'Convert crawled documentation pages to Markdown with the browser’s HTML parser.',
    })
    .finally(() => (creating = undefined));
  await creating;
}

/**
 * Pages in the offscreen document at once. Past this, the worker converts the page itself.
 * Why: the offscreen document shares one thread with every other extension page (the side
 * panel included), and profiling a Python-docs crawl showed that thread busy ~95% of the time
 * while the worker's thread sat ~90% idle. linkedom in the worker costs about what the native
 * parser plus that thread's contention costs, so two pipelines run side by side.
 */
const OFFSCREEN_SLOTS = 2;

/**
 * Benchmark builds only (SCOUT_E2E): `storage.local.benchOffscreenSlots` overrides the split, so
 * bench/crawl.ts can measure linkedom in the worker (0), the native parser only (4 = every slot
 * at the default concurrency) and mixes in one run of the same build.
 */
let offscreenSlots = OFFSCREEN_SLOTS;
if (import.meta.env.SCOUT_E2E) {
  const read = (value: unknown) => (offscreenSlots = typeof value === 'number' ? value : OFFSCREEN_SLOTS);
  void browser.storage.local.get('benchOffscreenSlots').then((r) => read(r.benchOffscreenSlots));
  browser.storage.onChanged.addListener((changes) => {
    if (changes.benchOffscreenSlots) read(changes.benchOffscreenSlots.newValue);
  });
}

/**
 * One page in the offscreen document. A signal cannot cross a message, so its abort (Cancel)
 * follows the page as abortProcessPage: without it the document kept fetching — retries,
 * Retry-After waits — long after the user cancelled, and the runner waited for it.
 */
async function processOffscreen(request: ProcessRequest, signal?: AbortSignal): Promise<ProcessResult> {
  signal?.throwIfAborted();
  const id = crypto.randomUUID();
  const abort = () => void sendMessage('abortProcessPage', { id }).catch(() => undefined);
  signal?.addEventListener('abort', abort, { once: true });
  try {
    return await sendMessage('processPage', { ...request, id });
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}

/**
 * The page processor for crawls. On Chromium, pages are fetched and converted
 * in an offscreen document with the browser's own parser, on a thread beside
 * the worker's, which keeps scheduling and storing — and, when the document
 * already has enough pages in hand, converts the overflow itself with linkedom.
 * Where there is no offscreen API (Firefox), or the document cannot answer,
 * the worker converts every page itself.
 */
export function createCrawlProcessor(): PageProcessor {
  const fetchFn: typeof fetch = (input, init) => fetch(input, init);
  const local = createLocalProcessor(fetchFn, linkedomAdapter);
  if (!browser.offscreen?.createDocument) return local;
  let inOffscreen = 0;
  return async (request, signal) => {
    if (inOffscreen >= offscreenSlots) return local(request, signal);
    inOffscreen++;
    try {
      await ensureDocument();
      const result = await processOffscreen(request, signal);
      documentReady = true;
      return result;
    } catch (error) {
      documentReady = false;
      if (signal?.aborted) throw error;
      console.warn('Offscreen conversion unavailable, converting in the worker', error);
      return local(request, signal);
    } finally {
      inOffscreen--;
    }
  };
}
