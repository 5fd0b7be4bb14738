import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { crawlSite } from '@/lib/headless/crawl-site';
import type { OutputSettings } from '@/lib/generate/output-settings';
import { docbookParts, docbookSite } from '../fixtures/generators/docbook';
import { chapterPages, HEADER_NAV_CHAPTERS, sphinxHeaderNavSite } from '../fixtures/generators/sphinx-header-nav';
import { perTest } from '../fixtures/per-test';
import { loopbackFetch, type FixtureSite } from '../fixtures/server';

// Sections and their order come from the site's own table of contents, whatever shape it takes:
// a DocBook book's contents page (parts over chapters, every page in one folder) and a Sphinx
// theme's header bar of chapters. Both sites are served over loopback and crawled as the product does.

// A crawl of a hundred pages or more: slower than a unit test on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const HOST = 'docs.tally.test';
const made = perTest('sections-toc');

async function crawl(site: FixtureSite, output?: Partial<OutputSettings>) {
  const server = await made.serve({ [HOST]: site });
  const db = made.db();
  const result = await crawlSite({ db, startUrl: server.url(HOST, '/index.html'), fetch: loopbackFetch(), settings: { maxPages: 2000, maxDepth: 50 }, ...(output ? { output } : {}), now: new Date('2026-01-01T00:00:00Z') });
  if (!result.generated) throw new Error(`nothing generated (${result.crawlState})`);
  return result.generated;
}

const pathOf = (url: string) => new URL(url).pathname;

describe('sections from a DocBook contents page', () => {
  it('makes one section per part, in the contents order, each holding its chapters and their sections in order', async () => {
    const { output } = await crawl(docbookSite());
    const main = output.sections.filter((section) => !section.optional);
    const parts = docbookParts();
    expect(main.map((section) => section.name)).toEqual(['Docs', ...parts.map((part, i) => `${['I', 'II', 'III', 'IV', 'V', 'VI', 'VII'][i]}. ${part.title}`), 'VIII. Appendixes']);
    // The start page leads the root group, with the preface the contents list before Part I.
    expect(main[0]?.entries.map((entry) => pathOf(entry.pageUrl))).toEqual(['/index.html', '/preface.html']);
    parts.forEach((part, p) => {
      const paths = (main[p + 1]?.entries ?? []).map((entry) => pathOf(entry.pageUrl));
      // The part's page, then each chapter followed by its own sections: the book's reading order.
      const expected = [`/${part.id}.html`, ...part.chapters.flatMap((ch) => [`/${ch.id}.html`, ...ch.sections.map((s) => `/${s.id}.html`)])];
      expect(paths).toEqual(expected);
    });
  });
});

describe('Optional by evidence, not by a page\'s name', () => {
  it('keeps chapters called cookies, sitemap, about and news in their parts; sends the release notes, licence, index and legal notice to Optional', async () => {
    const { output } = await crawl(docbookSite());
    const optional = output.sections.filter((section) => section.optional).flatMap((section) => section.entries.map((entry) => pathOf(entry.pageUrl)));
    // By what each page is: a changelog (version headings with dates), a licence text, an A–Z
    // index, and a legal notice the contents do not list.
    expect(optional.sort()).toEqual(['/bookindex.html', '/legalnotice.html', '/license.html', '/release.html']);
    const sectionOf = (path: string) => output.sections.find((section) => section.entries.some((entry) => pathOf(entry.pageUrl) === path))?.name;
    expect(sectionOf('/cookies.html')).toBe('II. The Counting Language');
    expect(sectionOf('/sitemap.html')).toBe('III. Server Administration');
    expect(sectionOf('/about.html')).toBe('IV. Client Interfaces');
    expect(sectionOf('/news.html')).toBe('VI. Reference');
    expect(sectionOf('/reference.html')).toBe('VI. Reference');
  });
});

describe('sections from a header bar of chapters', () => {
  it('makes one section per chapter of the bar, overflow menu included, in the bar order', async () => {
    const { output } = await crawl(sphinxHeaderNavSite());
    const main = output.sections.filter((section) => !section.optional);
    expect(main.map((section) => section.name)).toEqual(HEADER_NAV_CHAPTERS);
    HEADER_NAV_CHAPTERS.forEach((chapter, i) => {
      const paths = (main[i]?.entries ?? []).map((entry) => pathOf(entry.pageUrl)).filter((path) => path !== '/index.html');
      expect(paths).toEqual([`/${chapter.toLowerCase().replace(/[^a-z0-9]+/g, '_')}/index.html`, ...chapterPages(chapter).map((page) => page.file)]);
    });
  });
});
