import { describe, expect, it } from 'vitest';
import { demoteHeadings } from '../../lib/generate/demote-headings';
import { renderLlmsFull, type FullPage } from '../../lib/generate/render';
import { countTokens } from '../../lib/tokens';
import { seededRandom as random } from '../fixtures/seeded-random';

const PIECES = ['# Title', '## Part', '### Deep', 'Some text [a link](/x.html#y).', '```\n# not a heading\n```', '', '/path first', '  indented', 'Setext\n======', '- item', '| a | b |'];

function pages(seed: number, n: number): FullPage[] {
  const r = random(seed);
  return Array.from({ length: n }, (_, i) => {
    const lines = Array.from({ length: 1 + Math.floor(r() * 8) }, () => PIECES[Math.floor(r() * PIECES.length)] as string);
    // Half the pages open with a heading that repeats their title (demoteHeadings drops it).
    const markdown = (r() < 0.5 ? `# Title\n\n` : '') + lines.join('\n\n');
    return { key: `k${i}`, title: 'Title', url: `https://example.test/p${i}.html`, markdown };
  });
}

describe('renderLlmsFull with the bodies and counts its caller made', () => {
  it('writes and counts exactly what it makes from the Markdown alone', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const plain = pages(seed, 1 + (seed % 7));
      // What generateWithFull hands over: the demoted body it counted, and that count.
      const given = plain.map((page) => {
        const body = demoteHeadings(page.markdown, page.title);
        return { ...page, body, bodyCount: countTokens(`${body}\n\n`) };
      });
      const head = { title: 'Site', summary: 'About it' };
      const expected = renderLlmsFull(head, plain, countTokens);
      expect(renderLlmsFull(head, given, countTokens)).toEqual(expected);
      expect(expected.tokens).toBe(countTokens(expected.text));
    }
  });
});
