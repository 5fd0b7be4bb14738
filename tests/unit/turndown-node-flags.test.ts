/**
 * The turndown node-flags patch (scripts/turndown-node-flags.ts): turndown's CommonJS build,
 * patched and loaded beside the original (so its own require of domino resolves the same), writes
 * the same Markdown as the original from the same elements: blank elements of every kind, code,
 * <pre>, nested lists, tables, whitespace at inline edges, and a few hundred generated trees that
 * mix them. Both run with turndown's defaults and with the options and GFM rules Scout uses.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { strikethrough, tables, taskListItems } from '@joplin/turndown-plugin-gfm';
import { parseHTML } from 'linkedom';
import type TurndownService from 'turndown';
import { describe, expect, it } from 'vitest';
import { nodeFlags, TURNDOWN_MODULE } from '../../scripts/turndown-node-flags';

const require = createRequire(import.meta.url);
const turndownFile = require.resolve('turndown');
type Service = new (options?: TurndownService.Options) => TurndownService;

function services(): { patched: Service; original: Service } {
  const file = join(dirname(turndownFile), `turndown.test-${process.pid}-${Date.now()}.cjs.js`);
  writeFileSync(file, nodeFlags(readFileSync(turndownFile, 'utf8')));
  try {
    return { patched: require(file) as Service, original: require(turndownFile) as Service };
  } finally {
    rmSync(file);
  }
}

const SCOUT_OPTIONS: TurndownService.Options = { headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced', emDelimiter: '_', strongDelimiter: '**', hr: '---' };

/** Both services' Markdown for `html`, each from its own parse (turndown converts a clone, but a fresh one is certain). */
function both(html: string, withScoutRules: boolean): [string, string] {
  const { patched, original } = SERVICES;
  return [patched, original].map((Service) => {
    const service = withScoutRules ? new Service(SCOUT_OPTIONS).use([strikethrough, tables, taskListItems]) : new Service();
    const { document } = parseHTML(`<html><body><main>${html}</main></body></html>`);
    // The GFM table rules throw on cells outside a table: both must then throw alike.
    try {
      return service.turndown(document.querySelector('main') as unknown as HTMLElement);
    } catch (error) {
      return `threw ${(error as Error).message}`;
    }
  }) as [string, string];
}

const SERVICES = services();

const TRICKY = [
  // Blank elements: whitespace only, no-break space, void and meaningful-when-blank inside, comments.
  '<p> </p><div>\n\t</div><p>after</p>',
  '<div><span> </span><b>\n</b></div>text',
  '<p>a<span> </span>b</p><p>&nbsp;</p><p>\u2003</p>',
  '<div><br></div><div><span><img src="x.png" alt="x"></span></div><div><hr></div>',
  '<div><a href="/x"></a></div><div><span><a></a></span></div><p><iframe src="x"></iframe></p>',
  '<div><!-- only a comment --></div><div> <!-- c --> </div><p>x</p>',
  '<table><tr><td></td><td> </td></tr><tr><th>h</th><td><br></td></tr></table>',
  '<div><svg><a href="#x"></a></svg></div><p><input type="text"></p><p><video></video></p>',
  // Code: inline, in <pre>, with escapes that only outside code are needed.
  '<p>Use <code>a_b *c*</code> and <code> spaced </code> here</p>',
  '<pre><code class="language-js">const a = 1;\n\n  return a * 2;\n</code></pre><p>_x_ [y]</p>',
  '<pre>  indented\n\tlines  \n</pre><p><code>`tick`</code></p>',
  '<p><code><b>bold code</b> <i>it</i></code> after</p>',
  // Lists: nested, ordered with start, blank items, items with blocks.
  '<ul><li>one<ul><li>two<ol start="3"><li>three</li><li> </li><li>four</li></ol></li></ul></li><li><p>para</p><p>two</p></li></ul>',
  '<ol><li></li><li><pre>code in item</pre></li><li>x <em>y</em> </li></ol>',
  // Tables: header row, inline markup, pipes, empty cells.
  '<table><thead><tr><th>A</th><th>B|C</th></tr></thead><tbody><tr><td><b>x</b></td><td></td></tr><tr><td>1</td><td>2 <code>c</code></td></tr></tbody></table>',
  // Whitespace at inline edges: flanking spaces, non-breaking, around blocks.
  '<p>a<b> bold </b>c<i>\u00a0it\u00a0</i>d <strong>s</strong> <em> e</em></p>',
  '<p>x<a href="/l"> link </a>y<span>  </span>z</p><div>  lead <b>b</b>  trail  </div>',
  '<p><b>a</b><b> </b><b>c</b></p><p>  <span> x </span>  </p>',
  '<h2> Title <a href="#t">¶</a></h2><blockquote><p>q <b> b </b></p></blockquote>',
  '<p>1. not a list</p><p>- not a bullet</p><p># not a heading</p><p>line<br>break<br></p>',
  '<del>gone</del> <s> s </s><ul><li><input type="checkbox" checked> done</li></ul>',
  // The page's edges: leading tabs, returns and newlines go, a leading space stays; any trailing whitespace goes.
  '<pre>\t\r\n\tlead</pre><p>end\u00a0\u2003\u3000</p>',
  '<pre> \tspace first</pre><p>x</p><pre>last \u00a0\t</pre>',
  // Collapsing: runs of spaces, tabs and newlines; single spaces kept; spaces meeting across inline edges.
  '<p>one  two\tthree\nfour <span> five</span>  <b>six </b> seven\r\neight</p><p>plain words only</p><p> lead <i> x</i></p>',
  '<p>tab\tonly</p><p>return\ronly</p><p>newline\nonly</p>',
];

