import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';
import { isWeakDescription } from '@/lib/convert/page-text';
import { mergeNav } from '@/lib/crawl/nav-merge';
import { generateOutputs } from '@/lib/generate/generate';
import { groupByNav, startPageLabels } from '@/lib/generate/sections';
import type { SourcePage } from '@/lib/generate/types';

const ORIGIN = 'https://docs.example.test';
const nav = (body: string) =>
  convertHtml(`<!doctype html><html><head><title>T</title></head><body>${body}<main><h1>T</h1><p>x</p></main></body></html>`, `${ORIGIN}/index.html`, linkedomAdapter).navLinks
    .map((link) => `${'  '.repeat(link.depth)}${link.title}${link.url ? '' : ' [group]'}`);

// The sidebar markup of each generator, reduced to its structure (class names as the themes write them).
describe('navigation trees with group labels', () => {
  it('VitePress: groups are div trees with an h2 title', () => {
    const item = (href: string, text: string) => `<div class="VPSidebarItem level-1"><div class="item"><a class="VPLink link" href="${href}"><p class="text">${text}</p></a></div></div>`;
    const group = (title: string, items: string) => `<section class="VPSidebarItem level-0 collapsible"><div class="item" role="button"><h2 class="text">${title}</h2></div><div class="items">${items}</div></section>`;
    const html = `<aside class="VPSidebar"><nav id="VPSidebarNav">${group('Guide', item('/a', 'A') + item('/b', 'B') + item('/c', 'C') + item('/d', 'D'))}${group('API', item('/e', 'E') + item('/f', 'F') + item('/g', 'G') + item('/h', 'H'))}</nav></aside>`;
    expect(nav(html)).toEqual(['Guide [group]', '  A', '  B', '  C', '  D', 'API [group]', '  E', '  F', '  G', '  H']);
  });

  it('Docusaurus: a category without a page is a toggle link', () => {
    const cat = (title: string, items: string[]) => `<li class="theme-doc-sidebar-item-category"><div class="menu__list-item-collapsible"><a class="menu__link menu__link--sublist" role="button" href="#">${title}</a></div><ul class="menu__list">${items.map((i) => `<li><a class="menu__link" href="/docs/${i}">${i}</a></li>`).join('')}</ul></li>`;
    const html = `<aside class="theme-doc-sidebar-container"><nav class="menu"><ul class="menu__list"><li><a class="menu__link" href="/docs/intro">Intro</a></li>${cat('Basics', ['x', 'y'])}${cat('Advanced', ['z'])}</ul></nav></aside>`;
    expect(nav(html)).toEqual(['Intro', 'Basics [group]', '  x', '  y', 'Advanced [group]', '  z']);
  });

  it('Starlight: details and summary; MkDocs Material: a label and a nested nav repeating it', () => {
    const starlight = `<nav class="sidebar"><ul class="top-level"><li><details open><summary><div class="group-label"><span class="large">Start</span></div></summary><ul><li><a href="/start/a/">a</a></li><li><a href="/start/b/">b</a></li></ul></details></li><li><details open><summary>Reference</summary><ul><li><a href="/ref/c/">c</a></li></ul></details></li></ul></nav>`;
    expect(nav(starlight)).toEqual(['Start [group]', '  a', '  b', 'Reference [group]', '  c']);
    const section = (n: number, title: string, pages: string[]) => `<li class="md-nav__item md-nav__item--nested"><input class="md-nav__toggle" type="checkbox" id="__nav_${n}"><label class="md-nav__link" for="__nav_${n}">${title}</label><nav class="md-nav"><label class="md-nav__title">${title}</label><ul class="md-nav__list">${pages.map((p) => `<li class="md-nav__item"><a class="md-nav__link" href="/${p}/">${p}</a></li>`).join('')}</ul></nav></li>`;
    const mkdocs = `<div class="md-sidebar"><nav class="md-nav md-nav--primary"><ul class="md-nav__list"><li class="md-nav__item"><a class="md-nav__link" href="/">Home</a></li>${section(2, 'Setup', ['install', 'configure'])}${section(3, 'Modules', ['fs', 'net'])}</ul></nav></div>`;
    expect(nav(mkdocs)).toEqual(['Home', 'Setup [group]', '  install', '  configure', 'Modules [group]', '  fs', '  net']);
  });

  it('DocBook: a definition-list table of contents, parts over chapters', () => {
    const html = `<div class="toc"><dl class="toc"><dt><span class="preface"><a href="preface.html">Preface</a></span></dt><dt><span class="part"><a href="tutorial.html">I. Tutorial</a></span></dt><dd><dl><dt><span class="chapter"><a href="start.html">1. Getting Started</a></span></dt><dd><dl><dt><a href="install.html">1.1. Installation</a></dt></dl></dd><dt><a href="sql.html">2. SQL</a></dt></dl></dd><dt><span class="part"><a href="admin.html">II. Administration</a></span></dt><dd><dl><dt><a href="setup.html">3. Setup</a></dt></dl></dd></dl></div>`;
    expect(nav(html)).toEqual(['Preface', 'I. Tutorial', '  1. Getting Started', '    1.1. Installation', '  2. SQL', 'II. Administration', '  3. Setup']);
  });

  it('Sphinx: toctrees under headings on the start page make one tree; the page title is no group', () => {
    const toctree = (pages: string[]) => `<div class="toctree-wrapper compound"><ul>${pages.map((p) => `<li class="toctree-l1"><a class="reference internal" href="${p}.html">${p}</a><ul><li class="toctree-l2"><a href="${p}.html#s">Section</a></li></ul></li>`).join('')}</ul></div>`;
    const body = `<div class="body" role="main"><section><h1>Welcome to Acorn<a class="headerlink" href="#w">¶</a></h1><p>Start with <a href="install.html">Installation</a>.</p>` +
      `<section><h2>User’s Guide<a class="headerlink" href="#u">¶</a></h2><p>How to use it.</p>${toctree(['install', 'quickstart', 'views'])}</section>` +
      `<section><h2>API Reference<a class="headerlink" href="#a">¶</a></h2>${toctree(['api', 'cli'])}</section></section></div>`;
    expect(nav(body)).toEqual(['User’s Guide [group]', '  install', '  quickstart', '  views', 'API Reference [group]', '  api', '  cli']);
  });

  it('Sphinx: a heading over one captioned toctree is one group, named by the caption the sidebar also shows', () => {
    const toctree = (caption: string, pages: string[]) => `<div class="toctree-wrapper compound"><p class="caption" role="heading"><span class="caption-text">${caption}</span></p><ul>${pages.map((p) => `<li class="toctree-l1"><a class="reference internal" href="${p}.html">${p}</a></li>`).join('')}</ul></div>`;
    const body = `<div class="body" role="main"><section><h1>Welcome</h1>` +
      `<section><h2>Community guide</h2>${toctree('Community', ['support', 'contribute', 'faq'])}</section>` +
      `<section><h2>Reference guide</h2>${toctree('Reference', ['cli', 'glossary', 'changes'])}</section></section></div>`;
    expect(nav(body)).toEqual(['Community [group]', '  support', '  contribute', '  faq', 'Reference [group]', '  cli', '  glossary', '  changes']);
  });
});

