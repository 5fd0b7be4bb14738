import { describe, expect, it } from 'vitest';
import { leadWeakReason } from '@/bench/quality/lead-descriptions';
import { weakReason } from '@/bench/quality/descriptions';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';
import { isWeakDescription } from '@/lib/convert/page-text';

// Every entry described from its page, never from a member: a reference page lays its header out
// in list items and writes its lead in a `div`; a page with no prose of its own is described by
// the members it declares; a lead that only points elsewhere is no summary.
const URL = 'https://tally.example/api/org/tally/Scanner.html';
const describe_ = (html: string, url = URL) => convertHtml(html, url, linkedomAdapter).description;

// Javadoc's shape: the class header and each member summary inside `<ul class="blockList"><li>`,
// member tables whose rows are named by a `<th scope="row">`, then each member's details (its
// name as a heading over its declaration, then its text).
const row = (type: string, name: string, params: string, text = '') =>
  `<tr><td class="colFirst"><code>${type}</code></td><th class="colSecond" scope="row"><code><a href="#${name}(${params})">${name}</a>(${params})</code></th><td class="colLast">${text ? `<div class="block">${text}</div>` : '&nbsp;'}</td></tr>`;
const summary = (heading: string, rows: string) =>
  `<section><ul class="blockList"><li class="blockList"><h3>${heading}</h3><table class="memberSummary"><caption><span>All Methods</span></caption><tr><th scope="col">Modifier and Type</th><th scope="col">Method</th><th scope="col">Description</th></tr>${rows}</table></li></ul></section>`;
const detail = (name: string, text: string) =>
  `<ul class="blockList"><li class="blockList"><h4>${name}</h4><pre class="methodSignature">public void ${name}\u200b(java.lang.String value)</pre><div class="block">${text}</div></li></ul>`;
const javadoc = (lead: string, summaries: string, details: string) =>
  `<!doctype html><html><head><title>Scanner (tally 1.0 API)</title></head><body><header><nav><ul><li><a href="../../index.html">Overview</a></li></ul></nav></header><main role="main">` +
  `<div class="header"><div class="subTitle">Package <a href="package-summary.html">org.tally</a></div><h2 class="title">Class Scanner</h2></div><div class="contentContainer">` +
  `<ul class="inheritance"><li>java.lang.Object</li><li><ul class="inheritance"><li>org.tally.Scanner</li></ul></li></ul>` +
  `<div class="description"><ul class="blockList"><li class="blockList"><dl><dt>All Implemented Interfaces:</dt><dd><code>java.io.Closeable</code></dd></dl><hr><pre>public class Scanner\nextends java.lang.Object</pre>${lead}<dl><dt>Author:</dt><dd>Ann Example</dd></dl></li></ul></div>` +
  `<div class="summary"><ul class="blockList"><li class="blockList">${summaries}</li></ul></div><div class="details"><ul class="blockList"><li class="blockList"><section><h3>Method Detail</h3>${details}</section></li></ul></div></div></main></body></html>`;
const MEMBER_TEXT = 'Sets the text encoding the scanner reads its input with when the file does not name one itself.';

