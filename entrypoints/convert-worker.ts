import { linkedomAdapter } from '@/lib/convert/dom';
import { serveConversions } from '@/lib/crawl/convert-port';

/**
 * A conversion worker (Web Worker): linkedom + turndown on a thread of its own. Workers have no
 * DOMParser, hence linkedom. The page that starts it (Chrome's offscreen document, Firefox's
 * background page) sends it one MessagePort per crawl side that wants to talk to it; pages
 * arrive on those ports and go back converted (lib/crawl/convert-port.ts).
 */
export default defineUnlistedScript(() => {
  self.addEventListener('message', (event: MessageEvent) => {
    for (const port of event.ports) serveConversions(port, linkedomAdapter);
  });
});
