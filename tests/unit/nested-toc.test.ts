import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { crawlSite } from '@/lib/headless/crawl-site';
import { linkTree } from '@/lib/generate/link-tree';
import { docbookParts, docbookSite } from '../fixtures/generators/docbook';
import { perTest } from '../fixtures/per-test';
import { loopbackFetch } from '../fixtures/server';

// Over the size budget, a DocBook book (every page in one folder) splits by its own contents:
// parts, then chapters, each file and H2 named by the site, never "part N of M" while a chapter fits.

// A crawl of a hundred pages or more: slower than a unit test on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const HOST = 'docs.tally.test';
const made = perTest('nested-toc');

describe('a budget split follows the table of contents', () => {
  it('splits a DocBook book into its parts, and a part into its chapters, by name', async () => {
    const server = await made.serve({ [HOST]: docbookSite(12) });
    const db = made.db();
    const result = await crawlSite({ db, startUrl: server.url(HOST, '/index.html'), fetch: loopbackFetch(), settings: { maxPages: 2000, maxDepth: 50 }, output: { budget: 8000 }, now: new Date('2026-01-01T00:00:00Z') });
    const files = result.generated?.files.files ?? [];
    expect(files.length).toBeGreaterThan(1);
    const parts = docbookParts(12);
    const chapterTitles = new Set<string>();
    parts.forEach((part) => part.chapters.forEach((ch) => chapterTitles.add(ch.title)));
    const h2s = files.flatMap((file) => file.text.split('\n').filter((line) => line.startsWith('## ')).map((line) => line.slice(3)));
    expect(h2s.filter((name) => /\(part \d+ of \d+\)|^Part \d+ of \d+$/.test(name))).toEqual([]);
    // Every H2 is a name the book gives: the root group, a part, a chapter, or Optional.
    const named = (name: string) => name === 'Docs' || name === 'Optional' || /^[IVX]+\. /.test(name) || [...chapterTitles].some((title) => name.endsWith(`. ${title}`));
    expect(h2s.filter((name) => !named(name))).toEqual([]);
    // A part's own file lists its chapters as H2s, in the contents' order.
    const language = files.find((file) => file.title.endsWith(': II. The Counting Language'));
    expect(language?.text.split('\n').filter((line) => line.startsWith('## '))).toEqual(['## II. The Counting Language', '## Chapter 3. Syntax', '## Chapter 4. Functions and Operators', '## Chapter 5. HTTP Cookies']);
    for (const file of files) expect(file.text.length, file.path).toBeLessThanOrEqual(8000);
    // Every listed page is still reachable from the root.
    const listed = result.generated?.output.sections.flatMap((section) => section.entries.map((entry) => entry.key)) ?? [];
    expect(new Set(files[0]?.keys)).toEqual(new Set(listed));
  });
});

describe('linkTree', () => {
  it('hangs a page linked from a part and from its chapter under the chapter', () => {
    const links: Record<string, string[]> = { part: ['ch1', 's1', 's2', 'ch2', 's3'], ch1: ['s1', 's2', 'part'], ch2: ['s3'], s1: ['ch1'], s2: [], s3: [] };
    const tree = linkTree(['part', 'ch1', 'ch2', 's1', 's2', 's3'], (key) => links[key] ?? []);
    expect(Object.fromEntries(tree)).toEqual({ part: null, ch1: 'part', ch2: 'part', s1: 'ch1', s2: 'ch1', s3: 'ch2' });
  });
});

describe('too many sections for one file even as links', () => {
  it('packs consecutive sections into files named by their first and last, with those sections as H2s', async () => {
    const { nestOutput } = await import('@/lib/generate/nested');
    const origin = 'https://docs.many.test';
    const sections = Array.from({ length: 60 }, (_, s) => ({
      id: `s${s}`,
      name: `Module ${s + 1}`,
      optional: false,
      tokens: 0,
      entries: Array.from({ length: 2 }, (_, i) => ({ key: `${s}-${i}`, title: `Function ${s + 1}.${i + 1}`, url: `${origin}/m${s}/f${i}.html`, pageUrl: `${origin}/m${s}/f${i}.html`, description: 'Returns the count of records in the window, with the options each call takes.', tokens: 0 })),
    }));
    const files = nestOutput({ title: 'Many', details: 'Generated.', sections }, { origin, budget: 4000 });
    const rootH2 = (files[0]?.text ?? '').split('\n').filter((line) => line.startsWith('## '));
    expect(rootH2.length).toBeGreaterThan(1);
    expect(rootH2.every((line) => /^## Module \d+ – Module \d+$/.test(line))).toBe(true);
    expect(files.flatMap((file) => file.text.split('\n')).filter((line) => /\(part \d+ of \d+\)/.test(line))).toEqual([]);
    // Each packed file lists its sections as H2s, in order, and every page stays reachable.
    const packs = files.slice(1);
    expect(packs.length).toBeGreaterThan(0);
    for (const pack of packs) {
      const [, first, last] = /^Many: (Module \d+) – (Module \d+)$/.exec(pack.title) ?? [];
      const h2s = pack.text.split('\n').filter((line) => line.startsWith('## '));
      expect([h2s[0], h2s.at(-1)], pack.path).toEqual([`## ${first}`, `## ${last}`]);
    }
    expect(new Set(files[0]?.keys)).toEqual(new Set(sections.flatMap((section) => section.entries.map((entry) => entry.key))));
  });
});
