import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { discover } from '@/lib/discovery/discover';
import { runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { fetchText, FetchFailure } from '@/lib/fetch/fetch-text';
import { fetchPage } from '@/lib/fetch/page-fetcher';
import { HIDDEN_HOP_REFUSED, SIGNED_IN_REDIRECT } from '@/lib/fetch/redirects';
import { pagesOf } from '@/lib/store/queries';
import { browserModelFetch } from '../fixtures/browser-model-fetch';
import { HOSTILE_COOKIE, hostileCookieSites, OTHER_COOKIES, OTHER_SECRET } from '../fixtures/hostile-cookie-sites';
import { startFixtureServer, startPortAwareServer, type FixtureServer, type Route } from '../fixtures/server';

// The user is signed in to both sites; the browser model attaches each site's cookies to
// requests for it, hops included, when credentials are 'include' (tests/fixtures/browser-model-fetch.ts).
const JAR = { 'hostile.test': HOSTILE_COOKIE, 'other.test': OTHER_COOKIES.join('; ') };

let server: FixtureServer;
let db: ScoutDb | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
  await server?.close();
});

async function start(): Promise<FixtureServer> {
  server = await startPortAwareServer(hostileCookieSites);
  return server;
}

/** Requests other.test received that carried the user's session there. */
const cookiesToOther = () => server.requests.filter((r) => r.host === 'other.test' && r.headers.cookie !== undefined).map((r) => `${r.path} ${r.headers.cookie}`);
const failureOf = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof FetchFailure ? error.reason : String(error)));

describe('a site that redirects only cookie-bearing requests to another site (browser: hidden redirects)', () => {
  it('discovery and a crawl send the other site 0 requests with its cookies, and store none of its answer', async () => {
    await start();
    db = createDb(`hostile-${Math.random()}`);
    const fetchFn = browserModelFetch(JAR);
    const startUrl = server.url('hostile.test', '/');
    await runDiscoveryJob(db, { jobId: 'd', pageUrl: startUrl, fetch: fetchFn });
    const job = await createCrawlJob(db, startUrl, {});
    expect(await new CrawlRunner({ db, fetch: fetchFn, process: nodePipeline({ fetch: fetchFn }).process, timeoutMs: 2000 }, job.id).run()).toBe('done');

    expect(cookiesToOther()).toEqual([]);
    // The hostile site got its cookie-bearing requests (its own session) and the cookie-less walks.
    expect(server.requests.filter((r) => r.host === 'hostile.test' && r.headers.cookie === HOSTILE_COOKIE).length).toBeGreaterThan(3);

    const discovered = await db.discovered.toArray();
    const pages = await pagesOf(db, job.id).toArray();
    expect(JSON.stringify([discovered, pages])).not.toContain(OTHER_SECRET);
    // Each refusal says why, in words.
    expect(discovered.find((d) => d.url === server.url('hostile.test', '/llms.txt'))).toMatchObject({ status: 'error', reason: expect.stringContaining(SIGNED_IN_REDIRECT) });
    const frontier = await db.frontier.where('jobId').equals(job.id).toArray();
    expect(frontier.find((f) => f.url === startUrl)).toMatchObject({ state: 'skipped', reason: SIGNED_IN_REDIRECT });
  });

  it('a small file and a page stop with the reason, after asking only the checked same-site end with cookies', async () => {
    await start();
    const fetchFn = browserModelFetch(JAR);
    const llms = server.url('hostile.test', '/llms.txt');
    expect(await failureOf(fetchText(llms, { fetch: fetchFn }))).toBe(`Redirected to ${server.url('hostile.test', '/real/llms.txt')}: ${SIGNED_IN_REDIRECT}`);
    expect(await fetchPage(server.url('hostile.test', '/guide.html'), { fetch: fetchFn })).toMatchObject({ kind: 'skipped', reason: SIGNED_IN_REDIRECT });
    const hostile = server.requests.filter((r) => r.host === 'hostile.test').map((r) => `${r.path} ${r.headers.cookie ? 'cookie' : '-'}`);
    expect(hostile).toEqual([
      '/llms.txt cookie', '/llms.txt -', '/real/llms.txt -', '/real/llms.txt cookie',
      '/guide.html cookie', '/guide.html -', '/real/guide.html -', '/real/guide.html cookie',
    ]);
    expect(server.requests.filter((r) => r.host === 'other.test')).toEqual([]);
  });

  it('a page that redirects only with cookies, to its own site, is not followed with them either', async () => {
    // Cookie-less /page answers; with cookies it redirects (where to, the browser does not say).
    server = await startFixtureServer({
      'docs.site.test': { routes: { '/page': (req): Route => (req.headers.cookie ? { status: 302, headers: { location: '/elsewhere' } } : { body: 'public', headers: { 'content-type': 'text/plain' } }) } },
    });
    const res = await fetchPage(server.url('docs.site.test', '/page'), { fetch: browserModelFetch({ 'docs.site.test': 'session=1' }) });
    expect(res).toMatchObject({ kind: 'skipped', reason: SIGNED_IN_REDIRECT });
    expect(server.requests.map((r) => `${r.path} ${r.headers.cookie ? 'cookie' : '-'}`)).toEqual(['/page cookie', '/page -']);
  });

  it('an endless redirect chain is not called "on your own network" alone: the reason names the loop too', async () => {
    server = await startFixtureServer({ 'docs.site.test': { fallback: (req) => ({ status: 302, headers: { location: `/r${Number(req.path.slice(2) || 0) + 1}` } }) } });
    const res = await fetchPage(server.url('docs.site.test', '/r0'), { fetch: browserModelFetch({}) });
    expect(res).toMatchObject({ kind: 'skipped', reason: HIDDEN_HOP_REFUSED });
    expect(HIDDEN_HOP_REFUSED).toMatch(/loop or run past 20 hops/);
    // One 'manual' request, then the browser's own 20 hops and the 21st it refuses to make: no retries.
    expect(server.requests).toHaveLength(1 + 21);
    // A small file says the same, without a "Redirected to" naming the file itself.
    expect(await failureOf(fetchText(server.url('docs.site.test', '/r0'), { fetch: browserModelFetch({}) }))).toBe(HIDDEN_HOP_REFUSED);
  });
});

