import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BodySpill } from '@/lib/store/memory/body-spill';
import { copy } from '@/lib/store/memory/store';

const parents: string[] = [];
afterEach(() => {
  for (const dir of parents.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function spill(minChars = 8): BodySpill {
  const parent = mkdtempSync(join(tmpdir(), 'scout-spill-unit-'));
  parents.push(parent);
  return new BodySpill(parent, minChars);
}

describe('BodySpill', () => {
  it('keeps a long field on disk and gives the record back whole: same keys, same order, same text', () => {
    const s = spill();
    const text = `# Title\n\n${'Body text, ünïcode ✓ and 😀. '.repeat(50)}`;
    const record = { key: 'k', markdown: text, after: 1 };
    const original = JSON.stringify(record);
    s.hold(record, 'markdown');
    expect(Object.getOwnPropertyDescriptor(record, 'markdown')?.value).toBeUndefined();
    // A body with a character past U+00FF is kept in UTF-16 (Node decodes it faster than such UTF-8).
    expect(readFileSync(join(s.folder as string, 'bodies'), 'utf16le')).toBe(text);
    expect(JSON.stringify(record)).toBe(original);
    expect(JSON.stringify(copy(record))).toBe(original);
    expect(Object.keys(copy(record))).toEqual(['key', 'markdown', 'after']);
  });

  it('keeps ASCII and Latin-1 bodies, and texts of several writes, in UTF-8; gives every body as UTF-8', () => {
    const s = spill();
    const latin = `# Café\n\n${'déjà vu, naïve. '.repeat(80)}`;
    const wide = `# Quotes\n\n${'“quoted” — and ’ '.repeat(80)}`;
    const long = `${'“long” text '.repeat(7000)}`;
    const records = [latin, wide, long].map((markdown) => s.hold({ markdown }, 'markdown'));
    const file = readFileSync(join(s.folder as string, 'bodies'));
    const latinBytes = Buffer.byteLength(latin, 'utf8');
    expect(file.subarray(0, latinBytes).toString('utf8')).toBe(latin);
    expect(file.subarray(latinBytes, latinBytes + 2 * wide.length).toString('utf16le')).toBe(wide);
    expect(file.subarray(latinBytes + 2 * wide.length).toString('utf8')).toBe(long);
    records.forEach((record, i) => expect(record.markdown).toBe([latin, wide, long][i]));
    const pieces = s.writeAll(['“a” ', wide, ' “b”']);
    expect(s.read(pieces)).toBe(`“a” ${wide} “b”`);
    expect(s.utf8(pieces).toString('utf8')).toBe(`“a” ${wide} “b”`);
    const held = s.hold({ markdown: wide }, 'markdown');
    expect(held.markdown).toBe(wide);
  });

  it('round-trips text UTF-8 cannot hold (a lone surrogate), as IndexedDB keeps it', () => {
    const s = spill();
    const text = `before \ud800 after ${'x'.repeat(20)}`;
    const record = s.hold({ markdown: text }, 'markdown');
    expect(record.markdown).toBe(text);
    expect(record.markdown.isWellFormed()).toBe(false);
  });

  it('leaves short text in the row, and writes a field set again to the end of the file', () => {
    const s = spill(100);
    const short = s.hold({ markdown: 'short' }, 'markdown');
    expect(Object.getOwnPropertyDescriptor(short, 'markdown')?.value).toBe('short');
    expect(s.folder).toBeUndefined();
    const long = s.hold({ markdown: 'a'.repeat(150) }, 'markdown');
    long.markdown = 'b'.repeat(120);
    expect(long.markdown).toBe('b'.repeat(120));
  });

  it('writes pieces as one body that reads back as their join, whatever they hold', () => {
    const s = spill();
    const pair = '😀';
    const cases = [
      ['# Head\n\n', 'ünïcode ✓ ', 'and 😀.\n'],
      [],
      [''],
      ['well formed ', 'lone \ud800 surrogate', ' after'],
      // A surrogate pair cut between two pieces is whole once joined.
      [`cut ${pair[0]}`, `${pair[1]} joined`, ' then more'],
    ];
    const refs = cases.map((pieces) => s.writeAll(pieces));
    // Another write between them changes none of the bodies written before.
    s.write('unrelated');
    refs.forEach((ref, i) => expect(s.read(ref)).toBe((cases[i] as string[]).join('')));
  });

  it('gives a body as the UTF-8 bytes writing its text to a file gives, and its length in characters', () => {
    const s = spill();
    const cases = [['# Head\n\n', 'ünïcode ✓ ', 'and 😀.\n'], ['well formed ', 'lone \ud800 surrogate'], ['plain']];
    for (const pieces of cases) {
      const text = pieces.join('');
      const ref = s.writeAll(pieces);
      s.write('between');
      expect(Buffer.compare(s.utf8(ref), Buffer.from(text, 'utf8'))).toBe(0);
      expect(ref.chars).toBe(text.length);
    }
  });

  it('removes its folder on close; a body is not read after', () => {
    const s = spill();
    const record = s.hold({ markdown: 'z'.repeat(50) }, 'markdown');
    const folder = s.folder as string;
    expect(existsSync(folder)).toBe(true);
    s.close();
    expect(existsSync(folder)).toBe(false);
    expect(() => record.markdown).toThrow(/closed/);
  });
});
