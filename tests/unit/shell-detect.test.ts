import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';
import { plainTextLength, shellOf } from '@/lib/shell/detect';

/** The verdict for a page as the crawler reaches it: converted first, judged on what the converter found. */
const judge = (html: string) => shellOf(html, convertHtml(html, 'https://docs.example.test/guide/', linkedomAdapter).markdown, linkedomAdapter);

// Shells as the tools write them (index.html templates of each framework's starter).
const CRA = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8" /><link rel="icon" href="/favicon.ico" /><meta name="viewport" content="width=device-width, initial-scale=1" /><title>React App</title><script defer="defer" src="/static/js/main.4f1c2b7e.js"></script><link href="/static/css/main.073c9b0a.css" rel="stylesheet"></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>`;
const VITE = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Docs</title><script type="module" crossorigin src="/assets/index-af6MBkKl.js"></script></head><body><div id="root"></div></body></html>`;
const VUE_CLI = `<!DOCTYPE html><html lang=""><head><meta charset="utf-8"><title>my-docs</title><script defer="defer" src="/js/chunk-vendors.3f2b.js"></script><script defer="defer" src="/js/app.9c1e.js"></script></head><body><noscript><strong>We're sorry but my-docs doesn't work properly without JavaScript enabled. Please enable it to continue.</strong></noscript><div id="app"></div></body></html>`;
const ANGULAR = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title><base href="/"></head><body><app-root></app-root><script src="runtime.js" type="module"></script><script src="main.js" type="module"></script></body></html>`;
const NUXT_SPA = `<!DOCTYPE html><html><head><title>Guide</title><link rel="modulepreload" href="/_nuxt/entry.js"></head><body><div id="__nuxt"><div class="loading">Loading…</div></div><script type="module" src="/_nuxt/entry.js"></script></body></html>`;
const DOCSIFY = `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>Document</title><link rel="stylesheet" href="//cdn.jsdelivr.net/npm/docsify@5/dist/themes/core.min.css"></head><body><div id="app"></div><script>window.$docsify = { name: 'Lumen', repo: 'lumen/lumen', loadSidebar: true, basePath: '/docs/', homepage: 'intro.md' }</script><script src="//cdn.jsdelivr.net/npm/docsify@5/dist/docsify.min.js"></script></body></html>`;
const BODY_ONLY = `<!doctype html><html><head><title>App</title></head><body><script src="/bundle.js"></script></body></html>`;
// Apps in inline scripts, no bundle: the mount point has a name of the app's own choosing.
const INLINE_APP = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lumen Docs</title></head><body><noscript>These docs need JavaScript. Please enable it to read them.</noscript><div id="docs"></div><script>(function () { var root = document.getElementById('docs'); root.textContent = 'Hello'; })();</script></body></html>`;
const INLINE_MODULE = `<!doctype html><html><head><title>Docs</title></head><body><section class="page"></section><script type="module">import { render } from 'https://cdn.example.test/app.js'; render(document.querySelector("#page"));</script></body></html>`;
const INLINE_MAIN = `<!doctype html><html><head><title>Docs</title></head><body><header><a href="/">Lumen</a> <a href="/guide/">Guide</a> <a href="/api/">API</a></header><main></main><footer><a href="/legal/">Legal</a></footer><script>document.querySelector('main').innerHTML = window.PAGE;</script></body></html>`;
const INLINE_BODY = `<!doctype html><html><head><title>Docs</title></head><body><script>document.body.innerHTML = '<h1>Docs</h1>';</script></body></html>`;

// Pages that are not shells.
const prose = 'Configuration files are read from the project root. Each key is described below with its default and an example; unknown keys are reported as errors so typos never pass silently. ';
const NEXT_SSR = `<!DOCTYPE html><html><head><title>Routing | Next.js</title></head><body><div id="__next"><main><h1>Routing</h1><p>${prose}</p><p>${prose}</p></main></div><script id="__NEXT_DATA__" type="application/json">{"props":{}}</script><script src="/_next/static/chunks/main.js" defer></script></body></html>`;
const STATIC = `<!doctype html><html><head><title>Install</title></head><body><main><h1>Install</h1><p>${prose}</p><p>${prose}</p></main><script src="/search.js"></script></body></html>`;
const SHORT_STATIC = `<!doctype html><html><head><title>Moved</title></head><body><main><h1>Moved</h1><p>This page moved to <a href="/new/">the new guide</a>.</p></main></body></html>`;
// Server-rendered pages with little text and analytics scripts: what they say is there already.
const GTAG = `<script async src="https://www.googletagmanager.com/gtag/js?id=G-X1"></script><script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-X1');</script>`;
const REDIRECT_NOTICE = `<!doctype html><html><head><title>Redirecting…</title><meta http-equiv="refresh" content="0; url=/en/stable/">${GTAG}</head><body><h1>Redirecting…</h1><noscript>Enable JavaScript or follow the link.</noscript></body></html>`;
const MOVED_NOTICE = `<!doctype html><html><head><title>Moved</title>${GTAG}</head><body><p>Moved to <a href="/new/">the new guide</a>.</p></body></html>`;
const LINK_INDEX = `<!doctype html><html><head><title>Index</title>${GTAG}</head><body><div id="app"><ul><li><a href="/a/">Alpha</a></li><li><a href="/b/">Beta</a></li><li><a href="/c/">Gamma</a></li></ul></div></body></html>`;
const SHORT_INLINE = `<!doctype html><html><head><title>Second</title></head><body><main><h1>Second</h1><p>Plain page.</p><script>document.write('x')</script></main></body></html>`;
// Generators' own pages: a Sphinx index laid out over many lines (whitespace is not text), mdBook's
// and Javadoc's redirect pages, an AsciiDoc page whose script fills an empty #footnotes.
const SPHINX_PAGE = `<!doctype html><html><head><title>Index</title><script src="_static/doctools.js"></script><script src="_static/searchtools.js"></script></head><body>${'\n    <div class="wrapper">\n      '.repeat(30)}<div class="body"><h1>concurrent — Launching parallel tasks</h1><p>Currently, there is only one module in this package: concurrent.futures.</p></div>${'\n    </div>'.repeat(30)}</body></html>`;
const JS_REDIRECT = `<!doctype html><html><head><title>Redirecting</title></head><body><script>(function () { var target = { '#types': 'types.html' }[window.location.hash]; if (target) window.location.replace(target); })();</script></body></html>`;
const JAVADOC_REDIRECT = `<!doctype html><html><head><title>Overview</title><script type="text/javascript">window.location.replace('index.html')</script><noscript><meta http-equiv="Refresh" content="0;index.html"></noscript></head><body><main role="main"><noscript><p>JavaScript is disabled on your browser.</p></noscript><p><a href="index.html">index.html</a></p></main></body></html>`;
const ASCIIDOC = `<!doctype html><html><head><title>Everyday Git</title><script>var asciidoc = { footnotes: function () { var cont = document.getElementById("content"); var noteholder = document.getElementById("footnotes"); } };</script></head><body><div id="header"><h1>Everyday Git With 20 Commands Or So</h1></div><div id="content"><p>This document has been moved to <a href="giteveryday.html">giteveryday(7)</a>. Please let the owners of the referring site know.</p></div><div id="footnotes"><hr /></div></body></html>`;
const DATA_ONLY = `<!doctype html><html><head><title>Data</title><script type="application/ld+json">{"@type":"WebPage"}</script></head><body><div id="root"></div></body></html>`;

