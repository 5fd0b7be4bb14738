import { describe, expect, it } from 'vitest';
import { classifyPages } from '@/lib/generate/page-class';
import type { SourcePage } from '@/lib/generate/types';

// The limits of a source listing by shape (page-class.ts): at least 40 lines of code, at most 25
// words of prose. Pages on either side of each limit, so a count off by one either way fails.
function page(path: string, codeLines: number, proseWords: number): SourcePage {
  const code = Array.from({ length: codeLines }, (_, i) => `let x${i} = ${i};`).join('\n');
  // Prose words, a heading and a link target besides: neither of the two is prose.
  const prose = Array.from({ length: proseWords }, (_, i) => `word${i}`).join(' ');
  const markdown = `\`\`\`\n${code}\n\`\`\`\n\n# Heading words here\n\n${prose} [link text](https://docs.example.test/target-words.html)`;
  const url = `https://docs.example.test/${path}`;
  return { key: url, url, finalUrl: url, title: 'Page', markdown, depth: 1, format: 'html', state: 'stored' };
}

describe('source listing by shape', () => {
  it('needs 40 lines of code and at most 25 words of prose', () => {
    // "link text" is two words of prose; the link's target is not.
    const cases: Array<[number, number, boolean]> = [
      [40, 23, true],
      [39, 23, false],
      [40, 24, false],
      [120, 23, true],
      [120, 24, false],
      [120, 0, true],
    ];
    const pages = cases.map(([lines, words], i) => page(`p${i}.html`, lines, words));
    const classes = classifyPages(pages);
    cases.forEach(([lines, words, source], i) => expect(classes.get(pages[i] as SourcePage) === 'source', `${lines} lines, ${words} + 2 words`).toBe(source));
  });
});