describe('a reference page whose header is laid out in list items', () => {
  it('takes the class comment a `div` holds, up to its first block, as the lead', () => {
    const lead = '<div class="block">A scanner reads files in blocks and counts their words, lines and bytes as it goes.<p>To start a scan, call <code>open</code> with a path; close it when done.</p></div>';
    const html = javadoc(lead, summary('Method Summary', row('void', 'encoding', 'java.lang.String', 'Sets the encoding.')), detail('encoding', MEMBER_TEXT));
    expect(describe_(html)).toBe('A scanner reads files in blocks and counts their words, lines and bytes as it goes.');
  });

  it('never takes a member\'s details for a class whose comment is short: the comment is read with its members', () => {
    const lead = '<div class="block">A word scanner.</div>';
    const rows = row('void', 'encoding', 'java.lang.String') + row('int', 'count', '') + row('void', 'close', '');
    const html = javadoc(lead, summary('Method Summary', rows), detail('encoding', MEMBER_TEXT));
    expect(describe_(html)).toBe('A word scanner. Covers: encoding, count, close.');
  });

  it('describes a class with no comment by the members its summaries declare, each group by its heading', () => {
    const constructors = `<tr><th class="colConstructorName" scope="row"><code><a href="#%3Cinit%3E(java.io.IOException)">Scanner</a>(java.io.IOException cause)</code></th><td class="colLast">&nbsp;</td></tr>`;
    const html = javadoc('', summary('Constructor Summary', constructors) + summary('Method Summary', row('java.io.IOException', 'ioException', '')), detail('ioException', MEMBER_TEXT));
    const description = describe_(html);
    expect(description).toBe('Class Scanner. Covers: Scanner (Constructor Summary); ioException (Method Summary).');
    expect(isWeakDescription(description)).toBe(false);
  });

  it('keeps the page\'s heading that stands above the content in a header of its own', () => {
    const lead = '<div class="block">A scanner reads files in blocks and counts their words, lines and bytes as it goes.</div>';
    const markdown = convertHtml(javadoc(lead, summary('Method Summary', row('void', 'close', '')), detail('close', MEMBER_TEXT)), URL, linkedomAdapter).markdown;
    expect(markdown.startsWith('# Class Scanner\n')).toBe(true);
    expect(markdown).toContain('\n## Method Summary');
    // The package label above it is no part of the page.
    expect(markdown).not.toContain('org.tally](');
  });

  it('takes the brief under the declaration as the lead, however it is cased or stopped, never a labelled fact', () => {
    const withFacts = (lead: string) =>
      javadoc(lead, summary('Method Summary', row('void', 'close', '')), detail('close', MEMBER_TEXT)).replace('<dl><dt>All Implemented Interfaces:</dt><dd><code>java.io.Closeable</code></dd></dl>', '<dl><dt>Type Parameters:</dt><dd><code>T</code> - Type of Base, either Request or Response</dd></dl>');
    expect(describe_(withFacts('<div class="block">Common methods for requests and responses</div>'))).toBe('Common methods for requests and responses');
    expect(describe_(withFacts('<div class="block">css-compatible scanner for :eq (css :nth-child)</div>'))).toBe('css-compatible scanner for :eq (css :nth-child)');
    // Too few words for a brief: the class is described by what it declares.
    expect(describe_(withFacts('<div class="block">A scanner</div>'))).toBe('Class Scanner. Covers: close (Method Summary).');
  });

  it('describes an annotation type with no comment and no members by what it is annotated with', () => {
    const html = javadoc('', '', '').replace('Class Scanner', 'Annotation Type NonnullByDefault').replace('public class Scanner\nextends java.lang.Object', '@Documented\n@TypeQualifierDefault({METHOD,FIELD})\n@Retention(CLASS)\npublic @interface NonnullByDefault');
    expect(describe_(html)).toBe('Annotation Type NonnullByDefault, annotated @Documented, @TypeQualifierDefault({METHOD,FIELD}), @Retention(CLASS).');
  });

  it('names a class hierarchy by the classes that link, under the plain-text labels of their supertypes', () => {
    const html = '<!doctype html><html><head><title>org.tally Class Hierarchy</title></head><body><main><h1>Hierarchy For Package org.tally</h1><ul class="horizontal"><li><a href="../overview-tree.html">All Packages</a></li></ul>' +
      '<h2>Class Hierarchy</h2><ul><li>java.lang.Object<ul><li>org.tally.<a href="Scanner.html">Scanner</a></li><li>org.tally.<a href="Report.html">Report</a></li><li>java.lang.Throwable<ul><li>org.tally.<a href="ScanError.html">ScanError</a></li></ul></li></ul></li></ul></main></body></html>';
    expect(describe_(html, 'https://tally.example/api/org/tally/package-tree.html')).toBe('Covers: Scanner, Report, ScanError.');
    // A label line under the heading is no declaration, though a word of it is in the heading.
    const labelled = html.replace('<ul class="horizontal">', '<span>Package Hierarchies:</span><ul class="horizontal">');
    expect(describe_(labelled, 'https://tally.example/api/org/tally/package-tree.html')).toBe('Covers: Scanner, Report, ScanError.');
    // Two entries say too little alone: they are read with the page's heading.
    const two = html.replace('<li>java.lang.Throwable<ul><li>org.tally.<a href="ScanError.html">ScanError</a></li></ul></li>', '');
    expect(describe_(two, 'https://tally.example/api/org/tally/package-tree.html')).toBe('Hierarchy For Package org.tally. Covers: Scanner, Report.');
  });
});