describe('shell detection', () => {
  it.each([
    ['Create React App', CRA, /empty #root · <noscript> asks for JavaScript · 1 script bundle/],
    ['Vite + React', VITE, /empty #root · 1 script bundle/],
    ['Vue CLI', VUE_CLI, /empty #app · <noscript> asks for JavaScript · 2 script bundles/],
    ['Angular', ANGULAR, /empty <app-root> · 2 script bundles · Angular/],
    ['Nuxt (SPA mode, a loading placeholder)', NUXT_SPA, /empty #__nuxt · 1 script bundle · Nuxt/],
    ['a body of scripts only', BODY_ONLY, /a body of scripts only · 1 script bundle/],
  ])('recognises a %s shell and says why', (_name, html, why) => {
    const verdict = judge(html);
    expect(verdict?.shell).toBe(true);
    expect(verdict?.reason).toMatch(/^Client-rendered shell: \d+ characters of text · /);
    expect(verdict?.reason).toMatch(why);
  });

  it.each([
    ['an app in one inline script, with an empty mount point of its own name', INLINE_APP, /^Client-rendered shell: 0 characters of text · empty #docs · <noscript> asks for JavaScript · 1 inline script$/],
    ['an inline module script', INLINE_MODULE, /a body of scripts only · 1 script bundle/],
    ['an empty <main> filled by an inline script, the site chrome around it', INLINE_MAIN, /empty <main> · 1 inline script/],
    ['a body of one inline script', INLINE_BODY, /a body of scripts only · 1 inline script/],
  ])('recognises %s, with no script bundle', (_name, html, why) => {
    const verdict = judge(html);
    expect(verdict?.shell).toBe(true);
    expect(verdict?.reason).toMatch(why);
  });

  it.each([
    ['a redirect notice (meta refresh) with analytics', REDIRECT_NOTICE, /a redirect notice/],
    ['a short "moved" notice with a link and analytics', MOVED_NOTICE, /^Not a shell: \d+ characters of text · 1 script bundle · 1 inline script$/],
    ['an index of links in #app with analytics', LINK_INDEX, /^Not a shell: /],
    ['a short page with an inline script', SHORT_INLINE, /^Not a shell: \d+ characters of text · 1 inline script$/],
    ['an empty #root with only JSON data scripts', DATA_ONLY, /^Not a shell: 0 characters of text · empty #root$/],
    ['a short Sphinx page whose markup spans many lines', SPHINX_PAGE, /^Not a shell: \d+ characters of text · 2 script bundles$/],
    ["mdBook's redirect page (a script that only sets location)", JS_REDIRECT, /^Not a shell: 0 characters of text · a body of scripts only · 1 inline script · a redirect script$/],
    ["Javadoc's redirect page (its meta refresh in <noscript>)", JAVADOC_REDIRECT, /a redirect notice \(<meta refresh>\)/],
    ['a page with sentences whose script fills an empty #footnotes', ASCIIDOC, /^Not a shell: \d+ characters of text · 1 inline script$/],
  ])('leaves %s alone', (_name, html, why) => {
    const verdict = judge(html);
    expect(verdict?.shell ?? false).toBe(false);
    if (verdict) expect(verdict.reason).toMatch(why);
  });

  it('recognises docsify and reads its config without running it', () => {
    const verdict = judge(DOCSIFY);
    expect(verdict).toMatchObject({ shell: true, framework: 'docsify', docsify: { name: 'Lumen', loadSidebar: true, basePath: '/docs/', homepage: 'intro.md' } });
    expect(verdict?.reason).toContain('window.$docsify config');
  });

  it('leaves server-rendered pages alone, even with a framework mount point and bundles', () => {
    expect(judge(NEXT_SSR)).toBeUndefined(); // enough text: not even parsed twice
    expect(judge(STATIC)).toBeUndefined();
  });

  it('calls a short page without a mount point or scripts thin, not a shell', () => {
    const verdict = judge(SHORT_STATIC);
    expect(verdict?.shell).toBe(false);
    expect(verdict?.reason).toMatch(/^Not a shell: \d+ characters of text$/);
  });

  it('counts text, not Markdown syntax or link targets', () => {
    expect(plainTextLength('# Title\n\n[a link](https://example.test/a/very/long/path/that/is/no/text) ![img](x.png) **bold**')).toBe('Title a link bold'.length);
  });
});