describe('sections from a tree with group labels', () => {
  const page = (path: string): SourcePage => ({ key: `${ORIGIN}${path}`, url: `${ORIGIN}${path}`, finalUrl: `${ORIGIN}${path}`, title: path, markdown: '', depth: 1, format: 'html', state: 'stored' });

  it('names sections after the labels and places unlisted pages by directory', () => {
    const tree = [
      { title: 'Guide', url: '', depth: 0 }, { title: 'A', url: `${ORIGIN}/guide/a`, depth: 1 }, { title: 'B', url: `${ORIGIN}/guide/b`, depth: 1 },
      { title: 'API', url: '', depth: 0 }, { title: 'E', url: `${ORIGIN}/api/e`, depth: 1 },
    ];
    const pages = ['/guide/a', '/guide/b', '/api/e', '/api/f'].map(page);
    const groups = groupByNav(pages, tree, 'Acorn');
    expect(groups?.map((g) => [g.name, g.pages.map((p) => p.finalUrl.slice(ORIGIN.length))])).toEqual([
      ['Guide', ['/guide/a', '/guide/b']],
      ['API', ['/api/e', '/api/f']],
    ]);
  });
});

describe('sections for pages the tree does not list', () => {
  const page = (path: string, links: string[] = []): SourcePage => ({ key: `${ORIGIN}${path}`, url: `${ORIGIN}${path}`, finalUrl: `${ORIGIN}${path}`, title: path, markdown: links.map((l) => `- [${l}](${ORIGIN}${l})`).join('\n'), depth: 1, format: 'html', state: 'stored' });
  const tree = [
    { title: 'Recipes', url: '', depth: 0 }, { title: 'X.509', url: `${ORIGIN}/x509/tutorial.html`, depth: 1 },
    { title: 'Hazmat', url: '', depth: 0 }, { title: 'Asymmetric', url: `${ORIGIN}/hazmat/asym/index.html`, depth: 1 },
  ];

  it('keeps a page in its folder\'s section when a page of another section links it first', () => {
    const pages = [page('/x509/tutorial.html', ['/hazmat/asym/rsa.html', '/x509/ocsp.html']), page('/hazmat/asym/index.html', ['/hazmat/asym/rsa.html']), page('/hazmat/asym/rsa.html'), page('/x509/ocsp.html')];
    const groups = groupByNav(pages, tree, 'Docs');
    expect(groups?.map((g) => [g.name, g.pages.map((p) => p.finalUrl.slice(ORIGIN.length))])).toEqual([
      ['Recipes', ['/x509/tutorial.html', '/x509/ocsp.html']],
      ['Hazmat', ['/hazmat/asym/index.html', '/hazmat/asym/rsa.html']],
    ]);
  });

  it('places the pages of a flat folder under the listed page whose links reach them, in its order', () => {
    const flat = [
      { title: 'I. Tutorial', url: `${ORIGIN}/tutorial.html`, depth: 0 }, { title: '1. Start', url: `${ORIGIN}/start.html`, depth: 1 },
      { title: 'II. Admin', url: `${ORIGIN}/admin.html`, depth: 0 }, { title: '2. Setup', url: `${ORIGIN}/setup.html`, depth: 1 },
    ];
    const pages = [page('/tutorial.html', ['/start.html', '/start-b.html', '/start-a.html']), page('/start.html', ['/start-b.html', '/start-a.html']), page('/admin.html'), page('/setup.html', ['/setup-a.html']), page('/setup-a.html'), page('/start-a.html'), page('/start-b.html')];
    const groups = groupByNav(pages, flat, 'Docs');
    expect(groups?.map((g) => [g.name, g.pages.map((p) => p.finalUrl.slice(ORIGIN.length))])).toEqual([
      ['I. Tutorial', ['/tutorial.html', '/start.html', '/start-b.html', '/start-a.html']],
      ['II. Admin', ['/admin.html', '/setup.html', '/setup-a.html']],
    ]);
  });
});

