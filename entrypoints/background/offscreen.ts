import { linkedomAdapter } from '@/lib/convert/dom';
import { createLocalProcessor, type PageProcessor } from '@/lib/crawl/processor';
import { sendMessage } from '@/lib/messaging';

let creating: Promise<void> | undefined;

async function ensureDocument(): Promise<void> {
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
 * The page processor for crawls. On Chromium, pages are fetched and converted
 * in an offscreen document with the browser's own parser, on a thread beside
 * the worker's, which keeps scheduling and storing. Where there is no offscreen
 * API (Firefox), or the document cannot answer, the worker converts the page
 * itself with linkedom.
 */
export function createCrawlProcessor(): PageProcessor {
  const fetchFn: typeof fetch = (input, init) => fetch(input, init);
  const local = createLocalProcessor(fetchFn, linkedomAdapter);
  if (!browser.offscreen?.createDocument) return local;
  return async (request, signal) => {
    try {
      await ensureDocument();
      return await sendMessage('processPage', request);
    } catch (error) {
      if (signal?.aborted) throw error;
      console.warn('Offscreen conversion unavailable, converting in the worker', error);
      return local(request, signal);
    }
  };
}
