import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';

// Pages shaped like the output of generator families the converter was never tuned on, written by
// hand after each one's real markup (tests/fixtures/generators/). Every rule they exercise is a
// general one; the inline cases below vary the shape so no rule rests on one theme's names.
const DIR = join(__dirname, '../fixtures/generators');
const fixture = (name: string, url: string) => convertHtml(readFileSync(join(DIR, name), 'utf8'), url, linkedomAdapter);
const convert = (html: string, url = 'https://docs.example.com/guide/page/') => convertHtml(html, url, linkedomAdapter);
const page = (body: string, head = '<title>Page</title>') => `<!doctype html><html lang="en"><head>${head}</head><body>${body}</body></html>`;
const PROSE = 'This paragraph is the body of the section and is long enough to be read as content by any rule.';
const headings = (markdown: string) => markdown.split('\n').filter((line) => /^#{1,6} /.test(line));
const fences = (markdown: string) => [...markdown.matchAll(/^```([\w+#.-]*)\n([\s\S]*?)\n```$/gm)].map((m) => ({ language: m[1], code: m[2] }));

describe('a heading is never dropped; its anchor decoration is', () => {
  it('keeps every heading of a Hugo theme with aria-hidden "#" anchors, in its full text', () => {
    const { markdown } = fixture('hugo.html', 'https://tally.example/docs/install/');
    expect(headings(markdown)).toEqual(['# Installing Tally', '## From a package', '## From source', '### Checking the build', '## Sidebar widget']);
    expect(markdown).not.toMatch(/\[#\]|#\]\(|^#+ .*#$/m);
    expect(markdown).toContain("The site's sidebar widget shows the latest release");
  });

  it('keeps Starlight headings and drops their anchor links and screen-reader labels', () => {
    const { markdown } = fixture('starlight.html', 'https://orbit.example/reference/path/');
    expect(headings(markdown)).toEqual(['# Path', '## Windows vs. POSIX', '### `path.basename(path[, suffix])`']);
    expect(markdown).not.toContain('Section titled');
  });

  it('keeps Docusaurus and MkDocs headings without their permalinks, and a section whose id sounds like chrome', () => {
    const docusaurus = fixture('docusaurus.html', 'https://tally.example/docs/counting').markdown;
    expect(headings(docusaurus)).toEqual(['# Counting records', '## Choosing a separator', '### Records in JSON1', '## Footnotes']);
    expect(docusaurus).not.toMatch(/\u200b|Direct link/);
    const mkdocs = fixture('mkdocs-material.html', 'https://tally.example/guide/scripting/').markdown;
    expect(headings(mkdocs)).toEqual(['# Running Tally from Python', '## Calling tally', '## Reading the counts', '## Cookies']);
    expect(mkdocs).toContain('keeps one cookie');
    expect(mkdocs).not.toContain('¶');
  });

  it.each([
    ['a "#" anchor before the text', '<h2 id="x"><a class="anchor" aria-hidden="true" href="#x">#</a>Install</h2>'],
    ['an aria-hidden "#" anchor with the full URL after the text', '<h2 id="x">Install <a class="hl" aria-hidden="true" href="https://docs.example.com/guide/page/#x">#</a></h2>'],
    ['a self-link holding the whole text', '<h2 id="x"><a class="header-anchor" href="#x">Install</a></h2>'],
    ['an aria-hidden self-link by path holding the whole text', '<h2 id="x"><a class="header-anchor" href="/guide/page/#x" aria-hidden="true">Install</a></h2>'],
    ['a permalink wrapped round the heading', '<a class="anchor" aria-hidden="true" href="#x"><h2 id="x">Install</h2></a>'],
    ['a chrome-sounding class on the heading', '<h2 id="x" class="heading-anchor sr-only">Install</h2>'],
    ['a chrome-sounding id on the heading', '<h2 id="sidebar">Install</h2>'],
    ['an icon link', '<h2 id="x"><a href="#x" class="icon-link"><svg aria-hidden="true"><path d="M0 0"/></svg></a>Install</h2>'],
    ['a pilcrow', '<h2 id="x">Install<a class="headerlink" href="#x">¶</a></h2>'],
    ['a link beside the heading', '<div class="hw"><h2 id="x">Install</h2><a class="al" href="#x"><span aria-hidden="true">#</span><span class="sr-only">Section titled Install</span></a></div>'],
    ['a wrapper named like a permalink', '<div class="heading-anchor-wrapper"><h2 id="x">Install</h2><a class="heading-anchor" href="#x">🔗</a></div>'],
  ])('keeps "## Install" with %s', (_name, heading) => {
    const { markdown } = convert(page(`<main><h1>Page</h1><p>${PROSE}</p>${heading}<p>${PROSE}</p><p>${PROSE}</p></main>`));
    expect(headings(markdown)).toEqual(['# Page', '## Install']);
    expect(markdown).not.toMatch(/Section titled|\]\(#|🔗|¶/);
  });

  it('keeps a heading whose only text is a symbol, and a card heading with its link', () => {
    const symbol = convert(page(`<main><h1>Paths</h1><p>${PROSE}</p><h3 id=""><a class="header" href="#"><code>::</code></a></h3><p>${PROSE}</p></main>`));
    expect(headings(symbol.markdown)).toEqual(['# Paths', '### `::`']);
    const card = convert(page(`<main><h1>Guides</h1><p>${PROSE}</p><a class="card" href="/guide/install/"><h3>Install</h3><p>Get Tally on your system.</p></a></main>`));
    expect(headings(card.markdown)).toEqual(['# Guides', '### [Install](https://docs.example.com/guide/install/)']);
    expect(card.markdown).toContain('Get Tally on your system.');
  });

  it('still removes chrome that holds headings: navigation, and a contents box of in-page links', () => {
    const { markdown } = convert(page(
      `<main><h1>Page</h1><nav><h2>Site</h2><a href="/a">A</a></nav><div class="toc"><h2>On this page</h2><a href="#s">S</a></div><p>${PROSE}</p><h2 id="s">Section</h2><p>${PROSE}</p></main>`,
    ));
    expect(headings(markdown)).toEqual(['# Page', '## Section']);
  });
});

describe('code blocks keep their lines and languages', () => {
  it('keeps every line of Expressive Code blocks (Starlight), blank lines and indents included', () => {
    const blocks = fences(fixture('starlight.html', 'https://orbit.example/reference/path/').markdown);
    expect(blocks).toEqual([
      { language: 'js', code: "const path = require('node:path');" },
      { language: 'js', code: String.raw`path.basename('C:\\temp\\myfile.html');
// Returns: 'C:\\temp\\myfile.html'

  path.win32.basename('C:\\temp\\myfile.html');
// Returns: 'myfile.html'` },
    ]);
  });

  it('keeps Prism lines (Docusaurus), Hugo line spans, and MkDocs languages written on wrappers, line numbers left out', () => {
    expect(fences(fixture('docusaurus.html', 'https://tally.example/docs/counting').markdown)).toEqual([
      { language: 'bash', code: "tally --records '---' notes.txt\ntally --records '\\n\\n' log.txt" },
    ]);
    expect(fences(fixture('hugo.html', 'https://tally.example/docs/install/').markdown)).toEqual([
      { language: '', code: 'sudo apt install tally' },
      { language: 'sh', code: 'git clone https://example.org/tally.git\ncd tally && make\nsudo make install' },
    ]);
    const mkdocs = fences(fixture('mkdocs-material.html', 'https://tally.example/guide/scripting/').markdown);
    expect(mkdocs.map((block) => block.language)).toEqual(['python', 'python']);
    expect(mkdocs[0]?.code?.split('\n')).toHaveLength(4);
    expect(mkdocs[1]?.code).toBe('counts = json.loads(out.stdout)\nprint(counts["words"])');
  });

  it.each([
    ['Shiki lines with newlines between them', '<pre class="shiki"><code><span class="line"><span>a = 1</span></span>\n<span class="line"></span>\n<span class="line"><span>b = 2</span></span></code></pre>', 'a = 1\n\nb = 2'],
    ['Shiki lines without newlines', '<pre class="shiki"><code><span class="line"><span>a = 1</span></span><span class="line"></span><span class="line"><span>b = 2</span></span></code></pre>', 'a = 1\n\nb = 2'],
    ['data-line spans', '<pre><code data-language="py"><span data-line="">a = 1</span><span data-line="">b = 2</span></code></pre>', 'a = 1\nb = 2'],
    ['block children', '<pre><code><div>a = 1</div><div>  b = 2</div><p>c = 3</p></code></pre>', 'a = 1\n  b = 2\nc = 3'],
    ['lines with their own newlines', '<pre><code><div class="ec-line">a = 1\n</div><div class="ec-line">b = 2\n</div></code></pre>', 'a = 1\nb = 2'],
  ])('splits %s into lines', (_name, block, code) => {
    const [fence] = fences(convert(page(`<main><h1>Code</h1><p>${PROSE}</p>${block}</main>`)).markdown);
    expect(fence?.code).toBe(code);
  });

  it('reads the language from data-language or data-lang on a wrapper, and not from the page around it', () => {
    const wrapped = convert(page(`<main><p>${PROSE}</p><div data-language="rust"><pre><code>fn main() {}</code></pre></div></main>`));
    expect(fences(wrapped.markdown)[0]?.language).toBe('rust');
    const lang = convert(page(`<main><p>${PROSE}</p><div class="code-frame" data-lang="toml"><div class="bar">Cargo.toml</div><pre>[package]</pre></div></main>`));
    expect(fences(lang.markdown)[0]?.language).toBe('toml');
    const around = convert(page(`<main class="language-ts"><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p><div><pre>plain text</pre></div><p>${PROSE}</p></main>`));
    expect(fences(around.markdown)[0]?.language).toBe('');
  });
});

describe('the page H1 set above the content container', () => {
  it('opens the Markdown (Starlight), the content keeping its own levels', () => {
    const { markdown } = fixture('starlight.html', 'https://orbit.example/reference/path/');
    expect(markdown.startsWith('# Path\n\nThe `path` module provides utilities')).toBe(true);
  });

  it('is not taken from a site banner, nor when several H1s come before the content', () => {
    const banner = convert(page(
      `<header class="site"><h1>Tally documentation</h1></header><div id="apicontent"><h2>File system</h2><p>${PROSE}</p><h3>Reading</h3><p>${PROSE}</p></div>`,
      '<title>File system | Tally</title>',
    ));
    expect(headings(banner.markdown)).toEqual(['# File system', '## Reading']);
    const two = convert(page(`<div><h1>One</h1></div><div><h1>Two</h1></div><article><h2>Body</h2><p>${PROSE}</p></article>`));
    expect(headings(two.markdown)).toEqual(['# Body']);
    const pageHeader = convert(page(
      `<div class="post-header"><h1>Release notes</h1></div><article><p>${PROSE}</p><h2>2.1</h2><p>${PROSE}</p></article>`,
      '<title>Release notes - Tally</title>',
    ));
    expect(headings(pageHeader.markdown)).toEqual(['# Release notes', '## 2.1']);
  });
});

describe('navigation bars at the top and bottom of the content are chrome', () => {
  it('drops the Texinfo node bar above and below a node, keeping its lead paragraph with a link and its menu', () => {
    const { markdown } = fixture('texinfo-node.html', 'https://tally.example/manual/Scanner-Options.html');
    expect(markdown).not.toMatch(/Next:|Previous:|Up:|\[Contents\]|\[Index\]/);
    expect(markdown.startsWith('# 3.2 Scanner Options\n\nSee [Input Files](https://tally.example/manual/Input-Files.html) for where Tally looks')).toBe(true);
    expect(markdown).toContain('- [Trace Options](https://tally.example/manual/Trace-Options.html)');
    expect(markdown.endsWith('- [Locale Options](https://tally.example/manual/Locale-Options.html)')).toBe(true);
  });

  it('keeps a menu page whose content is a short list of links', () => {
    const { markdown } = fixture('texinfo-menu.html', 'https://tally.example/manual/Indices.html');
    expect(markdown).toBe(
      '# Appendix B Indices\n\n- [Concept Index](https://tally.example/manual/Concept-Index.html)\n' +
        '- [Option Index](https://tally.example/manual/Option-Index.html)\n- [Variable Index](https://tally.example/manual/Variable-Index.html)',
    );
  });

  it.each([
    ['breadcrumbs', '<p><a href="/">Home</a> › <a href="/guide/">Guide</a> › Install</p>', ''],
    ['a previous / next row', '', '<div><a href="/guide/a/">« Previous</a> | <a href="/guide/">Contents</a> | <a href="/guide/c/">Next »</a></div>'],
    ['a labelled bar at both edges', '<div><p>Up: <a href="/guide/">Guide</a></p></div><hr>', '<hr><p>Next: <a href="/guide/c/">Configuring</a></p>'],
    // One link's text inside another's ("Debugging" in "Debugging Aids") leaves no word behind.
    ['a node bar whose links share words', '<div class="header"><p>Next: <a href="/guide/debugging-aids.html">Debugging Aids</a>, Previous: <a href="/guide/reductions.html">Reductions</a>, Up: <a href="/guide/debugging.html">Debugging</a> &nbsp; [<a href="/guide/index.html#SEC_Contents">Contents</a>][<a href="/guide/variable-index.html">Index</a>]</p></div><hr>', ''],
    // On the contents page itself, [Contents] links to its own #SEC_Contents.
    ['a node bar with a link to this same page', '<div class="header"><p>Next: <a href="/guide/intro.html">Introduction</a>, Previous: <a href="/dir/index.html">(dir)</a>, Up: <a href="/dir/index.html">(dir)</a> &nbsp; [<a href="#SEC_Contents">Contents</a>][<a href="/guide/index-page.html">Index</a>]</p></div><hr>', ''],
  ])('drops %s', (_name, top, bottom) => {
    const { markdown } = convert(page(`<main>${top}<h1>Install</h1><p>${PROSE}</p>${bottom}</main>`));
    expect(markdown).toBe(`# Install\n\n${PROSE}`);
  });

  it.each([
    ['a first paragraph that starts with a link', '<p><a href="/about/">Tally</a> is a small tool that counts words, lines and records.</p>'],
    ['a first paragraph that is one link', '<p>See <a href="/guide/install/">the installation guide</a>.</p>'],
    ['a note with a label', '<p>Note: see <a href="/guide/install/">Install</a>.</p>'],
    ['a single link to download', '<p><a href="/files/tally.pdf">Download the manual as PDF</a></p>'],
    ['a list of links', '<ul><li><a href="/guide/a/">Alpha</a></li><li><a href="/guide/b/">Beta</a></li></ul>'],
  ])('keeps %s at the edge', (_name, block) => {
    expect(convert(page(`<main>${block}<p>${PROSE}</p></main>`)).markdown.split('\n\n')).toHaveLength(2);
    expect(convert(page(`<main><p>${PROSE}</p>${block}</main>`)).markdown.split('\n\n')).toHaveLength(2);
  });

  it('keeps a bar-like paragraph that is all of the content', () => {
    const { markdown } = convert(page('<main><p><a href="/guide/a/">Alpha</a> · <a href="/guide/b/">Beta</a></p></main>'));
    expect(markdown).toBe('[Alpha](https://docs.example.com/guide/a/) · [Beta](https://docs.example.com/guide/b/)');
  });
});

describe('descriptions take the lead', () => {
  it('takes the lead that introduces a code block, without its introducing sentence', () => {
    expect(fixture('starlight.html', 'https://orbit.example/reference/path/').description).toBe(
      'The path module provides utilities for working with file and directory paths.',
    );
  });

  it('takes the lead over a meta description that only repeats the title (Texinfo)', () => {
    expect(fixture('texinfo-node.html', 'https://tally.example/manual/Scanner-Options.html').description).toBe(
      'See Input Files for where Tally looks for its input. The options below change how the scanner splits that input into words before it counts them.',
    );
  });

  it('reads a colon-ended lead with the list it introduces, and a lead with links whole', () => {
    const list = convert(page(`<main><h1>Input</h1><p>Tally reads three kinds of input, chosen with a flag on the command line:</p><ul><li>words;</li><li>lines;</li><li>records.</li></ul><p>${PROSE}</p></main>`));
    expect(list.description).toBe('Tally reads three kinds of input, chosen with a flag on the command line: words, lines, records');
    const linked = convert(page(`<main><h1>Tally</h1><p><a href="/about/">Tally</a> counts words, lines and records in <a href="/guide/files/">text files</a> of any size.</p><p>${PROSE}</p></main>`));
    expect(linked.description).toBe('Tally counts words, lines and records in text files of any size.');
  });

  it('still passes over labels and legal lines to the lead', () => {
    const { description } = convert(page(`<main><p>Copyright © 2026 The Tally authors. All rights reserved under the licence.</p><p>${PROSE}</p></main>`));
    expect(description).toBe(PROSE);
  });
});
