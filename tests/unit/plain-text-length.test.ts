/**
 * plainTextLength counts in one pass what its definition builds as text: images removed, link
 * targets cut to `]`, runs of markup and whitespace made one space, the ends trimmed. The
 * definition, written as those replacements, is the reference here; generated Markdown made of the
 * characters those rules turn on must count the same.
 */
import { describe, expect, it } from 'vitest';
import { plainTextLength } from '@/lib/shell/detect';

/** The definition, step by step: what plainTextLength must agree with. */
function byDefinition(markdown: string): number {
  return markdown
    .replace(/!\[[^[\]]*\]\((?:[^()]|\([^()]*\))*\)/g, '')
    .replace(/\]\((?:[^()]|\([^()]*\))*\)/g, ']')
    .replace(/[#*_`>|[\]-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim().length;
}

// Markup, brackets, every kind of whitespace (and characters that look like it but are not: U+180E,
// U+200B), letters, and a surrogate pair.
const PIECES = ['!', '[', ']', '(', ')', '#', '*', '_', '`', '>', '|', '-', ' ', '\n', '\t', '\u000b', '\u00a0', '\u1680', '\u2003', '\u2028', '\u202f', '\u3000', '\ufeff', '\u180e', '\u200b', 'a', 'b', 'é', '😀', '](', '![', '](x)', '![i](y)', '[t](u)'];

/** A deterministic pseudo-random sequence, so a failure names a string that can be run again. */
function* strings(count: number): Generator<string> {
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  for (let n = 0; n < count; n++) {
    let text = '';
    const length = next() % 30;
    for (let i = 0; i < length; i++) text += PIECES[next() % PIECES.length];
    yield text;
  }
}

describe('plainTextLength', () => {
  it('counts what its definition counts, on generated Markdown of markup, brackets and whitespace', () => {
    const counts = new Set<number>();
    for (const text of strings(30_000)) {
      const expected = byDefinition(text);
      counts.add(expected);
      expect(plainTextLength(text), JSON.stringify(text)).toBe(expected);
    }
    // The generated texts reach many different answers, zero among them.
    expect(counts.has(0)).toBe(true);
    expect(counts.size).toBeGreaterThan(20);
  });

  it('counts what its definition counts on real page shapes', () => {
    const pages = [
      '# Title\n\n[a link](https://example.test/a/very/long/path/that/is/no/text) ![img](x.png) **bold**',
      '[a]![i](x)(y) b',
      '- [os.path](https://docs.python.test/library/os.path.html#module-os.path) — Common pathname manipulations\n- `x`',
      '| a | b |\n|---|---|\n| [c](d_(e)) | f |\n\n```py\nprint(1)\n```',
      '![only an image](x.png)',
      '\u00a0 \n# \n',
      '[unclosed](https://x.test/a(b c',
    ];
    for (const page of pages) expect(plainTextLength(page), page).toBe(byDefinition(page));
  });

  it('stops at the limit it is given, and answers exactly below it', () => {
    const page = `# Guide\n\n${'Some words [and a link](https://x.test/). '.repeat(50)}`;
    expect(plainTextLength(page, 200)).toBe(200);
    expect(plainTextLength(page, 1)).toBe(1);
    expect(plainTextLength('# Hi', 200)).toBe(2);
    expect(plainTextLength('![x](y) --- ', 1)).toBe(0);
  });
});
