import { getHeapSpaceStatistics } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { liveHeap } from './live-heap';
import { DEFAULT_SETTINGS } from '@/lib/crawl/settings';
import { bodyOf, indexFullText } from '@/lib/generate/full-text';
import { generateForSite } from '@/lib/generate/run-generate';
import type { PageRecord } from '@/lib/store/db';
import { versionsNewestFirst } from '@/lib/store/artifacts';
import { BodySpill } from '@/lib/store/memory/body-spill';
import { MemoryStore } from '@/lib/store/store';

const origin = 'https://docs.example.test';
const PAGES = 300;

function page(i: number): PageRecord {
  const path = i === 0 ? '/' : `/guide/p${i}.html`;
  // About 40,000 characters a page, each its own words: 12 M characters over the site.
  const markdown = `# Page ${i}\n\nWhat page ${i} explains.\n\n## Details\n\n${Array.from({ length: 800 }, (_, j) => `Line ${j} of page ${i}, see [p${(i + j) % PAGES}](/guide/p${(i + j) % PAGES}.html).`).join('\n')}`;
  return { jobId: 'crawl', key: `${origin}${path}`, url: `${origin}${path}`, finalUrl: `${origin}${path}`, state: 'stored', depth: i === 0 ? 0 : 1, title: `Page ${i}`, markdown, format: 'html', contentHash: `h${i}`, bytes: markdown.length, fetchedAt: 1 };
}

/** Bytes in V8's space for large objects (a string of megabytes is one), once the collector has run. */
function largeObjects(): number {
  liveHeap();
  return getHeapSpaceStatistics().find((space) => space.space_name === 'large_object_space')?.space_used_size ?? 0;
}

let store: MemoryStore | undefined;
afterEach(() => store?.close());

describe('generateForSite on the memory store with a spill', () => {
  it('lays out the files and stores llms-full.txt without ever joining it into one string', async () => {
    store = new MemoryStore({ spill: new BodySpill() });
    store.sites.set(origin, { origin, host: 'docs.example.test', site: 'example.test', firstOpenedAt: 1, lastOpenedAt: 1, openCount: 1 });
    store.jobs.set('crawl', { id: 'crawl', origin, kind: 'crawl', state: 'done', createdAt: 1, startUrl: `${origin}/`, settings: DEFAULT_SETTINGS, counters: {} });
    for (let i = 0; i < PAGES; i++) {
      const row = page(i);
      store.pages.rowsOf('crawl').set(row.key, row);
    }

    const before = largeObjects();
    const result = await generateForSite(store, origin, new Date('2026-11-21T00:00:00Z'));
    // The text is held as the pages' bodies it was appended from: joined, it would be one large
    // object as long as the file (bytes: one per character here), beside them.
    const grown = largeObjects() - before;
    const length = result?.output.llmsFullTxt.length ?? 0;
    expect(length).toBeGreaterThan(10e6);
    expect(grown).toBeLessThan(0.25 * length);

    // What was stored and laid out is the text's: the stored version reads back as it, and the
    // index is where searching the text finds each body.
    const text = result?.output.llmsFullTxt ?? '';
    const stored = (await versionsNewestFirst(store, origin, 'llms-full'))[0]?.text;
    expect(stored === text).toBe(true);
    const index = result?.files.index ?? [];
    expect(index.length).toBe(PAGES);
    expect(index.map(({ tokens: _, ...entry }) => entry)).toEqual(indexFullText(text, result?.output.sections ?? []));
    expect(index.every((entry) => bodyOf(text, entry).startsWith('What page'))).toBe(true);
  }, 120_000);
});
