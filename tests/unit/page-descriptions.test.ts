import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';
import { isWeakDescription } from '@/lib/convert/page-text';
import { markdownDescription } from '@/lib/crawl/markdown-meta';
import { generateOutputs } from '@/lib/generate/generate';
import type { SourcePage } from '@/lib/generate/types';

// A description is the page's lead: never a member's text, a signature, or the title said again.
const TEXINFO = readFileSync(join(__dirname, '../fixtures/generators/texinfo-node.html'), 'utf8');
const ORIGIN = 'https://tally.example/manual';

function texinfoNode(node: string, file: string): SourcePage {
  const html = TEXINFO.replaceAll('Scanner Options (Tally Manual)', `${node} (Tally Manual)`);
  const url = `${ORIGIN}/${file}`;
  const page = convertHtml(html, url, linkedomAdapter);
  return { key: url, url, finalUrl: url, title: page.title, description: page.description, markdown: page.markdown, depth: 1, format: 'html', state: 'stored' };
}

// Haddock's shape: a module header, then each member as a definition line and its documentation.
const SIGNATURE = '<p class="src"><a id="v:newline" class="def">newline</a> :: (<a href="Text-Parser.html#t:MonadParser">MonadParser</a> e s m, <a href="Text-Stream.html#t:Token">Token</a> s ~ <a href="Data-Char.html#t:Char">Char</a>) =&gt; m (<a href="Text-Stream.html#t:Token">Token</a> s) <a href="src/Text.Parser.Char.html#newline" class="link">Source</a> <a href="#v:newline" class="selflink">#</a></p>';
const MEMBER_DOC = '<div class="doc"><p>Parse a newline character, and return it as the token the stream holds for it, whatever the stream.</p></div>';
const haddock = (description: string, definition = SIGNATURE) =>
  `<!doctype html><html><head><title>Text.Parser.Char</title></head><body><div id="content"><div id="module-header"><p class="caption">Text.Parser.Char</p></div>${description}` +
  `<div id="interface"><h1>Documentation</h1><div class="top">${definition}${MEMBER_DOC}</div></div></div></body></html>`;
const describe_ = (html: string) => convertHtml(html, 'https://hackage.example/Text-Parser-Char.html', linkedomAdapter).description;

