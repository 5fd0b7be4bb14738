import { DOMParser as LinkedomDOMParser } from 'linkedom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isWeakDescription } from '@/lib/convert/page-text';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter, nativeDomAdapter } from '@/lib/convert/dom';

const URL_ = 'https://docs.example.com/guide/intro.html';
const convert = (html: string, url = URL_) => convertHtml(html, url, linkedomAdapter);
const page = (head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
const words = (n: number, word = 'lorem') => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('title', () => {
  it('strips a trailing site name only when the page names its site so', () => {
    const og = '<meta property="og:site_name" content="Acme Docs">';
    expect(convert(page(`<title>Intro | Acme Docs</title>${og}`, '<p>x</p>')).title).toBe('Intro');
    expect(convert(page(`<title>Intro — acme docs</title>${og}`, '<p>x</p>')).title).toBe('Intro');
    expect(convert(page('<title>Guide - Widget</title><meta name="application-name" content="Widget">', '')).title).toBe('Guide');
    // Not the site name: part of the title.
    expect(convert(page(`<title>Foo - Bar</title>${og}`, '')).title).toBe('Foo - Bar');
    expect(convert(page('<title>Foo | Bar</title>', '')).title).toBe('Foo | Bar');
    // A title that is only the site name stays whole.
    expect(convert(page(`<title>Acme Docs</title>${og}`, '')).title).toBe('Acme Docs');
  });

  it('reads the site name from an OpenSearch link (Sphinx) or the site header h1', () => {
    const sphinx = convert(page(
      '<title>Built-in Functions &#8212; Proj 1.2 documentation</title>' +
        '<link rel="search" type="application/opensearchdescription+xml" title="Search within Proj 1.2 documentation" href="os.xml">',
      '<div class="body" role="main"><h1>Built-in Functions</h1><p>x</p></div>',
    ));
    expect(sphinx.title).toBe('Built-in Functions');
    expect(sphinx.siteName).toBe('Proj 1.2 documentation');

    const node = convert(page(
      '<title>File system | Node.js v18.0.0 Documentation</title>',
      '<div id="column1"><header class="header"><h1>Node.js v18.0.0 documentation</h1></header>' +
        '<div id="apicontent"><h2>File system</h2><p>The fs module.</p></div></div>',
    ));
    expect(node.title).toBe('File system');
    expect(node.siteName).toBe('Node.js v18.0.0 documentation');
  });

  it('falls back to the first h1, then to the de-slugged last path segment, then the host', () => {
    expect(convert(page('', '<main><h1>Getting Started<a class="headerlink" href="#gs">¶</a></h1><p>x</p></main>')).title).toBe('Getting Started');
    expect(convert(page('', '<p>no heading</p>'), 'https://x.test/docs/getting-started.html').title).toBe('Getting started');
    expect(convert(page('', '<p>no heading</p>'), 'https://x.test/docs/api_reference/').title).toBe('Api reference');
    expect(convert(page('', ''), 'https://x.test/').title).toBe('x.test');
  });
});

describe('description', () => {
  it('prefers meta description, then og:description', () => {
    expect(convert(page('<meta name="description" content="  Read  files from the meta tag. "><meta property="og:description" content="Read files from og.">', '')).description).toBe('Read files from the meta tag.');
    expect(convert(page('<meta property="og:description" content="Read files from og.">', '')).description).toBe('Read files from og.');
  });

  it('skips weak descriptions: copyright lines, version notes, labels, list introductions', () => {
    const weak = ['© Copyright 2001-2026, the Acorn team.', 'Copyright © 1996–2026 The Group', 'New in version 3.2.', 'See also the tutorial for more.', 'Docs', 'For pre-releases, the last component will be a string with the prerelease version:'];
    for (const text of weak) expect(isWeakDescription(text), text).toBe(true);
    expect(isWeakDescription('The os module provides a portable way of using operating system functionality.')).toBe(false);
    const para = `The acorn module stores ${words(12)} on disk.`;
    const result = convert(page('<meta name="description" content="© Copyright 2026, Acorn.">', `<main><h1>T</h1><p>Changed in version 3.2: the ${words(12)} changed.</p><p>For example, ${words(10)} like this:</p><p>${para}</p></main>`));
    expect(result.description).toBe(para);
  });

  it('else takes the first meaningful paragraph of the content, trimmed on a word boundary', () => {
    const long = `This module provides ${words(80)} and more.`;
    const result = convert(page('', `<main><h1>T</h1><p><strong>Source code:</strong> <a href="x.py">Lib/x.py</a></p>` +
      `<div class="admonition note"><p>Note: ${words(20, 'note')}</p></div><blockquote><p>${words(20, 'quote')}</p></blockquote>` +
      `<p>${long}</p><p>Second ${words(20)}</p></main>`));
    expect(result.description).toMatch(/^This module provides lorem0 lorem1 /);
    expect(result.description?.length).toBeLessThanOrEqual(301);
    expect(result.description).toMatch(/lorem\d+…$/);
  });

  it('is absent when nothing qualifies', () => {
    expect(convert(page('', '<main><p>Too short.</p></main>')).description).toBeUndefined();
  });
});

describe('main content', () => {
  const chrome = (text: string) => `<p>${text} ${words(5, 'chrome')}</p>`;

  it('Sphinx: div.body, not the sidebar, related bar or footer', () => {
    const result = convert(page('<title>T</title>',
      '<div class="related" role="navigation"><a href="genindex.html">index</a></div>' +
        '<div class="document"><div class="documentwrapper"><div class="bodywrapper"><div class="body" role="main">' +
        `<section><h1>Topic<a class="headerlink" href="#topic" title="Permalink">¶</a></h1><p>${words(30, 'body')}</p></section>` +
        '</div></div></div><div class="sphinxsidebar" role="navigation"><h3>Table of Contents</h3><h4>Previous topic</h4>' +
        `${chrome('This Page')}</div></div><div class="footer">${chrome('Copyright')}</div>`));
    expect(result.markdown).toMatch(/^# Topic\n\nbody0 body1/);
    for (const text of ['Table of Contents', 'Previous topic', 'This Page', 'Copyright', '¶', 'index']) expect(result.markdown).not.toContain(text);
  });

  it('MkDocs Material: .md-content beside a large navigation', () => {
    const nav = `<nav class="md-nav md-nav--primary"><ul>${Array.from({ length: 80 }, (_, i) => `<li><a href="/p${i}/">Page number ${i}</a></li>`).join('')}</ul></nav>`;
    const result = convert(page('',
      `<header class="md-header">${chrome('Header')}</header><div class="md-container"><main class="md-main"><div class="md-main__inner">` +
        `<div class="md-sidebar md-sidebar--primary">${nav}</div>` +
        '<div class="md-content"><article class="md-content__inner md-typeset">' +
        '<a href="https://github.com/x/y/edit/main/docs/a.md" title="Edit this page" class="md-content__button md-icon"><svg></svg></a>' +
        `<h1>Material page</h1><p>${words(30, 'content')}</p></article></div></div></main>` +
        `<footer class="md-footer"><a href="/prev/">Previous</a></footer></div>`));
    expect(result.markdown).toMatch(/^# Material page\n\ncontent0/);
    expect(result.markdown).not.toMatch(/Page number|Previous|Header|\]\(https:\/\/github/);
  });

  it('Docusaurus: .theme-doc-markdown without breadcrumbs, TOC, edit link or pager', () => {
    const result = convert(page('',
      '<nav class="navbar"><a href="/">Home</a></nav><div class="main-wrapper"><aside class="theme-doc-sidebar-container"><ul><li><a href="/a">A</a></li></ul></aside>' +
        '<main class="docMainContainer"><div class="row"><div class="col"><article>' +
        '<nav class="theme-doc-breadcrumbs" aria-label="Breadcrumbs"><ul class="breadcrumbs"><li><a href="/">Docs</a></li></ul></nav>' +
        `<div class="theme-doc-markdown markdown"><header><h1>Install</h1></header><p>${words(30, 'install')}</p>` +
        '<div class="theme-doc-toc-mobile"><button>On this page</button></div></div>' +
        '<footer class="theme-doc-footer"><a href="https://github.com/x/edit/main/install.md" class="theme-edit-this-page">Edit this page</a></footer>' +
        '</article><nav class="pagination-nav"><a href="/next">Next</a></nav></div>' +
        '<div class="col col--3"><div class="tableOfContents"><ul><li><a href="#a">Section A</a></li></ul></div></div></div></main></div>'));
    expect(result.markdown).toMatch(/^# Install\n\ninstall0/);
    expect(result.markdown).not.toMatch(/Edit this page|On this page|Section A|Next|Docs|Home/);
  });

  it('VitePress (.vp-doc) and Node.js (#apicontent)', () => {
    const vite = convert(page('', '<div class="VPNav">Nav</div><aside class="VPSidebar"><a href="/x">X</a></aside>' +
      `<div class="VPDoc"><div class="vp-doc"><div><h1>Vite page</h1><p>${words(20, 'vite')}</p></div></div></div>`));
    expect(vite.markdown).toMatch(/^# Vite page\n\nvite0/);
    const node = convert(page('', `<div id="content"><div id="column2"><ul><li><a href="fs.html">File system</a></li></ul></div>` +
      `<div id="column1"><header><h1>Node.js docs</h1></header><details id="toc"><summary>Table of contents</summary><ul><li><a href="#fs">fs</a></li></ul></details>` +
      `<div id="apicontent"><h2>File system<span><a class="mark" href="#fs" id="fs">#</a></span><a aria-hidden="true" class="legacy" id="fs_x"></a></h2>` +
      `<h3>Sub</h3><p>${words(20, 'node')}</p></div></div></div>`));
    // The content starts at h2 (the h1 is the site's name): headings are lifted one level.
    expect(node.markdown).toBe(`# File system\n\n## Sub\n\n${words(20, 'node')}`);
  });

  it('falls back to <body> and still removes its chrome; several articles are not one page', () => {
    const body = convert(page('', `<header>${chrome('Site header')}</header><nav><a href="/">Home</a></nav>` +
      `<p>${words(10, 'plain')}</p><footer>${chrome('Footer')}</footer>`));
    expect(body.markdown).toBe(words(10, 'plain'));
    const listing = convert(page('', `<main><article><h2>One</h2><p>${words(20, 'one')}</p></article>` +
      `<article><h2>Two</h2><p>${words(20, 'two')}</p></article></main>`));
    expect(listing.markdown).toContain('one0');
    expect(listing.markdown).toContain('two0');
  });

  it('prefers the most specific container that holds most of the text', () => {
    const result = convert(page('', `<div id="content"><div class="intro">${words(5, 'x')}</div>` +
      `<main><article><h1>Deep</h1><p>${words(40, 'deep')}</p></article></main></div>`));
    expect(result.markdown).toMatch(/^# Deep/);
    expect(result.markdown).not.toContain('x0');
  });
});

describe('chrome removal inside the content', () => {
  const convertMain = (inner: string) => convert(page('', `<main>${inner}<p>${words(40, 'keep')}</p></main>`)).markdown;

  it('drops scripts, forms, buttons, hidden and decorative elements', () => {
    const md = convertMain(
      '<script>var secret = 1</script><style>.x{}</style><noscript>Enable JS</noscript><template><p>tpl</p></template>' +
        '<iframe src="https://ads.example"></iframe><form><input value="q"><button>Search</button></form>' +
        '<svg><title>icon</title></svg><p hidden>hidden attr</p><p aria-hidden="true">aria hidden</p>' +
        '<p style="color: red; display: none">inline none</p><div class="cookie-banner">We use cookies</div>' +
        '<a class="skip-link" href="#main">Skip to content</a><button class="copybtn">Copy</button>' +
        '<div class="sr-only">screen reader</div>');
    expect(md).toBe(words(40, 'keep'));
  });

  it('drops permalinks, edit links, breadcrumbs and pagers but keeps article headers and footnotes', () => {
    const md = convertMain(
      '<header class="post-header"><h1>Title<a class="anchor" href="#t">#</a></h1></header>' +
        '<ol class="breadcrumb"><li>Docs</li></ol><a href="https://github.com/x/y/blob/main/a.md">Edit on GitHub</a>' +
        '<div class="prev-next"><a href="/a">Prev</a></div><aside class="sidebar"><p>Related</p></aside>' +
        '<aside class="footnote" role="note"><p>[1] A footnote.</p></aside>');
    expect(md).toBe(`# Title\n\n[1] A footnote.\n\n${words(40, 'keep')}`);
  });

  it('does not remove a wrapper that holds most of the content because of its name', () => {
    const md = convert(page('', `<main><div class="layout has-sidebar"><h1>Wrapped</h1><p>${words(40, 'w')}</p></div></main>`)).markdown;
    expect(md).toMatch(/^# Wrapped\n\nw0/);
  });
});

describe('code blocks', () => {
  const md = (html: string) => convert(page('', `<main>${html}</main>`)).markdown;

  it('keeps the language from every common marking', () => {
    expect(md('<pre><code class="language-ts">let a = 1;</code></pre>')).toBe('```ts\nlet a = 1;\n```');
    expect(md('<pre class="lang-rust"><code>fn main() {}</code></pre>')).toBe('```rust\nfn main() {}\n```');
    expect(md('<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span><span class="k">def</span> <span class="nf">f</span>(*args, **kw_args):\n    <span class="k">return</span> a_b[0]\n</pre></div></div>'))
      .toBe('```python3\ndef f(*args, **kw_args):\n    return a_b[0]\n```');
    expect(md('<div class="highlight highlight-source-js"><pre>x()</pre></div>')).toBe('```js\nx()\n```');
    expect(md('<div class="highlight-default notranslate"><div class="highlight"><pre>&gt;&gt;&gt; 1</pre></div></div>')).toBe('```python\n>>> 1\n```');
    expect(md('<pre data-lang="bash">ls -l</pre>')).toBe('```bash\nls -l\n```');
    expect(md('<div class="codehilite"><pre><code data-lang="toml">a = 1</code></pre></div>')).toBe('```toml\na = 1\n```');
    expect(md('<pre><code>plain</code></pre>')).toBe('```\nplain\n```');
    expect(md('<pre><code class="language-none">plain</code></pre>')).toBe('```\nplain\n```');
  });

  it('takes code as text: no escaping, no line numbers or buttons, <br> as newlines, safe fences', () => {
    expect(md('<pre><span class="linenos">1</span>a_b *c*<br>&lt;tag&gt;<button>Copy</button></pre>')).toBe('```\na_b *c*\n<tag>\n```');
    expect(md('<pre>```\ninner\n```</pre>')).toBe('````\n```\ninner\n```\n````');
    expect(md('<p>Use <code>a_b*c</code> here.</p>')).toBe('Use `a_b*c` here.');
  });
});

describe('tables', () => {
  const md = (html: string) => convert(page('', `<main>${html}</main>`)).markdown;

  it('become GFM tables with escaped pipes', () => {
    expect(md('<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody><tr><td><code>a|b</code></td><td><p>one</p><p>two</p></td></tr></tbody></table>'))
      .toBe('| Name | Value |\n| --- | --- |\n| `a\\|b` | one<br>two |');
  });

  it('lay spans out on a grid and use the first row as header when there is no th row', () => {
    expect(md('<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td colspan="2">wide</td><td>z</td></tr><tr><td rowspan="2">tall</td><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table>'))
      .toBe('| a | b | c |\n| --- | --- | --- |\n| wide |   | z |\n| tall | 1 | 2 |\n|   | 3 | 4 |');
  });

  it('degrade to blocks for nested tables, code and layout boxes; empty tables vanish', () => {
    expect(md('<table><tr><td><pre><code class="language-sh">make</code></pre></td><td>Build it.</td></tr></table>')).toBe('```sh\nmake\n```\n\nBuild it.');
    expect(md('<table><tr><td>Outer</td><td><table><tr><th>i</th><th>j</th></tr><tr><td>1</td><td>2</td></tr></table></td></tr></table>'))
      .toBe('Outer\n\n| i | j |\n| --- | --- |\n| 1 | 2 |');
    expect(md('<table><tr><td><p>Only cell</p></td></tr></table>')).toBe('Only cell');
    expect(md('<table><tr><td> </td></tr></table><p>after</p>')).toBe('after');
    expect(md(`<table><tr><th colspan="2">Letters</th></tr><tr><td>${Array.from({ length: 9 }, (_, i) => `<p>line ${i}</p>`).join('')}</td><td>x</td></tr></table>`))
      .toMatch(/^Letters\n\nline 0\n\nline 1/);
  });
});

describe('links and images', () => {
  it('are made absolute against the page URL or <base href>; empty and script links are dropped', () => {
    const body = '<main><p><a href="../api/x.html#y">rel</a> <a href="/root">root</a> <a href="https://o.test/a b">ext</a> ' +
      '<a href="javascript:void(0)">js</a> <a href="mailto:a@b.test">mail</a> <a href="#"></a> <a href="/icon"><svg></svg></a> ' +
      '<img src="img/p.png" alt="A [pic]"> <img src="data:image/png;base64,AAAA" alt="inline"></p></main>';
    expect(convert(page('', body)).markdown).toBe(
      '[rel](https://docs.example.com/api/x.html#y) [root](https://docs.example.com/root) [ext](https://o.test/a%20b) js [mail](mailto:a@b.test) ' +
        '![A \\[pic\\]](https://docs.example.com/guide/img/p.png) inline');
    expect(convert(page('<base href="https://cdn.example.net/v2/">', body)).markdown).toContain('[rel](https://cdn.example.net/api/x.html#y)');
  });

  it('reduces Node.js type annotations to the type name', () => {
    const html = '<main><ul><li><code>path</code> <a href="https://developer.mozilla.org/en-US/docs/Web/JavaScript/Data_structures#String_type" class="type">&lt;string&gt;</a></li></ul></main>';
    expect(convert(page('', html)).markdown).toBe('- `path` \\<string>');
  });
});

describe('links (for the crawler)', () => {
  const body = '<nav><a href="/a">A</a><a href="b.html#top">B</a></nav><main><a href="b.html">B again</a>' +
    '<a href="javascript:alert(1)">js</a><a href="mailto:x@y.test">m</a><a href="tel:123">t</a><a href="ftp://f.test/">f</a>' +
    '<a href="http://[bad">bad</a><a href="https://other.test/c?q=1#frag">c</a><a>no href</a><a href="">self</a></main>';

  it('lists every <a href> of the document: absolute, http(s), no fragment, deduplicated, in order', () => {
    expect(convert(page('', body)).links).toEqual([
      'https://docs.example.com/a',
      'https://docs.example.com/guide/b.html',
      'https://other.test/c?q=1',
      'https://docs.example.com/guide/intro.html',
    ]);
  });

  it('resolves against <base href>, itself relative to the page', () => {
    expect(convert(page('<base href="/v2/">', body)).links.slice(0, 2)).toEqual(['https://docs.example.com/a', 'https://docs.example.com/v2/b.html']);
  });

  it('reports Markdown alternates, canonical and language', () => {
    const result = convert(page(
      '<link rel="alternate" type="text/markdown" href="intro.md"><link rel="alternate" type="text/html" hreflang="de" href="/de/">' +
        '<link rel="alternate" type="text/markdown; charset=utf-8" href="/raw/intro.md"><link rel="canonical" href="/guide/intro">', ''));
    expect(result.markdownAlternates).toEqual(['https://docs.example.com/guide/intro.md', 'https://docs.example.com/raw/intro.md']);
    expect(result.canonical).toBe('https://docs.example.com/guide/intro');
    expect(result.lang).toBe('en');
    expect(convert(page('<link rel="canonical" href="file:///usr/share/doc/x.html">', '')).canonical).toBeUndefined();
  });
});

describe('navLinks', () => {
  it('follow the sidebar tree with depth from nested lists, skipping in-page anchors', () => {
    const result = convert(page('', '<header><nav class="navbar"><ul><li><a href="/blog">Blog</a></li><li><a href="/about">About</a></li>' +
      '<li><a href="/jobs">Jobs</a></li></ul></nav></header>' +
      '<aside class="sidebar"><nav><ul><li><a href="/guide/">Guide</a><ul><li><a href="/guide/intro.html">Intro</a></li>' +
      '<li><a href="/guide/setup.html#top">Setup</a><ul><li><a href="/guide/deep.html">Deep</a></li></ul></li></ul></li>' +
      '<li><a href="#local">Local</a></li><li><a href="/api/">API</a></li></ul></nav></aside><main><p>x</p></main>'));
    expect(result.navLinks).toEqual([
      { title: 'Guide', url: 'https://docs.example.com/guide/', depth: 0 },
      { title: 'Intro', url: 'https://docs.example.com/guide/intro.html', depth: 1 },
      { title: 'Setup', url: 'https://docs.example.com/guide/setup.html', depth: 1 },
      { title: 'Deep', url: 'https://docs.example.com/guide/deep.html', depth: 2 },
      { title: 'API', url: 'https://docs.example.com/api/', depth: 0 },
    ]);
  });

  // A menu in the site's header or footer (or inside either, or marked so by its role) counts a
  // quarter: ten links there lose to a three-link nav elsewhere; a role the spec does not name
  // ("Banner", "banners") marks nothing, so the same ten links win.
  it.each([
    ['<header><div><nav>', '</nav></div></header>', 'plain'],
    ['<footer><nav>', '</nav></footer>', 'plain'],
    ['<div role="banner"><div><nav>', '</nav></div></div>', 'plain'],
    ['<div role="contentinfo"><nav>', '</nav></div>', 'plain'],
    ['<nav role="banner">', '</nav>', 'plain'],
    ['<div role="Banner"><nav>', '</nav></div>', 'frame'],
    ['<div role="banners"><nav>', '</nav></div>', 'frame'],
    ['<div class="header"><nav>', '</nav></div>', 'frame'],
  ])('count a menu at a quarter inside the page frame: %s', (open, close, winner) => {
    const list = (prefix: string, n: number) => `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/${prefix}${i}.html">${prefix} ${i}</a></li>`).join('')}</ul>`;
    const result = convert(page('', `${open}${list('frame', 10)}${close}<nav>${list('plain', 3)}</nav><main><p>x</p></main>`));
    expect(result.navLinks.map((link) => link.title)[0]).toBe(`${winner} 0`);
    expect(result.navLinks).toHaveLength(winner === 'plain' ? 3 : 10);
  });

  it('are empty without a recognisable tree (a page TOC or breadcrumbs are not one)', () => {
    const result = convert(page('', '<nav aria-label="breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/a">A</a></li><li><a href="/a/b">B</a></li></ol></nav>' +
      '<div class="toc"><ul><li><a href="#a">A</a></li><li><a href="#b">B</a></li><li><a href="#c">C</a></li></ul></div><main><p>x</p></main>'));
    expect(result.navLinks).toEqual([]);
  });
});

describe('escaping', () => {
  it('escapes only what would change the rendering', () => {
    const md = convert(page('', '<main><p>snake_case a[0] 2 * 3 _under_ *star* &lt;div&gt; [x](y) C:\\dir \\*</p><p># not heading</p><p>1. not list</p></main>')).markdown;
    expect(md).toBe('snake_case a[0] 2 * 3 \\_under\\_ \\*star\\* \\<div> [x\\](y) C:\\dir \\\\\\*\n\n\\# not heading\n\n1\\. not list');
  });
});

describe('fragments, garbage and adapters', () => {
  it('converts fragments without <html>, and head-less pages', () => {
    const fragment = convert('<h1>Hi</h1><p>Some <a href="/x">text</a>.</p>');
    expect(fragment.title).toBe('Hi');
    expect(fragment.markdown).toBe('# Hi\n\nSome [text](https://docs.example.com/x).');
    expect(fragment.links).toEqual(['https://docs.example.com/x']);
    const strays = convert('<html><title>T</title><p>para</p></html>');
    expect(strays.title).toBe('T');
    expect(strays.markdown).toBe('para');
    expect(convert('<!doctype html><title>Doc</title><p>text</p>').title).toBe('Doc');
  });

  it('never throws on garbage', () => {
    const inputs = ['', ' ', '\u0000\uFFFF<<<>>></</x>', '<html', '<table><td>1<tr><td>', '<!-- unclosed', '<a href="http://[::1">x',
      '<div>'.repeat(20000) + 'deep', `<p>${'<b>'.repeat(5000)}x`, '<svg><a href="/s">s</a></svg>', '<pre><code class="language-">'];
    for (const html of inputs) {
      const result = convert(html);
      expect(typeof result.markdown).toBe('string');
      expect(typeof result.title).toBe('string');
    }
    for (const url of ['not a url', '', 'javascript:alert(1)']) {
      const result = convert('<title>T</title><p><a href="/x">x</a> <img src="y.png"></p>', url);
      expect(result).toMatchObject({ title: 'T', markdown: 'x', links: [] });
    }
    // Deeper than turndown's recursion can go: the text survives.
    expect(convert('<div>'.repeat(20000) + 'deep').markdown).toContain('deep');
    expect(convert(undefined as unknown as string).markdown).toBe('');
  });

  it('the linkedom adapter gives fragments a populated body', () => {
    const document = linkedomAdapter.parse('<p>hello</p>');
    expect(document.body.textContent).toBe('hello');
    expect(document.documentElement.nodeName).toBe('HTML');
    expect(linkedomAdapter.parse('').body).toBeTruthy();
  });

  describe('native adapter', () => {
    afterEach(() => vi.unstubAllGlobals());

    it('is null where there is no DOMParser (Node, the service worker)', () => {
      vi.stubGlobal('DOMParser', undefined);
      expect(nativeDomAdapter()).toBeNull();
    });

    it('uses DOMParser when the realm has one', () => {
      vi.stubGlobal('DOMParser', LinkedomDOMParser);
      const adapter = nativeDomAdapter();
      expect(adapter?.name).toBe('native');
      const document = adapter?.parse('<html><head><title>N</title></head><body><main><h1>Native</h1></main></body></html>');
      expect(document?.body.textContent).toBe('Native');
      if (adapter) expect(convertHtml('<html><body><main><h1>Native</h1></main></body></html>', URL_, adapter).markdown).toBe('# Native');
    });
  });
});
