import { describe, expect, it } from 'vitest';
import { contentFingerprint, foldedUtf8 } from '@/lib/hash';

/** The fingerprint as it is defined: SHA-256 of the text with whitespace runs folded to one space and trimmed, as UTF-8. */
async function reference(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text.replace(/\s+/g, ' ').trim());
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// Every character JavaScript's \s matches, and some it does not (zero-width space, U+180E).
const SPACES = [' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
const OTHERS = ['a', 'Z', '#', '](', 'é', '—', '“', '中', '😀', '\u200b', '\u180e', '\ud800', '\udc00'];

/** A reproducible mix of words, every kind of whitespace in runs of every length, and lone surrogates. */
function mixed(seed: number, length: number): string {
  let x = seed;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  let text = '';
  while (text.length < length) {
    const pool = next() % 3 === 0 ? SPACES : OTHERS;
    const run = 1 + (next() % 4);
    for (let i = 0; i < run; i++) text += pool[next() % pool.length];
  }
  return text;
}

describe('contentFingerprint', () => {
  it('is the digest of the folded, trimmed text, for every kind of whitespace and character', async () => {
    const texts = ['', ' ', '\n\n', 'a', ' a ', 'a  b', 'a\nb', 'a \n\t b', '\u00a0a\u3000', '# Title\n\nSome text.\n', 'x\ud83d', '\udc00 y', ...SPACES.map((s) => `a${s}b`), ...SPACES.map((s) => `${s}${s}a${s}`)];
    for (let seed = 1; seed <= 40; seed++) texts.push(mixed(seed, 50 + seed * 37));
    for (const text of texts) expect(await contentFingerprint(text), JSON.stringify(text.slice(0, 80))).toBe(await reference(text));
  });

  it('folds into its own buffer without one page leaking into the next, for pages past the buffer kept', async () => {
    // Bigger than the first buffer (64 KiB) and than the one kept between pages (4 MiB), then small again.
    const texts = [mixed(7, 30_000), mixed(8, 1_500_000), mixed(9, 100), mixed(10, 40_000), 'short page'];
    const alone = await Promise.all(texts.map(reference));
    // Concurrent pages: each digest must have its bytes before the next page is folded into the buffer.
    expect(await Promise.all(texts.map((t) => contentFingerprint(t)))).toEqual(alone);
    for (const [i, text] of texts.entries()) expect(await contentFingerprint(text)).toBe(alone[i]);
  });

  it('folds exactly the characters \\s matches, of every UTF-16 code unit', () => {
    // Whitespace is told apart in UTF-8 bytes: each code unit between two letters, alone and in a run.
    let text = '';
    for (let unit = 0; unit < 0x10000; unit++) {
      const c = String.fromCharCode(unit);
      text += `a${c}b${c}${c} `;
    }
    const expected = new TextEncoder().encode(text.replace(/\s+/g, ' ').trim());
    expect(Buffer.from(foldedUtf8(text)).equals(Buffer.from(expected))).toBe(true);
  });

  it('gives the folded bytes themselves', () => {
    expect(new TextDecoder().decode(foldedUtf8('  Hello,\n\n  wörld\u3000😀  '))).toBe('Hello, wörld 😀');
    expect(foldedUtf8(' \n\t ').length).toBe(0);
  });
});
