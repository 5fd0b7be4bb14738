import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { discover } from '@/lib/discovery/discover';
import { runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { isSameSite } from '@/lib/url/site';
import { crossSiteTwinSites } from '../fixtures/security-sites';
import { loopbackFetch, startPortAwareServer, type FixtureServer } from '../fixtures/server';
import { pagesOf } from '@/lib/store/queries';

/**
 * Node's fetch has no cookie jar, and sends a Cookie header only if told to. This one
 * plays the browser's part honestly: the user is logged in to BOTH sites (a session on
 * docs.site.test and one on other.test, say GitHub), and like the browser it attaches a
 * site's cookie only to requests for that site, and only when `credentials` is not 'omit'.
 * So the assertions below test Scout's choice of credentials mode, not the jar.
 */
function browserLikeFetch(jar: Record<string, string>): typeof fetch {
  const inner = loopbackFetch();
  return ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const cookie = Object.entries(jar).find(([host]) => isSameSite(host, url.hostname))?.[1];
    const headers = new Headers(init?.headers);
    if (cookie && init?.credentials !== 'omit') headers.set('cookie', cookie);
    return inner(input, { ...init, headers });
  }) as typeof fetch;
}

const JAR = { 'docs.site.test': 'session=site-secret', 'other.test': 'session=other-secret' };
let server: FixtureServer;
let db: ScoutDb | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
  await server?.close();
});

async function start(): Promise<FixtureServer> {
  server = await startPortAwareServer(crossSiteTwinSites);
  return server;
}

const requestsTo = (host: string) => server.requests.filter((r) => r.host === host);

describe('credentials only where they belong', () => {
  it('discovery sends the site its cookies, and another site (a Markdown alternate, a redirect target) none', async () => {
    await start();
    await discover({ pageUrl: server.url('docs.site.test', '/'), fetch: browserLikeFetch(JAR), timeoutMs: 2000 });
    const site = requestsTo('docs.site.test');
    expect(site.length).toBeGreaterThan(3);
    expect(site.every((r) => r.headers.cookie === 'session=site-secret')).toBe(true);
    const other = requestsTo('other.test').map((r) => [r.path, r.headers.cookie]);
    expect(other).toEqual(expect.arrayContaining([['/index.md', undefined], ['/llms-full.txt', undefined]]));
    expect(other.every(([, cookie]) => cookie === undefined)).toBe(true);
  });

  it('a crawl fetches a cross-site Markdown twin without cookies, while same-site pages carry them', async () => {
    await start();
    db = createDb(`cred-${Math.random()}`);
    const startUrl = server.url('docs.site.test', '/');
    const fetchFn = browserLikeFetch(JAR);
    await runDiscoveryJob(db, { jobId: 'd', pageUrl: startUrl, fetch: fetchFn });
    server.requests.length = 0; // only the crawl's requests from here
    const job = await createCrawlJob(db, startUrl, {});
    expect(await new CrawlRunner({ db, fetch: fetchFn, process: nodePipeline({ fetch: fetchFn }).process, timeoutMs: 2000 }, job.id).run()).toBe('done');

    const page = await pagesOf(db, job.id).filter((p) => p.url.endsWith('/page.html')).first();
    expect(page).toMatchObject({ format: 'markdown', twinUrl: server.url('other.test', '/page.md') });
    expect(requestsTo('other.test').map((r) => [r.path, r.headers.cookie])).toEqual([['/page.md', undefined]]);
    const site = requestsTo('docs.site.test');
    expect(site.map((r) => r.path)).toEqual(expect.arrayContaining(['/', '/page.html']));
    expect(site.every((r) => r.headers.cookie === 'session=site-secret')).toBe(true);
  });
});
