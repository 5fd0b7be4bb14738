import { afterEach, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { ConversionQueue } from '@/lib/crawl/conversion-queue';
import type { ConvertJob } from '@/lib/crawl/process-page';
import { workerLanes, type WorkerLike } from '@/lib/crawl/worker-lanes';
import { LaneError } from '@/lib/crawl/conversion-queue';
import { ownedElsewhereConverter, type PortLike } from '@/lib/crawl/convert-port';

// A converter thread: answers each page on the ports it is given; a page marked PATHOLOGICAL keeps
// it busy for good (as a page whose conversion never ends), so only ending the thread stops it.
const CONVERTER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ ports }) => {
  for (const port of ports) port.on('message', ({ id, job }) => {
    if (job.html.includes('PATHOLOGICAL')) for (;;) {}
    if (job.html.includes('SLOW')) { const until = Date.now() + 700; while (Date.now() < until) {} }
    port.postMessage({ id, body: { converted: { title: job.finalUrl, markdown: job.html } } });
  });
});
`;

const job = (name: string, html = `<p>${name}</p>`): ConvertJob => ({ html, finalUrl: `https://docs.example.test/${name}`, startPage: false });

let threads: Worker[] = [];
afterEach(async () => {
  await Promise.all(threads.map((t) => t.terminate()));
  threads = [];
});

/** Starts real threads; counts those still running. */
function threadStarter() {
  const running = new Set<Worker>();
  const start = (): WorkerLike => {
    const thread = new Worker(CONVERTER, { eval: true });
    threads.push(thread);
    running.add(thread);
    thread.once('exit', () => running.delete(thread));
    return {
      // A browser hands the worker its ports beside the message; Node's carries them inside it.
      postMessage: (_message, transfer) => thread.postMessage({ ports: transfer }, transfer as never),
      terminate: () => void thread.terminate(),
    };
  };
  return { start, running: () => running.size };
}

describe('conversion lanes on workers this context starts', () => {
  it('fails a page that takes too long alone, keeps every lane, and ends the thread it held', async () => {
    const threads = threadStarter();
    const queue = new ConversionQueue(workerLanes(2, threads.start, 1_000));
    const slow = queue.convert(job('slow', '<p>PATHOLOGICAL</p>'));
    const others = ['a', 'b', 'c', 'd'].map((name) => queue.convert(job(name)));
    await expect(slow).rejects.toThrow(/^Conversion took over 1 s/);
    expect((await Promise.all(others)).map((b) => b.converted.title)).toEqual(['a', 'b', 'c', 'd'].map((n) => `https://docs.example.test/${n}`));
    // Both lanes still convert, and the thread stuck on the slow page was ended, not left running.
    expect(queue.laneNames).toHaveLength(2);
    const after = await Promise.all(['e', 'f', 'g'].map((name) => queue.convert(job(name))));
    expect(after).toHaveLength(3);
    await expect.poll(() => threads.running()).toBe(2);
    // Closing the queue (a reconnect) ends its threads.
    queue.close();
    await expect.poll(() => threads.running()).toBe(0);
  });
});

describe('conversion lanes on workers another document owns (Chrome’s offscreen document)', () => {
  /** A lane on a port to a thread the test starts but the lane cannot end, as the service worker's ports. */
  function foreignLane(name: string, alive: () => Promise<boolean>) {
    const thread = new Worker(CONVERTER, { eval: true });
    threads.push(thread);
    const channel = new MessageChannel();
    thread.postMessage({ ports: [channel.port1] }, [channel.port1] as never);
    return { name, capacity: 1, convert: ownedElsewhereConverter(channel.port2 as unknown as PortLike, alive, 500) };
  }

  it('fails a slow page alone while the document is there, and the lane converts again once the worker is done with it', async () => {
    const queue = new ConversionQueue([foreignLane('worker 1', async () => true), foreignLane('worker 2', async () => true)]);
    // Both threads started and answering first.
    await Promise.all([queue.convert(job('warm-1')), queue.convert(job('warm-2'))]);
    const slow = queue.convert(job('slow', '<p>SLOW</p>'));
    await expect(slow).rejects.toThrow(/^Conversion took over 0.5 s/);
    const after = await Promise.all(['a', 'b', 'c', 'd'].map((name) => queue.convert(job(name))));
    expect(after.map((b) => b.converted.title)).toEqual(['a', 'b', 'c', 'd'].map((n) => `https://docs.example.test/${n}`));
    expect(queue.laneNames).toEqual(['worker 1', 'worker 2']);
  });

  it('takes a silent lane for gone when the document is not there any more', async () => {
    const { port2 } = new MessageChannel();
    const convert = ownedElsewhereConverter(port2 as unknown as PortLike, async () => false, 200);
    await expect(convert(job('x'))).rejects.toBeInstanceOf(LaneError);
    port2.close();
  });
});

