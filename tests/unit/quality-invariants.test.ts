import { describe, expect, it } from 'vitest';
import { edgeChrome, markdownBlocks } from '../../bench/quality/edge-chrome';
import { fencedBlocks, keptCounts, keptSummary } from '../../bench/quality/kept';
import { isTypeSignature, leadDescriptionQuality, leadWeakReason } from '../../bench/quality/lead-descriptions';
import { nestedNames, unnamedReason } from '../../bench/quality/nested-names';
import { pageFacts, pageH1, preLines, siteHeadings } from '../../bench/quality/page-facts';
import { sectionOrder } from '../../bench/quality/section-order';
import { titleAgrees, titleH1Agreement } from '../../bench/quality/title-h1';
import { linkedomAdapter } from '../../lib/convert/dom';

const parse = (body: string) => linkedomAdapter.parse(`<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`);

const PAGE = `
<nav><ul><li><a href="/a">Sidebar link</a></li></ul><h2>Navigation heading</h2></nav>
<main>
  <h1>Writing views</h1>
  <p>Views take a request and return a response.</p>
  <h2>Simple views <a class="headerlink" href="#simple">¶</a></h2>
  <p>Text of the first section.</p>
  <pre><span class="linenos">1</span>def view(request):
<span class="linenos">2</span>    return HttpResponse("ok")</pre>
  <table><tr><th>Name</th><th>Meaning</th></tr><tr><td>request</td><td>the incoming request</td></tr></table>
  <ul><li>First item of the list</li><li>Second item <ul><li>nested one</li></ul></li></ul>
  <dl><dt>view()</dt><dd><p>Renders a member of the module.</p></dd></dl>
  <div hidden><h3>Hidden heading</h3></div>
</main>`;

const GOOD_MD = `# Writing views

Views take a request and return a response.

## Simple views

\`\`\`python
def view(request):
    return HttpResponse("ok")
\`\`\`

| Name | Meaning |
| --- | --- |
| request | the incoming request |

- First item of the list
- Second item
  - nested one

view()

Renders a member of the module.
`;

