import { describe, expect, it } from 'vitest';
import { boundedMemo } from '@/lib/bounded-memo';

describe('boundedMemo', () => {
  it('computes each key once, keeps falsy answers, and starts afresh at its bound', () => {
    const calls: string[] = [];
    const memo = boundedMemo(2, (key: string) => {
      calls.push(key);
      return key === 'zero' ? 0 : key.length;
    });
    expect([memo('abc'), memo('abc'), memo('zero'), memo('zero')]).toEqual([3, 3, 0, 0]);
    expect(calls).toEqual(['abc', 'zero']);
    // A third key empties the full map: the first two are computed again afterwards.
    expect(memo('de')).toBe(2);
    expect(memo('de')).toBe(2);
    expect(memo('abc')).toBe(3);
    expect(calls).toEqual(['abc', 'zero', 'de', 'abc']);
  });

  it('remembers an undefined answer too', () => {
    let calls = 0;
    const memo = boundedMemo(4, (key: string): string | undefined => {
      calls++;
      return key === 'none' ? undefined : key;
    });
    expect([memo('none'), memo('none'), memo('a'), memo('a')]).toEqual([undefined, undefined, 'a', 'a']);
    expect(calls).toBe(2);
  });
});
