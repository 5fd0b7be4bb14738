/**
 * The rule lookup by tag (lib/convert/rule-index.ts) picks the rule turndown's own `forNode` would:
 * the same Markdown from services that differ only in the lookup, over HTML, foreign (SVG, MathML)
 * and custom elements, with tag, list and function filters, keep and remove rules (a remove rule's function filter is tried on every node).
 */
import { strikethrough, tables, taskListItems } from '@joplin/turndown-plugin-gfm';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { describe, expect, it } from 'vitest';
import { indexRules } from '../../lib/convert/rule-index';

function service(indexed: boolean): TurndownService {
  const s = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' }).use([strikethrough, tables, taskListItems]);
  s.addRule('mark', { filter: ['mark', 'kbd'], replacement: (content) => `==${content}==` });
  s.addRule('dataLink', { filter: (node) => node.nodeName === 'A' && node.hasAttribute('data-x'), replacement: (content) => `<<${content}>>` });
  s.keep(['abbr']);
  s.remove((node) => node.nodeName === 'MY-WIDGET');
  if (indexed) indexRules(s);
  return s;
}

const INPUTS = [
  '<h2>Title</h2><p>Some <b>bold</b>, <i>it</i>, <code>c</code>, <mark>m</mark> and <KBD>K</KBD>.</p>',
  '<p><a href="/x">link</a> <a data-x="1" href="/y">data</a> <a>bare</a> <abbr title="t">ab</abbr></p>',
  '<svg><a href="/in-svg"><text>svg text</text></a><title>T</title></svg><math><mi>x</mi></math>',
  '<my-widget>gone</my-widget><x-card><p>custom <strong>card</strong></p></x-card><del>old</del>',
  '<ul><li>one</li><li><input type="checkbox" checked> two</li></ul><pre><code class="language-js">let a;</code></pre>',
  '<table><tr><th>A</th></tr><tr><td>1</td></tr></table><hr><img src="/i.png" alt="i"><br>',
];

describe('indexRules', () => {
  it('writes the same Markdown as turndown finding rules itself', () => {
    const [plain, indexed] = [service(false), service(true)];
    for (const html of INPUTS) {
      const convert = (s: TurndownService) => s.turndown(parseHTML(`<html><body><main>${html}</main></body></html>`).document.querySelector('main') as unknown as HTMLElement);
      const expected = convert(plain);
      expect(convert(indexed), html).toBe(expected);
      // Twice: the second time every list comes from the index.
      expect(convert(indexed), html).toBe(expected);
    }
    expect(service(false).turndown('<p><mark>m</mark> <a data-x="1" href="/y">d</a></p>')).toBe('==m== <<d>>');
  });
});
