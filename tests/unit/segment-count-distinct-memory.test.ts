import { describe, expect, it } from 'vitest';
import { liveHeap } from './live-heap';
import { segmentCounter } from '@/lib/generate/segment-count';
import { countTokens } from '@/lib/tokens';

// A file of its own: the counter and tokenizer start cold, as in a generation.
describe('segmentCounter on distinct text', () => {
  it('keeps counts, not the paragraphs or the texts the tokenizer cut them from', () => {
    // 50,000 distinct paragraphs (a site's pages are mostly their own text), each with a long word
    // of its own the tokenizer's merge cache remembers, in a text of 20 M characters stored two
    // bytes a character (one "—" is enough): 40 MB. Copies of the paragraphs, or the tokenizer's
    // views into the text, would keep tens of MB.
    const paragraph = (i: number) => `Paragraph ${i} — about Unquestionablyoverlongidentifier${i}xyz and ${'the same words again '.repeat(17)}end.`;
    const counter = segmentCounter();
    const before = liveHeap();
    let text: string | null = Array.from({ length: 50_000 }, (_, i) => paragraph(i)).join('\n\n');
    expect(text.length).toBeGreaterThan(20e6);
    const total = counter(text);
    const sample = [0, 1, 49_999].map((i) => paragraph(i));
    text = null;
    const kept = liveHeap() - before;
    expect(total).toBeGreaterThan(50_000 * countTokens(sample[0] as string) * 0.9);
    // The same counter counts the same paragraph the same as the tokenizer.
    for (const p of sample) expect(counter(`${p}\n\n`)).toBe(countTokens(`${p}\n\n`));
    expect(kept).toBeLessThan(15e6);
  });
});
