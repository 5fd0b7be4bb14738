/**
 * The linkedom selector-cache patch (scripts/linkedom-selector-cache.ts): the patched selector
 * module, loaded beside linkedom's own so its imports resolve to the same modules, against the
 * unpatched one on the same documents.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectorCache } from '../../scripts/linkedom-selector-cache';

const require = createRequire(import.meta.url);
const esmDir = join(require.resolve('linkedom/package.json').replace(/package\.json$/, ''), 'esm');

type Matcher = (element: unknown) => boolean;
type PrepareMatch = (element: unknown, selectors: string) => Matcher;
type El = { localName: string; remove(): void; querySelectorAll(s: string): El[]; querySelector(s: string): El | null; appendChild(n: El): El; ownerDocument: { createElement(t: string): El } };
type Doc = { documentElement: El; querySelectorAll(s: string): El[]; querySelector(s: string): El | null };

async function modules(): Promise<{ patched: PrepareMatch; original: PrepareMatch; parseHTML: (html: string) => { document: Doc }; parseXML: (xml: string) => Doc }> {
  const file = join(esmDir, 'shared', `matches.test-${process.pid}-${Date.now()}.js`);
  writeFileSync(file, selectorCache(readFileSync(join(esmDir, 'shared', 'matches.js'), 'utf8')));
  try {
    const { prepareMatch: patched } = (await import(file)) as { prepareMatch: PrepareMatch };
    const { prepareMatch: original } = (await import(join(esmDir, 'shared', 'matches.js'))) as { prepareMatch: PrepareMatch };
    const { parseHTML } = (await import(join(esmDir, 'index.js'))) as { parseHTML: (html: string) => { document: Doc } };
    const { DOMParser } = (await import(join(esmDir, 'index.js'))) as { DOMParser: new () => { parseFromString(s: string, t: string): Doc } };
    return { patched, original, parseHTML, parseXML: (xml) => new DOMParser().parseFromString(xml, 'text/xml') };
  } finally {
    rmSync(file);
  }
}

const HTML = `<html><head><title>t</title></head><body>
  <header role="banner"><h1 id="site">Site</h1><nav><a href="/a">A</a></nav></header>
  <main><article class="doc body"><h2 id="x">X <a class="headerlink" href="#x">¶</a></h2>
    <p>One <code>c</code> <a href="b.html">b</a></p><ul><li><a href="c.html">c</a></li><li>d</li></ul>
    <div class="highlight"><pre>code</pre></div><img alt="i" src="i.png"><table><tr><th>h</th><td>v</td></tr></table>
  </article><SECTION Class="Upper"><P>upper-case tags</P><H3>h</H3></SECTION></main><footer><p>f</p></footer></body></html>`;

// Selectors of the kinds the conversion asks (tags, lists, attributes, roles, descendants), and some it could.
const SELECTORS = ['p', 'a[href]', 'h1, h2, h3, h4, h5, h6', 'main, [role="main"]', 'header, [role=banner]', 'p, li, td, th', '[id]', 'img[alt]', 'article p > a', 'ul li + li', 'div.highlight pre', '#x', '.doc.body', 'table, ul, ol, dl, pre, h1, h2, h3, h4, h5, h6, blockquote', 'P', 'A[HREF]', 'section p', 'SECTION > P, h3', 'div', 'main > div > span'];

/** Which of the document's elements the matcher selects, as their positions in document order. */
function picked(all: El[], matcher: Matcher): number[] {
  return all.flatMap((element, i) => (matcher(element) ? [i] : []));
}

describe('the linkedom selector-cache patch', () => {
  it('selects the same elements as unpatched linkedom, for every selector, called again and again', async () => {
    const { patched, original, parseHTML } = await modules();
    const { document } = parseHTML(HTML);
    // linkedom keeps a created element's name as written ("DIV"); the parser lower-cases.
    const main = document.querySelector('main') as El;
    main.appendChild(main.ownerDocument.createElement('DIV')).appendChild(main.ownerDocument.createElement('Span'));
    const all = document.querySelectorAll('*');
    for (let round = 0; round < 2; round++) {
      for (const selector of SELECTORS) {
        const expected = picked(all, original(document.documentElement, selector));
        expect(picked(all, patched(document.documentElement, selector)), selector).toEqual(expected);
      }
    }
    // The answers differ between selectors: a test of nothing would pass with every list empty.
    expect(new Set(SELECTORS.map((s) => picked(all, original(document.documentElement, s)).join())).size).toBeGreaterThan(10);
  });

  it('compiles a selector once per case mode, and never answers one selector with another selector matcher', async () => {
    const { patched, original, parseHTML, parseXML } = await modules();
    const { document } = parseHTML(HTML);
    const root = document.documentElement;
    // Kept: the same matcher for the same selector, where unpatched linkedom compiles anew.
    expect(patched(root, 'p, li')).toBe(patched(root, 'p, li'));
    expect(original(root, 'p, li')).not.toBe(original(root, 'p, li'));
    // Keyed by the whole text: selectors that share a prefix or differ in one character each get their own.
    const matchers = ['a', 'a[href]', 'a[href] ', 'li', 'li a', 'lia'].map((s) => patched(root, s));
    expect(new Set(matchers).size).toBe(matchers.length);
    // Keyed by case mode: in an XML document `P` is not `p`, whatever an HTML document compiled first.
    const xml = parseXML('<doc><P>upper</P><p>lower</p></doc>');
    // Names lower-cased for an HTML document are not used for an XML one.
    patched(root, 'p');
    const xmlAll = xml.querySelectorAll('*');
    patched(root, 'P');
    expect(picked(xmlAll, patched(xml.documentElement, 'P'))).toEqual(picked(xmlAll, original(xml.documentElement, 'P')));
    expect(picked(xmlAll, patched(xml.documentElement, 'P'))).toEqual([1]);
    expect(patched(xml.documentElement, 'P')).not.toBe(patched(root, 'P'));
  });

  it('compiles pseudo-classes per call: their matchers remember answers that a changed document makes wrong', async () => {
    const { patched, original, parseHTML } = await modules();
    const { document } = parseHTML('<html><body><div id="a"><span>s</span></div><div id="b"></div></body></html>');
    const all = () => document.querySelectorAll('*');
    const matcher = patched(document.documentElement, 'div:has(span)');
    expect(picked(all(), matcher)).toEqual(picked(all(), original(document.documentElement, 'div:has(span)')));
    document.querySelector('span')?.remove();
    // A matcher kept from before the change would still say #a holds a span.
    expect(picked(all(), patched(document.documentElement, 'div:has(span)'))).toEqual([]);
    expect(picked(all(), matcher)).not.toEqual([]);
    expect(patched(document.documentElement, ':scope > div')).not.toBe(patched(document.documentElement, ':scope > div'));
  });

  it('refuses code it was not written for', () => {
    expect(() => selectorCache('export const prepareMatch = 1;')).toThrow(/linkedom changed/);
  });
});
