/**
 * The segment counter cuts ASCII segments into o200k pre-tokens itself and tokenizes each distinct
 * one once. Its cut must be the tokenizer's own pattern's, match for match, or counts drift.
 */
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/esm/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import { asciiPreTokensOf, segmentCounter } from '@/lib/generate/segment-count';
import { countTokens } from '@/lib/tokens';

// Every ASCII class the pattern tells apart, and the sequences its alternatives hinge on: a
// space or punctuation before letters, upper- then lower-case runs, contractions, digit runs
// longer than three, spaces before a line break or a non-space, `/` after punctuation.
const PIECES = [
  'a', 'z', 'A', 'Z', 'q', 'Hello', 'HTTPServer', 'iOS', '0', '7', '1234567', ' ', '  ', '\t', '\n', '\r\n', '\r', '\v', '\f',
  "'", "'s", "'S", "'ll", "'LL", "'ve", "'re", "'d", "'m", "'t", "'x", '.', ',', '(', ')', '/', '//', '#', '-', '_', '`', '~', '\\',
  '"', '<|endoftext|>', '\u0000', '\u001f', '\u007f', '](', 'http://x.y/a_b#c',
];

function generator(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
}

describe('ASCII pre-tokens', () => {
  const random = generator(2026);
  const texts = Array.from({ length: 20000 }, () => Array.from({ length: 1 + random(14) }, () => PIECES[random(PIECES.length)]).join(''));

  it('are the matches of the o200k pattern', () => {
    for (const text of texts) {
      const expected = [...text.matchAll(new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu'))].map((match) => match[0]);
      expect(asciiPreTokensOf(text), JSON.stringify(text)).toEqual(expected);
    }
  });

  it('count each text as the tokenizer counts it whole', () => {
    const count = segmentCounter();
    let differentCuts = 0;
    for (const text of texts) {
      expect(count(text), JSON.stringify(text)).toBe(countTokens(text));
      if (asciiPreTokensOf(text).length > 1) differentCuts++;
    }
    expect(differentCuts).toBeGreaterThan(10000);
  });
});
