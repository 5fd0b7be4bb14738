import { nativeDomAdapter } from '@/lib/convert/dom';
import { createLocalProcessor } from '@/lib/crawl/processor';
import { onMessage } from '@/lib/messaging';

// The offscreen document has what the worker lacks: the browser's own HTML parser,
// and a thread of its own. The worker sends it pages to fetch and convert.
const dom = nativeDomAdapter();
if (dom) {
  const process = createLocalProcessor((input, init) => fetch(input, init), dom);
  // An AbortSignal cannot cross a message: the worker names each page, and sends abortProcessPage on Cancel.
  const inFlight = new Map<string, AbortController>();
  onMessage('processPage', async ({ data: { id, ...request } }) => {
    const controller = new AbortController();
    inFlight.set(id, controller);
    try {
      return await process(request, controller.signal);
    } finally {
      inFlight.delete(id);
    }
  });
  onMessage('abortProcessPage', ({ data }) => inFlight.get(data.id)?.abort());
}
