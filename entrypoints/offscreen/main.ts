import { nativeDomAdapter } from '@/lib/convert/dom';
import { serveConversions } from '@/lib/crawl/convert-port';
import { NATIVE_LANE } from '@/lib/crawl/converter-plan';
import { onMessage } from '@/lib/messaging';
import { listenForWorkerProbes } from './worker-probe';

// The offscreen document has what the service worker lacks: the browser's own HTML parser, and
// the right to start Web Workers. It starts the conversion workers and hands the service worker a
// MessagePort to each (and one to its own native parser), so fetched pages go straight from the
// service worker to a converter.
const dom = nativeDomAdapter();
const workers: Worker[] = [];
if (import.meta.env.SCOUT_E2E) listenForWorkerProbes();

onMessage('connectConverters', async ({ data }) => {
  while (workers.length < data.workers) workers.push(new Worker(browser.runtime.getURL('/convert-worker.js')));
  const names: string[] = [];
  const ports: MessagePort[] = [];
  for (const [i, worker] of workers.slice(0, data.workers).entries()) {
    const channel = new MessageChannel();
    worker.postMessage(null, [channel.port1]);
    names.push(`worker ${i + 1}`);
    ports.push(channel.port2);
  }
  if (data.native && dom) {
    const channel = new MessageChannel();
    serveConversions(channel.port1, dom);
    names.push(NATIVE_LANE);
    ports.push(channel.port2);
  }
  // A MessagePort cannot travel in a runtime message; postMessage to the service worker carries it.
  const registration = await navigator.serviceWorker.ready;
  if (!registration.active) throw new Error('No active service worker to hand the converters to');
  registration.active.postMessage({ scoutConverters: names }, ports);
  return { lanes: names };
});