describe('merging the trees pages show', () => {
  const link = (title: string, depth: number, url = `${ORIGIN}/${title}`) => ({ title, url, depth });
  const label = (title: string, depth = 0) => ({ title, url: '', depth });

  it('completes a tree from pages that each open their own branch (collapsed categories)', () => {
    const onA = [link('intro', 0), label('Basics'), link('a1', 1), link('a2', 1), label('Advanced')];
    const onB = [link('intro', 0), label('Basics'), label('Advanced'), link('b1', 1)];
    const merged = mergeNav(onA, onB);
    expect(merged?.map((l) => `${l.depth}:${l.title}`)).toEqual(['0:intro', '0:Basics', '1:a1', '1:a2', '0:Advanced', '1:b1']);
    // The same tree again adds nothing.
    expect(mergeNav(merged ?? [], onB)).toBeNull();
  });

  it('leaves out a tree that is something else (a chapter’s own contents)', () => {
    const site = [label('Guide'), link('g1', 1), label('API'), link('x1', 1)];
    const chapter = [link('c1', 0), link('c2', 0), link('c3', 0)];
    expect(mergeNav(site, chapter)).toBeNull();
  });
});

describe('main content on a theme that marks nothing', () => {
  it('is the smallest block holding most of the prose, not a link-heavy sidebar', () => {
    const sidebar = `<div class="left">${Array.from({ length: 60 }, (_, i) => `<a href="/p${i}.html">Page number ${i} of the manual</a>`).join(' ')}</div>`;
    const prose = Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i} explains how the acorn store keeps its trees balanced and fast.</p>`).join('');
    const html = `<!doctype html><html><head><title>T</title></head><body><div class="wrap">${sidebar}<div class="right"><div class="crumbs"><a href="/">Home</a></div><div class="text"><h1>Balancing</h1>${prose}</div></div></div><div class="bottom">Hosted by nobody in particular.</div></body></html>`;
    const md = convertHtml(html, `${ORIGIN}/b.html`, linkedomAdapter).markdown;
    expect(md.startsWith('# Balancing\n\nParagraph 0')).toBe(true);
    expect(md).not.toContain('Page number');
    expect(md).not.toContain('Hosted by');
  });
});

describe('layout lists', () => {
  it('render the items of a list that holds headings as blocks (Javadoc’s blockList), real lists as lists', () => {
    const html = `<!doctype html><html><head><title>T</title></head><body><main><h1>Class Tree</h1><ul class="blockList"><li class="blockList"><h3>Method Summary</h3><p>All the methods of the class are listed here.</p></li><li class="blockList"><h3>Constructors</h3><ul><li>one</li><li>two</li></ul></li></ul></main></body></html>`;
    const md = convertHtml(html, `${ORIGIN}/t.html`, linkedomAdapter).markdown;
    expect(md).toBe('# Class Tree\n\n### Method Summary\n\nAll the methods of the class are listed here.\n\n### Constructors\n\n- one\n- two');
  });
});

describe('member tables (Doxygen)', () => {
  it('lift a heading row out as the table’s title and drop empty spacer rows', () => {
    const row = (a: string, b: string) => `<tr><td class="memItemLeft">${a}</td><td class="memItemRight">${b}</td></tr><tr class="separator"><td class="memSeparator" colspan="2">&#160;</td></tr>`;
    const html = `<!doctype html><html><head><title>T</title></head><body><div class="contents"><table class="memberdecls"><tr class="heading"><td colspan="2"><h2 class="groupheader">Macros</h2></td></tr>${row('#define', 'A_ONE 1')}${row('#define', 'A_TWO 2')}</table></div></body></html>`;
    expect(convertHtml(html, `${ORIGIN}/t.html`, linkedomAdapter).markdown).toBe('# Macros\n\n| #define | A_ONE 1 |\n| --- | --- |\n| #define | A_TWO 2 |');
  });
});

