import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runGenerate } from '@/cli/generate';
import { linkedomAdapter } from '@/lib/convert/dom';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { planCrawl, planSummary } from '@/lib/crawl/plan';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { DEFAULT_SETTINGS } from '@/lib/crawl/settings';
import { getJob, updateJob } from '@/lib/store/queries';
import { rowsInState } from '@/lib/store/frontier';
import { loopbackFetch, startPortAwareServer, type FixtureServer, type FixtureSite, type Route } from '../fixtures/server';

const DOCS = 'docs.acme.test';
const WWW = 'www.acme.test';
const STABLE = ['a.html', 'b.html', 'c.html', 'guide/d.html'];

const html = (body: string): Route => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body });

/**
 * A company's docs as they sit on the web: docs.acme.test/en/stable/ with a sidebar, every page
 * carrying the company header (www.acme.test: pricing, a blog), another version at /en/latest/,
 * and a sitemap on the docs host listing both versions and a blog post.
 */
function acme(port: () => number): Record<string, FixtureSite> {
  const www = (path: string) => `http://${WWW}:${port()}${path}`;
  const sidebar = `<aside class="sidebar"><ul>${['', ...STABLE].map((p) => `<li><a href="/en/stable/${p}">Page ${p || 'home'}</a></li>`).join('')}</ul></aside>`;
  const page = (title: string) =>
    html(
      `<!doctype html><html><head><title>${title} — Acme 4.2 documentation</title><meta property="og:site_name" content="Acme"></head><body>` +
        `<header><nav><a href="${www('/')}">Acme</a> <a href="${www('/pricing')}">Pricing</a> <a href="${www('/blog/')}">Blog</a></nav></header>` +
        `${sidebar}<main><h1>${title}</h1><p>How ${title} works, explained at some length for the readers of these docs.</p><a href="/en/latest/a.html">latest</a> <a href="/en/stable/moved.html">moved</a></main></body></html>`,
    );
  // Routes are answered when asked, once the port is known.
  const docs: Record<string, () => Route> = {
    '/en/stable/': () => page('Welcome'),
    // A docs address that moved to the blog: the redirect is judged by the boundary too.
    '/en/stable/moved.html': () => ({ status: 301, headers: { location: www('/blog/post-1') } }),
    // A start address that sends the reader to another site altogether.
    '/elsewhere/': () => ({ status: 302, headers: { location: `http://other.test:${port()}/docs/` } }),
  };
  for (const p of STABLE) {
    docs[`/en/stable/${p}`] = () => page(`Stable ${p}`);
    docs[`/en/latest/${p}`] = () => page(`Latest ${p}`);
  }
  const loc = (host: string, path: string) => `<url><loc>http://${host}:${port()}${path}</loc></url>`;
  return {
    [DOCS]: {
      routes: {
        ...docs,
        '/robots.txt': () => ({ headers: { 'content-type': 'text/plain' }, body: `User-agent: *\nSitemap: http://${DOCS}:${port()}/sitemap.xml\n` }),
        '/sitemap.xml': () => ({
          headers: { 'content-type': 'application/xml' },
          body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[...STABLE.map((p) => loc(DOCS, `/en/stable/${p}`)), ...STABLE.map((p) => loc(DOCS, `/en/latest/${p}`)), loc(WWW, '/blog/post-1')].join('')}</urlset>`,
        }),
      },
    },
    [WWW]: { routes: { '/': html('<title>Acme</title><p>Acme the company</p>'), '/pricing': html('<title>Pricing</title><p>Prices</p>'), '/blog/': html('<title>Blog</title>'), '/blog/post-1': html('<title>Post</title><p>A post</p>') } },
  };
}

let db: ScoutDb;
let server: FixtureServer;
afterEach(async () => {
  await db?.delete();
  await server?.close();
});

async function setUp(withDiscovery = true) {
  db = createDb(`t-${Math.random()}`);
  server = await startPortAwareServer(acme);
  const start = server.url(DOCS, '/en/stable/');
  if (withDiscovery) await runDiscoveryJob(db, { jobId: 'd1', pageUrl: start, fetch: loopbackFetch() });
  return start;
}

const asked = (path: string, host = DOCS) => server.requests.filter((r) => r.host === host && r.path === path).length;
const deps = () => ({ fetch: loopbackFetch(), dom: linkedomAdapter });

describe('planCrawl', () => {
  it('reads the start page once and the sitemaps once, and stores where the docs are', async () => {
    const start = await setUp();
    const sitemapBefore = asked('/sitemap.xml');
    const startBefore = asked('/en/stable/'); // discovery read the page's own links
    const plan = await planCrawl(db, start, deps());
    expect(plan).toMatchObject({ state: 'done', startUrl: start, discoveryJobId: 'd1' });
    expect(plan.boundary?.roots).toEqual([{ origin: server.origin(DOCS), path: '/en/stable/' }]);
    expect(plan.boundary?.name).toBe('Acme 4.2 documentation');
    // Inside: the 4 stable pages; outside: the other version's 4 and the blog post.
    expect(plan.boundary?.listed).toEqual({ inside: 4, outside: 5, fromSitemaps: true, fromLlms: false });
    expect(plan.sitemapUrls).toHaveLength(9);
    expect(asked('/en/stable/') - startBefore).toBe(1);
    expect(asked('/sitemap.xml') - sitemapBefore).toBe(1);
    expect(await db.plans.get(start)).toEqual(plan);

    // Made from the current discovery: kept as it is, no request.
    const requests = server.requests.length;
    expect(await planCrawl(db, start, deps())).toEqual(plan);
    expect(server.requests.length).toBe(requests);
    // Asked again: made again.
    await planCrawl(db, start, deps(), { again: true });
    expect(asked('/en/stable/') - startBefore).toBe(2);
  });

  it('says in words what will be crawled and whether the page limit covers it', async () => {
    const start = await setUp();
    const plan = await planCrawl(db, start, deps());
    const lines = planSummary(plan, 500);
    expect(lines[0]).toBe(`Scout will crawl the documentation (Acme 4.2 documentation): ${DOCS}:${server.port}/en/stable/`);
    expect(lines).toContain("The site's sitemaps list 4 documentation pages (5 other pages of the site left out).");
    expect(lines).toContain('The page limit of 500 pages covers them.');
    expect(planSummary(plan, 3)).toContain('The page limit of 3 pages does not cover them: 4 would.');
  });

  it('two asks at once share one plan', async () => {
    const start = await setUp();
    const before = asked('/en/stable/');
    const [a, b] = await Promise.all([planCrawl(db, start, deps()), planCrawl(db, start, deps())]);
    expect(a).toEqual(b);
    expect(asked('/en/stable/') - before).toBe(1);
  });

  it('a start page that cannot be read is a failed plan, with the reason in words', async () => {
    db = createDb(`t-${Math.random()}`);
    server = await startPortAwareServer(acme);
    const plan = await planCrawl(db, server.url(DOCS, '/nowhere/'), deps());
    expect(plan).toMatchObject({ state: 'failed', message: 'The start page could not be read: Not found (HTTP 404)' });
    expect(planSummary(plan, 500)).toEqual([`The start page could not be read: Not found (HTTP 404). The crawl keeps to ${DOCS}:${server.port}.`]);
  });
});

describe('planCrawl and redirects', () => {
  it('a start page that redirects to another site is a failed plan, and that site is never asked', async () => {
    await setUp();
    const plan = await planCrawl(db, server.url(DOCS, '/elsewhere/'), deps());
    expect(plan.state).toBe('failed');
    expect(plan.message).toContain('other.test');
    expect(server.requests.filter((r) => r.host === 'other.test')).toHaveLength(0);
  });
});

describe('a docs crawl', () => {
  const run = async (jobId: string) => new CrawlRunner({ db, fetch: loopbackFetch(), process: nodePipeline({ fetch: loopbackFetch() }).process, timeoutMs: 2000 }, jobId).run();
  const storedPaths = async (jobId: string) => (await db.pages.where('[jobId+state]').equals([jobId, 'stored']).toArray()).map((p) => new URL(p.url).pathname).sort();

  it('is the default, seeds from the plan without reading the sitemaps again, and stays in the docs', async () => {
    expect(DEFAULT_SETTINGS.scope).toBe('docs');
    const start = await setUp();
    const plan = await planCrawl(db, start, deps());
    const sitemapBefore = asked('/sitemap.xml');
    const job = await createCrawlJob(db, start, {});
    expect(await run(job.id)).toBe('done');
    expect(asked('/sitemap.xml')).toBe(sitemapBefore);
    expect(await storedPaths(job.id)).toEqual(['/en/stable/', ...STABLE.map((p) => `/en/stable/${p}`)].sort());
    expect(server.requests.filter((r) => r.host === WWW)).toEqual([]);
    expect((await getJob(db, job.id, 'crawl'))?.boundary).toEqual(plan.boundary);
    const skipped = await rowsInState(db, job.id, 'skipped');
    const www = (path: string) => server.url(WWW, path);
    const reasonOf = (path: string, host = DOCS) => skipped.find((f) => f.url === `http://${host}:${server.port}${path}`)?.reason;
    expect(reasonOf('/blog/post-1', WWW)).toBe(`Outside the documentation (${WWW}:${server.port}/blog/)`);
    expect(reasonOf('/pricing', WWW)).toBe(`Outside the documentation (${WWW}:${server.port}/)`);
    expect(reasonOf('/en/latest/a.html')).toBe('Another version of the docs (latest; crawling stable)');
    expect(reasonOf('/en/stable/moved.html')).toBe(`Redirected out of scope to ${www('/blog/post-1')} (Outside the documentation (${WWW}:${server.port}/blog/))`);
  });

  it('without a plan works out the boundary itself first, and keeps it on the job', async () => {
    const start = await setUp();
    const job = await createCrawlJob(db, start, {});
    expect(await run(job.id)).toBe('done');
    const plan = await db.plans.get(start);
    expect(plan?.state).toBe('done');
    expect((await getJob(db, job.id, 'crawl'))?.boundary).toEqual(plan?.boundary);
    expect(await storedPaths(job.id)).toHaveLength(5);
    expect(asked('/sitemap.xml')).toBe(2); // discovery's and the plan's; the crawl's seeds came from the plan
  });

  it("a job that has a boundary keeps it (a resumed crawl): no new plan, the job's roots", async () => {
    const start = await setUp();
    const job = await createCrawlJob(db, start, { useSeeds: false });
    const boundary = { roots: [{ origin: server.origin(DOCS), path: '/en/stable/guide/' }], why: [], nav: [], listed: { inside: 0, outside: 0, fromSitemaps: false, fromLlms: false } };
    await updateJob(db, job.id, 'crawl', { boundary });
    expect(await run(job.id)).toBe('done');
    expect(await db.plans.get(start)).toBeUndefined();
    expect(await storedPaths(job.id)).toEqual(['/en/stable/', '/en/stable/guide/d.html']);
  });

  it('other scopes make no plan', async () => {
    const start = await setUp(false);
    const job = await createCrawlJob(db, start, { scope: 'host', useSeeds: false, maxDepth: 0 });
    expect(await run(job.id)).toBe('done');
    expect(await db.plans.count()).toBe(0);
    expect(asked('/en/stable/')).toBe(1);
  });
});

describe('plan and crawl, the rest of the way', () => {
  it("a crawl that wants more sitemap URLs than the plan kept reads the sitemaps itself", async () => {
    const start = await setUp();
    await planCrawl(db, start, deps(), { maxSitemapUrls: 2 });
    const before = asked('/sitemap.xml');
    const job = await createCrawlJob(db, start, { maxPages: 50 });
    await new CrawlRunner({ db, fetch: loopbackFetch(), process: nodePipeline({ fetch: loopbackFetch() }).process, timeoutMs: 2000 }, job.id).run();
    expect(asked('/sitemap.xml') - before).toBe(1);
  });

  it('scout generate prints what it will crawl before crawling, and keeps to it', async () => {
    server = await startPortAwareServer(acme);
    const out = await mkdtemp(join(tmpdir(), 'scout-plan-'));
    const progress: string[] = [];
    const stdout: string[] = [];
    try {
      const code = await runGenerate(
        { input: server.url(DOCS, '/en/stable/'), out, cleanUrls: false, settings: {}, output: {}, json: false },
        { out: (line) => stdout.push(line), progress: (line) => progress.push(line) },
        loopbackFetch(),
      );
      expect(code).toBe(0);
      const planAt = progress.findIndex((l) => l.startsWith('Scout will crawl the documentation (Acme 4.2 documentation)'));
      expect(planAt).toBeGreaterThan(-1);
      expect(progress).toContain('The page limit of 500 pages covers them.');
      // Said before the crawl's own progress.
      expect(progress.findIndex((l) => /Crawled|pages stored/.test(l))).toBeGreaterThan(planAt);
      expect(stdout.join('\n').split('\n')[1]).toBe(`Kept to the documentation (Acme 4.2 documentation): ${DOCS}:${server.port}/en/stable/`);
      expect(stdout.join('\n')).toMatch(/Outside the documentation/);
      expect(server.requests.filter((r) => r.host === WWW)).toEqual([]);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});

describe('docs at the root of a host, read from its start page', () => {
  it("leaves out what only the site's menus link and the translation the page names", async () => {
    const docs = Array.from({ length: 12 }, (_, i) => (i < 6 ? `/guides/g${i}` : `/reference/r${i}`));
    const sidebar = `<div class="sidebar"><ul>${docs.map((path) => `<li><a href="${path}">${path}</a></li>`).join('')}</ul></div>`;
    const page = (title: string, lang = 'en') =>
      html(
        `<!doctype html><html lang="${lang}"><head><title>${title} | Gamma Docs</title><link rel="alternate" hreflang="fr" href="/fr/guides/g1"></head><body>` +
          `<div class="topbar"><div class="menu"><a href="/">Docs</a><a href="/pricing">Pricing</a><a href="/blog/">Blog</a><a href="/events/">Events</a></div></div>` +
          `${sidebar}<main><h1>${title}</h1><p>What ${title} is about, explained at some length for the readers.</p></main></body></html>`,
      );
    const routes: Record<string, Route> = { '/': page('Home'), '/pricing': html('<title>Pricing</title><p>Plans</p>'), '/blog/': html('<title>Blog</title><p>Posts</p>'), '/events/': html('<title>Events</title>'), '/fr/guides/g1': page('Guide 1', 'fr') };
    for (const path of docs) routes[path] = page(`Page ${path}`);
    db = createDb(`t-${Math.random()}`);
    server = await startPortAwareServer(() => ({ 'developers.gamma.test': { routes } }));
    const start = server.url('developers.gamma.test', '/guides/g1');
    const plan = await planCrawl(db, start, deps());
    expect(plan.boundary?.roots.map((r) => r.path)).toEqual(['/']);
    expect(plan.boundary?.excluded?.map((e) => e.path)).toEqual(['/fr/', '/blog/', '/events/', '/pricing']);
    const job = await createCrawlJob(db, start, {});
    await new CrawlRunner({ db, fetch: loopbackFetch(), process: nodePipeline({ fetch: loopbackFetch() }).process, timeoutMs: 2000 }, job.id).run();
    const stored = (await db.pages.where('[jobId+state]').equals([job.id, 'stored']).toArray()).map((p) => new URL(p.url).pathname);
    expect(stored.sort()).toEqual(["/", ...docs].sort());
    expect(server.requests.filter((r) => ['/pricing', '/blog/', '/events/', '/fr/guides/g1'].includes(r.path))).toEqual([]);
  });
});
