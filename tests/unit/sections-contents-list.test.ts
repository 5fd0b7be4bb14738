import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { crawlSite } from '@/lib/headless/crawl-site';
import { groupByContentsList, groupByNav } from '@/lib/generate/sections';
import type { SourcePage } from '@/lib/generate/types';
import { TEXINFO_CHAPTERS, texinfoManualSite, type Node } from '../fixtures/generators/texinfo-manual';
import { perTest } from '../fixtures/per-test';
import { loopbackFetch, type FixtureSite } from '../fixtures/server';

// Where a site has no navigation tree and keeps every page in one folder (a Texinfo manual), its
// start page's own contents list is the outline: each entry that leads to pages of its own is a
// section of them, the rest are the root group's pages. The manual is served over loopback and
// crawled as the product does.

vi.setConfig({ testTimeout: 60_000 });

const HOST = 'manual.tally.test';
const made = perTest('sections-contents-list');

async function crawl(site: FixtureSite) {
  const server = await made.serve({ [HOST]: site });
  const result = await crawlSite({ db: made.db(), startUrl: server.url(HOST, '/index.html'), fetch: loopbackFetch(), settings: { maxPages: 200, maxDepth: 20 }, now: new Date('2026-01-01T00:00:00Z') });
  if (!result.generated) throw new Error(`nothing generated (${result.crawlState})`);
  return result.generated.output.sections.filter((section) => !section.optional);
}

const fileOf = (url: string) => new URL(url).pathname.slice(1);
const titlesBelow = (node: Node): string[] => (node.children ?? []).flatMap((child) => [child.file, ...titlesBelow(child)]);

describe("sections from the start page's contents list of one level", () => {
  it('makes the chapter with sections a section of them, in the manual order, and keeps single-page chapters in the root', async () => {
    const sections = await crawl(texinfoManualSite());
    const using = TEXINFO_CHAPTERS.find((chapter) => chapter.children) as Node;
    expect(sections.map((section) => section.name)).toEqual(['Docs', using.title]);
    const [root, chapter] = sections;
    expect(root?.entries.map((entry) => fileOf(entry.url))).toEqual(['index.html', ...TEXINFO_CHAPTERS.filter((c) => !c.children).map((c) => c.file)]);
    // The chapter's sections in the order of its own list, each subsection after its section.
    expect(chapter?.entries.map((entry) => fileOf(entry.url))).toEqual([using.file, ...titlesBelow(using)]);
  });

  it('does not split a flat list of pages into one-entry sections', async () => {
    const flat = TEXINFO_CHAPTERS.flatMap((chapter) => [chapter, ...(chapter.children ?? [])]).map(({ file, title }) => ({ file, title }));
    expect(flat.length).toBeGreaterThanOrEqual(8);
    const sections = await crawl(texinfoManualSite(flat));
    expect(sections.map((section) => section.name)).toEqual(['Docs']);
    expect(sections[0]?.entries).toHaveLength(flat.length + 1);
  });
});

describe('the start page is where the crawl started, not every page at depth 0', () => {
  // A sitemap's pages are seeds at depth 0 too: they are placed by the tree like any other page.
  const page = (path: string, depth: number, markdown = `# ${path}`): SourcePage => ({ key: path, url: `https://t.test${path}`, finalUrl: `https://t.test${path}`, title: path, markdown, depth, format: 'html', state: 'stored' });
  const nav = [
    { title: 'Guide', url: '', depth: 0 }, { title: 'One', url: 'https://t.test/guide/one.html', depth: 1 }, { title: 'Two', url: 'https://t.test/guide/two.html', depth: 1 },
    { title: 'Reference', url: '', depth: 0 }, { title: 'Api', url: 'https://t.test/ref/api.html', depth: 1 }, { title: 'Cli', url: 'https://t.test/ref/cli.html', depth: 1 },
  ];
  const pages = [
    page('/index.html', 0), page('/guide/one.html', 0), page('/guide/two.html', 0, '# Two\n\n- [Three](three.html)'), page('/guide/three.html', 0),
    page('/ref/api.html', 0), page('/ref/cli.html', 0), page('/ref/options.html', 0),
  ];

  it('places unlisted sitemap pages in the section of their folder and links, and only the start page leads the root', () => {
    const groups = groupByNav(pages, nav, 'Docs', pages[0]);
    // The start page holds the tree without being listed in it: its group leads.
    expect(groups?.map((group) => [group.name, group.pages.map((p) => p.key)])).toEqual([
      ['Docs', ['/index.html']],
      ['Guide', ['/guide/one.html', '/guide/two.html', '/guide/three.html']],
      ['Reference', ['/ref/api.html', '/ref/cli.html', '/ref/options.html']],
    ]);
  });

  it('without a start page given, finds none among several pages at depth 0', () => {
    const groups = groupByNav(pages, nav, 'Docs');
    expect(groups?.find((group) => group.root)?.pages.map((p) => p.key)).toEqual(['/index.html']);
  });
});

describe('a page nothing listed reaches, in a folder several sections share', () => {
  const page = (path: string, markdown = `# ${path}`): SourcePage => ({ key: path, url: `https://t.test${path}`, finalUrl: `https://t.test${path}`, title: path, markdown, depth: path === '/m/index.html' ? 0 : 1, format: 'html', state: 'stored' });
  const list = [{ title: 'Alpha', url: 'https://t.test/m/a.html', depth: 0 }, { title: 'Beta', url: 'https://t.test/m/b.html', depth: 0 }];
  const pages = [
    page('/m/index.html', '- [Alpha](a.html)\n- [Beta](b.html)'), page('/m/a.html', '- [A1](a1.html)'), page('/m/a1.html'),
    page('/m/b.html', '- [B1](b1.html)'), page('/m/b1.html'),
    // Its chapter lost the list that led to it; its own node bar still says where it hangs.
    page('/m/b2.html', 'Next: [B1](b1.html), Up: [Beta](b.html)'),
    page('/m/loose.html'),
  ];

  it('follows its own links to a placed page, else joins the root group, not the first section', () => {
    const groups = groupByContentsList(pages, list, 'Docs', pages[0]);
    expect(groups?.map((group) => [group.name, group.pages.map((p) => p.key)])).toEqual([
      ['Docs', ['/m/index.html', '/m/loose.html']],
      ['Alpha', ['/m/a.html', '/m/a1.html']],
      ['Beta', ['/m/b.html', '/m/b1.html', '/m/b2.html']],
    ]);
  });
});
