import { describe, expect, it } from 'vitest';
import { assembleFull, countFull, fullTextPieces, type FullPart, type FullTotals } from '@/lib/generate/full-text';
import { countTokens } from '@/lib/tokens';

describe('fullTextPieces', () => {
  const bodies = ['', 'Plain words.', 'Trailing spaces   \n\n', '  \n\t', '# Heading\n\n```\ncode\n```', 'ends in a newline\n', '/path first', '- a list: ok.'];
  const part = (i: number, body: string): FullPart => ({ key: String(i), title: i % 2 ? `Page ${i}` : '', url: `https://docs.example.test/p${i}.html`, body });
  const heads = [{ title: 'Site' }, { title: 'Site', summary: 'The docs.' }];
  const bodyTokens = (part: FullPart) => countTokens(`${part.body}\n\n`);

  /** The pieces joined, and what they counted, for `parts` handed over one at a time. */
  function pieces(head: { title: string; summary?: string }, parts: FullPart[], preamble: string): { text: string; totals: FullTotals; taken: number[] } {
    const totals: FullTotals = { chars: 0, tokens: 0, pages: 0, done: false };
    const taken: number[] = [];
    // A part is asked for only when its piece is due: the pieces written before it say so.
    function* lazily(): Generator<FullPart> {
      for (const p of parts) {
        taken.push(written);
        yield p;
      }
    }
    let written = 0;
    let text = '';
    for (const piece of fullTextPieces(head, lazily(), countTokens, bodyTokens, totals, preamble)) {
      text += piece;
      written++;
    }
    return { text, totals, taken };
  }

  it('joins to the assembled file and counts its length, tokens and pages as countFull does', () => {
    let cases = 0;
    for (const head of heads) {
      for (const preamble of ['', '\nAn intro.\n', '  \n']) {
        for (const parts of [[], ...bodies.flatMap((first) => bodies.map((last) => [part(1, first), part(2, 'Between.'), part(3, last)])), ...bodies.map((last) => [part(4, last)])]) {
          const text = assembleFull(head, parts, preamble);
          const got = pieces(head, parts, preamble);
          const what = JSON.stringify({ parts: parts.map((p) => p.body), preamble });
          expect(got.text, what).toBe(text);
          expect(got.totals, what).toEqual({ chars: text.length, tokens: countFull(head, parts, countTokens, bodyTokens, preamble), pages: parts.length, done: true });
          // Exact: the sum of pieces is the count of the whole file.
          expect(got.totals.tokens, what).toBe(countTokens(text));
          // Part i is taken once the pieces before it (the head, parts before i-1) are written: one part held back at most.
          expect(got.taken, what).toEqual(parts.map((_, i) => Math.max(0, i)));
          cases++;
        }
      }
    }
    expect(cases).toBe(heads.length * 3 * (1 + bodies.length ** 2 + bodies.length));
  });
});
