import { afterEach, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { ConversionQueue } from '@/lib/pipeline/conversion-queue';
import type { ConvertJob } from '@/lib/pipeline/steps';
import { ownedWorkerLanes, reconnecting, workerLanes, type WorkerLike, type WorkerOwner } from '@/lib/pipeline/worker-lanes';
import { LaneError } from '@/lib/pipeline/conversion-queue';
import { ownedElsewhereConverter, type PortLike } from '@/lib/pipeline/convert-port';

// A converter thread: answers each page on the ports it is given; a page marked PATHOLOGICAL keeps
// it busy for good (as a page whose conversion never ends), so only ending the thread stops it.
const CONVERTER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ ports }) => {
  for (const port of ports) port.on('message', ({ id, job }) => {
    const html = new TextDecoder().decode(job.bytes);
    if (html.includes('PATHOLOGICAL')) for (;;) {}
    if (html.includes('SLOW')) { const until = Date.now() + 700; while (Date.now() < until) {} }
    port.postMessage({ id, body: { converted: { title: job.finalUrl, markdown: html } } });
  });
});
`;

const job = (name: string, html = `<p>${name}</p>`): ConvertJob => ({ bytes: new TextEncoder().encode(html), contentType: 'text/html', finalUrl: `https://docs.example.test/${name}`, startPage: false });

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

describe('reconnecting to workers this context starts (Firefox’s background page)', () => {
  const connectTo = (threads: ReturnType<typeof threadStarter>) =>
    reconnecting(
      async () => new ConversionQueue(workerLanes(2, threads.start, 20_000)),
      (queue) => queue.close(),
    );
  const convertTwo = (queue: ConversionQueue) => Promise.all(['a', 'b'].map((name) => queue.convert(job(name))));

  it('connects when warmed, before any page, and the first page uses that connection', async () => {
    const threads = threadStarter();
    let connects = 0;
    const connection = reconnecting(
      async () => {
        connects++;
        return new ConversionQueue(workerLanes(2, threads.start, 20_000));
      },
      (queue) => queue.close(),
    );
    connection.warm();
    expect(connects).toBe(1);
    connection.warm();
    await connection.use(convertTwo);
    expect(connects).toBe(1);
    expect(threads.running()).toBe(2);
    connection.reset();
    await expect.poll(() => threads.running()).toBe(0);
  });

  it('tries again on the first page when warming failed', async () => {
    let attempts = 0;
    const connection = reconnecting(
      async () => {
        if (++attempts === 1) throw new Error('no offscreen document yet');
        return 'connected';
      },
      () => undefined,
    );
    connection.warm();
    await expect.poll(() => attempts).toBe(1);
    await expect(connection.use(async (c) => c)).resolves.toBe('connected');
    expect(attempts).toBe(2);
  });

  it('ends the old workers before a new plan starts new ones', async () => {
    const threads = threadStarter();
    const connection = connectTo(threads);
    await connection.use(convertTwo);
    expect(threads.running()).toBe(2);
    connection.reset();
    await expect.poll(() => threads.running()).toBe(0);
    await connection.use(convertTwo);
    await expect.poll(() => threads.running()).toBe(2);
  });

  it('ends the old workers when every converter is gone, and connects again on the next page', async () => {
    const threads = threadStarter();
    const connection = connectTo(threads);
    let first: ConversionQueue | undefined;
    await expect(
      connection.use(async (queue) => {
        first = queue;
        await convertTwo(queue);
        throw new LaneError('every converter is gone');
      }),
    ).rejects.toThrow(LaneError);
    await expect.poll(() => threads.running()).toBe(0);
    const second = await connection.use(async (queue) => {
      await convertTwo(queue);
      return queue;
    });
    expect(second).not.toBe(first);
    await expect.poll(() => threads.running()).toBe(2);
    // A page that fails on its own (not its converter) keeps the connection and its workers.
    await expect(connection.use(async () => Promise.reject(new Error('the page failed')))).rejects.toThrow('the page failed');
    expect(await connection.use(async (queue) => queue)).toBe(second);
    expect(threads.running()).toBe(2);
  });
});