describe('code blocks', () => {
  it('VitePress: the printed language label goes, the fence keeps the language', () => {
    const html = `<!doctype html><html><head><title>T</title></head><body><div class="vp-doc"><h1>Install</h1><p>Run this in a terminal to install it.</p><div class="language-bash vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">bash</span><pre class="shiki"><code><span class="line"><span>npm install acorn</span></span></code></pre></div></div></body></html>`;
    expect(convertHtml(html, `${ORIGIN}/i.html`, linkedomAdapter).markdown).toBe('# Install\n\nRun this in a terminal to install it.\n\n```bash\nnpm install acorn\n```');
  });
});

describe('descriptions', () => {
  it('take the first paragraph when the meta description is cut short of it (Docusaurus)', () => {
    const para = 'The node:os module provides operating system-related utility methods and properties. It can be accessed using the require call.';
    const html = `<!doctype html><html><head><title>OS</title><meta name="description" content="The node:os module provides operating system-related utility methods and"></head><body><article><div class="theme-doc-markdown markdown"><h1>OS</h1><p>${para}</p></div></article></body></html>`;
    expect(convertHtml(html, `${ORIGIN}/os`, linkedomAdapter).description).toBe(para);
  });

  it('reject tab bars and lead-ins', () => {
    for (const weak of ['All Methods Static Methods Concrete Methods', 'A B C D E F G', 'In a new directory, create a file called README.rst with the following content.', 'Then follow the installation instructions to set it up.']) {
      expect(isWeakDescription(weak), weak).toBe(true);
    }
  });
});