describe('page facts: the main content as a reader sees it', () => {
  it('reads headings, code lines without their numbers, tables, list items, lead and member paragraphs', () => {
    const facts = pageFacts(parse(PAGE));
    expect(facts.h1Candidates).toEqual(['Writing views']);
    // Navigation and hidden headings are not content.
    expect(facts.headings).toEqual(['writing views', 'simple views']);
    expect(facts.codeBlocks).toEqual([['def view(request):', 'return HttpResponse("ok")']]);
    expect(facts.tables).toEqual([['name', 'meaning', 'request', 'the incoming request']]);
    expect(facts.listItems).toEqual(['first item of the list', 'second item', 'nested one']);
    expect(facts.lead).toEqual(['views take a request and return a response']);
    expect(facts.members).toEqual(['text of the first section', 'renders a member of the module']);
  });

  it('does not count a breadcrumb, a list that marks the page it is on, as list items', () => {
    const facts = pageFacts(parse('<main><ul class="crumbs"><li><a href="../">API</a></li><li><a href="" aria-current="page">ScanContext</a></li></ul><h1>Interface ScanContext</h1><p>Counts of one scan, read once the scan ends.</p><ul><li>Defined in src/index.d.ts:12</li></ul></main>'));
    expect(facts.listItems).toEqual(['defined in src index d ts 12']);
  });

  it('keeps a number that is code, and splits lines written as blocks', () => {
    const doc = parse('<pre>codes = {\n    <span class="mi">301</span>: "moved",\n    <span class="mi">302</span>: "found"\n}</pre><pre><div><span>5</span><br></div><div><span>&gt; 2 + 2</span><br></div></pre>');
    const [first, second] = [...doc.querySelectorAll('pre')];
    expect(preLines(first as Element)).toEqual(['codes = {', '301: "moved",', '302: "found"', '}']);
    expect(preLines(second as Element)).toEqual(['> 2 + 2']);
  });

  it('starts the sections one level below the top heading', () => {
    const facts = pageFacts(parse('<main><h2>18 Generating C++ Scanners</h2><p>The chapter lead paragraph.</p><h3>Options</h3><p>A section paragraph.</p></main>'));
    expect(facts.lead).toEqual(['the chapter lead paragraph']);
    const warned = pageFacts(parse('<main><div class="a"><p class="t">Danger</p><p>This module is for experts only and full of traps.</p></div><h1>Curves</h1><p>A paragraph of the page itself.</p><div><h2>Keys</h2><p>Section text.</p></div></main>'));
    expect(warned.lead).toEqual(['danger', 'a paragraph of the page itself']);
    expect(facts.members).toEqual(['a section paragraph']);
  });

  it('does not count a labelled note or byline as the page\'s lead', () => {
    const noted = pageFacts(parse('<main><h1>The Client Class</h1><p><em>Module author: Ann Example</em></p><div><p><span class="m">Changed in version 1.6: </span>The class moved to another package, so please add that package to your dependencies.</p></div><dl><dt id="C">class Client</dt><dd><p>The main class of the package, through which all calls go.</p></dd></dl></main>'));
    expect(noted.lead).toEqual([]);
    expect(pageFacts(parse('<main><h1>Client</h1><p>Client: the main class of the package.</p></main>')).lead).toEqual(['client the main class of the package']);
  });

  it('takes the H1 above the content container, else a first heading with no text before it', () => {
    expect(pageFacts(parse('<div><h1>Intro page</h1></div><main><p>Long enough text for a main.</p></main>')).h1Candidates).toEqual(['Intro page']);
    expect(pageFacts(parse('<header><h1>Site v18 documentation</h1></header><main><h2>File system</h2><p>text</p></main>')).h1Candidates).toEqual(['File system']);
    // A header inside the article or main content is the page's own (Docusaurus' `<article>…<header><h1>`), not the site's banner.
    expect(pageFacts(parse('<header><h1>Site</h1></header><main><article><div class="markdown"><header><h1>Modules: Packages</h1></header><h2>Introduction</h2><p>text</p></div></article></main>')).h1Candidates).toEqual(['Modules: Packages']);
    expect(pageFacts(parse('<div><section><header><h1>Streams</h1></header><p>text</p></section></div>')).h1Candidates).toEqual(['Streams']);
    expect(pageFacts(parse('<main><h2>18 Generating C++ Scanners</h2><p>text</p></main>')).h1Candidates).toEqual(['18 Generating C++ Scanners']);
    // A title written as plain text, then section headings: the page has no H1 to agree with.
    expect(pageFacts(parse('<main><div class="title">json_object.h File Reference</div><p>Core json-c API, with everything an object has and more words than ten.</p><h2>Macros</h2></main>')).h1Candidates).toEqual([]);
    expect(pageFacts(parse('<main><p>No heading here at all.</p></main>')).h1Candidates).toEqual([]);
    // An index's first letter is no title (Doxygen's "Data Fields - Variables" opens with "- a -").
    expect(pageFacts(parse('<main><div class="title">Data Fields - Variables</div><h3><a id="index_a"></a>- a -</h3><ul><li>array : array_list</li></ul></main>')).h1Candidates).toEqual([]);
  });

  it("reads a chapter's heading under a bar of links, and not a table's heading under a plain-text title", () => {
    // A Texinfo node: a "Next: …, Previous: …, Up: …" bar of more than ten words, most of them links.
    const bar = '<p>Next: <a href="b.html">Evaluation of Scheme Expressions</a>, Previous: <a href="a.html">Leaving the Edwin Editor</a>, Up: <a href="e.html">Edwin</a> [<a href="index.html">Contents</a>][<a href="i.html">Index</a>]</p>';
    expect(pageFacts(parse(`<div class="section">${bar}<hr><h3>8.3 Scheme Mode</h3><p>Scheme mode text.</p></div>`)).h1Candidates).toEqual(['8.3 Scheme Mode']);
    // The same number of words as plain text is the page's own text: its first heading is a section's.
    const plain = '<p>Next comes evaluation of scheme expressions, previously leaving the Edwin editor, up to Edwin contents and index.</p>';
    expect(pageFacts(parse(`<div class="section">${plain}<h3>Options</h3><p>text</p></div>`)).h1Candidates).toEqual([]);
    // A Doxygen directory page: its title is plain text, its first heading labels a table's rows.
    const doxygen = '<div class="header"><div class="title">build Directory Reference</div></div><div class="contents"><table><tr><td colspan="2"><h2>Files</h2></td></tr><tr><td>file</td><td><a href="json_8h.html">json.h</a></td></tr></table></div>';
    expect(pageFacts(parse(doxygen)).h1Candidates).toEqual([]);
    // A gtk-doc page: its title is a heading in a layout table's only row, under a bar of icon links.
    const gtkdoc = '<table class="navigation"><tr><td><a href="#">Top</a> | <a href="#d">Description</a></td><td><a href="index.html"><img alt="Home"></a></td></tr></table><div class="refentry"><table><tr><td><h2>Paths</h2><p>Paths — Creating paths and manipulating path data</p></td></tr></table><h2>Functions</h2></div>';
    expect(pageFacts(parse(gtkdoc)).h1Candidates).toEqual(['Paths']);
  });

  it("leaves the site's own title heading to the site", () => {
    const pages = Array.from({ length: 6 }, (_, i) => pageFacts(parse(`<div><h1>The Reference</h1></div><main><h1>Chapter ${i}</h1><p>text</p></main>`)).h1Candidates);
    const site = siteHeadings(pages);
    expect([...site]).toEqual(['The Reference']);
    expect(pageH1(pages[2] ?? [], site)).toBe('Chapter 2');
    expect(pageH1(['The Reference'], site)).toBeNull();
  });
});