// TypeDoc's shape: the kind and name as the heading, the declaration on the line under it, then
// the index of members (a row of links to their places below) or the parts of a function.
describe('a declaration with no prose of its own', () => {
  const typedoc = (heading: string, body: string) =>
    `<!doctype html><html><head><title>${heading.split(' ').at(-1)} | tally</title></head><body><div class="col-content"><div class="tsd-page-title"><ul class="tsd-breadcrumb"><li><a href="">x</a></li></ul><h1>${heading}</h1></div>${body}</div></body></html>`;
  const source = '<aside class="tsd-sources"><ul><li>Defined in <a href="https://git.example/src/index.d.ts#L12">src/index.d.ts:12</a></li></ul></aside>';
  const page = 'https://tally.example/types/Scan.html';

  it('says what a type alias is declared as, in words', () => {
    const html = typedoc('Type Alias ScanEvent', `<div class="tsd-signature"><span>ScanEvent</span><span>:</span> <span>"start"</span> <span>|</span> <span>"end"</span></div>${source}`);
    expect(describe_(html, page)).toBe('Type Alias ScanEvent, declared as "start" | "end".');
  });

  it('names a function by its parts, never by its signature written out', () => {
    const html = typedoc('Function createScanner', '<section class="tsd-panel"><ul class="tsd-signatures"><li><div class="tsd-signature"><span>createScanner</span><span>(</span><span>name</span><span>:</span> <span>string</span><span>)</span><span>:</span> <a href="../classes/Scanner.html">Scanner</a></div>' +
      `<div class="tsd-description"><div class="tsd-parameters"><h4>Parameters</h4><ul><li><span><span>name</span>: <span>string</span></span></li><li><span><code>Optional</code><span>limit</span>: <span>number</span></span></li></ul></div><h4>Returns <a href="../classes/Scanner.html">Scanner</a></h4>${source}</div></li></ul></section>`);
    expect(describe_(html, page)).toBe('Function createScanner. Parameters: name, limit. Returns Scanner.');
  });

  it('says what a union written one member a line is declared as, without its opening bar', () => {
    const html = typedoc('Type Alias ScanSource', `<div class="tsd-signature"><span>ScanSource</span><span>:</span><br/>    <span>|</span> <span>"file"</span><br/>    <span>|</span> <span>undefined</span></div>${source}`);
    expect(describe_(html, page)).toBe('Type Alias ScanSource, declared as "file" | undefined.');
  });

  it('names an interface with its kind before its members, however many it has', () => {
    const html = typedoc('Interface ScanOptions', `<div class="tsd-signature"><span>interface</span> <span>ScanOptions</span> <span>{</span><br/>    <a href="#file">file</a><span>:</span> <span>string</span><span>;</span><br/>    <a href="#limit">limit</a><span>:</span> <span>number</span><span>;</span><br/><span>}</span></div>${source}` +
      '<section class="tsd-index-section"><h3>Properties</h3><div class="tsd-index-list"><a href="#file"><span>file</span></a><a href="#limit"><span>limit</span></a></div></section><h2>Properties</h2><section><h3 id="file">file</h3><div class="tsd-comment"><p>The path of the file the scanner reads from, relative to the working folder.</p></div></section>');
    expect(describe_(html, page)).toBe('Interface ScanOptions. Covers: file, limit (Properties).');
  });

  it('names an interface of one property with its kind, from its index of members', () => {
    const html = typedoc('Interface ScanContext', `<div class="tsd-signature"><span>interface</span> <span>ScanContext</span> <span>{</span><br/>    <a href="#file">file</a><span>:</span> <span>string</span><span>;</span><br/><span>}</span></div>${source}` +
      '<section class="tsd-index-section"><h3>Properties</h3><div class="tsd-index-list"><a href="#file"><span>file</span></a></div></section><h2>Properties</h2><section><h3 id="file">file</h3><div class="tsd-comment"><p>The path of the file the scanner reads from, relative to the working folder.</p></div></section>');
    expect(describe_(html, page)).toBe('Interface ScanContext. Covers: file (Properties).');
  });
});

