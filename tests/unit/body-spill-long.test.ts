import { afterEach, describe, expect, it } from 'vitest';
import { liveHeap } from './live-heap';
import { BodySpill } from '@/lib/store/memory/body-spill';

let spill: BodySpill | undefined;
afterEach(() => spill?.close());

describe('BodySpill with long bodies', () => {
  // Long enough to be encoded in many slices; a surrogate pair and multi-byte characters sit at
  // every place a slice could end.
  const unit = 'word é € 😀 ';
  const long = Array.from({ length: 60_000 }, (_, i) => `${unit.slice(0, i % unit.length)}${i}\n`).join('');

  it('reads back every long body as written, in UTF-8 or (with a lone surrogate) UTF-16', () => {
    const store = new BodySpill();
    spill = store;
    const texts = [long, `x${long}`, `xy${long}`, `${long}\uD800`, `\uDC00${long}`, '', 'short é'];
    const refs = texts.map((text) => store.write(text));
    texts.forEach((text, i) => {
      const ref = refs[i] as (typeof refs)[number];
      expect(store.read(ref) === text, `body ${i}`).toBe(true);
      expect(ref.chars).toBe(text.length);
      expect(ref.utf16).toBe(!text.isWellFormed());
      expect(ref.bytes).toBe(Buffer.byteLength(text, ref.utf16 ? 'utf16le' : 'utf8'));
      expect(store.utf8(ref).equals(Buffer.from(text, 'utf8'))).toBe(true);
    });
    expect(long.length).toBeGreaterThan(500_000);
  });

  it('does not leave the bytes of a long body in memory once written', () => {
    spill = new BodySpill();
    spill.write('opens the file');
    const text = 'Plenty of words, é and € too. '.repeat(400_000);
    // One block already (a string built of pieces is joined where it is first read).
    expect(text.isWellFormed()).toBe(true);
    const bytes = Buffer.byteLength(text);
    const before = liveHeap();
    for (let i = 0; i < 4; i++) spill.write(text);
    // The collector has not run in between: what the writes allocated is still counted
    // (ArrayBuffers included), unless they encoded into one buffer of their own.
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    expect(heapUsed + arrayBuffers - before).toBeLessThan(0.5 * bytes);
  });
});
