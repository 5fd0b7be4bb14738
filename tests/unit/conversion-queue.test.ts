import { describe, expect, it } from 'vitest';
import { getEventListeners } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { linkedomAdapter } from '@/lib/convert/dom';
import { ConversionQueue, LaneError, type Converter } from '@/lib/pipeline/conversion-queue';
import { portConverter, serveConversions, type PortLike } from '@/lib/pipeline/convert-port';
import { defaultPlan, parsePlan, planCapacity, planName } from '@/lib/pipeline/converter-plan';
import { convertBody, type ConvertedBody, type ConvertJob } from '@/lib/pipeline/steps';

const job = (n: number): ConvertJob => ({ html: `<html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1><p>Text of page ${n}, long enough to read as a page.</p></main></body></html>`, finalUrl: `https://docs.example.test/p${n}`, startPage: false });

/** A converter that converts for real but only when told to, so a test sees what waits where. */
function heldConverter() {
  const held: Array<() => void> = [];
  const pages: string[] = [];
  let running = 0;
  let most = 0;
  const convert: Converter = (j) => {
    pages.push(j.finalUrl.slice(j.finalUrl.lastIndexOf('/') + 1));
    running++;
    most = Math.max(most, running);
    return new Promise<ConvertedBody>((resolve) =>
      held.push(() => {
        running--;
        resolve(convertBody(j, linkedomAdapter));
      }),
    );
  };
  return { convert, held, pages, most: () => most };
}

describe('conversion queue', () => {
  it('converts at most the lanes’ capacity at once, first come first served', async () => {
    const a = heldConverter();
    const queue = new ConversionQueue([{ name: 'a', capacity: 2, convert: a.convert }]);
    const done: string[] = [];
    const all = [1, 2, 3, 4, 5].map((n) => queue.convert(job(n)).then((b) => done.push(b.converted.title)));
    await Promise.resolve();
    expect(a.held).toHaveLength(2);
    expect(queue.backlog).toBe(3);
    while (done.length < 5) {
      a.held.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    }
    await Promise.all(all);
    expect(a.most()).toBe(2);
    expect(done).toEqual(['Page 1', 'Page 2', 'Page 3', 'Page 4', 'Page 5']);
  });

  it('drops a page that is cancelled while it waits, without converting it', async () => {
    const a = heldConverter();
    const queue = new ConversionQueue([{ name: 'a', capacity: 1, convert: a.convert }]);
    const first = queue.convert(job(1));
    const abort = new AbortController();
    const second = queue.convert(job(2), abort.signal);
    abort.abort(new Error('Cancelled'));
    await expect(second).rejects.toThrow('Cancelled');
    expect(queue.backlog).toBe(0);
    a.held.shift()?.();
    await first;
    expect(a.held).toHaveLength(0);
  });

  it('keeps a page over a lane’s size limit for another lane, lets smaller pages behind it take the free one, and uses the limited lane when no lane is bigger', async () => {
    const worker = heldConverter();
    const native = heldConverter();
    const queue = new ConversionQueue([
      { name: 'worker', capacity: 1, convert: worker.convert },
      { name: 'native', capacity: 1, convert: native.convert, maxChars: 1000 },
    ]);
    const big = (n: number): ConvertJob => ({ ...job(n), html: job(n).html.replace('</main>', `<p>${'word '.repeat(400)}</p></main>`) });
    const first = queue.convert(big(1));
    const second = queue.convert(big(2));
    const small = queue.convert(job(3));
    await Promise.resolve();
    // The worker has page 1; page 2 is too big for the native lane and waits; page 3 goes past it.
    expect([worker.pages, native.pages, queue.backlog]).toEqual([['p1'], ['p3'], 1]);
    native.held.shift()?.();
    expect((await small).converted.title).toBe('Page 3');
    expect(queue.backlog).toBe(1);
    worker.held.shift()?.();
    expect((await first).converted.title).toBe('Page 1');
    await new Promise((r) => setTimeout(r, 0));
    expect(worker.pages).toEqual(['p1', 'p2']);
    worker.held.shift()?.();
    expect((await second).converted.title).toBe('Page 2');

    // With only size-limited lanes a big page still converts.
    const only = heldConverter();
    const limited = new ConversionQueue([{ name: 'native', capacity: 1, convert: only.convert, maxChars: 1000 }]);
    const page = limited.convert(big(4));
    await Promise.resolve();
    only.held.shift()?.();
    expect((await page).converted.title).toBe('Page 4');
  });

  it('moves pages off a lane that failed (not a page that failed) and keeps converting on the others', async () => {
    let calls = 0;
    const broken: Converter = async () => {
      calls++;
      throw new LaneError('gone');
    };
    const ok: Converter = async (j) => convertBody(j, linkedomAdapter);
    const queue = new ConversionQueue([
      { name: 'broken', capacity: 1, convert: broken },
      { name: 'ok', capacity: 1, convert: ok },
    ]);
    const bodies = await Promise.all([1, 2, 3].map((n) => queue.convert(job(n))));
    expect(bodies.map((b) => b.converted.title)).toEqual(['Page 1', 'Page 2', 'Page 3']);
    expect(calls).toBe(1);
    expect(queue.laneNames).toEqual(['ok']);
    // A page's own error fails that page only.
    const picky = new ConversionQueue([{ name: 'p', capacity: 1, convert: async () => Promise.reject(new Error('bad page')) }]);
    await expect(picky.convert(job(4))).rejects.toThrow('bad page');
    expect(picky.laneNames).toEqual(['p']);
  });
});

