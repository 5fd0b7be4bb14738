import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';
import { judgeNotDocs, notDocsContext } from '@/lib/crawl/not-docs';
import type { DocsBoundary } from '@/lib/url/boundary';

// Issue #27 item 2: pages that are not documentation, told by evidence, each rule through the converter.

const DOCS = 'https://docs.acme.test';
const WWW = 'https://www.acme.test';
const DOC_PAGES = ['', 'install/', 'quickstart/', 'guide/config/', 'guide/plugins/', 'guide/deploy/', 'reference/cli/', 'reference/api/', 'faq/'];

const boundary: DocsBoundary = {
  roots: [{ origin: DOCS, path: '/' }],
  why: ['The start page is at the root of docs.acme.test'],
  nav: DOC_PAGES.map((p) => `${DOCS}/${p}`),
  listed: { inside: 0, outside: 0, fromSitemaps: false, fromLlms: false },
};

/** The company's header, on every page of every host. */
const companyHeader = `<header><nav class="navbar"><ul><li><a href="${WWW}/">Acme</a></li><li><a href="${WWW}/product/">Product</a></li><li><a href="${WWW}/pricing/">Pricing</a></li><li><a href="${WWW}/blog/">Blog</a></li><li><a href="${DOCS}/">Docs</a></li></ul></nav></header>`;
/** The docs' sidebar as a theme that shows only the open branch renders it: the top level, and the guide. */
const docsSidebar = () =>
  `<aside class="sidebar"><ul>${DOC_PAGES.filter((p) => !p.startsWith('reference/'))
    .map((p) => `<li><a href="/${p}">${p || 'Home'}</a></li>`)
    .join('')}</ul></aside>`;
const prose = '<p>Acme runs your jobs on a schedule and retries them when they fail. This page explains how.</p>';

