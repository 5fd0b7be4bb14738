import { afterEach, describe, expect, it } from 'vitest';
import { liveHeap } from './live-heap';
import { DEFAULT_SETTINGS } from '@/lib/crawl/settings';
import { generateOutputs } from '@/lib/generate/generate';
import { generateForSite } from '@/lib/generate/run-generate';
import type { SourcePage } from '@/lib/generate/types';
import type { PageRecord } from '@/lib/store/db';
import { BodySpill, type BodyRef } from '@/lib/store/memory/body-spill';
import { MemoryStore } from '@/lib/store/store';

const origin = 'https://docs.example.test';
const PAGES = 400;
// Every page ends in the site's frame: a footer of 40,000 characters each page read from the store
// holds a copy of (about 16 MB over the site), which generation takes off every page.
const FOOTER = `This documentation is published by the Example project under its licence, ${'and the same footer words again '.repeat(1250)}end.`;

function page(i: number): PageRecord {
  const path = i === 0 ? '/' : `/guide/p${i}.html`;
  const markdown = `# Page ${i}\n\nWhat page ${i} explains, in its own words: step ${i} of ${PAGES}.\n\n${`Detail ${i} of the step. `.repeat(40)}\n\n${FOOTER}`;
  return { jobId: 'crawl', key: `${origin}${path}`, url: `${origin}${path}`, finalUrl: `${origin}${path}`, state: 'stored', depth: i === 0 ? 0 : 1, title: `Page ${i}`, markdown, format: 'html', contentHash: `h${i}`, bytes: markdown.length, fetchedAt: 1 };
}

/** A spill that measures, now and then as the store reads a body back, what the heap holds. */
class MeasuredSpill extends BodySpill {
  measuring = false;
  reads = 0;
  peak = 0;
  override read(ref: BodyRef): string {
    const text = super.read(ref);
    if (this.measuring && ++this.reads % 40 === 0) this.peak = Math.max(this.peak, liveHeap());
    return text;
  }
}

let store: MemoryStore | undefined;
afterEach(() => store?.close());

describe('generateForSite on the memory store', () => {
  it('holds the pages without their chrome, not every page as crawled, and writes what generateOutputs does', async () => {
    const spill = new MeasuredSpill();
    store = new MemoryStore({ spill });
    store.sites.set(origin, { origin, host: 'docs.example.test', site: 'example.test', firstOpenedAt: 1, lastOpenedAt: 1, openCount: 1 });
    store.jobs.set('crawl', { id: 'crawl', origin, kind: 'crawl', state: 'done', createdAt: 1, startUrl: `${origin}/`, settings: DEFAULT_SETTINGS, counters: {} });
    const rows = Array.from({ length: PAGES }, (_, i) => page(i));
    for (const row of rows) store.pages.rowsOf('crawl').set(row.key, { ...row });

    const now = new Date('2026-11-21T00:00:00Z');
    const before = liveHeap();
    spill.measuring = true;
    const result = await generateForSite(store, origin, now);
    spill.measuring = false;
    const held = spill.peak - before;

    // The same bytes as the generator given every page as crawled.
    const sources: SourcePage[] = rows.map((p) => ({ key: p.key, url: p.url, finalUrl: p.finalUrl, title: p.title, markdown: p.markdown, depth: p.depth, format: p.format, state: p.state }));
    const direct = generateOutputs({ startUrl: `${origin}/`, pages: sources, generatedAt: now });
    expect(result?.output.llmsTxt).toBe(direct.llmsTxt);
    expect(result?.output.llmsFullTxt).toBe(direct.llmsFullTxt);
    expect(result?.output.llmsFullTxt).not.toContain('same footer words');
    expect(result?.output.chrome).toEqual(direct.chrome);

    // Every page as crawled is about 16 MB; stripped, a few hundred kB. A batch of pages read at a
    // time stays well under the whole site.
    expect(PAGES * FOOTER.length).toBeGreaterThan(15e6);
    expect(spill.reads).toBeGreaterThan(PAGES);
    expect(held).toBeLessThan(8e6);
    // The collector runs at each measure: a limit for a loaded machine, not a timing.
  }, 120_000);
});
