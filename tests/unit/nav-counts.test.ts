import { describe, expect, it } from 'vitest';
import { linkedomAdapter } from '@/lib/convert/dom';
import { findNavLinks } from '@/lib/convert/nav-links';
import { countLinks, indexLinks, listLinks } from '@/lib/convert/nav-tree';
import { seededRandom } from '../fixtures/seeded-random';

const ORIGIN = 'https://docs.acorn.test';
const bodyOf = (html: string) => linkedomAdapter.parse(`<!doctype html><html><head><title>T</title></head><body>${html}</body></html>`).body;

/** Every element under `body`, in document order. */
function elementsOf(body: Element): Element[] {
  return [...body.querySelectorAll('*')];
}

/** countLinks against what listLinks itself reports, for every element of the page; how many were compared. */
function expectCountsMatch(body: Element): number {
  const hrefs = new Map();
  const index = indexLinks([body], ORIGIN, hrefs);
  const elements = elementsOf(body);
  const counts = countLinks(elements, index);
  for (const element of elements) {
    const { links, listed } = listLinks(element, ORIGIN, new Map());
    const expected = { pages: links.filter((link) => link.url !== '').length, listed };
    const { pages, listed: got } = counts.get(element) ?? { pages: -1, listed: -1 };
    expect({ pages, listed: got }, `${element.outerHTML.slice(0, 120)}`).toEqual(expected);
  }
  return elements.length;
}

const TAGS = ['div', 'ul', 'li', 'ol', 'dl', 'dt', 'dd', 'p', 'blockquote', 'figure', 'span', 'nav', 'section', 'details', 'summary', 'h3'];

/** Random markup of nested containers and links: repeated URLs, in-page and untitled links, prose. */
function randomMarkup(next: () => number, depth: number): string {
  let html = '';
  const children = 1 + Math.floor(next() * 4);
  for (let i = 0; i < children; i++) {
    const roll = next();
    if (roll < 0.35 || depth > 5) {
      const page = Math.floor(next() * 6);
      const href = next() < 0.15 ? `#s${page}` : `p${page}.html`;
      const text = next() < 0.1 ? '' : `Page ${page}`;
      const label = text === '' && next() < 0.5 ? ` aria-label="Label ${page}"` : '';
      html += `<a href="${href}"${label}>${text}</a>`;
    } else if (roll < 0.45) {
      html += `<span>Group ${Math.floor(next() * 3)}</span>`;
    } else {
      const tag = TAGS[Math.floor(next() * TAGS.length)] ?? 'div';
      html += `<${tag}>${randomMarkup(next, depth + 1)}</${tag}>`;
    }
  }
  return html;
}

describe('countLinks counts what listLinks lists', () => {
  it('in containers of bare links, prose, definition lists, repeated and untitled links', () => {
    const compared = expectCountsMatch(
      bodyOf(
        '<nav><a href="a.html">A</a><a href="b.html">B</a></nav>' +
          '<nav class="x"><a href="a.html">A</a><div><a href="c.html">C</a></div></nav>' +
          '<div class="menu"><p>See <a href="d.html">D</a></p><ul><li><a href="e.html">E</a></li></ul><blockquote><a href="f.html">F</a></blockquote></div>' +
          '<aside><a href="g.html">G first, outside a list</a><ul><li><a href="g.html">G again</a></li><li><a href="h.html"></a></li><li><a href="h.html">H</a></li><li><a href="m.html"></a></li></ul></aside>' +
          '<dl class="toc"><dt><a href="i.html">I</a></dt><dd><a href="j.html" title="J">  </a><dl><dt><a href="k.html#x">K</a></dt></dl></dd></dl>' +
          '<figure><figcaption><a href="l.html">L</a></figcaption></figure><a href="#top">Top</a>',
      ),
    );
    expect(compared).toBeGreaterThan(20);
  });

  it('in a link nested in a link (built by hand: the parser would close the outer one)', () => {
    const body = bodyOf('<div class="sidebar"><ul><li><a href="outer.html">Outer</a></li><li><span><a href="second.html">Second</a></span></li></ul></div>');
    const outer = body.getElementsByTagName('a')[0];
    const inner = body.ownerDocument.createElement('a');
    inner.setAttribute('href', 'inner.html');
    inner.textContent = 'Inner';
    const wrapper = body.ownerDocument.createElement('span');
    wrapper.appendChild(inner);
    outer?.appendChild(wrapper);
    expect(expectCountsMatch(body)).toBeGreaterThan(8);
  });

  it('in nested toctrees, where every list item is a candidate', () => {
    const item = (level: number, n: string): string => `<li class="toctree-l${level}"><a href="${n}.html">${n}</a>${level < 4 ? `<ul>${[1, 2].map((i) => item(level + 1, `${n}-${i}`)).join('')}</ul>` : ''}</li>`;
    expect(expectCountsMatch(bodyOf(`<div class="toctree-wrapper"><ul>${item(1, 'a')}${item(1, 'b')}</ul></div>`))).toBeGreaterThan(60);
  });

  it('in generated pages', () => {
    let compared = 0;
    for (let seed = 1; seed <= 60; seed++) compared += expectCountsMatch(bodyOf(randomMarkup(seededRandom(seed), 0)));
    expect(compared).toBeGreaterThan(1000);
  });
});

