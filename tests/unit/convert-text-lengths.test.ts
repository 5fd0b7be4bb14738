import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linkedomAdapter } from '../../lib/convert/dom';
import { textLengths } from '../../lib/convert/walk';
import { htmlFilesOf } from '../../bench/harness';
import { nodeDocsDir } from '../fixtures/real-docs';

/** Every element's length measured one by one, the way textLength does. */
function expected(root: Element): Map<Element, number> {
  return new Map([root, ...root.querySelectorAll('*')].map((e) => [e, e.textContent?.length ?? 0]));
}

describe('textLengths (one walk for many containers)', () => {
  it('gives each element the length of its textContent: nesting, empty elements, comments, entities, last children', () => {
    const doc = linkedomAdapter.parse(
      '<html><body><div id="a"><p>one <b>two</b></p><!-- not text --><div id="b"><span></span><i>x&amp;y</i></div></div><main><section><p>deep<em>er</em></p></section></main><br></body></html>',
    );
    const body = doc.body;
    const lengths = textLengths(body, body.querySelectorAll('*'));
    expect(lengths).toEqual(expected(body));
    expect(lengths.get(body)).toBe('one twox&ydeeper'.length);
  });

  it('measures only what it is asked for, and the root', () => {
    const doc = linkedomAdapter.parse('<html><body><div><p>ab</p></div><p>cde</p></body></html>');
    const [p] = doc.body.querySelectorAll('p');
    const lengths = textLengths(doc.body, [p as Element]);
    expect([...lengths.values()].sort()).toEqual([2, 5]);
  });

  it('agrees with textContent on every element of real pages (Node.js docs)', () => {
    const dir = nodeDocsDir();
    for (const file of htmlFilesOf(dir).slice(0, 5)) {
      const body = linkedomAdapter.parse(readFileSync(file, 'utf8')).body;
      const want = expected(body);
      const got = textLengths(body, want.keys());
      expect([...want].filter(([e, n]) => got.get(e) !== n).length).toBe(0);
    }
  });
});