describe('invariant 1: structure kept', () => {
  const facts = pageFacts(parse(PAGE));

  it('counts everything kept in a faithful conversion', () => {
    const kept = keptCounts(facts, GOOD_MD);
    expect(Object.values(kept).map((k) => [k.kept, k.total])).toEqual([[2, 2], [1, 1], [2, 2], [1, 1], [3, 3]]);
  });

  it('fails a heading made bold, code lines run together, a dropped table and a list made prose', () => {
    const bad = GOOD_MD.replace('## Simple views', '**Simple views**')
      .replace('def view(request):\n    return', 'def view(request):return')
      .replace(/\| Name[\s\S]*?response \|\n|\| Name[\s\S]*?request \|\n/, '')
      .replace('- First item of the list\n', 'First item of the list\n\n');
    const kept = keptCounts(facts, bad);
    expect(kept.headings).toMatchObject({ kept: 1, total: 2, lost: ['simple views'] });
    expect(kept.codeLines.kept).toBe(0);
    expect(kept.codeBlocks.kept).toBe(0);
    expect(kept.tables.kept).toBe(0);
    expect(kept.listItems.kept).toBe(2);
    const summary = keptSummary([{ url: 'a', kept }, { url: 'b', kept: keptCounts(facts, GOOD_MD) }]);
    expect(summary.headings.ratio).toBe(0.75);
    expect(summary.codeLines.worst.map((w) => w.url)).toEqual(['a']);
  });

  it('keeps a heading whose badge the Markdown sets apart, but not one cut short', () => {
    const badge = pageFacts(parse('<html><head><title>t</title></head><body><main><h1>Variable program<code>Const</code></h1><p>Text of the page.</p></main></body></html>'));
    expect(keptCounts(badge, '# Variable program `Const`\n\nText of the page.\n').headings).toMatchObject({ kept: 1, total: 1 });
    expect(keptCounts(badge, '# Variable program\n\nText of the page.\n').headings).toMatchObject({ kept: 0, total: 1 });
  });

  it('reads fences inside lists and blockquotes, and a ~~~ line inside a ``` fence as code', () => {
    const blocks = fencedBlocks('- item\n\n  ```sh\n  $ make\n  ```\n\n> ```\n> >>> 1 + 1\n> ```\n\n```\n"""\n~~~~~\n"""\n```\n');
    expect(blocks.map((b) => [...b])).toEqual([['$ make'], ['>>> 1 + 1'], ['"""', '~~~~~']]);
  });
});

