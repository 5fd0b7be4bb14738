import { describe, expect, it } from 'vitest';
import { getEventListeners } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { linkedomAdapter } from '@/lib/convert/dom';
import { ConversionQueue, LaneError, type Converter } from '@/lib/pipeline/conversion-queue';
import { portConverter, serveConversions, type PortLike } from '@/lib/pipeline/convert-port';
import { defaultPlan, parsePlan, planCapacity, planName } from '@/lib/pipeline/converter-plan';
import { convertBody, convertJobOf, fetchStep, type ConvertedBody, type ConvertJob } from '@/lib/pipeline/steps';
import { convertHtml } from '@/lib/convert/convert-page';
import { fetchPage } from '@/lib/fetch/page-fetcher';
import type { FrontierRecord } from '@/lib/store/db';
import { loopbackFetch, startFixtureServer } from '../fixtures/server';

const pageHtml = (n: number) => `<html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1><p>Text of page ${n}, long enough to read as a page.</p></main></body></html>`;
const htmlJob = (html: string, finalUrl: string): ConvertJob => ({ bytes: new TextEncoder().encode(html), contentType: 'text/html; charset=utf-8', finalUrl, startPage: false });
const job = (n: number): ConvertJob => htmlJob(pageHtml(n), `https://docs.example.test/p${n}`);

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
      { name: 'native', capacity: 1, convert: native.convert, maxBytes: 1000 },
    ]);
    const big = (n: number): ConvertJob => htmlJob(pageHtml(n).replace('</main>', `<p>${'word '.repeat(400)}</p></main>`), `https://docs.example.test/p${n}`);
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
    const limited = new ConversionQueue([{ name: 'native', capacity: 1, convert: only.convert, maxBytes: 1000 }]);
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

describe('a page’s body on its way to a converter', () => {
  it('posts the body as bytes in the transfer list: the buffer moves to the converter and is detached here', async () => {
    const posted: Array<{ message: unknown; transfer?: Transferable[] }> = [];
    const port: PortLike = { postMessage: (message, transfer) => posted.push({ message, transfer }), addEventListener: () => undefined };
    const sent = job(1);
    void portConverter(port, 50)(sent).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 0));
    const [{ message, transfer } = { message: null }] = posted;
    const postedJob = (message as { job: ConvertJob }).job;
    expect(postedJob.bytes).toBeInstanceOf(Uint8Array);
    expect(postedJob).not.toHaveProperty('html');
    expect(transfer).toEqual([postedJob.bytes.buffer]);

    // Over a real channel the sender's buffer is detached, and the converter decodes what it got.
    const { port1, port2 } = new MessageChannel();
    serveConversions(port1 as unknown as PortLike, linkedomAdapter);
    try {
      const real = job(2);
      const body = await portConverter(port2 as unknown as PortLike)(real);
      expect(real.bytes.byteLength).toBe(0);
      expect(body).toEqual(convertBody(job(2), linkedomAdapter));
    } finally {
      port1.close();
      port2.close();
    }
  });

  it('copies a body that is a view on part of a bigger buffer once, and leaves that buffer whole', async () => {
    const posted: Array<{ message: unknown; transfer?: Transferable[] }> = [];
    const port: PortLike = { postMessage: (message, transfer) => posted.push({ message, transfer }), addEventListener: () => undefined };
    const html = new TextEncoder().encode(pageHtml(3));
    const shared = new Uint8Array(html.byteLength + 16);
    shared.set(html, 8);
    const view = shared.subarray(8, 8 + html.byteLength);
    void portConverter(port, 50)({ ...job(3), bytes: view }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 0));
    const postedJob = (posted[0]?.message as { job: ConvertJob } | undefined)?.job as ConvertJob;
    expect(postedJob.bytes.buffer).not.toBe(shared.buffer);
    expect(postedJob.bytes.byteLength).toBe(postedJob.bytes.buffer.byteLength);
    expect([...postedJob.bytes]).toEqual([...html]);
    expect(shared.byteLength).toBe(html.byteLength + 16);
  });

  it('fails a page whose body went to a lane that then failed, and moves the pages not yet sent to the others', async () => {
    const { port1 } = new MessageChannel(); // nothing answers on port1's other end
    const silent = portConverter(port1 as unknown as PortLike, 50);
    const queue = new ConversionQueue([
      { name: 'silent', capacity: 1, convert: silent },
      { name: 'ok', capacity: 1, convert: async (j) => convertBody(j, linkedomAdapter) },
    ]);
    try {
      const sent = queue.convert(job(1));
      const others = [2, 3].map((n) => queue.convert(job(n)));
      await expect(sent).rejects.toBeInstanceOf(LaneError);
      expect((await Promise.all(others)).map((b) => b.converted.title)).toEqual(['Page 2', 'Page 3']);
      expect(queue.laneNames).toEqual(['ok']);
    } finally {
      port1.close();
    }
  });

  it('converts a windows-1252 page named by its <meta> through a lane as the page decoded whole converts', async () => {
    const cp1252 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94, 0x20, 0x80]); // café “q” €
    const page = Buffer.concat([Buffer.from('<!doctype html><html><head><meta charset="windows-1252"><title>Caf'), Buffer.from([0xe9]), Buffer.from('</title></head><body><main><h1>Menu</h1><p>'), cp1252, Buffer.from(' and more words to read as a page.</p></main></body></html>')]);
    const host = 'docs.example.test';
    const server = await startFixtureServer({ [host]: { routes: { '/menu.html': { body: page, headers: { 'content-type': 'text/html' } } } } });
    const { port1, port2 } = new MessageChannel();
    serveConversions(port1 as unknown as PortLike, linkedomAdapter);
    try {
      const url = server.url(host, '/menu.html');
      const entry = { url, depth: 1 } as FrontierRecord;
      const step = await fetchStep(entry, { fetch: loopbackFetch(), scope: () => null });
      if (step.kind !== 'html') throw new Error(`expected HTML, got ${JSON.stringify(step)}`);
      const body = await portConverter(port2 as unknown as PortLike)(convertJobOf(entry, step.res));
      const decoded = await fetchPage(url, { fetch: loopbackFetch() });
      if (decoded.kind !== 'html') throw new Error('expected HTML');
      expect(body.converted).toEqual(convertHtml(decoded.html, decoded.finalUrl, linkedomAdapter, { startPage: false }));
      expect(body.converted.markdown).toContain('café “q” €');
      expect(body.converted.title).toBe('Café');
    } finally {
      port1.close();
      port2.close();
      await server.close();
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
