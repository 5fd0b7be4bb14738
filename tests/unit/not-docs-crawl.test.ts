import { afterEach, describe, expect, it } from 'vitest';
import { linkedomAdapter } from '@/lib/convert/dom';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import type { CrawlSettings } from '@/lib/crawl/settings';
import { planCrawl } from '@/lib/crawl/plan';
import { crawlSite } from '@/lib/headless/crawl-site';
import { frontierOf, getJob, pagesOf, updateJob } from '@/lib/store/queries';
import { dedupeKey } from '@/lib/url/normalize';
import { gamma } from '../fixtures/company-sites';
import type { DocsBoundary } from '@/lib/url/boundary';
import { loopbackFetch, startFixtureServer, startPortAwareServer, type FixtureServer, type FixtureSite, type Route } from '../fixtures/server';

// Issue #27 item 2, crawl side: a blog on the docs' own host is marked not documentation, and a
// `docs` crawl does not walk its endless pagination; a wider scope follows its links as before.

const DOCS = 'docs.acme.test';
const WWW = 'www.acme.test';
const DOC_PAGES = ['/', '/install/', '/quickstart/', '/guide/config/', '/guide/plugins/', '/guide/deploy/', '/reference/cli/', '/reference/api/', '/faq/'];
const BLOG_PAGES = 40;

let db: ScoutDb;
let server: FixtureServer;
afterEach(async () => {
  await db?.delete();
  await server?.close();
});

