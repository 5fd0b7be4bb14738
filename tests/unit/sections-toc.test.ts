import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { crawlSite } from '@/lib/headless/crawl-site';
import type { OutputSettings } from '@/lib/generate/output-settings';
import { groupByNav, groupByPath } from '@/lib/generate/sections';
import { groupByIndexHeadings } from '@/lib/generate/sections-index';
import type { SourcePage } from '@/lib/generate/types';
import { DECLARATION_GROUPS, declarationsIndexSite, ITEM_GROUPS, itemIndexSite, MODULE_TREE, moduleTreeSite } from '../fixtures/generators/api-index';
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

describe('sections from an index page of the site', () => {
  const mainOf = (output: { sections: { name: string; optional: boolean; entries: { pageUrl: string }[] }[] }) => output.sections.filter((section) => !section.optional);

  it("makes an item index's headings the sections, each module followed by its own items", async () => {
    const { output } = await crawl(itemIndexSite());
    const main = mainOf(output);
    // The crate page alone would be a root group of one: it leads the first section instead.
    expect(main.map((section) => section.name)).toEqual(ITEM_GROUPS.map((group) => group.heading));
    ITEM_GROUPS.forEach((group, g) => {
      expect(main[g]?.entries.map((entry) => pathOf(entry.pageUrl))).toEqual([...(g === 0 ? ['/index.html'] : []), ...group.items.flatMap((item) => [item.file, ...item.below])]);
    });
  });

  it("makes a module tree's branches the sections when one root holds the whole tree", async () => {
    const { output } = await crawl(moduleTreeSite());
    const main = mainOf(output);
    const file = (name: string) => `/${name.replace(/\./g, '-')}.html`;
    const branches = MODULE_TREE.filter((m) => m.children.length > 0);
    // The home leads; the root module keeps itself and its modules without submodules.
    expect(main.map((section) => section.name)).toEqual(['Docs', 'Data.Tally', ...branches.map((m) => m.name)]);
    expect(main[0]?.entries.map((entry) => pathOf(entry.pageUrl))[0]).toBe('/index.html');
    expect(main[1]?.entries.map((entry) => pathOf(entry.pageUrl))).toEqual(['Data.Tally', ...MODULE_TREE.filter((m) => m.children.length === 0).map((m) => m.name)].map(file));
    branches.forEach((m, i) => {
      expect(main[i + 2]?.entries.map((entry) => pathOf(entry.pageUrl))).toEqual([m.name, ...m.children].map(file));
    });
  });

  it("takes the sections from the page that groups the declarations, not the README start page", async () => {
    const { output } = await crawl(declarationsIndexSite());
    const main = mainOf(output);
    expect(main.map((section) => section.name)).toEqual(['Docs', ...DECLARATION_GROUPS.map((group) => group.heading)]);
    DECLARATION_GROUPS.forEach((group, g) => {
      expect(main[g + 1]?.entries.map((entry) => pathOf(entry.pageUrl))).toEqual(group.names.map((name) => `/${group.dir}/${name}.html`));
    });
  });

  it("leaves a package site to its folders: a class tree across packages, or one package's own, is no outline", () => {
    const page = (path: string, markdown = `# ${path}`): SourcePage => ({ key: path, url: `https://t.test${path}`, finalUrl: `https://t.test${path}`, title: path, markdown, depth: path === '/index.html' ? 0 : 1, format: 'html', state: 'stored' });
    const classes = ['a/One', 'a/Two', 'a/Three', 'b/Four', 'b/Five', 'b/Six'].map((name) => `/pkg/${name}.html`);
    const link = (path: string) => `- [${path}](https://t.test${path})`;
    // The site-wide tree: each group spans both packages.
    const tree = page('/overview-tree.html', `# Hierarchy\n\n## Class Hierarchy\n\n${[0, 1, 3, 4].map((i) => link(classes[i] as string)).join('\n')}\n\n## Interface Hierarchy\n\n${[2, 5].map((i) => link(classes[i] as string)).join('\n')}\n`);
    // Package a's own tree, inside its folder (its classes, and a superclass from b).
    const packageTree = page('/pkg/a/package-tree.html', `# a\n\n## Class Hierarchy\n\n${[0, 1, 3].map((i) => link(classes[i] as string)).join('\n')}\n\n## Interface Hierarchy\n\n${link(classes[2] as string)}\n`);
    const pages = [page('/index.html'), tree, packageTree, ...classes.map((path) => page(path))];
    const folders = groupByPath(pages, '/pkg/', 'Docs');
    expect(groupByIndexHeadings(pages, 'Docs', folders)).toBeUndefined();
    // Without folders to cut across, the same site-wide tree would be read as the outline.
    expect(groupByIndexHeadings(pages, 'Docs')?.map((group) => group.name)).toEqual(['Docs', 'Class Hierarchy', 'Interface Hierarchy']);
  });

  it("takes an index's entries, not the cross-references of a reference page, as its groups", () => {
    const page = (path: string, markdown = `# ${path}`): SourcePage => ({ key: path, url: `https://t.test${path}`, finalUrl: `https://t.test${path}`, title: path, markdown, depth: path === '/index.html' ? 0 : 1, format: 'html', state: 'stored' });
    const types = ['/struct_a.html', '/struct_b.html', '/struct_c.html', '/struct_d.html'];
    const ref = (path: string) => `[${path.slice(1, -5)}](https://t.test${path})`;
    // A header file's page: signatures and prose that mention the types, each under its heading.
    const header = page('/file_8h.html', `# file.h\n\n## Functions\n\n| int | count (struct ${ref(types[0] as string)} *a, struct ${ref(types[1] as string)} *b) |\n| --- | --- |\n\n## Detailed Description\n\nReads a ${ref(types[2] as string)} into a ${ref(types[3] as string)}.\n`);
    const pages = [page('/index.html'), header, ...types.map((path) => page(path))];
    expect(groupByIndexHeadings(pages, 'Docs')).toBeUndefined();
    // The same types listed as entries, each opening its row, are an index.
    const index = page('/file_8h.html', `# file.h\n\n## Structs\n\n| ${ref(types[0] as string)} | the first |\n| --- | --- |\n| ${ref(types[1] as string)} | the second |\n\n## Unions\n\n- ${ref(types[2] as string)}\n- ${ref(types[3] as string)}\n`);
    expect(groupByIndexHeadings([pages[0] as SourcePage, index, ...pages.slice(2)], 'Docs')?.map((group) => group.name)).toEqual(['Docs', 'Structs', 'Unions']);
  });

  it("does not read one page's outline of its own members as the site's navigation", () => {
    const page = (path: string, markdown = ''): SourcePage => ({ key: path, url: `https://t.test${path}`, finalUrl: `https://t.test${path}`, title: path, markdown, depth: path === '/' ? 0 : 1, format: 'html', state: 'stored' });
    const pages = [page('/'), page('/classes/A.html'), page('/classes/B.html'), page('/types/T.html')];
    // A class page's "On this page": member groups whose entries are anchors on that page (labels),
    // and a few links to the types its members use.
    const outline = [
      { title: 'Properties', url: '', depth: 0 }, { title: 'name', url: '', depth: 1 }, { title: 'T', url: 'https://t.test/types/T.html', depth: 2 },
      { title: 'Methods', url: '', depth: 0 }, { title: 'run', url: '', depth: 1 }, { title: 'stop', url: '', depth: 1 }, { title: 'B', url: 'https://t.test/classes/B.html', depth: 2 },
    ];
    expect(groupByNav(pages, outline, 'Docs')).toBeUndefined();
    // The same tree with its entries as links is a navigation.
    const linked = outline.map((item, i) => ({ ...item, url: item.url || `https://t.test/${['', 'classes/A.html', '', '', 'classes/A.html', 'classes/B.html', ''][i]}` })).map((item) => ({ ...item, url: item.url.endsWith('/') ? '' : item.url }));
    // The start page is not in the tree: its group leads.
    expect(groupByNav(pages, linked, 'Docs')?.map((group) => group.name)).toEqual(['Docs', 'Properties', 'Methods']);
  });
});
