/**
 * Conversion steps rewritten to walk the page fewer times or build fewer strings, each checked
 * against the definition it replaced (kept here as the oracle) on generated and tricky input:
 * these tests guard that the rewrites are equivalent, not just plausible.
 */
import { describe, expect, it } from 'vitest';
import { pruneNonText } from '../../lib/convert/clean';
import { linkedomAdapter } from '../../lib/convert/dom';
import { collectLinks, pruneAndCollectLinks } from '../../lib/convert/document-links';
import { escapeMarkdownText } from '../../lib/convert/escape';
import { definitionLines } from '../../lib/convert/page-text';
import { hasSpaceRunOver } from '../../lib/convert/walk';
import { seededRandom } from '../fixtures/seeded-random';

const BASE = 'https://docs.example.test/guide/page.html';

/** Random markup from a small vocabulary: links in and out of svg, scripts, templates, nested paragraphs, ids. */
function randomHtml(random: () => number, size: number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const tags = ['div', 'p', 'span', 'a', 'a', 'svg', 'script', 'style', 'template', 'noscript', 'code', 'section'] as const;
  const hrefs = ['#x', '#y', 'other.html#x', 'a.html', '../b/', 'https://other.test/c#y', 'javascript:void(0)', '#%79', '#%E0%A4%A', ''];
  let out = '';
  const open: string[] = [];
  for (let i = 0; i < size; i++) {
    const r = random();
    if (r < 0.35 || !open.length) {
      const tag = pick(tags);
      const attrs = [random() < 0.4 ? ` id="${pick(['x', 'y', 'z', ''])}"` : '', tag === 'a' && random() < 0.85 ? ` href="${pick(hrefs)}"` : ''].join('');
      out += `<${tag}${attrs}>`;
      open.push(tag);
    } else if (r < 0.65) {
      out += pick(['text ', ' ', 'a<b ', '&amp; ', '<a href="inline.html">in</a>', '<p>para</p>', '<a id="y">y</a>']);
    } else {
      out += `</${open.pop()}>`;
    }
  }
  while (open.length) out += `</${open.pop()}>`;
  return out;
}

describe('pruneAndCollectLinks (one walk for pruning and for the page links)', () => {
  /** The two steps as they ran apart: prune the document element, then every <a href> of the document. */
  const apart = (html: string) => {
    const document = linkedomAdapter.parse(html);
    const root = document.documentElement ?? document.body;
    pruneNonText(root);
    return { links: collectLinks(document, BASE, new Map()), html: document.toString() };
  };
  const together = (html: string) => {
    const document = linkedomAdapter.parse(html);
    const links = pruneAndCollectLinks(document, document.documentElement ?? document.body, BASE, new Map());
    return { links, html: document.toString() };
  };

  it('finds the same links and leaves the same document on generated pages', () => {
    const random = seededRandom(33);
    let withLinks = 0;
    for (let i = 0; i < 300; i++) {
      const html = `<html><head><title>t</title><script>var a = "<a href='x.html'>";</script></head><body>${randomHtml(random, 60)}</body></html>`;
      const expected = apart(html);
      expect(together(html), html).toEqual(expected);
      if (expected.links.length) withLinks++;
    }
    // The comparison is not trivially between empty lists.
    expect(withLinks).toBeGreaterThan(200);
  });

  it('keeps the links inside <svg>, drops those in removed elements, and reads elements outside the document element', () => {
    const cases = [
      '<html><body><a href="a.html">a</a><svg><a href="s.html">s</a><script>x</script></svg><template><a href="t.html">t</a></template><noscript><a href="n.html">n</a></noscript><a href="z.html">z</a></body></html>',
      // linkedom keeps a second top-level element beside the document element.
      '<html><body><a href="a.html">a</a></body></html><a href="stray.html">stray</a>',
      // A fragment-like page whose first element is the link itself.
      '<!-- <html> --><a href="first.html"><a href="inner.html">x</a></a>',
    ];
    for (const html of cases) expect(together(html), html).toEqual(apart(html));
    expect(together(cases[0] as string).links).toEqual(['https://docs.example.test/guide/a.html', 'https://docs.example.test/guide/s.html', 'https://docs.example.test/guide/z.html']);
    expect(together(cases[1] as string).links).toContain('https://docs.example.test/guide/stray.html');
  });
});

/** definitionLines as it was before it skipped what a paragraph's own walk had seen: the oracle. */
function definitionLinesBefore(root: Element): Set<Element> {
  const out = new Set<Element>();
  const all = (element: Element, visit: (e: Element) => 'skip' | undefined) => {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) if (visit(child) !== 'skip') all(child, visit);
  };
  all(root, (paragraph) => {
    if (paragraph.localName === 'template') return 'skip';
    if (paragraph.localName !== 'p') return undefined;
    const ids = new Set<string>();
    const own = paragraph.getAttribute('id');
    if (own) ids.add(own);
    const links: string[] = [];
    all(paragraph, (element) => {
      if (element.hasAttribute('id')) ids.add(element.getAttribute('id') ?? '');
      if (element.localName === 'a' && element.hasAttribute('href')) links.push(element.getAttribute('href') ?? '');
      return element.localName === 'template' ? 'skip' : undefined;
    });
    if (!ids.size) return undefined;
    for (const href of links) {
      const hash = href.indexOf('#');
      let fragment = href.slice(hash + 1);
      try {
        fragment = decodeURIComponent(fragment);
      } catch {}
      if (hash >= 0 && ids.has(fragment)) {
        out.add(paragraph);
        break;
      }
    }
    return undefined;
  });
  return out;
}