const html = (head: string, body: string): Route => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`,
});
const prose = (what: string) => `<p>${what} explains how Acme runs your jobs on a schedule and retries them when they fail, with examples.</p>`;

/** A docs host with the company's blog under /blog/ (endless pagination) and a careers page; the marketing host beside it. */
function companySites(port: () => number): Record<string, FixtureSite> {
  const origin = (host: string) => `http://${host}:${port()}`;
  const header = () => `<header><nav><ul><li><a href="${origin(WWW)}/">Acme</a></li><li><a href="${origin(WWW)}/pricing/">Pricing</a></li><li><a href="${origin(DOCS)}/blog/">Blog</a></li><li><a href="${origin(DOCS)}/">Docs</a></li></ul></nav></header>`;
  const sidebar = `<aside class="sidebar"><ul>${DOC_PAGES.map((p) => `<li><a href="${p}">${p}</a></li>`).join('')}</ul></aside>`;
  const docsRoute = (path: string): Route | null => {
    if (DOC_PAGES.includes(path)) {
      const extra = path === '/' ? '<p>Read <a href="/blog/2026/post-1/">the launch announcement</a> and our <a href="/careers/">open roles</a>.</p>' : '';
      return html(`<title>Acme docs ${path}</title>`, `${header()}${sidebar}<main><h1>Docs ${path}</h1>${prose(`The page ${path}`)}${extra}</main>`);
    }
    if (path === '/careers/') return html('<title>Careers</title>', `${header()}<main><h1>Careers</h1>${prose('Working at Acme')}</main>`);
    const listing = /^\/blog\/(?:page\/(\d+)\/)?$/.exec(path);
    if (listing) {
      const n = Number(listing[1] ?? 1);
      const posts = [1, 2, 3].map((i) => `<li><a href="/blog/2026/post-${n * 3 + i}/">Post ${n * 3 + i}</a></li>`).join('');
      const next = n < BLOG_PAGES ? `<a href="/blog/page/${n + 1}/">Older posts</a>` : '';
      return html(`<title>Blog ${n}</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Blog","name":"Acme blog"}</script>`, `${header()}<main><h1>Blog</h1>${prose('The blog')}<ul>${posts}</ul>${next}</main>`);
    }
    const post = /^\/blog\/2026\/post-(\d+)\/$/.exec(path);
    if (post) {
      const n = Number(post[1]);
      const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"BlogPosting","headline":"Post ${n}","datePublished":"2026-01-0${1 + (n % 9)}"}</script>`;
      const next = n < BLOG_PAGES * 3 ? `<a href="/blog/2026/post-${n + 1}/">Next post</a>` : '';
      return html(`<title>Post ${n}</title>${ld}`, `${header()}<main><article><h1>Post ${n}</h1>${prose(`Post ${n}`)}${next}</article></main>`);
    }
    return null;
  };
  const wwwRoute = (path: string): Route | null => {
    if (path === '/') return html('<title>Acme</title>', `${header()}<main><h1>Acme</h1>${prose('Our product')}<a href="/pricing/">Pricing</a></main>`);
    if (path === '/pricing/') return html('<title>Pricing</title>', `${header()}<main><h1>Pricing</h1>${prose('Pricing')}</main>`);
    return null;
  };
  return { [DOCS]: { fallback: (req) => docsRoute(req.path.split('?')[0] ?? '') }, [WWW]: { fallback: (req) => wwwRoute(req.path.split('?')[0] ?? '') } };
}

async function crawl(settings: Partial<CrawlSettings>, withBoundary = true) {
  db = createDb(`t-${Math.random()}`);
  server = await startPortAwareServer(companySites);
  const fetchFn = loopbackFetch();
  const origin = (host: string) => new URL(server.url(host, '/')).origin;
  const boundary: DocsBoundary = {
    roots: [{ origin: origin(DOCS), path: '/' }],
    why: ['The start page is at the root of the docs host'],
    nav: DOC_PAGES.map((p) => server.url(DOCS, p)),
    listed: { inside: 0, outside: 0, fromSitemaps: false, fromLlms: false },
  };
  const job = await createCrawlJob(db, server.url(DOCS, '/'), { useSeeds: false, maxDepth: 100, maxPages: 200, ...settings });
  if (withBoundary) await updateJob(db, job.id, 'crawl', { boundary });
  const state = await new CrawlRunner({ db, fetch: fetchFn, process: nodePipeline({ fetch: fetchFn }).process, timeoutMs: 5000 }, job.id).run();
  const pages = await db.pages.where('[jobId+state]').between([job.id, ''], [job.id, '\uffff']).toArray();
  const frontier = await frontierOf(db, job.id).toArray();
  return { state, pages, frontier, job: await getJob(db, job.id, 'crawl') };
}

const pathOf = (url: string) => new URL(url).pathname;

describe('a blog inside the docs host', () => {
  it('in the docs scope: its pages are marked with the reason, and its pagination is never walked', async () => {
    const result = await crawl({ scope: 'docs' });
    expect(result.state).toBe('done');
    const stored = result.pages.filter((p) => p.state === 'stored');
    const marked = Object.fromEntries(stored.filter((p) => p.notDocs).map((p) => [pathOf(p.url), p.notDocs]));
    expect(marked).toEqual({
      '/blog/': 'A blog (schema.org Blog)',
      '/blog/2026/post-1/': 'A blog post (schema.org BlogPosting)',
      '/careers/': "Has none of the documentation's navigation",
    });
    // Every docs page is stored and none is marked.
    for (const path of DOC_PAGES) expect(stored.find((p) => pathOf(p.url) === path)?.notDocs, path).toBeUndefined();
    expect(stored).toHaveLength(DOC_PAGES.length + 3);
    // The blog's pagination and its other posts were never requested.
    const asked = server.requests.filter((r) => r.host.startsWith(DOCS)).map((r) => r.path);
    expect(asked.filter((p) => p.startsWith('/blog/page/'))).toEqual([]);
    expect(asked.filter((p) => p.startsWith('/blog/2026/'))).toEqual(['/blog/2026/post-1/']);
    // The row says why; the card counts them.
    expect(result.frontier.find((f) => pathOf(f.url) === '/blog/2026/post-1/')?.reason).toBe('Not documentation: A blog post (schema.org BlogPosting) · its links not followed');
    expect(result.job?.counters.notDocs).toBe(3);
    expect(result.job?.message).toContain('3 not documentation (left out of the files)');
    // The docs' outline is the docs': the company menu of a marked page is not merged into it.
    expect(result.job?.nav?.some((n) => n.url.includes('/pricing/'))).toBe(false);
  });

  it('in the site scope: the same pages are marked, the marketing host is outside the documentation, and links are followed as before', async () => {
    const result = await crawl({ scope: 'site' });
    expect(result.state).toBe('done');
    const stored = result.pages.filter((p) => p.state === 'stored');
    const byPath = (host: string, path: string) => stored.find((p) => p.url === server.url(host, path));
    expect(byPath(WWW, '/pricing/')?.notDocs).toBe(`Outside the documentation (${new URL(server.url(WWW, '/')).host}/pricing/)`);
    expect(byPath(DOCS, '/blog/page/2/')?.notDocs).toBe('A blog (schema.org Blog)');
    expect(byPath(DOCS, '/blog/2026/post-9/')?.notDocs).toBe('A blog post (schema.org BlogPosting)');
    for (const path of DOC_PAGES) expect(byPath(DOCS, path)?.notDocs, path).toBeUndefined();
    expect(result.frontier.find((f) => f.url === server.url(DOCS, '/blog/2026/post-1/'))?.reason).toBe('Not documentation: A blog post (schema.org BlogPosting)');
  });

  it('without a boundary on the job, a page is judged only by what it says it is', async () => {
    const { state, pages } = await crawl({ scope: 'host', maxDepth: 2 }, false);
    expect(state).toBe('done');
    expect(pages.find((p) => pathOf(p.url) === '/careers/')?.notDocs).toBeUndefined();
    expect(pages.find((p) => pathOf(p.url) === '/blog/')?.notDocs).toBe('A blog (schema.org Blog)');
    expect(pages.find((p) => pathOf(p.url) === '/blog/2026/post-1/')?.notDocs).toBe('A blog post (schema.org BlogPosting)');
  });

  it('a company fixture crawled by host after the plan the Generate tab shows: every docs page kept, the blog, events and the French copy marked', async () => {
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer(gamma.sites());
    const start = gamma.starts[0];
    if (!start) throw new Error('gamma has no start');
    const startUrl = server.url(start.host, start.path);
    const plan = await planCrawl(db, startUrl, { fetch: loopbackFetch(), dom: linkedomAdapter });
    expect(plan.boundary?.nav.length).toBeGreaterThan(10);
    const { job, crawlState } = await crawlSite({ db, startUrl, fetch: loopbackFetch(), settings: { scope: 'host' } });
    expect(crawlState).toBe('done');
    const pages = await pagesOf(db, job.id).toArray();
    const docs = new Set(gamma.docs.map((d) => dedupeKey(server.url(d.host, d.path))));
    const docsPages = pages.filter((p) => docs.has(dedupeKey(p.url)));
    const others = pages.filter((p) => !docs.has(dedupeKey(p.url)));
    expect(docsPages).toHaveLength(gamma.docs.length);
    expect(docsPages.filter((p) => p.notDocs).map((p) => p.url)).toEqual([]);
    expect(others.length).toBeGreaterThan(100);
    const unmarked = others.filter((p) => !p.notDocs).map((p) => p.url);
    expect(unmarked.length, unmarked.join('\n')).toBeLessThanOrEqual(others.length * 0.05);
    expect(pages.find((p) => p.url === server.url('developers.gamma.test', '/blog/'))?.notDocs).toMatch(/^Outside the documentation \(/);
    expect(job.counters.notDocs).toBe(others.length - unmarked.length);
  });
});
