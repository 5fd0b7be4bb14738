import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveHeap } from './live-heap';
import { writeFilesInside } from '@/lib/headless/write-out';
import { BodySpill } from '@/lib/store/memory/body-spill';

let spill: BodySpill | undefined;
let out: string | undefined;
afterEach(() => {
  spill?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('a spilled body written to a file a slice at a time', () => {
  // 19 MB of UTF-8 with multi-byte characters: slices of bytes may end inside a character.
  const text = Array.from({ length: 800_000 }, (_, i) => `line ${i} é € 😀\n`).join('');

  it('writes the same bytes as the whole body, holding a slice of them at a time', async () => {
    spill = new BodySpill();
    out = mkdtempSync(join(tmpdir(), 'scout-chunks-'));
    const ref = spill.write(text);
    const whole = spill.utf8(ref);
    expect(whole.length).toBeGreaterThan(16e6);
    const wholeBytes = whole.length;

    const before = liveHeap();
    let held = 0;
    let chunks = 0;
    const store = spill;
    function* measured(): Generator<Uint8Array> {
      for (const chunk of store.utf8Chunks(ref)) {
        chunks++;
        // What is live while the file is written: the slice in hand, not the body.
        held = Math.max(held, liveHeap() - before);
        yield chunk;
      }
    }
    const written = await writeFilesInside(out, [{ relativePath: 'llms-full.txt', text: () => measured() }]);
    expect(written.leftOut).toEqual([]);
    expect(readFileSync(join(out, 'llms-full.txt')).equals(whole)).toBe(true);
    expect(chunks).toBeGreaterThan(4);
    expect(held).toBeLessThan(wholeBytes / 4);
  }, 60_000);

  it('gives a body with a lone surrogate as writing its string would', () => {
    spill = new BodySpill();
    const odd = `${text.slice(0, 1000)}\uD800${text.slice(0, 1000)}`;
    const ref = spill.write(odd);
    expect(Buffer.concat([...spill.utf8Chunks(ref)]).equals(Buffer.from(odd, 'utf8'))).toBe(true);
  });
});