describe('definitionLines (a paragraph walked once, its inside not again)', () => {
  it('finds a definition line nested in another paragraph (linkedom does not close <p> at <span><p>)', () => {
    const body = linkedomAdapter.parse('<html><body><p>Outer <span><p id="m">inner <a href="#m">m</a></p></span></p><p><span><p><b id="k"></b><a href="x.html#k">k</a></p></span></p></body></html>').body;
    const got = [...definitionLines(body)];
    expect(got).toEqual([...definitionLinesBefore(body)]);
    expect(got.length).toBe(4);
  });

  it('agrees with the walk-everything definition on generated pages', () => {
    const random = seededRandom(7);
    let found = 0;
    let nested = 0;
    for (let i = 0; i < 600; i++) {
      const body = linkedomAdapter.parse(`<html><body>${randomHtml(random, 80)}</body></html>`).body;
      const expected = [...definitionLinesBefore(body)];
      expect([...definitionLines(body)]).toEqual(expected);
      found += expected.length;
      nested += body.querySelectorAll('p p').length;
    }
    // Definition lines and paragraphs inside paragraphs both occur: the comparison says something.
    expect(found).toBeGreaterThan(40);
    expect(nested).toBeGreaterThan(100);
  });
});

describe('hasSpaceRunOver (a scan instead of a replacement per run)', () => {
  it('takes as whitespace exactly what \\s does, every UTF-16 code unit', () => {
    const differ: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const ch = String.fromCharCode(code);
      if (hasSpaceRunOver(ch, 0) !== /\s/.test(ch)) differ.push(code);
    }
    expect(differ).toEqual([]);
  });

  it('finds a run longer than the limit where the pattern does', () => {
    const random = seededRandom(5);
    const pieces = [' ', '\u00a0', '\n', '\t', '\u2003', '\ufeff', 'a', 'bc', ' x '];
    for (let i = 0; i < 2000; i++) {
      let text = '';
      while (text.length < 40) text += pieces[Math.floor(random() * pieces.length)];
      for (const max of [1, 3, 8]) expect(hasSpaceRunOver(text, max), JSON.stringify(text)).toBe(new RegExp(`\\s{${max + 1}}`).test(text));
    }
  });
});

/** escapeMarkdownText as it was: the line-start pattern tried on every text. The oracle. */
function escapeMarkdownTextBefore(text: string): string {
  const WORD = /[\p{L}\p{N}]/u;
  const PUNCTUATION = /[!-/:-@[-`{-~]/;
  const escapeChar = (char: string, index: number, all: string): string => {
    const before = all[index - 1] ?? '';
    const after = all[index + 1] ?? '';
    switch (char) {
      case '\\':
        return PUNCTUATION.test(after) ? '\\\\' : '\\';
      case '_':
        return WORD.test(before) && WORD.test(after) ? '_' : '\\_';
      case '*':
        return /\s/.test(before) && /\s/.test(after) ? '*' : '\\*';
      case '<':
        return /[A-Za-z/!?]/.test(after) ? '\\<' : '<';
      case ']':
        return after === '(' || after === '[' || after === ':' ? '\\]' : ']';
      default:
        return `\\${char}`;
    }
  };
  const escaped = text.replace(/[\\*_`<\]]/g, escapeChar);
  return escaped.replace(/^(\s*)(#{1,6}(?=\s|$)|>|[-+](?=\s)|=+(?=\s*$)|~~~|(\d+)([.)])(?=\s))/, (_match, space: string, marker: string, digits?: string, dot?: string) =>
    digits !== undefined && dot !== undefined ? `${space}${digits}\\${dot}` : `${space}\\${marker}`,
  );
}

describe('escapeMarkdownText (text that starts with a letter skips the line-start pattern)', () => {
  it('escapes as the pattern on every text did', () => {
    const random = seededRandom(11);
    const pieces = ['a', 'Z', 'q', '#', '##', ' ', '\u00a0', '>', '-', '+', '=', '~~~', '1', '2.', ')', '_', '*', '[', ']', '<', '\\', 'é', '@', '`', '{', '\n'];
    let escapedAtStart = 0;
    for (let i = 0; i < 20000; i++) {
      let text = '';
      const n = 1 + Math.floor(random() * 6);
      for (let j = 0; j < n; j++) text += pieces[Math.floor(random() * pieces.length)];
      const expected = escapeMarkdownTextBefore(text);
      expect(escapeMarkdownText(text), JSON.stringify(text)).toBe(expected);
      if (/^\s*\\[#>+=~-]|^\s*\d+\\/.test(expected)) escapedAtStart++;
    }
    // Line starts were escaped: the pattern's side of the comparison was exercised.
    expect(escapedAtStart).toBeGreaterThan(1000);
  });
});