describe('invariant 2: blocks repeated at the edges', () => {
  const pages = Array.from({ length: 8 }, (_, i) => ({ url: `p${i}`, markdown: `[Home](/) > [Guide](/g)\n\n# Page ${i}\n\nBody text ${i} is unique.\n\nSecond ${i}.\n\nShared middle paragraph.\n\nMore ${i}.\n\nMore again ${i}.\n\n© 2024 Example Corp` }));

  it('finds a breadcrumb on top and a footer at the bottom of most pages, not a repeated middle block', () => {
    const result = edgeChrome(pages);
    expect(result.blocks).toBe(2);
    expect(result.pages).toBe(8);
    expect(result.top.map((b) => b.where).sort()).toEqual(['bottom', 'top']);
    expect(markdownBlocks('a\n\n```\nx\n\ny\n```\n\nb')).toEqual(['a', 'b']);
  });

  it('leaves out a heading alone and what the page source holds', () => {
    const manPages = pages.map((p) => ({ ...p, markdown: `## SYNOPSIS\n\n${p.markdown}`, source: '[Home](/) > [Guide](/g)' }));
    const blocks = edgeChrome(manPages).top.map((b) => b.block);
    expect(blocks).toContain('© 2024 Example Corp');
    expect(blocks.filter((b) => b.includes('SYNOPSIS') || b.includes('Home'))).toEqual([]);
  });

  it('is clean when the pages are, or when only a minority repeats', () => {
    expect(edgeChrome(pages.map((p, i) => ({ ...p, markdown: `# Page ${i}\n\nBody ${i}.` }))).blocks).toBe(0);
    expect(edgeChrome(pages.map((p, i) => (i < 4 ? p : { ...p, markdown: `# Page ${i}\n\nBody ${i}.` }))).blocks).toBe(0);
  });

  it("leaves out a note on every page of one folder when enough of the site is outside it", () => {
    const site = [
      ...pages.map((_, i) => ({ url: `https://d.test/hazmat/p${i}.html`, markdown: `Danger: a module for experts only.\n\n# Page ${i}\n\nBody ${i}.` })),
      ...Array.from({ length: 6 }, (_, i) => ({ url: `https://d.test/guide/q${i}.html`, markdown: `# Guide ${i}\n\nBody ${i}.` })),
    ];
    expect(edgeChrome(site).blocks).toBe(0);
    expect(edgeChrome(site.map((p) => ({ ...p, url: p.url.replace('/guide/', '/hazmat/') }))).blocks).toBe(1);
  });
});

describe('invariant 3: title and H1', () => {
  it('agrees on containment or a close token F1', () => {
    expect(titleAgrees('Generating C++ Scanners', '18 Generating C++ Scanners')).toBe(true);
    expect(titleAgrees('os.path', 'os.path — Common pathname manipulations')).toBe(true);
    expect(titleAgrees('Writing your first views', 'Writing your first view')).toBe(false);
    expect(titleAgrees('Installing the npm package manager on Linux', 'Installing the npm package managers on Linux')).toBe(true);
  });

  it('disagrees for a node name or a member heading', () => {
    expect(titleAgrees('Cxx', '18 Generating C++ Scanners')).toBe(false);
    expect(titleAgrees('Settings', 'Class Connection')).toBe(false);
    const result = titleH1Agreement([
      { url: 'a', title: 'Cxx', h1: '18 Generating C++ Scanners' },
      { url: 'b', title: 'Intro', h1: 'Intro' },
      { url: 'c', title: 'Blank', h1: null },
      { url: 'd', title: 'Twin', h1: undefined },
    ]);
    expect(result).toMatchObject({ pages: 2, agree: 1, share: 0.5, noH1: 1 });
    expect(result.examples.map((e) => e.url)).toEqual(['a']);
  });
});