describe('where redirects show (Node): credentials per hop', () => {
  it('a page fetched with cookies does not take them along on a hop to another site, even one the caller lets through', async () => {
    await start();
    const fetchFn = browserModelFetch(JAR, { showRedirects: true });
    // No checkRedirect: a caller that allows every hop still cannot send other.test the user's session.
    const res = await fetchPage(server.url('hostile.test', '/guide.html'), { fetch: fetchFn, credentials: 'include' });
    expect(res).toMatchObject({ kind: 'html', finalUrl: server.url('other.test', '/guide.html') });
    expect(cookiesToOther()).toEqual([]);
    expect(JSON.stringify(res)).not.toContain(OTHER_SECRET);
  });
});

describe('discovered files say where their answer came from', () => {
  it('a file that redirects to another site is not kept as this site’s; one on the same site records its address', async () => {
    let port = 0;
    const txt = (body: string): Route => ({ body, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    server = await startFixtureServer({
      'docs.site.test': {
        routes: {
          '/llms.txt': () => ({ status: 302, headers: { location: `http://site.test:${port}/llms.txt` } }),
          '/robots.txt': () => ({ status: 302, headers: { location: `http://other.test:${port}/robots.txt` } }),
          '/llms-full.txt': () => ({ status: 302, headers: { location: `http://other.test:${port}/llms-full.txt` } }),
        },
      },
      'site.test': { routes: { '/llms.txt': txt('# Site\n\n> Docs.\n') } },
      'other.test': { routes: { '/robots.txt': txt('User-agent: *\nDisallow: /\n'), '/llms-full.txt': txt(`# Other\n\n${OTHER_SECRET}\n`) } },
    });
    port = server.port;
    const url = (path: string) => server.url('docs.site.test', path);
    for (const fetchFn of [browserModelFetch({}), browserModelFetch({}, { showRedirects: true })]) {
      const { results } = await discover({ pageUrl: url('/'), fetch: fetchFn, timeoutMs: 2000 });
      const at = (path: string) => results.find((r) => r.url === url(path));
      expect(at('/llms.txt')).toMatchObject({ status: 'found', finalUrl: server.url('site.test', '/llms.txt'), title: 'Site' });
      expect(at('/robots.txt')).toMatchObject({ status: 'missing', finalUrl: server.url('other.test', '/robots.txt'), reason: 'Redirected to another site (other.test): that site’s file, not this one’s' });
      expect(at('/llms-full.txt')).toMatchObject({ status: 'missing', finalUrl: server.url('other.test', '/llms-full.txt') });
      expect(JSON.stringify(results)).not.toContain(OTHER_SECRET);
      expect(results.find((r) => r.url === url('/llms.md'))).not.toHaveProperty('finalUrl');
    }
  });
});