describe('descriptions come from the page lead, never a member or a signature', () => {
  it('takes the module description before its members', () => {
    expect(describe_(haddock('<div id="description"><p class="caption">Description</p><div class="doc"><p>Commonly used character parsers, for streams of characters of any kind and size.</p></div></div>')))
      .toBe('Commonly used character parsers, for streams of characters of any kind and size.');
  });

  it('gives none rather than a signature or the member after it', () => {
    expect(describe_(haddock(''))).toBeUndefined();
  });

  it('gives none rather than the text after a definition line with its own anchor', () => {
    const bare = '<p class="src"><a id="v:newline" class="def">newline</a> <a href="src/Text.Parser.Char.html#newline" class="link">Source</a> <a href="#v:newline" class="selflink">#</a></p>';
    expect(describe_(haddock('<div class="doc"><p>Debugging helpers.</p></div>', bare))).toBeUndefined();
  });

  it('still takes prose whose words are links, and a Markdown lead before a signature only', () => {
    const linked = '<main><h1>Input</h1><p>See <a href="/a">Input Files</a> for where <a href="/t">Tally</a> looks (and why) before it counts the <a href="/w">words</a> of a file.</p></main>';
    expect(convertHtml(linked, 'https://tally.example/input.html', linkedomAdapter).description).toBe('See Input Files for where Tally looks (and why) before it counts the words of a file.');
    const signature = 'newline :: ([MonadParser](https://h.example/P.html#t:M) e s m, [Token](https://h.example/S.html#t:T) s ~ [Char](https://h.example/C.html#t:C)) => m ([Token](https://h.example/S.html#t:T) s) [Source](https://h.example/src/P.html)';
    expect(markdownDescription(`# Text.Parser.Char\n\n${signature}\n\nParse a newline character, and return it as the token the stream holds for it.`)).toBeUndefined();
    expect(markdownDescription(`# Tally\n\nTally counts words, lines and records (of any size) in files.\n\n${signature}`)).toBe('Tally counts words, lines and records (of any size) in files.');
    const bar = 'Next: [Introduction](https://t.example/Introduction.html), Previous: [(dir)](https://t.example/dir/), Up: [(dir)](https://t.example/dir/)';
    expect(markdownDescription(`${bar}\n\n# Tally\n\nThis manual documents the use of Tally 1.2.`)).toBe('This manual documents the use of Tally 1.2.');
    expect(markdownDescription('class [Chunk](https://h.example/#t:Chunk) chunk where [Source](https://h.example/src/C.html)\n\nData types that can be converted to numbers of either byte order.')).not.toMatch(/^class/);
  });

  it('never takes a description that only repeats the title and the manual\'s name', () => {
    const page = texinfoNode('Cxx', 'Cxx.html');
    const echo = { ...page, description: 'Cxx - Tally manual' };
    const { sections } = generateOutputs({ startUrl: `${ORIGIN}/Cxx.html`, pages: [echo], generatedAt: new Date('2026-11-26T00:00:00Z'), docsName: 'Tally' });
    expect(sections[0]?.entries[0]?.description).toMatch(/^See Input Files for where Tally looks for its input\./);
  });

  it('takes a short module description before the members, with what the module holds when it is too short alone', () => {
    expect(describe_(haddock('<div id="description"><p class="caption">Description</p><div class="doc"><p>Commonly used binary parsers.</p><p><em>Since: 6.0.0</em></p></div></div>')))
      .toBe('Commonly used binary parsers.');
    const synopsis = '<div id="synopsis"><details><summary>Synopsis</summary><ul><li class="src short"><a href="#v:dbg">dbg</a> :: String -&gt; m a</li><li class="src short"><a href="#v:dbg-39-">dbg\'</a> :: String -&gt; m a</li></ul></details></div>';
    expect(describe_(haddock(`<div id="description"><div class="doc"><p>Debugging helpers.</p></div></div>${synopsis}`))).toBe("Debugging helpers. Covers: dbg, dbg'.");
    // A label is no sentence, and no short lead either.
    expect(describe_(haddock('<div class="doc"><p>Since: 6.0.0.</p></div>'))).toBeUndefined();
  });
});

describe('a description counts words, not marks', () => {
  it('is weak when under four words once punctuation standing alone is left out', () => {
    expect(isWeakDescription('About Ends in .')).toBe(true);
    expect(isWeakDescription('Parse — a — string.')).toBe(true);
    expect(isWeakDescription('Reads a file quickly.')).toBe(false);
    expect(isWeakDescription('Reads a file — quickly.')).toBe(false);
  });
});

