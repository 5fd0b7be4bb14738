/**
 * Keys generation computes over every block of every page (the chrome learner's exact key, the
 * repeated-text test's word key, `oneLine`) skip the replaces their definitions are written with
 * when the text needs none, and read words in one pass. Each is checked here against its
 * definition, written out plainly, on generated text made of the pieces where a shortcut could go
 * wrong: every kind of space and runs of them, link targets, Unicode letters and digits outside
 * ASCII and the BMP, marks, lone surrogates, letters whose lower case is longer (`İ`).
 */
import { describe, expect, it } from 'vitest';
import { exactKey } from '@/lib/generate/boilerplate';
import { oneLine, wordKey } from '@/lib/generate/text';

function generator(seed: number) {
  let state = seed;
  const random = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor(state / 65536) % n;
  };
  return { random, pick: <T>(items: readonly T[]): T => items[random(items.length)] as T };
}

const PIECES = [
  'Next', 'the', 'A', 'z', '0', '42', 'Ünïcode', 'ΑΣ', '漢字', '𝐀𝐁𝐂', '\u{1D7D8}', 'e\u0301', 'İstanbul', 'ǅ', '🎉', '\ud800', '\udc00', 'Ⅻ',
  '[x](y)', '](', '](a b)', '[Next](next.html#s)', '(', ')', '_', '-', '.', ',', "'", '`', '|', '»', '—',
  ' ', ' ', ' ', '  ', '\n', '\t', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u200b', '\u000b', '\f',
];

function texts(seed: number, count: number): string[] {
  const { random, pick } = generator(seed);
  const out: string[] = ['', ' ', 'a', ' a ', '\u00a0', '.', 'a.b', 'a b', 'a  b'];
  for (let t = 0; t < count; t++) {
    const parts: string[] = [];
    for (let p = 0; p < random(14); p++) parts.push(pick(PIECES));
    out.push(parts.join(random(3) ? '' : ' '));
  }
  return out;
}

const exactKeyDefinition = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
const oneLineDefinition = (text: string) => text.replace(/\s+/g, ' ').trim();
const wordKeyDefinition = (text: string) => text.replace(/\]\([^()\s]*\)/g, ' ').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

describe('generation text keys', () => {
  const cases = texts(7, 20000);

  it('exactKey is the collapsed, trimmed, lower-cased text', () => {
    for (const text of cases) expect(exactKey(text), JSON.stringify(text)).toBe(exactKeyDefinition(text));
  });

  it('oneLine is the collapsed, trimmed text', () => {
    for (const text of cases) expect(oneLine(text), JSON.stringify(text)).toBe(oneLineDefinition(text));
    expect(oneLine(undefined)).toBe('');
  });

  it('wordKey is the lower-cased words without link targets', () => {
    for (const text of cases) expect(wordKey(text), JSON.stringify(text)).toBe(wordKeyDefinition(text));
  });
});
