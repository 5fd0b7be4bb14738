import { countTokens as countO200k } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { asciiPreTokensOf } from '@/lib/generate/segment-count';
import { countAsciiPreToken, countTokens } from '@/lib/tokens';

// countTokens cuts a run of letters or spaces longer than 256 characters into pieces (tokens.ts):
// text of up to 256 characters is counted whole, and one character more is where cutting starts.
describe('countTokens', () => {
  const exact = (text: string) => countO200k(text, { disallowedSpecial: new Set() });

  it('counts text of up to 256 characters whole, as the tokenizer does', () => {
    for (const text of ['a'.repeat(256), ' '.repeat(256), `${'x'.repeat(200)} <|endoftext|> ${'y'.repeat(40)}`, 'héllo wörld, ünïcode'.repeat(12).slice(0, 256)]) {
      expect(countTokens(text), JSON.stringify(text.slice(0, 20))).toBe(exact(text));
    }
  });

  it('cuts a run at its 257th character', () => {
    // Cut after 256 characters, "abcabc…" ends "…ab" + "c": one token more than counted whole.
    const run = 'abc'.repeat(100);
    expect(countTokens(run.slice(0, 257))).not.toBe(exact(run.slice(0, 257)));
    expect(countTokens(run.slice(0, 257))).toBe(exact(run.slice(0, 256)) + exact(run.slice(256, 257)));
    expect(countTokens(`${run} tail`)).toBe(exact(run.slice(0, 256)) + exact(`${run.slice(256)} tail`));
  });

  it('is 0 for the empty string', () => {
    expect(countTokens('')).toBe(0);
  });
});

// The segment counter's own byte-pair merge of ASCII pre-tokens must count as the package does.
describe('countAsciiPreToken', () => {
  const exact = (text: string) => countO200k(text, { disallowedSpecial: new Set() });
  let state = 33;
  const random = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  // Rare letters, digits and punctuation in random runs: words the vocabulary does not hold whole,
  // so their parts are merged step by step, ties and dead ends included.
  const ALPHABET = 'etaoinshrdlucmfwypvbgkjqxzETAOINSQXZ0123456789 .,;:_-/\\()[]{}<>|=+*&^%$#@!?~`"\'\n\t';
  const texts = Array.from({ length: 4000 }, () => Array.from({ length: 1 + random(40) }, () => ALPHABET[random(ALPHABET.length)]).join(''));

  it('counts every ASCII pre-token as the tokenizer does', () => {
    let merged = 0;
    for (const text of texts) {
      for (const piece of asciiPreTokensOf(text)) {
        expect(countAsciiPreToken(piece), JSON.stringify(piece)).toBe(exact(piece));
        if (exact(piece) > 1) merged++;
      }
    }
    // Most pre-tokens here are not one token: the merge itself was tested, not only the lookup.
    expect(merged).toBeGreaterThan(2000);
    for (const piece of ['', 'a', 'Hello', ' world', 'HTTPServer', '<|endoftext|>', '\n\n', 'x'.repeat(256), 'x'.repeat(300), ' '.repeat(300)]) {
      expect(countAsciiPreToken(piece), JSON.stringify(piece.slice(0, 20))).toBe(piece.length > 256 ? countTokens(piece) : exact(piece));
    }
  });
});