describe('pages whose content opens with no lead paragraph', () => {
  const page = (content: string) => convertHtml(`<!doctype html><html><head><title>Page</title></head><body><main>${content}</main></body></html>`, 'https://tally.example/manual/page.html', linkedomAdapter).description;

  it('describes a chapter page that is only its contents by what it covers', () => {
    const toc = '<h2>4 Compiling Programs</h2><ul class="section-toc"><li><a href="Procedures.html">Compilation Procedures</a></li><li><a href="Declarations.html">Declarations</a></li><li><a href="Tips.html">Efficiency Tips</a></li></ul>';
    expect(page(toc)).toBe('Covers: Compilation Procedures, Declarations, Efficiency Tips.');
    // Prose after the contents is the lead.
    expect(page(`${toc}<p>This chapter describes how to compile programs, and how to make them run fast.</p>`)).toBe('This chapter describes how to compile programs, and how to make them run fast.');
  });

  it('reads a contents given as a definition list of linked terms, without their numbers', () => {
    const toc = '<div class="toc"><p><strong>Table of Contents</strong></p><dl class="toc"><dt><span class="section"><a href="ar01s01.html">1. Introduction</a></span></dt><dt><span class="section"><a href="ar01s02.html">2. Overview</a></span></dt><dd><dl><dt><span class="section"><a href="ar01s02.html#_description">2.1. Description</a></span></dt></dl></dd><dt><span class="appendix"><a href="apa.html">A. Glossary</a></span></dt></dl></div>';
    expect(page(`<h1>Tally User Manual</h1>${toc}`)).toBe('Covers: Introduction, Overview, Glossary.');
  });

  it('names an index by its entries, not by its alphabet bar or numbered sub-entries', () => {
    const letters = ['A', 'B', 'C', 'All'].map((l) => `<li><a href="index-${l}.html">${l}</a></li>`).join('');
    const rows = [['accHints', 'Internal'], ['alphaNumChar', ''], ['1 (Function)', 'Char'], ['2 (Function)', 'Byte'], ['anySingle', 'Parser']]
      .map(([term, where]) => `<tr><td class="src">${term}</td><td>${where ? `<a href="${where}.html#v:${term}">${where}</a>` : '&nbsp;'}</td></tr>`).join('');
    expect(page(`<ul>${letters}</ul><div id="index"><p class="caption">Index - A</p><table>${rows}</table></div>`)).toBe('Covers: accHints, alphaNumChar, anySingle.');
    // An alphabet bar alone names nothing.
    expect(page(`<ul>${letters}</ul>`)).toBeUndefined();
  });

  it('takes a short sentence when it is all the prose there is, and a changelog\'s first item', () => {
    expect(page('<h2>D. Hardware Compatibility List</h2><p>Refer to the <a href="https://x.example/hcl.html">online HCL</a>.</p>')).toBe('Refer to the online HCL.');
    const changes = '<h2>I.6. Changes from 2.6.4 to 2.6.5</h2><div class="itemizedlist"><ul><li>users are encouraged to update to 2.6.5, to fix a regression in the scheduler.</li><li>The old driver has been replaced by a new implementation.</li></ul></div>';
    expect(page(changes)).toBe('users are encouraged to update to 2.6.5, to fix a regression in the scheduler.');
  });

  it('reads a sentence an example broke as one, never from its middle', () => {
    const broken = '<h2>2.1 Basics of Starting</h2><p>Under unix, Tally is invoked by typing</p><div class="example"><pre class="example">tally\n</pre></div><p>at your shell prompt.  Tally will count its input and print something like this:</p><pre>words 12\nlines 3\n</pre><p>This information, which can be printed again by running</p><pre>tally --version\n</pre><p>tells you the following version information.  The release number is changed each time a new version is released.</p>';
    expect(page(broken)).toBe('Under unix, Tally is invoked by typing tally at your shell prompt.');
    // A colon before the example, and the sentence goes on after it ("to the shell."): one sentence still.
    const colon = '<h2>2.1 Basics of Starting</h2><p>Putting its folder on your search path makes it possible to start Tally by typing the command:</p><pre>tally\n</pre><p>to the shell. Other places are possible; check with your system administrator.</p>';
    expect(page(colon)).toBe('Putting its folder on your search path makes it possible to start Tally by typing the command: tally to the shell. Other places are possible; check with your system administrator.');
  });

  it('leaves footnote marks out of a description, whatever marks them', () => {
    const lead = 'Tally counts the words, lines and records of its input, and prints each count on a line';
    // Sphinx: a bracketed reference with the DPUB role, spaced on both sides of it.
    expect(page(`<p>${lead} <a class="footnote-reference brackets" href="#id2" role="doc-noteref"><span class="fn-bracket">[</span>1<span class="fn-bracket">]</span></a> (see below).</p>`)).toBe(`${lead} (see below).`);
    // mdBook: a superscript link with a footnote-reference class, right after the word.
    expect(page(`<p>${lead} of its own.<sup class="footnote-reference"><a href="#counts">1</a></sup> It reads any input.</p>`)).toBe(`${lead} of its own. It reads any input.`);
    // A bare superscript link to this page is a mark too; a superscript of a power is text.
    expect(page(`<p>${lead} of its own<sup><a href="#n2">2</a></sup>, up to 10<sup>6</sup> lines.</p>`)).toBe(`${lead} of its own, up to 106 lines.`);
  });

  it('takes a lower-case name after a finished sentence and an example as a lead', () => {
    const named = '<h2>Overview</h2><p>Are you tired of writing docstrings that look like this:</p><pre>:param path: the path\n:type path: str\n</pre><p>reStructuredText is great, but it creates visually dense, hard to read docstrings.</p>';
    expect(page(named)).toBe('reStructuredText is great, but it creates visually dense, hard to read docstrings.');
  });

  it('prefers a paragraph that reads alone to a lead read with its example', () => {
    expect(page('<h2>Field lists</h2><p>As previously discussed, field lists are sequences of fields marked up like this:</p><pre>:fieldname: Field content\n</pre><p>Sphinx extends the standard behaviour of field lists and adds some functionality covered here.</p>'))
      .toBe('Sphinx extends the standard behaviour of field lists and adds some functionality covered here.');
  });

  it('never takes a member\'s table as the contents of a page that opens with the member', () => {
    const rows = ['text', 'username', 'id'].map((name) => `<tr><td>${name}</td><td>The ${name} of the comment.</td></tr>`).join('');
    expect(page(`<dl class="py class"><dt id="WebSupport">class WebSupport</dt><dd><p>The main API class for the web support package, through which all goes.</p><table>${rows}</table></dd></dl>`)).toBeUndefined();
  });

  it('reads a short lead that introduces a list, or the sections below it, with their names', () => {
    expect(page('<h1>Keywords</h1><p>Tally divides keywords into three kinds:</p><ul><li><a href="#strict">strict</a></li><li><a href="#reserved">reserved</a></li><li><a href="#weak">weak</a></li></ul><h2 id="strict">Strict keywords</h2><p>These keywords can only be used in their correct contexts, never as names of items.</p>'))
      .toBe('Tally divides keywords into three kinds: strict, reserved, weak');
    const section = (name: string, text: string) => `<section><h2>${name}<a class="headerlink" href="#x">¶</a></h2><p>${text}</p></section>`;
    expect(page(`<h1>Support</h1><p>If you have questions or issues about Tally, there are several options:</p>${section('Stack Overflow', 'If your question can be properly anonymized, please ask it on the questions site with our tag.')}${section('File an Issue', 'If you notice some unexpected behaviour in Tally, file an issue on the tracker.')}`))
      .toBe('If you have questions or issues about Tally, there are several options: Stack Overflow, File an Issue');
    // The title in the article's own header: the first section still ends a lead that reads alone.
    expect(page('<article><header><h1>Web Streams</h1></header><p>An implementation of the Streams Standard.</p><h2>Overview</h2><p>The Streams Standard defines an API for handling streaming data in many environments.</p></article>'))
      .toBe('An implementation of the Streams Standard.');
    // A paragraph that reads alone before the first section says more than a short lead with its list.
    expect(page('<h1>Welcome</h1><p>Here are Tally\'s major features:</p><ul><li>Counts: words and lines</li><li>Speed: one pass</li></ul><p>Tally reads its input once and prints each count on a line of its own.</p><h2>Start</h2><p>Install it first, then run it on any file you like.</p>'))
      .toBe('Tally reads its input once and prints each count on a line of its own.');
    // Read with a definition list, such a short lead would name a member, not the page.
    expect(page('<h1>Todo</h1><h2>Events</h2><p>Tally provides the following event:</p><dl><dt id="e">todo-defined(app, node)</dt><dd><p>Emitted when a todo is defined, with the node that holds it.</p></dd></dl>')).toBeUndefined();
  });

  it('reads a lead that introduces a one-line example or a definition list with it', () => {
    expect(page('<h2>8.1 Starting the editor</h2><p>To use the editor, start Tally with the following command-line options:</p><div class="example"><pre class="example">tally --edit\n</pre></div><p>More text follows here.</p>'))
      .toBe('To use the editor, start Tally with the following command-line options: tally --edit');
    expect(page('<h4>3.1.3 Restarting</h4><p>Another way to exit a loop is to use the restart procedure:</p><dl class="def"><dt id="index-restart"><span class="category">procedure: </span><strong>restart</strong> <em>[k]</em></dt><dd><p>This procedure selects and invokes a restart method, as the list printed says.</p></dd></dl>'))
      .toBe('Another way to exit a loop is to use the restart procedure: restart [k]');
    expect(page('<h2>Leaving</h2><p>Once the editor has been entered, it can be exited in the following ways:</p><dl><dt><kbd>C-x z</kbd></dt><dd><p>Stop the editor and return to Tally, to resume it later where it was.</p></dd><dt><kbd>C-x c</kbd></dt><dd><p>Kill it.</p></dd></dl>'))
      .toBe('Once the editor has been entered, it can be exited in the following ways: C-x z, C-x c');
  });

  it('ends a long lead at a sentence rather than in the middle of one', () => {
    const first = 'Tally counts the words, lines and records of its input, and prints each count on a line of its own, in the order asked for on its command line.';
    const second = 'It reads files named on the command line or, when there are none, its standard input, and it reads input of any size.';
    const description = page(`<p>${first} ${second} ${first}</p>`) ?? '';
    expect(description).toBe(`${first} ${second}`);
  });

  it('does the same for a page that arrived as Markdown', () => {
    const broken = '# Basics of Starting\n\nUnder unix, Tally is invoked by typing\n\n```\ntally\n```\n\nat your shell prompt, and it counts its input and prints what it counted.\n\n```\ntally --version\n```\n\ntells you the following version information, which changes with each release.\n\nEach release is numbered by the year and the month it was made in, and by nothing else.';
    expect(markdownDescription(broken)).toBe('Each release is numbered by the year and the month it was made in, and by nothing else.');
    const chapter = '# 4 Compiling Programs\n\n- [Compilation Procedures](Procedures.html)\n- [Declarations](Declarations.html)\n- [Efficiency Tips](Tips.html)';
    expect(markdownDescription(chapter)).toBe('Covers: Compilation Procedures, Declarations, Efficiency Tips.');
    expect(markdownDescription(`${chapter}\n\nThis chapter describes how to compile programs, and how to make them run fast.`)).toBe('This chapter describes how to compile programs, and how to make them run fast.');
    const first = 'Tally counts the words, lines and records of its input, and prints each count on a line of its own, in the order asked for on its command line.';
    const second = 'It reads files named on the command line or, when there are none, its standard input, and it reads input of any size.';
    expect(markdownDescription(`# Tally\n\n${first} ${second} ${first}`)).toBe(`${first} ${second}`);
    // An alphabet bar names nothing.
    expect(markdownDescription('# Index\n\n- [A](index-A.html)\n- [B](index-B.html)\n- [All](index-All.html)')).toBeUndefined();
  });
});