describe('a page with no lead before its sections', () => {
  const page = (body: string) => `<!doctype html><html><head><title>Mocks</title></head><body><main><h1>Mocks — getting started</h1><div class="versionadded"><p>New in version 3.3.</p></div>${body}</main></body></html>`;

  it('is described by its first section\'s opening read with its list, not by a paragraph about an example further in', () => {
    const html = page('<section><h2>Using mocks</h2><section><h3>Patching methods</h3><p>Common uses for mock objects include:</p><ul><li><p>Patching methods</p></li><li><p>Recording calls on objects</p></li></ul>' +
      '<p>You might want to replace a method to check that it is called with the right arguments:</p><pre>real.method = Mock()</pre><p>Once the mock has been used it has methods and attributes that let you make assertions about how.</p></section></section>');
    expect(describe_(html)).toBe('Common uses for mock objects include: Patching methods, Recording calls on objects');
  });

  it('ends the lead at a section under the page\'s own heading, whatever level that heading is', () => {
    const html = '<!doctype html><html><head><title>Web Streams</title></head><body><div id="apicontent"><h2>Web Streams API</h2><blockquote><p>Stability: 1 - Experimental.</p></blockquote><p>An implementation of the WHATWG Streams Standard.</p>' +
      '<section><h3>Overview</h3><p>The standard defines an API for handling streaming data, similar to the Node.js Streams API but emerged later.</p></section></div></body></html>';
    expect(describe_(html, 'https://tally.example/api/webstreams.html')).toBe('An implementation of the WHATWG Streams Standard.');
  });

  it('reads a lead with every definition list it introduces, one per directive', () => {
    const html = page('<p>There are two additional directives when using this extension:</p><dl><dt id="directive-todo">.. todo::</dt><dd><p>Use this directive like, for example, note.</p></dd></dl><dl><dt id="directive-todolist">.. todolist::</dt><dd><p>Replaced by a list of all todos.</p></dd></dl>');
    expect(describe_(html)).toBe('There are two additional directives when using this extension: .. todo, .. todolist');
  });

  it('keeps a sentence before an introducing one that reads alone, however short in characters', () => {
    const html = page('<p>A small number of constants live in the built-in namespace. They are:</p><dl><dt>False</dt><dd><p>The false value of the bool type.</p></dd></dl><section><h2>Constants added by the site module</h2><p>The site module adds several constants to the built-in namespace for the interactive shell.</p></section>');
    expect(describe_(html)).toBe('A small number of constants live in the built-in namespace.');
  });
});

describe('a lead that only points elsewhere', () => {
  it('is weak, in the converter and in the scorecard', () => {
    for (const text of ['For information about terms used in this document see: terminology', 'For more details, see the Options page', 'For help with the flags refer to the manual.']) {
      expect(isWeakDescription(text)).toBe(true);
      expect(weakReason(text)).toBe('see-also');
    }
    expect(isWeakDescription('Seeds the random number generator from the system clock.')).toBe(false);
    expect(weakReason('For a quick start, install the package and run the scanner on a folder.')).toBe(null);
  });

  it('gives way to the short sentence that opens the page', () => {
    const html = '<!doctype html><html><head><title>tally</title></head><body><main><h1>tally</h1><p>The complete solution for counting words.</p><ul><li><a href="#install">Install</a></li><li><a href="#usage">Usage</a></li></ul>' +
      '<p>For information about terms used in this document see: <a href="terminology.html">terminology</a></p><h2 id="install">Install</h2><p>Run the installer from the package manager of your system, then restart.</p></main></body></html>';
    expect(describe_(html, 'https://tally.example/index.html')).toBe('The complete solution for counting words.');
  });
});

describe('the lead test of the scorecard', () => {
  const member = 'this module allows high level and efficient i o multiplexing built upon the select module primitives';
  it('calls a section\'s text a member\'s only when the page has a lead of its own, which a version note is not', () => {
    const description = 'This module allows high-level and efficient I/O multiplexing, built upon the select module primitives.';
    expect(leadWeakReason(description, 'selectors', [], { lead: ['new in version 3 4'], members: [member] })).toBe(null);
    expect(leadWeakReason(description, 'selectors', [], { lead: ['the selectors module multiplexes waiting on many files'], members: [member] })).toBe('member-text');
  });

  it('takes a page that opens with only a pointer elsewhere as having no lead of its own', () => {
    const description = 'This module allows high-level and efficient I/O multiplexing, built upon the select module primitives.';
    expect(leadWeakReason(description, 'selectors', [], { lead: ['see also python initialization configuration'], members: [member] })).toBe(null);
  });
});
