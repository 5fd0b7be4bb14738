import { describe, expect, it } from 'vitest';
import { readingOrder } from '@/lib/generate/page-order';
import type { SourcePage } from '@/lib/generate/types';

const ORIGIN = 'https://docs.example.test';

/** A page at `path` whose Markdown links `links` (paths), in that order. */
function page(path: string, links: string[], depth = 1): SourcePage {
  const url = `${ORIGIN}${path}`;
  const markdown = `# ${path}\n\n${links.map((l) => `- [${l}](${l.startsWith('http') ? l : `${ORIGIN}${l}`})`).join('\n')}\n`;
  return { key: url, url, finalUrl: url, title: path, markdown, depth, format: 'html', state: 'stored' };
}

const paths = (pages: SourcePage[]) => pages.map((p) => new URL(p.finalUrl).pathname);

describe('readingOrder', () => {
  // The shape of a Sphinx site: the start page lists the newest release notes first, then each
  // part's index; the release notes cross-reference chapters of later parts before their own
  // contents list them.
  const site = () => [
    page('/index.html', ['/whatsnew/3.11.html', '/tutorial/index.html', '/reference/index.html', '/contents.html', '/glossary.html'], 0),
    page('/whatsnew/index.html', ['/whatsnew/3.11.html'], 2),
    page('/whatsnew/3.11.html', ['/reference/datamodel.html', '/reference/import.html', '/tutorial/modules.html', '/whatsnew/index.html']),
    page('/tutorial/index.html', ['/tutorial/appetite.html', '/tutorial/modules.html', '/tutorial/classes.html']),
    page('/tutorial/appetite.html', [], 2),
    page('/tutorial/modules.html', ['/tutorial/classes.html'], 2),
    page('/tutorial/classes.html', [], 2),
    page('/reference/index.html', ['/reference/introduction.html', '/reference/datamodel.html', '/reference/import.html']),
    page('/reference/introduction.html', ['/reference/import.html'], 2),
    page('/reference/datamodel.html', [], 2),
    page('/reference/import.html', [], 2),
    // The full table of contents, at the top level: it lists more of each part than the start page does.
    page('/contents.html', ['/whatsnew/index.html', '/tutorial/index.html', '/tutorial/appetite.html', '/tutorial/modules.html', '/reference/index.html', '/reference/introduction.html']),
    page('/glossary.html', ['/reference/datamodel.html']),
  ];

  it('lists each part in its own index’s order, not where the first cross-reference met it', () => {
    const order = paths(readingOrder(site(), `${ORIGIN}/index.html`));
    const within = (folder: string) => order.filter((p) => p.startsWith(folder));
    expect(within('/reference/')).toEqual(['/reference/index.html', '/reference/introduction.html', '/reference/datamodel.html', '/reference/import.html']);
    expect(within('/tutorial/')).toEqual(['/tutorial/index.html', '/tutorial/appetite.html', '/tutorial/modules.html', '/tutorial/classes.html']);
  });

  it('keeps the parts in the start page’s order, though the contents page lists more of each', () => {
    const order = paths(readingOrder(site(), `${ORIGIN}/index.html`));
    const heads = order.filter((p) => /^\/[a-z]+\/index\.html$/.test(p));
    expect(heads).toEqual(['/tutorial/index.html', '/reference/index.html', '/whatsnew/index.html']);
    expect(order[0]).toBe('/index.html');
  });

  it('gives the same order whatever order the pages come in, and every page once', () => {
    const pages = site();
    const order = paths(readingOrder(pages, `${ORIGIN}/index.html`));
    expect(paths(readingOrder([...pages].reverse(), `${ORIGIN}/index.html`))).toEqual(order);
    expect(new Set(order).size).toBe(pages.length);
  });

  it('puts a folder of extensionless pages under its own page', () => {
    const pages = [
      page('/', ['/news', '/guide'], 0),
      page('/news', ['/guide/deploy']),
      page('/guide', ['/guide/install', '/guide/deploy']),
      page('/guide/install', [], 2),
      page('/guide/deploy', [], 2),
    ];
    expect(paths(readingOrder(pages, `${ORIGIN}/`))).toEqual(['/', '/news', '/guide', '/guide/install', '/guide/deploy']);
  });

  it('keeps pages that each hold the other, and pages no link reaches', () => {
    const pages = [
      page('/index.html', ['/a/x.html'], 0),
      page('/a/x.html', ['/a/y.html', '/a/z.html']),
      page('/a/y.html', ['/a/x.html', '/a/z.html'], 2),
      page('/a/z.html', [], 2),
      page('/lost.html', [], 3),
    ];
    const order = paths(readingOrder(pages, `${ORIGIN}/index.html`));
    expect([...order].sort()).toEqual(['/a/x.html', '/a/y.html', '/a/z.html', '/index.html', '/lost.html']);
    expect(order[0]).toBe('/index.html');
    expect(order.at(-1)).toBe('/lost.html');
  });
});
