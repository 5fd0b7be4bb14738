import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { discover } from '@/lib/discovery/discover';
import { runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { PUBLIC_HOST, privateNetworkSite, privateTargets } from '../fixtures/private-network-site';
import { loopbackFetch, startPortAwareServer, type FixtureServer } from '../fixtures/server';
import { frontierOf } from '@/lib/store/queries';

// The fixture server listens on 127.0.0.1, and loopbackFetch resolves localhost there too:
// a request that got past the guard to localhost or 127.0.0.1 would land in server.requests
// with that Host. Only docs.public.test may ever appear.
const NEVER = /: Scout never fetches these from a public site/;

let server: FixtureServer;
let db: ScoutDb | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
  await server?.close();
});

async function start(): Promise<FixtureServer> {
  server = await startPortAwareServer(privateNetworkSite);
  return server;
}

const hostsSeen = () => [...new Set(server.requests.map((r) => r.host))];

describe('private-network guard, end to end on loopback', () => {
  it('discovery lists private llms files, page links and sitemaps as not followed, and never requests them', async () => {
    await start();
    const summary = await discover({ pageUrl: server.url(PUBLIC_HOST, '/'), fetch: loopbackFetch(), timeoutMs: 2000 });
    const byUrl = new Map(summary.results.map((r) => [r.url, r]));
    const port = server.port;
    const notFollowed = [
      `http://127.0.0.1:${port}/llms.txt`, // rel=describedby on the page
      `http://localhost:${port}/index.md`, // rel=alternate type=text/markdown on the page
      `http://127.0.0.1:${port}/hub/llms.txt`, // linked from llms.txt
      'http://router.local/llms.txt',
      `http://[::1]:${port}/sitemap.xml`, // rel=sitemap on the page
      `http://127.0.0.1:${port}/robots-sitemap.xml`, // robots.txt Sitemap line
      `http://localhost:${port}/child.xml`, // child of a same-site sitemap index
    ];
    for (const url of notFollowed) {
      expect(byUrl.get(url), url).toMatchObject({ status: 'not-followed', reason: expect.stringMatching(NEVER) });
    }
    // A same-site file that redirects into the network: the hop is refused before it is requested.
    expect(byUrl.get(server.url(PUBLIC_HOST, '/llms-full.txt'))).toMatchObject({
      status: 'error',
      reason: `Redirected to http://localhost:${port}/llms-full.txt: This computer (localhost): Scout never fetches these from a public site`,
    });
    expect(byUrl.get(server.url(PUBLIC_HOST, '/llms.txt'))).toMatchObject({ status: 'found' });
    expect(hostsSeen()).toEqual([PUBLIC_HOST]);
  });

  it('a crawl records every private link, seed and redirect as skipped with the reason, and sends none of them a request', async () => {
    await start();
    db = createDb(`pn-${Math.random()}`);
    const startUrl = server.url(PUBLIC_HOST, '/');
    await runDiscoveryJob(db, { jobId: 'd', pageUrl: startUrl, fetch: loopbackFetch() });
    const job = await createCrawlJob(db, startUrl, {});
    const state = await new CrawlRunner({ db, fetch: loopbackFetch(), process: nodePipeline({ fetch: loopbackFetch() }).process, timeoutMs: 2000 }, job.id).run();
    expect(state).toBe('done');
    const frontier = await frontierOf(db, job.id).toArray();
    const entry = (url: string) => frontier.find((f) => f.url === new URL(url).href);

    for (const [name, url] of Object.entries(privateTargets(server.port))) {
      expect(entry(url), name).toMatchObject({ state: 'skipped', reason: expect.stringMatching(NEVER) });
    }
    expect(entry(privateTargets(server.port).router)?.reason).toBe('A private network address (192.168.1.1): Scout never fetches these from a public site');
    // Seeds from llms.txt and the sitemap are classified too: the first sighting (depth 0) is the one kept.
    expect(entry(privateTargets(server.port).mdns)).toMatchObject({ depth: 0 });
    expect(entry(server.url(PUBLIC_HOST, '/moved'))).toMatchObject({
      state: 'skipped',
      reason: `Redirected out of scope to http://127.0.0.1:${server.port}/landed (A loopback address (this computer) (127.0.0.1): Scout never fetches these from a public site)`,
    });
    // The guide was crawled as HTML: its rel=alternate twin on 127.0.0.1 was never tried.
    const guide = await db.pages.get([job.id, server.url(PUBLIC_HOST, '/guide.html')]);
    expect(guide).toMatchObject({ format: 'html' });
    expect(hostsSeen()).toEqual([PUBLIC_HOST]);
  });
});
