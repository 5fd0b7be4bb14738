import { describe, expect, it } from 'vitest';
import { bodyOf, indexFullText } from '@/lib/generate/full-text';
import { renderLlmsFull, type FullPage } from '@/lib/generate/render';
import type { LlmsSectionModel } from '@/lib/generate/types';
import { countTokens } from '@/lib/tokens';

/**
 * renderLlmsFull says where each page's body is as it appends it: the same index (and bodies) as
 * searching the text it made, so nothing needs the text read whole to lay out the files.
 */
describe('renderLlmsFull index', () => {
  const bodies = ['', 'Plain words.', 'Trailing spaces   \n\n', '  \n\t', '# Heading\n\n## Sub\n\ntext', 'ends in a newline\n', '/path first', ' leading space'];
  const site = 'https://docs.example.test';

  function pagesOf(list: string[]): { pages: FullPage[]; sections: LlmsSectionModel[] } {
    const pages = list.map((markdown, i): FullPage => ({ key: `k${i}`, title: i % 3 === 0 ? '' : `Page ${i}`, url: `${site}/p${i}.html`, ...(i % 2 ? { link: `${site}/p${i}.md` } : {}), markdown }));
    // One page the file leaves out (an aggregate): listed, in no index.
    const entries = pages.map((p) => ({ key: p.key ?? '', title: p.title, url: p.link ?? p.url, pageUrl: p.url, tokens: 0 }));
    entries.splice(1, 0, { key: 'gone', title: 'Left out', url: `${site}/gone.html`, pageUrl: `${site}/gone.html`, tokens: 0 });
    return { pages, sections: [{ id: 'a', name: 'A', optional: false, entries: entries.slice(0, 2), tokens: 0 }, { id: 'b', name: 'B', optional: false, entries: entries.slice(2), tokens: 0 }] };
  }

  it('gives the index and bodies that searching its text gives, and pieces that join to the text', () => {
    let cases = 0;
    for (const head of [{ title: 'Site' }, { title: 'Site', summary: 'The docs.' }]) {
      for (const list of [[], ...bodies.flatMap((first) => bodies.map((last) => [first, 'Between.', last])), ...bodies.map((only) => [only])]) {
        const { pages, sections } = pagesOf(list);
        const full = renderLlmsFull(head, pages, countTokens);
        const what = JSON.stringify(list);
        expect(full.pieces.join(''), what).toBe(full.text);
        const searched = indexFullText(full.text, sections);
        expect(full.index, what).toEqual(searched);
        expect(full.bodies, what).toEqual(searched.map((entry) => bodyOf(full.text, entry)));
        expect(full.tokens, what).toBe(countTokens(full.text));
        cases++;
      }
    }
    expect(cases).toBe(2 * (1 + bodies.length * bodies.length + bodies.length));
  });

  it('appends each body but the last as a piece of its own, never inside a longer one', () => {
    const list = ['# One\n\nFirst page.', ' starts with a space', 'Third page.', 'Last page.'];
    const { pages } = pagesOf(list);
    const full = renderLlmsFull({ title: 'Site' }, pages);
    full.bodies.slice(0, -1).forEach((body) => {
      expect(full.pieces.filter((piece) => piece.includes(body))).toEqual([body]);
    });
  });
});
