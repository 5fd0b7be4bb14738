import { describe, expect, it } from 'vitest';
import { liveHeap } from './live-heap';
import { BodyCounts } from '@/lib/generate/body-counts';
import { generateOutputs } from '@/lib/generate/generate';
import { buildOutputFiles } from '@/lib/generate/output-files';
import { normalizeOutputSettings } from '@/lib/generate/output-settings';
import { renderLlmsFull, type FullPage } from '@/lib/generate/render';
import type { SourcePage } from '@/lib/generate/types';

// What generation holds while it makes llms-full.txt and the files cut from it, measured by the
// collector (live-heap.ts) now and then from inside the work (not a timing). A site of 300 pages of
// about 50,000 characters each: 15 MB of text, so a whole copy of it stands out.
const origin = 'https://docs.example.test';
const PAGES = 300;

function markdown(i: number): string {
  // Headings to demote (each page's body in the file is a new string) and links to other pages of
  // the site (made lean in the files cut from it: new strings again).
  const paragraph = (n: number) => `Step ${n} of page ${i} goes on from [page ${(i + n) % PAGES}](${origin}/guide/p${(i + n) % PAGES}.html#step-${n}) in its own words. ${'More of what the step says. '.repeat(12)}`;
  const sections = Array.from({ length: 20 }, (_, s) => `## Part ${s}\n\n${Array.from({ length: 5 }, (_, n) => paragraph(s * 5 + n)).join('\n\n')}`);
  return `# Page ${i}\n\n${sections.join('\n\n')}\n`;
}

const url = (i: number) => `${origin}/guide/p${i}.html`;

describe('llms-full.txt and its files, made without a second copy of the site', () => {
  it('renderLlmsFull never holds the joined file beside every page body', () => {
    const pages: FullPage[] = Array.from({ length: PAGES }, (_, i) => ({ key: url(i), title: `Page ${i}`, url: url(i), markdown: markdown(i) }));
    const chars = pages.reduce((sum, page) => sum + page.markdown.length, 0);
    expect(chars).toBeGreaterThan(13e6);
    const before = liveHeap();
    let calls = 0;
    let peak = 0;
    // Measured from the counter, which sees the work at every page.
    const count = (text: string) => {
      if (++calls % 40 === 0) peak = Math.max(peak, liveHeap());
      return text.length;
    };
    const full = renderLlmsFull({ title: 'Site' }, pages, count);
    expect(calls).toBeGreaterThan(PAGES);
    expect(full.text.length).toBeGreaterThan(chars);
    // The bodies (demoted: as much text as the pages) are live while the file is made; a copy of
    // the whole file beside them would be twice that.
    expect(peak - before).toBeLessThan(1.4 * chars);
  }, 120_000);

  it('buildOutputFiles hands each file over piece by piece without holding all its pages made lean', () => {
    const sources: SourcePage[] = Array.from({ length: PAGES }, (_, i) => ({ key: url(i), url: url(i), finalUrl: url(i), title: `Page ${i}`, markdown: markdown(i), depth: 1, format: 'html', state: 'stored' }));
    const output = generateOutputs({ startUrl: url(0), pages: sources, generatedAt: new Date('2026-11-21T00:00:00Z'), countTokens: (text) => text.length });
    sources.length = 0;
    const fullText = output.llmsFullTxt;
    // One block, as a store read gives it: only what the files' making adds is measured.
    expect(fullText.indexOf('\n## Page 1\n')).toBeGreaterThan(0);
    const before = liveHeap();
    let pieces = 0;
    let peak = 0;
    const written: string[] = [];
    const files = buildOutputFiles({
      model: output,
      flatText: output.llmsTxt,
      fullText,
      origin,
      settings: normalizeOutputSettings({ layout: 'flat' }),
      counts: new BodyCounts(new Map(), (text) => text.length),
      fullTexts: (_, each) => {
        let chars = 0;
        for (const piece of each) {
          chars += piece.length;
          if (++pieces % 40 === 0) peak = Math.max(peak, liveHeap());
        }
        written.push(String(chars));
      },
    });
    expect(pieces).toBeGreaterThan(PAGES);
    // Lean links changed the pages: the file is a new text, not the site's cut as it is.
    const root = files.files[0];
    expect(root?.full.pages).toBe(PAGES);
    expect(written[0]).toBe(String(root?.full.chars));
    expect(root?.full.chars).toBeLessThan(fullText.length * 0.95);
    // All the root file's pages made lean at once would be about the site's text again.
    expect(peak - before).toBeLessThan(0.3 * fullText.length);
  }, 120_000);
});
