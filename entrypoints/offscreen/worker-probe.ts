import { probeFetch } from './probe-fetch';

/**
 * Test builds only (tests/e2e/worker-fetch.spec.ts, tests/firefox/worker-fetch.firefox.test.ts):
 * answers `{ type: 'e2eWorkerFetch', timestamp, data: { url, redirect, from } }` by starting a
 * conversion worker where Scout starts them (Chrome's offscreen document, Firefox's background
 * page), having it fetch the URL, and returning what it got; with `from: 'here'`, the page itself
 * fetches (Firefox's background page is where Scout's crawl fetches today). The service worker cannot start a Web Worker, so there it does
 * nothing. The message has the shape of Scout's messaging (lib/messaging.ts), whose listener
 * leaves a type it does not know to others, but is not part of its protocol: it is not shipped.
 */
export function listenForWorkerProbes(): void {
  if (typeof Worker !== 'function') return;
  browser.runtime.onMessage.addListener((message: unknown) => {
    const { type, data: probe } = (message ?? {}) as { type?: string; data?: { url: string; redirect: RequestRedirect; from?: 'worker' | 'here' } };
    if (type !== 'e2eWorkerFetch' || !probe) return undefined;
    if (probe.from === 'here') return probeFetch(probe.url, probe.redirect);
    return new Promise((resolve) => {
      const worker = new Worker(browser.runtime.getURL('/convert-worker.js'));
      const timer = setTimeout(() => finish({ ok: false, error: 'The worker did not answer within 15 s' }), 15_000);
      const finish = (answer: unknown) => {
        clearTimeout(timer);
        worker.terminate();
        resolve(answer);
      };
      worker.addEventListener('message', (event: MessageEvent) => {
        const answer = (event.data as { e2eFetched?: unknown } | null)?.e2eFetched;
        if (answer) finish(answer);
      });
      worker.addEventListener('error', (event) => finish({ ok: false, error: `The worker failed: ${event.message}` }));
      worker.postMessage({ e2eFetch: { url: probe.url, redirect: probe.redirect } });
    });
  });
}
