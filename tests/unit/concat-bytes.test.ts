import { describe, expect, it } from 'vitest';
import { concatBytes } from '@/lib/fetch/bytes';

describe('concatBytes', () => {
  it('joins chunks in order, and hands a body that came in one chunk on without copying it', () => {
    const a = new Uint8Array([1, 2]);
    const b = new Uint8Array([3]);
    expect([...concatBytes([a, b])]).toEqual([1, 2, 3]);
    expect([...concatBytes([])]).toEqual([]);
    expect(concatBytes([a])).toBe(a);
    expect(concatBytes([a], 2)).toBe(a);
  });
});
