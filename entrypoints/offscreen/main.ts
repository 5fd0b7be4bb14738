import { nativeDomAdapter } from '@/lib/convert/dom';
import { serveConversions } from '@/lib/pipeline/convert-port';
import { NATIVE_LANE } from '@/lib/pipeline/converter-plan';
import { onMessage } from '@/lib/messaging';
import { listenForWorkerProbes } from './worker-probe';

// The offscreen document has what the service worker lacks: the browser's own HTML parser, and
// the right to start Web Workers. It starts the conversion workers and hands the service worker a
// MessagePort to each (and one to its own native parser), so fetched pages go straight from the
// service worker to a converter.
const dom = nativeDomAdapter();
/** The conversion workers, by lane index; a slot is empty once its worker was ended. */
const workers: Array<Worker | undefined> = [];
if (import.meta.env.SCOUT_E2E) listenForWorkerProbes();

const startWorker = () => new Worker(browser.runtime.getURL('/convert-worker.js'));

/** A port to a worker, handed to it on a channel of its own. */
function portTo(worker: Worker): MessagePort {
  const channel = new MessageChannel();
  worker.postMessage(null, [channel.port1]);
  return channel.port2;
}

/** A MessagePort cannot travel in a runtime message; postMessage to the service worker carries it. */
async function handOver(names: string[], ports: MessagePort[], request: number): Promise<void> {
  const registration = await navigator.serviceWorker.ready;
  if (!registration.active) throw new Error('No active service worker to hand the converters to');
  registration.active.postMessage({ scoutConverters: names, request }, ports);
}

onMessage('connectConverters', async ({ data }) => {
  const names: string[] = [];
  const ports: MessagePort[] = [];
  for (let i = 0; i < data.workers; i++) {
    const worker = (workers[i] ??= startWorker());
    names.push(`worker ${i + 1}`);
    ports.push(portTo(worker));
  }
  if (data.native && dom) {
    const channel = new MessageChannel();
    serveConversions(channel.port1, dom);
    names.push(NATIVE_LANE);
    ports.push(channel.port2);
  }
  await handOver(names, ports, data.request);
  return { lanes: names };
});

// A page held a worker over the time limit: the service worker cannot end a thread it did not
// start, so it asks; the next page on that lane starts a new one.
onMessage('endConverter', ({ data }) => {
  workers[data.index]?.terminate();
  workers[data.index] = undefined;
});

onMessage('startConverter', async ({ data }) => {
  workers[data.index]?.terminate();
  const worker = startWorker();
  workers[data.index] = worker;
  const lane = `worker ${data.index + 1}`;
  await handOver([lane], [portTo(worker)], data.request);
  return { lane };
});