// TypeDoc's shape for a page without a doc comment of its own: the declaration, the index of its
// members (a row of links to places on the page), then each member with its own text.
describe('a page that opens with its declaration and its index of members', () => {
  const index = (names: string[]) => names.map((name) => `<a href="#${name.toLowerCase()}" class="tsd-index-link"><span>${name}</span></a>`).join('\n');
  const member = (name: string, text: string) => `<section class="tsd-member"><h3 id="${name.toLowerCase()}">${name}</h3><div class="tsd-signature">${name}: string</div><div class="tsd-comment"><p>${text}</p></div></section>`;
  const typedocPage = (signature: string, names: string[]) =>
    `<!doctype html><html><head><title>Tally | tally</title></head><body><div class="col-content"><div class="tsd-page-title"><h1>Class ScanError</h1></div>${signature}<section class="tsd-index-section"><h3>Properties</h3><div class="tsd-index-list">${index(names)}</div></section><h2>Properties</h2>${names.map((name) => member(name, `The ${name} property says which part of the scan failed, and why it stopped before the end of the file.`)).join('')}</div></body></html>`;

  it('never takes a member\'s text for the page\'s lead', () => {
    const page = convertHtml(typedocPage('', ['Code', 'Message', 'Line']), 'https://tally.example/api/classes/ScanError.html', linkedomAdapter);
    expect(page.description).toBe('Covers: Code, Message, Line (Properties).');
  });

  it('is described by its members in the Markdown: the index after the declaration, never the declaration', () => {
    const url = 'https://tally.example/api/interfaces/ScanOptions.html';
    expect(markdownDescription(`# Interface ScanOptions\n\ninterface ScanOptions {  \n    [encoding](${url}#encoding)?: string;  \n    [limit](${url}#limit)?: number;  \n}\n\n- Defined in [src/index.d.ts:12](https://git.example/src/index.d.ts#L12)\n\n##### Index\n\n### Properties\n\n[encoding?](${url}#encoding) [limit?](${url}#limit)\n\n## Properties\n\n### encoding\n\nThe text encoding the scanner reads its input with when none is named by the file.\n`)).toBe('Covers: encoding?, limit? (Properties).');
    expect(markdownDescription(`# Interface ScanContext\n\ninterface ScanContext {  \n    [file](${url}#file): string;  \n}\n\n### Properties\n\n[file](${url}#file)\n`)).toBe('Covers: file (Properties).');
  });

  it('skips a one-line call or union declaration, and a row of badges is not an index', () => {
    expect(markdownDescription('# Function createScanner\n\ncreateScanner(name: string, description?: string): [Scanner](https://tally.example/api/Scanner.html)\n\nCreates a scanner that counts the words of every file it is handed, one file at a time.\n')).toBe('Creates a scanner that counts the words of every file it is handed, one file at a time.');
    expect(markdownDescription('# Type Alias Source\n\nSource: | LiteralUnion<"default" | "config" | "env", string> | undefined\n')).toBeUndefined();
    expect(markdownDescription('# Tally\n\n[Build Status](https://ci.example/tally) [NPM Version](https://npm.example/tally)\n\nTally counts the words, lines and bytes of files, fast, and reports them per file and in total.\n')).toBe('Tally counts the words, lines and bytes of files, fast, and reports them per file and in total.');
  });
});