describe('conversion lanes on workers another document owns and ends on request (Chrome’s offscreen document)', () => {
  /**
   * An owner as the offscreen document is one: it starts real threads, hands a port to each over
   * a message (so later), and ends a thread when asked. Counts the threads still running.
   */
  function threadOwner(count: number) {
    const held: Array<Worker | undefined> = [];
    const running = new Set<Worker>();
    const start = async (index: number) => {
      held[index]?.terminate();
      const thread = new Worker(CONVERTER, { eval: true });
      threads.push(thread);
      running.add(thread);
      thread.once('exit', () => running.delete(thread));
      held[index] = thread;
      const channel = new MessageChannel();
      thread.postMessage({ ports: [channel.port1] }, [channel.port1] as never);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return channel.port2 as unknown as PortLike;
    };
    const owner: WorkerOwner & { started: number } = {
      started: 0,
      start: (index) => {
        owner.started++;
        return start(index);
      },
      end: (index) => {
        void held[index]?.terminate();
        held[index] = undefined;
      },
    };
    return { owner, running: () => running.size, first: () => Promise.all(Array.from({ length: count }, (_, i) => start(i))) };
  }

  it('fails a page that takes too long alone, has its owner end the thread, and converts on a new one', async () => {
    const { owner, running, first } = threadOwner(2);
    const queue = new ConversionQueue(ownedWorkerLanes(await first(), owner, 1_000));
    const slow = queue.convert(job('slow', '<p>PATHOLOGICAL</p>'));
    const others = ['a', 'b', 'c', 'd'].map((name) => queue.convert(job(name)));
    await expect(slow).rejects.toThrow(/^Conversion took over 1 s/);
    expect((await Promise.all(others)).map((b) => b.converted.title)).toEqual(['a', 'b', 'c', 'd'].map((n) => `https://docs.example.test/${n}`));
    // The thread stuck on the page was ended; both lanes convert again, one on a thread started for it.
    await expect.poll(() => running()).toBe(1);
    const after = await Promise.all(['e', 'f', 'g', 'h'].map((name) => queue.convert(job(name))));
    expect(after).toHaveLength(4);
    expect(queue.laneNames).toEqual(['worker 1', 'worker 2']);
    expect(owner.started).toBe(1);
    await expect.poll(() => running()).toBe(2);
    // Closing the queue (a reconnect) has the owner end every thread.
    queue.close();
    await expect.poll(() => running()).toBe(0);
  });

  it('takes a lane for gone when its owner cannot start a thread any more', async () => {
    const { owner, first } = threadOwner(1);
    const [port] = await first();
    const gone: WorkerOwner = { start: () => Promise.reject(new Error('Could not establish connection. Receiving end does not exist.')), end: owner.end };
    const [lane] = ownedWorkerLanes([port as PortLike], gone, 500);
    await expect(lane?.convert(job('slow', '<p>PATHOLOGICAL</p>'))).rejects.toThrow(/^Conversion took over 0.5 s/);
    await expect(lane?.convert(job('next'))).rejects.toBeInstanceOf(LaneError);
  });
});

describe('conversion lanes on workers another document owns (Chrome’s offscreen document)', () => {
  /** A lane on a port to a thread the test starts but the lane cannot end, as the service worker's ports. */
  async function foreignLane(name: string, alive: () => Promise<boolean>) {
    const thread = new Worker(CONVERTER, { eval: true });
    threads.push(thread);
    // A thread's start-up is not the page's time: on a loaded machine it alone can pass 0.5 s.
    await once(thread, 'online');
    const channel = new MessageChannel();
    thread.postMessage({ ports: [channel.port1] }, [channel.port1] as never);
    return { name, capacity: 1, convert: ownedElsewhereConverter(channel.port2 as unknown as PortLike, alive, 500) };
  }

  it('fails a slow page alone while the document is there, and the lane converts again once the worker is done with it', async () => {
    const queue = new ConversionQueue(await Promise.all([foreignLane('worker 1', async () => true), foreignLane('worker 2', async () => true)]));
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

