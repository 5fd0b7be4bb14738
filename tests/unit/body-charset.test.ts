import { describe, expect, it } from 'vitest';
import { decodeBody, decodeHead, isBlankBody } from '@/lib/fetch/body';

// Bodies whose decoded text is whitespace only, or not, in ways a byte-level check would get wrong.
const bytes = (...parts: Array<number[] | string>) => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p)] : p)));
const repeat = (part: number[], n: number) => Array.from({ length: n }, () => part).flat();
const CASES: Array<[string, Uint8Array, string]> = [
  ['empty', bytes(), 'text/html'],
  ['ASCII whitespace', bytes(' \n\t\r\f '), 'text/html'],
  ['a no-break space in windows-1252', bytes('  ', [0xa0], ' '), 'text/html; charset=windows-1252'],
  ['a no-break space in UTF-8', bytes(' ', [0xc2, 0xa0]), 'text/html'],
  ['a UTF-8 BOM and spaces', bytes([0xef, 0xbb, 0xbf], '   '), 'text/html'],
  ['ideographic spaces across a 4 KB step', bytes(repeat([0xe3, 0x80, 0x80], 3000)), 'text/html; charset=utf-8'],
  ['ideographic spaces, then a letter', bytes(repeat([0xe3, 0x80, 0x80], 3000), 'x'), 'text/html; charset=utf-8'],
  ['spaces, then a cut-off character', bytes('   ', [0xe3, 0x80]), 'text/html'],
  ['UTF-16LE spaces with a BOM', bytes([0xff, 0xfe, 0x20, 0x00, 0x0a, 0x00]), 'text/html'],
  ['UTF-16LE spaces, odd length', bytes([0xff, 0xfe, 0x20, 0x00, 0x20]), 'text/html'],
  ['windows-1252 0x85 (… not NEL)', bytes(' ', [0x85]), 'text/html; charset=windows-1252'],
  ['a NUL', bytes(' ', [0x00]), 'text/html'],
  ['a label that maps to the replacement decoder', bytes('  '), 'text/html; charset=iso-2022-kr'],
  ['Shift_JIS by <meta> after 5 KB of spaces', bytes(' '.repeat(5000), '<meta charset="shift_jis">', [0x93, 0xfa]), 'text/html'],
];

describe('an HTML body read in part, as the crawl reads it before handing the bytes on', () => {
  it.each(CASES)('isBlankBody agrees with decoding it whole: %s', (_, body, contentType) => {
    expect(isBlankBody(body, contentType, true)).toBe(decodeBody(body, contentType, true).trim() === '');
  });

  it.each(CASES)('decodeHead is the start of the decoded body: %s', (_, body, contentType) => {
    const whole = decodeBody(body, contentType, true);
    for (const chars of [1, 100, 1024, 5000]) {
      const head = decodeHead(body, contentType, true, chars);
      expect(whole.startsWith(head)).toBe(true);
      expect(head.length >= chars || head === whole).toBe(true);
    }
  });

  it('decodes the head with the windows-1252 fix and the <meta> charset, as the whole', () => {
    const body = bytes('<meta charset="windows-1252"><p>', [0x93, 0x71, 0x94, 0x20, 0x80], '</p>', ' '.repeat(9000));
    expect(decodeHead(body, 'text/html', true, 40)).toContain('“q” €');
    expect(decodeBody(body, 'text/html', true).startsWith(decodeHead(body, 'text/html', true, 40))).toBe(true);
  });
});
