import { describe, expect, it } from 'vitest';
import { liveHeap } from './live-heap';
import { segmentCounter } from '@/lib/generate/segment-count';
import { countTokens } from '@/lib/tokens';


describe('segmentCounter', () => {
  it('keeps what it counted on its own, not the texts the paragraphs were cut from', () => {
    // A site's llms-full.txt repeats its pages' paragraphs in every file's copy: 20 MB of text
    // made of 200 distinct paragraphs. A cache keyed by views into the text would keep it all.
    const paragraphs = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} says something about section ${i}, with a [link](https://docs.example.test/p${i}.html#part).`);
    const one = `${paragraphs.join('\n\n')}\n\n`;
    const counter = segmentCounter();
    const before = liveHeap();
    let text: string | null = `${one.repeat(Math.ceil(20e6 / one.length))}The end.`;
    const total = counter(text);
    text = null;
    const kept = liveHeap() - before;
    expect(total).toBe(countTokens(one) * Math.ceil(20e6 / one.length) + countTokens('The end.'));
    expect(kept).toBeLessThan(2e6);
  });
});