describe('invariant 4: descriptions from the lead', () => {
  const facts = { lead: ['views take a request and return a response'], members: ['renders a member of the module and returns it'] };

  it('flags the title echoed, the title plus the site name, a member, a signature', () => {
    expect(leadWeakReason('Writing views.', 'Writing views', ['Django'])).toBe('title-echo');
    expect(leadWeakReason('Cxx (Lexical Analysis With Flex manual)', 'Cxx', ['Lexical Analysis With Flex'])).toBe('title-and-site-name');
    expect(leadWeakReason('Renders a member of the module and returns it.', 'Writing views', [], facts)).toBe('member-text');
    expect(leadWeakReason('public static Document parse(String html, String baseUri)', 'Jsoup', [])).toBe('type-signature');
    expect(leadWeakReason('connect(url: string): Connection', 'Jsoup', [])).toBe('type-signature');
  });

  it('passes the lead, a meta description and prose with parentheses', () => {
    expect(leadWeakReason('Views take a request and return a response.', 'Writing views', ['Django'], facts)).toBeNull();
    expect(leadWeakReason('How Django answers requests, in short.', 'Writing views', ['Django'], facts)).toBeNull();
    // No lead of its own: the first member's text is the best the page has.
    expect(leadWeakReason('Renders a member of the module and returns it.', 'Writing views', [], { lead: [], members: facts.members })).toBeNull();
    expect(isTypeSignature('Returns the value of x (if any).')).toBe(false);
    expect(isTypeSignature('Returns the value of x (if any)')).toBe(false);
    const result = leadDescriptionQuality([
      { title: 'A', url: 'a', description: 'A', optional: false },
      { title: 'B', url: 'b', description: 'B', optional: true },
      { title: 'C', url: 'c', optional: false },
    ], []);
    expect(result).toMatchObject({ checked: 1, weak: 1, byReason: { 'title-echo': 1 } });
  });
});

describe('invariant 6: section order', () => {
  it('scores the share of pairs in the navigation order over the sections both have', () => {
    const nav = ['Tutorial', 'Library Reference', 'Language Reference', 'FAQs'];
    expect(sectionOrder(['Tutorial', 'Library Reference', 'Extra', 'FAQs'], nav).score).toBe(1);
    const alphabetical = sectionOrder(['FAQs', 'Language Reference', 'Library Reference', 'Tutorial'], nav);
    expect(alphabetical.score).toBe(0);
    expect(sectionOrder(['Library Reference', 'Tutorial', 'Language Reference', 'FAQs'], nav).score).toBeCloseTo(5 / 6);
    expect(alphabetical.inversions[0]).toBe('“FAQs” before “Language Reference”');
    expect(sectionOrder(['Tutorial'], nav).score).toBeNull();
  });
});

describe('invariant 7: nested files named', () => {
  it('flags part-N and generic names, in file titles and groups', () => {
    expect(unnamedReason('Docs (part 1 of 4)')).toBe('part');
    expect(unnamedReason('Part 2 of 3')).toBe('part');
    expect(unnamedReason('Docs')).toBe('generic');
    expect(unnamedReason('Part VI. Reference')).toBeNull();
    const result = nestedNames([
      { path: '/llms.txt', title: 'Site', depth: 0, text: '# Site\n\n## Docs (part 1 of 2)\n\n- [a](a)\n\n## Optional\n' },
      { path: '/library/llms.txt', title: 'Library Reference', depth: 1, text: '# Library Reference\n\n## Built-in Types\n' },
      { path: '/docs/part-2/llms.txt', title: 'Reference', depth: 1, text: '# x\n' },
      { path: '/more/llms.txt', title: 'More', depth: 1, text: '# More\n\n## Docs\n' },
    ]);
    expect(result.files).toBe(3);
    expect(result.unnamed).toBe(3);
    expect(result.examples.map((e) => `${e.where}:${e.reason}`)).toEqual(['group:part', 'file:part', 'file:generic']);
  });
});

describe('page facts: what is not counted', () => {
  it('leaves out an in-page table of contents, and keeps numbers that do not count up', () => {
    const facts = pageFacts(parse('<main><h1>Parsers</h1><ul><li><a href="#a">Re-exports</a></li><li><a href="#b">Data types</a><ul><li><a href="#c">Sub</a></li></ul></li></ul><ul><li><a href="other.html">Another page</a></li></ul><pre><span>2016</span>-09-15 opened\n<span>2016</span>-09-15 closed</pre></main>'));
    expect(facts.listItems).toEqual(['another page']);
    expect(facts.codeBlocks).toEqual([['2016-09-15 opened', '2016-09-15 closed']]);
  });
});