/** A deterministic mix of the above's ingredients, nested at random. */
function generated(count: number): string[] {
  let seed = 33;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  const texts = ['', ' ', '  ', '\n', '\u00a0', 'word', ' lead', 'trail ', 'a_b', '*x*', '1. x', '# h', '`t`', 'x | y'];
  const blocks = ['p', 'div', 'blockquote', 'pre', 'ul', 'ol', 'li', 'table', 'tr', 'td', 'th', 'h3', 'section'];
  const inlines = ['span', 'b', 'em', 'code', 'a', 'i', 'del', 'small'];
  const voids = ['<br>', '<img src="i.png" alt="i">', '<hr>', '<input type="checkbox">'];
  const tree = (depth: number): string => {
    const parts: string[] = [];
    const children = 1 + Math.floor(random() * 4);
    for (let i = 0; i < children; i++) {
      const roll = random();
      if (depth <= 0 || roll < 0.35) parts.push(pick(texts));
      else if (roll < 0.45) parts.push(pick(voids));
      else if (roll < 0.5) parts.push('<!-- c -->');
      else {
        const tag = roll < 0.75 ? pick(inlines) : pick(blocks);
        const attrs = tag === 'a' ? ' href="/p"' : '';
        parts.push(`<${tag}${attrs}>${tree(depth - 1)}</${tag}>`);
      }
    }
    return parts.join('');
  };
  return Array.from({ length: count }, () => tree(5));
}

describe('the turndown node-flags patch', () => {
  it('applies to the turndown builds Node and the extension load', () => {
    for (const build of ['turndown.cjs.js', 'turndown.es.js', 'turndown.browser.cjs.js', 'turndown.browser.es.js']) {
      const file = join(dirname(turndownFile), build);
      expect(TURNDOWN_MODULE.test(file)).toBe(true);
      expect(nodeFlags(readFileSync(file, 'utf8'))).not.toBe(readFileSync(file, 'utf8'));
    }
  });

  it('writes the same Markdown as unpatched turndown on tricky inputs', () => {
    for (const html of TRICKY) {
      for (const scout of [false, true]) {
        const [patched, original] = both(html, scout);
        expect(patched, html).toBe(original);
      }
    }
    // The inputs do produce output: a broken service answering '' everywhere would not pass.
    expect(both(TRICKY[12] as string, true)[1]).toMatch(/3\. +three/);
  });

  it('appends what rules add at the end of the page as unpatched turndown does', () => {
    // Referenced links: the rule's `append` adds the references after the page, through join.
    const { patched, original } = SERVICES;
    const pages = ['<p>a <a href="/x">x</a></p>', '<p>a <a href="/x">x</a></p><pre>code\n\n</pre>', '<a href="/y">y</a>\n\n', '<p> </p>', ''];
    for (const html of pages) {
      for (const linkReferenceStyle of ['full', 'collapsed', 'shortcut'] as const) {
        const [a, b] = [patched, original].map((Service) => {
          const { document } = parseHTML(`<html><body><main>${html}</main></body></html>`);
          return new Service({ linkStyle: 'referenced', linkReferenceStyle }).turndown(document.querySelector('main') as unknown as HTMLElement);
        });
        expect(a, html).toBe(b);
      }
    }
    expect(both('<p>a <a href="/x">x</a></p>', false)[0]).toBe('a [x](/x)');
  });

  it('writes the same Markdown as unpatched turndown on generated trees', () => {
    let nonEmpty = 0;
    for (const html of generated(400)) {
      for (const scout of [false, true]) {
        const [patched, original] = both(html, scout);
        expect(patched, html).toBe(original);
        if (original && !original.startsWith('threw ')) nonEmpty++;
      }
    }
    expect(nonEmpty).toBeGreaterThan(500);
  });

  it('gives rules the flags on elements and decorates no text node', () => {
    const { patched } = SERVICES;
    const seen: Array<{ tag: string; isBlock: unknown; isCode: unknown; isBlank: unknown; textFlags: boolean }> = [];
    const service = new patched();
    service.addRule('probe', {
      filter: ['b', 'p', 'code', 'span'],
      replacement: (content, node) => {
        const n = node as unknown as { nodeName: string; isBlock: unknown; isCode: unknown; isBlank: unknown; childNodes: ArrayLike<object> };
        const textFlags = Array.from(n.childNodes).some((child) => ('nodeType' in child && child.nodeType === 3 && 'isCode' in child) || 'flankingWhitespace' in child);
        seen.push({ tag: n.nodeName, isBlock: n.isBlock, isCode: n.isCode, isBlank: n.isBlank, textFlags });
        return content;
      },
    });
    const { document } = parseHTML('<html><body><main><p>x <code>c<b>d</b></code><span> </span></p></main></body></html>');
    service.turndown(document.querySelector('main') as unknown as HTMLElement);
    // The blank span goes to the blank rule, not to the probe.
    expect(seen).toEqual([
      { tag: 'B', isBlock: false, isCode: true, isBlank: false, textFlags: false },
      { tag: 'CODE', isBlock: false, isCode: true, isBlank: false, textFlags: false },
      { tag: 'P', isBlock: true, isCode: undefined, isBlank: false, textFlags: false },
    ]);
  });

  it('refuses code it was not written for', () => {
    expect(() => nodeFlags('function Node(node) {}')).toThrow(/turndown changed/);
  });
});