describe('findNavLinks picks the same tree', () => {
  const pages = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `<li><a href="${prefix}${i}.html">${prefix} ${i}</a></li>`).join('');

  it('between nested candidates of equal score, the outer (first) one', () => {
    // The nav lists six pages (score 6); the sidebar inside it three, which count twice (score 6).
    const body = bodyOf(`<nav><ul>${pages('outer', 3)}</ul><div class="sidebar"><ul>${pages('side', 3)}</ul></div></nav>`);
    expect(findNavLinks(body, ORIGIN).map((link) => link.title)).toEqual(['outer 0', 'outer 1', 'outer 2', 'side 0', 'side 1', 'side 2']);
  });

  it('between separate candidates of equal score, the first in the document', () => {
    const body = bodyOf(`<nav><ul>${pages('first', 4)}</ul></nav><nav><ul>${pages('second', 4)}</ul></nav>`);
    expect(findNavLinks(body, ORIGIN).map((link) => link.title)).toEqual(['first 0', 'first 1', 'first 2', 'first 3']);
  });

  it('groups contents lists by the outermost candidate holding them, not the innermost', () => {
    // The two toctrees share the nav as outermost holder: one tree of the group holding both,
    // worth more than the nav. Grouped by innermost holder (the menu for the first), each would
    // stand alone and the nav, with its three other pages, would win.
    const toctree = (prefix: string) => `<ul class="toctree">${pages(prefix, 3)}</ul>`;
    const body = bodyOf(`<nav><ul>${pages('extra', 3)}</ul><div class="group"><p class="caption">One</p><div class="menu">${toctree('a')}</div><p class="caption">Two</p>${toctree('b')}</div></nav>`);
    expect(findNavLinks(body, ORIGIN).map((link) => link.title)).toEqual(['One', 'a 0', 'a 1', 'a 2', 'Two', 'b 0', 'b 1', 'b 2']);
  });

  it('scores sectioned contents by their outermost lists only', () => {
    // Two short contents lists (two pages, 2 each; too short to be candidates themselves) under
    // headings: 4.4 together, under the plain nav's 6. Counting the toctree inside each (one page,
    // counting twice: 2) too would make it 8.8 and win.
    const contents = (prefix: string) => `<div class="toc"><ul><li><a href="${prefix}0.html">${prefix} 0</a></li></ul><div class="toctree"><ul><li><a href="${prefix}1.html">${prefix} 1</a></li></ul></div></div>`;
    const body = bodyOf(`<nav><ul>${pages('nav', 6)}</ul></nav><main><h2>One</h2>${contents('a')}<h2>Two</h2>${contents('b')}</main>`);
    expect(findNavLinks(body, ORIGIN)[0]?.title).toBe('nav 0');
  });

  it('groups a sidebar’s toctrees apart from the page’s own, by the outermost candidate holding them', () => {
    const toctree = (prefix: string) => `<ul class="toctree"><li class="toctree-l1"><a href="${prefix}-a.html">${prefix} a</a></li><li class="toctree-l1"><a href="${prefix}-b.html">${prefix} b</a></li></ul>`;
    const body = bodyOf(
      `<div class="sidebar"><div class="menu"><p class="caption">Side one</p>${toctree('s1')}<p class="caption">Side two</p>${toctree('s2')}</div></div>` +
        `<main><h2>Page one</h2>${toctree('m1')}<h2>Page two</h2>${toctree('m2')}<h2>Page three</h2>${toctree('m3')}</main>`,
    );
    // The sidebar's pair doubles (a sidebar), the page's three lists are more: the page's tree wins,
    // made of its own lists only, under its own headings.
    expect(findNavLinks(body, ORIGIN).map((link) => link.title)).toEqual(['Page one', 'm1 a', 'm1 b', 'Page two', 'm2 a', 'm2 b', 'Page three', 'm3 a', 'm3 b']);
  });
});