// Doxygen's shape: the page's brief, closed by a link to its own details further down, then the
// details; a struct without a brief opens with a table of its fields (the type, then the field's
// name linking to its place below) under a group's label; the footer repeats on every page.
describe('a reference page that points to its own details, or opens with its members', () => {
  const doxygenPage = (title: string, contents: string) =>
    `<!doctype html><html><head><title>tally: ${title}</title></head><body><div class="header"><div class="headertitle"><div class="title">${title}</div></div></div>` +
    `<div class="contents">${contents}</div><hr class="footer"/><address class="footer"><small>Generated on Sun Oct 2 2022 for tally by <a href="https://gen.example/">gen</a> 1.9.4</small></address></body></html>`;
  const url = 'https://tally.example/api/scanner_8h.html';

  it('leaves the trailing link to the page\'s own details out of the lead, and takes a short brief', () => {
    const html = doxygenPage('scanner.h File Reference', '<p>Core tally API. Start here, or with options.h. <a href="#details">More...</a></p><h2 id="details">Detailed Description</h2><div class="textblock"><p>Core tally API. Start here, or with options.h.</p></div>' +
      '<h2>Function Documentation</h2><div class="memdoc"><p>Scans every file it is handed, one at a time, and counts the words, lines and bytes of each one.</p></div>');
    expect(convertHtml(html, url, linkedomAdapter).description).toBe('Core tally API. Start here, or with options.h.');
  });

  it('keeps an in-page link that is part of the lead\'s last sentence', () => {
    const html = doxygenPage('Scanning', '<p>The scanner reads its input in blocks and counts as it goes; for the flags it takes see <a href="#options">Options</a></p><h2 id="options">Options</h2><p>x</p>');
    expect(convertHtml(html, url, linkedomAdapter).description).toBe('The scanner reads its input in blocks and counts as it goes; for the flags it takes see Options');
  });

  it('names a table of the page\'s own fields by their names, not by their types or the group label', () => {
    const row = (type: string, name: string) => `<tr><td class="memItemLeft">${type}&#160;</td><td class="memItemRight"><a class="el" href="struct_scan.html#a${name}">${name}</a></td></tr><tr><td class="memSeparator" colspan="2">&#160;</td></tr>`;
    const html = doxygenPage('scan Struct Reference', `<p><code>#include &lt;scanner.h&gt;</code></p><table class="memberdecls"><tr class="heading"><td colspan="2"><h2><a id="pub-attribs"></a>Data Fields</h2></td></tr>${row('void **', 'blocks')}${row('size_t', 'length')}${row('<a href="scanner_8h.html#free">scan_free_fn</a> *', 'free_fn')}</table>` +
      '<h2>Field Documentation</h2><table class="memname"><tr><td class="memname">void** scan::blocks</td></tr></table>');
    expect(convertHtml(html, 'https://tally.example/api/struct_scan.html', linkedomAdapter).description).toBe('Covers: blocks, length, free_fn.');
  });

  it('never takes a block the site repeats on several pages (a footer kept on a few) as a description', () => {
    const footer = 'Generated on Sun Oct 2 2022 23:26:06 for tally by [![gen](https://tally.example/api/gen.svg)](https://gen.example/index.html) 1.9.4';
    const at = (file: string, markdown: string, description?: string): SourcePage => {
      const pageUrl = `https://tally.example/api/${file}`;
      return { key: pageUrl, url: pageUrl, finalUrl: pageUrl, title: file, markdown, depth: 1, format: 'html', state: 'stored', ...(description ? { description } : {}) };
    };
    const pages = [
      ...['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((name) => at(`${name}.html`, `# ${name}.h\n\nThe ${name} module scans one kind of input and counts what it holds, line by line.`)),
      // Pages with nothing of their own but a list of links and the footer (a README's empty page, a globals index).
      ...['readme', 'globals_enum', 'globals_vars', 'globals_type'].map((name) => at(`${name}.html`, `- [scan](https://tally.example/api/a.html)\n\n---\n\n${footer}`)),
    ];
    const out = generateOutputs({ startUrl: 'https://tally.example/api/a.html', generatedAt: new Date('2026-11-27T00:00:00Z'), pages });
    const entries = out.sections.flatMap((section) => section.entries);
    expect(entries.filter((entry) => entry.description?.startsWith('Generated on'))).toEqual([]);
    expect(entries.find((entry) => entry.url.endsWith('/b.html'))?.description).toBe('The b module scans one kind of input and counts what it holds, line by line.');
  });

  it('describes a page that opens with a notice the site repeats by the paragraph after it', () => {
    const notice = 'This is a low-level module. You should only use it if you are sure that you know what you are doing with it.';
    const pages = ['aead', 'dh', 'dsa', 'ec', 'hmac'].map((name): SourcePage => {
      const pageUrl = `https://tally.example/hazmat/${name}.html`;
      return { key: pageUrl, url: pageUrl, finalUrl: pageUrl, title: name.toUpperCase(), markdown: `# ${name.toUpperCase()}\n\n${notice}\n\nThe ${name} primitives sign, seal and check messages with keys the caller holds.`, depth: 1, format: 'html', state: 'stored', description: notice };
    });
    const out = generateOutputs({ startUrl: 'https://tally.example/hazmat/aead.html', generatedAt: new Date('2026-11-27T00:00:00Z'), pages });
    const entries = out.sections.flatMap((section) => section.entries);
    expect(entries.map((entry) => entry.description)).toEqual(['aead', 'dh', 'dsa', 'ec', 'hmac'].map((name) => `The ${name} primitives sign, seal and check messages with keys the caller holds.`));
  });
});
