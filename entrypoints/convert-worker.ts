import { linkedomAdapter } from '@/lib/convert/dom';
import { serveConversions } from '@/lib/pipeline/convert-port';
import { probeFetch } from './offscreen/probe-fetch';

/**
 * A conversion worker (Web Worker): linkedom + turndown on a thread of its own. Workers have no
 * DOMParser, hence linkedom. The page that starts it (Chrome's offscreen document, Firefox's
 * background page) sends it one MessagePort per crawl side that wants to talk to it; pages
 * arrive on those ports as undecoded bytes, are decoded and converted here, and go back
 * converted (lib/pipeline/convert-port.ts).
 */
export default defineUnlistedScript(() => {
  self.addEventListener('message', (event: MessageEvent) => {
    for (const port of event.ports) serveConversions(port, linkedomAdapter);
  });
  // Test builds only: a fetch made from this thread, so an E2E test can compare what the site
  // receives from a worker's request (cookies, network rules) with the service worker's own
  // (tests/e2e/worker-fetch.spec.ts). Production builds drop this branch.
  if (import.meta.env.SCOUT_E2E) {
    self.addEventListener('message', (event: MessageEvent) => {
      const probe = (event.data as { e2eFetch?: { url: string; redirect: RequestRedirect } } | null)?.e2eFetch;
      if (probe) void probeFetch(probe.url, probe.redirect).then((answer) => self.postMessage({ e2eFetched: answer }));
    });
  }
});