describe('the crawl-wide cancel signal', () => {
  it('holds no listener once its pages are converted (a listener kept each page’s body alive until the crawl ended)', async () => {
    const crawl = new AbortController();
    const { port1, port2 } = new MessageChannel();
    serveConversions(port1 as unknown as PortLike, linkedomAdapter);
    const queue = new ConversionQueue([{ name: 'port', capacity: 2, convert: portConverter(port2 as unknown as PortLike) }]);
    try {
      const bodies = await Promise.all(Array.from({ length: 20 }, (_, n) => queue.convert(job(n), crawl.signal)));
      expect(bodies).toHaveLength(20);
      expect(getEventListeners(crawl.signal, 'abort')).toHaveLength(0);
    } finally {
      port1.close();
      port2.close();
    }
  });
});

describe('conversion over a MessagePort', () => {
  it('sends the body down the port and gets the converted page back', async () => {
    const { port1, port2 } = new MessageChannel();
    serveConversions(port1 as unknown as PortLike, linkedomAdapter);
    const convert = portConverter(port2 as unknown as PortLike);
    try {
      const body = await convert(job(7));
      expect(body).toEqual(convertBody(job(7), linkedomAdapter));
      expect(body.converted.markdown).toContain('Text of page 7');
    } finally {
      port1.close();
      port2.close();
    }
  });

  it('reports a page the converter could not convert as that page’s error, and a silent converter as a LaneError', async () => {
    const { port1, port2 } = new MessageChannel();
        // A document whose every read throws: conversion fails inside the converter, whatever it guards.
    const broken = new Proxy({}, { get: () => { throw new Error('unparseable'); } }) as Document;
    serveConversions(port1 as unknown as PortLike, { name: 'throws', parse: () => broken });
    const silent = new MessageChannel();
    try {
      await expect(portConverter(port2 as unknown as PortLike)(job(1))).rejects.toThrow('unparseable');
      await expect(portConverter(silent.port2 as unknown as PortLike, 50)(job(1))).rejects.toBeInstanceOf(LaneError);
    } finally {
      for (const p of [port1, port2, silent.port1, silent.port2]) p.close();
    }
  });
});

describe('converter plan', () => {
  it('converts in a worker per core, at least two, not on the native DOM, and reads the benchmark’s words', () => {
    expect(defaultPlan(8)).toEqual({ workers: 8, native: false, local: false });
    expect(defaultPlan(2)).toEqual({ workers: 2, native: false, local: false });
    expect(defaultPlan(1).workers).toBe(2);
    expect(defaultPlan(undefined).workers).toBe(2);
    expect(planCapacity(defaultPlan(4))).toBe(4);
    expect(parsePlan('2w+native+sw')).toEqual({ workers: 2, native: true, local: true });
    expect(planCapacity(parsePlan('sw'))).toBe(1);
    expect(planName(parsePlan('native+1w'))).toBe('1w+native');
    expect(() => parsePlan('3x')).toThrow('Unknown converter "3x" in "3x": expected Nw (N workers), native or sw, joined by +');
    expect(() => parsePlan('0w')).toThrow('"0w" names no converter');
  });
});
