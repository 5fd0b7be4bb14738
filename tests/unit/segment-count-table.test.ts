import { describe, expect, it } from 'vitest';
import { segmentCounter } from '@/lib/generate/segment-count';
import { countTokens } from '@/lib/tokens';

// Words of every kind a cut or a hash could trip on: punctuation after letters, digits, Unicode
// letters and spaces, an astral character, link syntax.
const WORDS = ['the', 'Session', 'os.path', 'x=1;', '12345', 'naïve', '漢字', '🎉', '[a](https://docs.example.test/b.html#c)', "it's", '—', '\u00a0', '\t', '/usr/bin', '(see', 'below).', 'CamelCase', '...'];

describe('segmentCounter table', () => {
  it('counts many distinct texts exactly, before and after its table grows, and again from it', () => {
    // A fixed seed: the same texts on every run, and a failure names the text.
    let seed = 424242;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const paragraph = () => Array.from({ length: 1 + random(30) }, () => WORDS[random(WORDS.length)]).join(random(5) === 0 ? '\n' : ' ');
    // Thousands of distinct paragraphs and segments, many of one length: the table grows from
    // its first size many times over, and pieces of equal length meet in its slots.
    const texts = Array.from({ length: 3000 }, () => Array.from({ length: 1 + random(6) }, paragraph).join('\n\n'));
    const count = segmentCounter();
    for (const text of texts) expect(count(text), JSON.stringify(text)).toBe(countTokens(text));
    // The second time every paragraph is found in the table.
    for (const text of texts) expect(count(text), JSON.stringify(text)).toBe(countTokens(text));
  });

});