function page(opts: { head?: string; body?: string; sidebar?: boolean; header?: boolean }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page</title>${opts.head ?? ''}</head><body>${opts.header === false ? '' : companyHeader}${opts.sidebar ? docsSidebar() : ''}<main><h1>Page</h1>${prose}${opts.body ?? ''}</main><footer><a href="${WWW}/legal/">Legal</a></footer></body></html>`;
}

/** Converts the HTML as the crawl does and judges it. */
function judge(html: string, url: string, options: { listed?: boolean; boundary?: DocsBoundary | null } = {}) {
  const converted = convertHtml(html, url, linkedomAdapter);
  const context = notDocsContext(options.boundary === null ? undefined : (options.boundary ?? boundary));
  return judgeNotDocs({ url, listed: options.listed ?? false, nav: converted.navLinks, pageType: converted.pageType }, context);
}

const jsonLd = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

describe('what the page says it is', () => {
  it('a schema.org BlogPosting, a forum thread, a job offer, a product: not documentation, with the type in the words', () => {
    const cases: Array<[unknown, string]> = [
      [{ '@context': 'https://schema.org', '@type': 'BlogPosting', headline: 'Launch', datePublished: '2026-01-02' }, 'A blog post (schema.org BlogPosting)'],
      [{ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite', name: 'Acme' }, { '@type': ['Article', 'NewsArticle'] }] }, 'A news article (schema.org NewsArticle)'],
      [{ '@type': 'https://schema.org/DiscussionForumPosting', headline: 'How do I retry?' }, 'A forum thread (schema.org DiscussionForumPosting)'],
      [[{ '@type': 'BreadcrumbList' }, { '@type': 'JobPosting', title: 'Engineer' }], 'A job offer (schema.org JobPosting)'],
      [{ '@type': 'Product', name: 'Acme Cloud', offers: { '@type': 'Offer', price: '10' } }, 'A product page (schema.org Product)'],
      [{ '@type': 'QAPage', mainEntity: { '@type': 'Question' } }, 'A question-and-answer thread (schema.org QAPage)'],
    ];
    for (const [data, words] of cases) expect(judge(page({ head: jsonLd(data) }), `${DOCS}/community/x`), JSON.stringify(data)).toBe(words);
  });

  it('JSON-LD at the body\'s top level counts; a nested item (the publisher, a breadcrumb) does not; broken JSON says nothing', () => {
    expect(judge(page({}).replace('<main>', `${jsonLd({ '@type': 'BlogPosting' })}<main>`), `${DOCS}/news/a`)).toBe('A blog post (schema.org BlogPosting)');
    // Deep in the body it is not looked for: a walk of every page's whole body for it costs more than it finds.
    expect(judge(page({ body: jsonLd({ '@type': 'BlogPosting' }), header: false }), `${DOCS}/news/a`)).toBeNull();
    const nested = jsonLd({ '@type': 'TechArticle', publisher: { '@type': 'Organization' }, isPartOf: { '@type': 'Blog' } });
    expect(judge(page({ head: nested, sidebar: true }), `${DOCS}/guide/config/`)).toBeNull();
    expect(judge(page({ head: '<script type="application/ld+json">{"@type": "BlogPosting",</script>', header: false }), `${DOCS}/x/`)).toBeNull();
    // A script of another type is code, not data: never read.
    expect(judge(page({ head: '<script>var x = {"@type": "BlogPosting"}</script>', header: false }), `${DOCS}/x/`)).toBeNull();
  });

  it('a forum engine named as the generator', () => {
    const discourse = '<meta name="generator" content="Discourse 3.3.0 - https://github.com/discourse/discourse version 1234">';
    expect(judge(page({ head: discourse }), 'https://community.acme.test/t/retries/17', { boundary: null })).toBe('A forum page (made with Discourse)');
    // A static site generator says nothing about the page's kind.
    expect(judge(page({ head: '<meta name="generator" content="Hugo 0.121.0">', header: false }), `${DOCS}/x/`, { boundary: null })).toBeNull();
  });

  it('strong evidence counts even on a page with the docs navigation, and with no boundary at all', () => {
    const blog = jsonLd({ '@type': 'BlogPosting' });
    expect(judge(page({ head: blog, sidebar: true }), `${DOCS}/blog/launch/`)).toBe('A blog post (schema.org BlogPosting)');
    expect(judge(page({ head: blog }), `${DOCS}/blog/launch/`, { boundary: null })).toBe('A blog post (schema.org BlogPosting)');
  });

  it('a dated article (og:type article with a publication time, or Article with datePublished) is weak evidence: not on a page with the docs navigation', () => {
    // Hugo gives every page og:type article and its date, documentation included.
    const og = '<meta property="og:type" content="article"><meta property="article:published_time" content="2026-03-01T00:00:00Z">';
    expect(judge(page({ head: og, sidebar: true }), `${DOCS}/guide/config/`)).toBeNull();
    expect(judge(page({ head: og, header: false }), `${DOCS}/news/launch/`)).toBe('A dated article (og:type article with article:published_time)');
    expect(judge(page({ head: og }), `${DOCS}/news/launch/`)).toBe('A dated article (og:type article with article:published_time)');
    const article = jsonLd({ '@type': 'Article', datePublished: '2026-03-01' });
    expect(judge(page({ head: article, header: false }), `${DOCS}/news/launch/`)).toBe('A dated article (schema.org Article with datePublished)');
    expect(judge(page({ head: article, sidebar: true }), `${DOCS}/guide/config/`)).toBeNull();
    // Without a boundary there is no docs navigation to tell them apart: weak evidence says nothing.
    expect(judge(page({ head: og, header: false }), `${DOCS}/news/launch/`, { boundary: null })).toBeNull();
    // An undated Article (the Read the Docs theme marks every page one) is no evidence.
    expect(judge(page({ head: jsonLd({ '@type': 'Article' }), header: false }), `${DOCS}/news/launch/`)).toBeNull();
  });

  it('a feed in a folder that holds the page is a listing of posts; the site-wide feed linked from every page is not', () => {
    const feed = (href: string) => `<link rel="alternate" type="application/rss+xml" title="Acme blog" href="${href}">`;
    expect(judge(page({ head: feed('/updates/rss.xml'), header: false }), `${DOCS}/updates/`)).toBe('A page of posts with a feed (docs.acme.test/updates/rss.xml)');
    expect(judge(page({ head: feed('/updates/rss.xml'), header: false }), `${DOCS}/guide/deploy/`)).toBeNull();
    expect(judge(page({ head: feed('/rss.xml'), header: false }), `${DOCS}/updates/`)).toBeNull();
    expect(judge(page({ head: feed('/updates/rss.xml'), sidebar: true }), `${DOCS}/updates/`)).toBeNull();
  });
});

describe('template: the docs navigation', () => {
  it('a page carrying the docs sidebar is documentation', () => {
    expect(judge(page({ sidebar: true }), `${DOCS}/guide/plugins/`)).toBeNull();
  });

  it('a page whose only navigation is the company menu has none of it', () => {
    expect(judge(page({}), `${DOCS}/careers/`)).toBe("Has none of the documentation's navigation");
  });

  it('a page with a navigation tree of its own, sharing none of the docs', () => {
    const forumNav = `<nav class="sidebar"><ul>${['general', 'help', 'ideas', 'announcements'].map((c) => `<li><a href="/c/${c}/">${c}</a></li>`).join('')}</ul></nav>`;
    expect(judge(page({ body: '', header: false }).replace('<main>', `${forumNav}<main>`), `${DOCS}/c/help/`)).toBe("Has none of the documentation's navigation");
  });

  it('a page with no navigation tree gets the benefit of the doubt', () => {
    expect(judge(page({ header: false }), `${DOCS}/landing/`)).toBeNull();
    // A marketing template's header menu of plain links is no tree: a page of it, saying nothing of itself, is not judged here (the boundary's place is).
    const menu = '<div class="top-menu"><a href="/">Docs</a><a href="/pricing">Pricing</a><a href="/blog/">Blog</a><a href="/events/">Events</a></div>';
    const html = `<!doctype html><html><head><title>Events</title></head><body>${menu}<h1>Events</h1>${prose}<p><a href="/events/berlin">Berlin</a> · <a href="/events/online">Online</a></p></body></html>`;
    expect(convertHtml(html, `${DOCS}/events/`, linkedomAdapter).navLinks).toEqual([]);
    expect(judge(html, `${DOCS}/events/`)).toBeNull();
  });

  it('a page under a root the docs navigation does not reach (an API reference on its own host, with its own sidebar) is not judged by it', () => {
    const API = 'https://api.acme.test';
    const withApi: DocsBoundary = { ...boundary, roots: [...boundary.roots, { origin: API, path: '/' }], nav: [...boundary.nav, `${API}/`] };
    const apiSidebar = `<aside class="sidebar"><ul>${['auth', 'errors', 'jobs/create', 'jobs/list'].map((p) => `<li><a href="/${p}">${p}</a></li>`).join('')}</ul></aside>`;
    const html = page({ header: false }).replace('<main>', `${apiSidebar}<main>`);
    expect(judge(html, `${API}/jobs/create`, { boundary: withApi })).toBeNull();
    // The same page on the docs' own host is another part of the site.
    expect(judge(html, `${DOCS}/jobs/create`, { boundary: withApi })).toBe("Has none of the documentation's navigation");
  });

  it('a short docs navigation is not compared with', () => {
    const short: DocsBoundary = { ...boundary, nav: boundary.nav.slice(0, 3) };
    expect(judge(page({}), `${DOCS}/careers/`, { boundary: short })).toBeNull();
  });
});

describe('place: outside the documentation', () => {
  it('in a wider scope, a page outside the roots is not documentation, with where it is', () => {
    const narrow: DocsBoundary = { ...boundary, roots: [{ origin: DOCS, path: '/en/stable/' }], nav: boundary.nav.map((u) => u.replace(`${DOCS}/`, `${DOCS}/en/stable/`)) };
    expect(judge(page({}), `${WWW}/blog/`, { boundary: narrow })).toBe('Outside the documentation (www.acme.test/blog/)');
    expect(judge(page({ sidebar: true }), `${DOCS}/en/latest/guide/`, { boundary: narrow })).toMatch(/^Outside the documentation \(docs\.acme\.test\/en\//);
    expect(judge(page({ header: false }), `${DOCS}/en/stable/guide/`, { boundary: narrow })).toBeNull();
  });
});

describe('always documentation', () => {
  it('a page the docs navigation lists, the start page, a page an llms.txt lists', () => {
    const blog = page({ head: jsonLd({ '@type': 'BlogPosting' }) });
    expect(judge(blog, `${DOCS}/faq/`)).toBeNull();
    expect(judge(blog, `${DOCS}/faq`)).toBeNull();
    expect(judge(blog, `${WWW}/blog/x`, { listed: true })).toBeNull();
    expect(judge(blog, `${WWW}/blog/x`)).not.toBeNull();
  });
});