describe('section names from the start page', () => {
  it('are the link texts the start page gives folder index pages, when they are names', () => {
    const start = { key: `${ORIGIN}/`, url: `${ORIGIN}/`, finalUrl: `${ORIGIN}/`, title: 'Home', depth: 0, format: 'html' as const, state: 'stored' as const,
      markdown: `# Acorn\n\n[Tutorial](${ORIGIN}/tutorial/index.html) · [Library Reference](${ORIGIN}/library/) · [here](${ORIGIN}/faq/) · [all "What's new" documents](${ORIGIN}/whatsnew/) · [/cli/index.html](${ORIGIN}/cli/index.html)` };
    const labels = startPageLabels(start);
    expect([...labels.values()]).toEqual(['Tutorial', 'Library Reference']);
  });
});

describe('a start page whose content is the table of contents', () => {
  it('gives the site tree from its headings over lists of pages (AsciiDoc man page, DocBook book), on the start page only', () => {
    const list = (names: string[]) => `<div class="dlist"><dl>${names.map((n) => `<dt><a href="${n}.html">${n}(1)</a></dt><dd><p>About ${n}.</p></dd>`).join('')}</dl></div>`;
    const html = `<!doctype html><html><head><title>git(1)</title></head><body><div id="content"><div class="sect1"><h2>DESCRIPTION</h2><div class="sectionbody"><p>Git is a fast, scalable, distributed revision control system with a rich command set.</p></div></div>` +
      `<div class="sect1"><h2>High-level commands</h2><div class="sectionbody">${list(['git-add', 'git-commit', 'git-log', 'git-push'])}</div></div>` +
      `<div class="sect1"><h2>Low-level commands</h2><div class="sectionbody">${list(['git-cat-file', 'git-hash-object', 'git-ls-tree', 'git-rev-parse'])}</div></div></div></body></html>`;
    const tree = (startPage: boolean) => convertHtml(html, `${ORIGIN}/git.html`, linkedomAdapter, { startPage }).navLinks.filter((l) => l.url === '').map((l) => l.title);
    expect(tree(true)).toEqual(['High-level commands', 'Low-level commands']);
    expect(tree(false)).toEqual([]);
  });
});

describe('sections from navigation with a lone landing page', () => {
  it('put the landing page at the head of the first section instead of a one-entry section named after the site', () => {
    const pg = (path: string, title: string): SourcePage => ({ key: `${ORIGIN}${path}`, url: `${ORIGIN}${path}`, finalUrl: `${ORIGIN}${path}`, title, markdown: `# ${title}\n\nAbout ${title} in several words here.`, depth: path === '/' ? 0 : 1, format: 'html', state: 'stored' });
    const pages = [pg('/', 'Acorn'), pg('/guide/a', 'A'), pg('/guide/b', 'B'), pg('/api/e', 'E')];
    const nav = [
      { title: 'Guide', url: '', depth: 0 }, { title: 'A', url: `${ORIGIN}/guide/a`, depth: 1 }, { title: 'B', url: `${ORIGIN}/guide/b`, depth: 1 },
      { title: 'API', url: '', depth: 0 }, { title: 'E', url: `${ORIGIN}/api/e`, depth: 1 },
    ];
    const out = generateOutputs({ startUrl: `${ORIGIN}/`, pages, nav, generatedAt: new Date(0) });
    expect(out.sections.map((s) => [s.name, s.entries.map((e) => e.title)])).toEqual([['Guide', ['Acorn', 'A', 'B']], ['API', ['E']]]);
  });
});
