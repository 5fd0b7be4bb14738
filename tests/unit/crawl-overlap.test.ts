import { afterEach, describe, expect, it } from 'vitest';
import { linkedomAdapter } from '@/lib/convert/dom';
import { ConversionQueue } from '@/lib/pipeline/conversion-queue';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { convertBody, type ConvertJob } from '@/lib/pipeline/steps';
import { createPagePipeline } from '@/lib/pipeline/page-pipeline';
import { CrawlRunner } from '@/lib/crawl/runner';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { createRefreshJob } from '@/lib/refresh/jobs';
import { RefreshRunner } from '@/lib/refresh/runner';
import { loopbackFetch, startFixtureServer, type FixtureServer, type FixtureSite } from '../fixtures/server';

const html = (title: string, links: string[] = []) => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>All about ${title}, explained at some length for readers.</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`,
});

/** A queue that counts the pages in it (waiting or converting): the bodies held in memory after their fetch. */
class CountingQueue extends ConversionQueue {
  inside = 0;
  most = 0;
  override async convert(job: ConvertJob, signal?: AbortSignal, taken?: () => void) {
    this.most = Math.max(this.most, ++this.inside);
    try {
      return await super.convert(job, signal, taken);
    } finally {
      this.inside--;
    }
  }
}

let db: ScoutDb;
let server: FixtureServer;
afterEach(async () => {
  await db?.delete();
  await server?.close();
});

/** One slow converter (120 ms a page) with room for one page: conversion is the bottleneck. */
function slowQueue(converting: Array<[number, number]>): CountingQueue {
  return new CountingQueue([
    {
      name: 'slow',
      capacity: 1,
      convert: async (j) => {
        const started = Date.now();
        await new Promise((r) => setTimeout(r, 120));
        converting.push([started, Date.now()]);
        return convertBody(j, linkedomAdapter);
      },
    },
  ]);
}

/** Requests for the pages that reached the server while another page was converting. */
const requestsDuringConversion = (since: number, converting: Array<[number, number]>) =>
  server.requests.slice(since).filter((r) => r.path.startsWith('/p') && converting.some(([a, b]) => r.at > a && r.at < b - 10));

describe('queue runner (crawl and refresh): fetch and conversion apart', () => {
  it('lets the host’s next request go out while a page converts, and holds at most a few fetched bodies', async () => {
    const routes: FixtureSite['routes'] = { '/': html('Home', Array.from({ length: 10 }, (_, i) => `/p${i}`)) };
    for (let i = 0; i < 10; i++) routes[`/p${i}`] = html(`Page ${i}`);
    server = await startFixtureServer({ 'docs.example.test': { routes } });
    db = createDb(`t-${Math.random()}`);
    // One request per host, one slow converter: conversion is the bottleneck here.
    const job = await createCrawlJob(db, server.url('docs.example.test', '/'), { useSeeds: false, respectRobots: false, perHostConcurrency: 1 });
    const converting: Array<[number, number]> = [];
    const queue = slowQueue(converting);
    const fetchFn = loopbackFetch();
    const deps = { db, fetch: fetchFn, process: createPagePipeline({ fetch: fetchFn, convert: { lanes: queue } }).process, converters: 1, timeoutMs: 5000 };
    expect(await new CrawlRunner(deps, job.id).run()).toBe('done');
    expect(await db.pages.where('[jobId+state]').equals([job.id, 'stored']).count()).toBe(11);
    // With the slot held through conversion, no request could start while a page converted (one slot).
    expect(requestsDuringConversion(0, converting).length).toBeGreaterThan(3);
    // Backpressure: no new request while 2 × converters pages wait; the one in flight may land too.
    expect(queue.most).toBeGreaterThanOrEqual(2);
    expect(queue.most).toBeLessThanOrEqual(3);

    // A refresh is drained by the same runner: it overlaps fetch and conversion the same way
    // (its own pool of workers held the slot through conversion before the runners were one).
    const refresh = await createRefreshJob(db, server.origin('docs.example.test'));
    if ('error' in refresh) throw new Error(refresh.error);
    const since = server.requests.length;
    converting.length = 0;
    queue.most = 0;
    expect(await new RefreshRunner(deps, refresh.id).run()).toBe('done');
    expect((await db.jobs.get(refresh.id))?.counters).toMatchObject({ checked: 11 });
    expect(requestsDuringConversion(since, converting).length).toBeGreaterThan(3);
    expect(queue.most).toBeLessThanOrEqual(3);
  });
});
