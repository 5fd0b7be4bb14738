import { describe, expect, it } from 'vitest';
import { assembledLength, assembleFull, fullTextPieces, type FullPart } from '@/lib/generate/full-text';

describe('assembledLength and fullTextPieces', () => {
  const bodies = ['', 'Plain words.', 'Trailing spaces   \n\n', '  \n\t', '# Heading\n\n```\ncode\n```', 'ends in a newline\n'];
  const part = (i: number, body: string): FullPart => ({ key: String(i), title: i % 2 ? `Page ${i}` : '', url: `https://docs.example.test/p${i}.html`, body });
  const heads = [{ title: 'Site' }, { title: 'Site', summary: 'The docs.' }];

  it('is the length of the assembled file, whatever its last and other bodies end in', () => {
    let cases = 0;
    for (const head of heads) {
      for (const preamble of ['', '\nAn intro.\n', '  \n']) {
        expect(assembledLength(head, [], preamble)).toBe(assembleFull(head, [], preamble).length);
        expect([...fullTextPieces(head, [], preamble)].join('')).toBe(assembleFull(head, [], preamble));
        for (const first of bodies) {
          for (const last of bodies) {
            const parts = [part(1, first), part(2, 'Between.'), part(3, last)];
            expect(assembledLength(head, parts, preamble), JSON.stringify({ first, last, preamble })).toBe(assembleFull(head, parts, preamble).length);
            expect(assembledLength(head, [part(4, last)], preamble)).toBe(assembleFull(head, [part(4, last)], preamble).length);
            // Written piece by piece (scout generate), the file is the same text.
            expect([...fullTextPieces(head, parts, preamble)].join('')).toBe(assembleFull(head, parts, preamble));
            expect([...fullTextPieces(head, [part(4, last)], preamble)].join('')).toBe(assembleFull(head, [part(4, last)], preamble));
            cases++;
          }
        }
      }
    }
    expect(cases).toBe(heads.length * 3 * bodies.length ** 2);
  });
});
