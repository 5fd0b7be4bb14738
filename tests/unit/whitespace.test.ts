import { describe, expect, it } from 'vitest';
import { isSpaceCode } from '@/lib/whitespace';

describe('isSpaceCode', () => {
  it('agrees with /\\s/ on every UTF-16 code unit', () => {
    const differ: number[] = [];
    for (let code = 0; code <= 0xffff; code++) if (isSpaceCode(code) !== /\s/.test(String.fromCharCode(code))) differ.push(code);
    expect(differ).toEqual([]);
  });
});
