import { countTokens as countO200k } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { countTokens } from '@/lib/tokens';

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
