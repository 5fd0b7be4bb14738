import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findPageLinks, parseLinkHeader, type PageLink } from '@/lib/discovery/page-links';

const PAGE = 'https://docs.example.com/guide/intro.html';
const DEMO = fileURLToPath(new URL('../fixtures/sites/demo-docs/', import.meta.url));
const DEMO_ORIGIN = 'http://docs.scout-demo.test';

const head = (inner: string, body = '<p>Body</p>'): string =>
  `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n${inner}\n</head>\n<body>${body}</body>\n</html>`;
const compact = (links: PageLink[]): string[] => links.map((l) => `${l.from} ${l.rel} ${l.url}${l.type ? ` (${l.type})` : ''}`);

describe('findPageLinks: <link> elements in the head', () => {
  it('finds the three relations, resolved against the page URL', () => {
    const html = head([
      '<link rel="stylesheet" href="/assets/style.css">',
      '<link rel="describedby" type="text/plain" href="../llms.txt">',
      '<link rel="alternate" type="text/markdown" href="intro.md">',
      '<link rel="sitemap" type="application/xml" href="/sitemap.xml">',
    ].join('\n'));
    expect(findPageLinks(PAGE, html, null)).toEqual([
      { rel: 'describedby', url: 'https://docs.example.com/llms.txt', type: 'text/plain', from: 'html' },
      { rel: 'markdown', url: 'https://docs.example.com/guide/intro.md', type: 'text/markdown', from: 'html' },
      { rel: 'sitemap', url: 'https://docs.example.com/sitemap.xml', type: 'application/xml', from: 'html' },
    ]);
  });

  it('resolves against <base href> (itself relative to the page), first base with an href wins', () => {
    const html = head('<base target="_blank"><base href="/v2/docs/"><base href="https://other.example/">'
      + '<link rel="describedby" href="llms.txt"><link rel="alternate" type="text/markdown" href="./page.md">');
    expect(compact(findPageLinks(PAGE, html, null))).toEqual([
      'html describedby https://docs.example.com/v2/docs/llms.txt',
      'html markdown https://docs.example.com/v2/docs/page.md (text/markdown)',
    ]);
  });

  it('ignores a <base href> that is unusable or not http(s)', () => {
    const bad = head('<base href="javascript:alert(1)"><link rel="describedby" href="llms.txt">');
    expect(findPageLinks(PAGE, bad, null)[0]?.url).toBe('https://docs.example.com/guide/llms.txt');
    const broken = head('<base href="https://[nope/"><link rel="describedby" href="/llms.txt">');
    expect(findPageLinks(PAGE, broken, null)[0]?.url).toBe('https://docs.example.com/llms.txt');
  });

  it('matches rel as case-insensitive tokens, with uppercase tags and attribute names', () => {
    const html = [
      '<!DOCTYPE HTML><HTML><HEAD>',
      '<BASE HREF="https://cdn.example.com/d/">',
      '<LINK REL="Alternate DescribedBy" TYPE="Text/Markdown" HREF="Page.MD">',
      '<Link Rel="  SITEMAP\t" Href="map.xml">',
      '<link rel="alternate" type="TEXT/X-MARKDOWN; charset=utf-8" href="x.md">',
      '</HEAD><BODY></BODY></HTML>',
    ].join('\n');
    expect(compact(findPageLinks(PAGE, html, null))).toEqual([
      'html describedby https://cdn.example.com/d/Page.MD (Text/Markdown)',
      'html markdown https://cdn.example.com/d/Page.MD (Text/Markdown)',
      'html sitemap https://cdn.example.com/d/map.xml',
      'html markdown https://cdn.example.com/d/x.md (TEXT/X-MARKDOWN; charset=utf-8)',
    ]);
  });

  it('ignores other alternates (hreflang, RSS, no type), other rels, and non-http(s) targets', () => {
    const html = head([
      '<link rel="alternate" hreflang="fr" href="/fr/guide/intro.html">',
      '<link rel="alternate" type="application/rss+xml" href="/feed.xml">',
      '<link rel="alternate" href="/intro.md">',
      '<link rel="alternate" type="text/plain" href="/intro.txt">',
      '<link rel="canonical" type="text/markdown" href="/canonical.md">',
      '<link rel="describedby-not" href="/nope.txt">',
      '<link rel="describedby" href="javascript:alert(1)">',
      '<link rel="describedby" href="data:text/plain,hi">',
      '<link rel="describedby" href="mailto:docs@example.com">',
      '<link rel="describedby" href="">',
      '<link rel="describedby">',
      '<link rel="sitemap" href="https://[broken/">',
      '<!-- <link rel="describedby" href="/commented.txt"> -->',
      '<link rel="describedby" href="  /llms.txt  ">',
    ].join('\n'));
    expect(compact(findPageLinks(PAGE, html, null))).toEqual(['html describedby https://docs.example.com/llms.txt']);
  });

  it('reads only the head: links in the body do not count, nor text inside scripts', () => {
    const html = head(
      '<script>document.write("</head><body><link rel=describedby href=/in-script.txt>")</script>\n'
        + '<style>/* </head> */</style>\n<link rel="describedby" href="/llms.txt">',
      '<link rel="sitemap" href="/body-sitemap.xml"><a rel="describedby" href="/a.txt">a</a>',
    );
    expect(compact(findPageLinks(PAGE, html, null))).toEqual(['html describedby https://docs.example.com/llms.txt']);
  });

  it('works when </head> is omitted (stops at <body>) and on fragments with no <html>', () => {
    const noHeadEnd = '<!doctype html><title>x</title><link rel="describedby" href="/a.txt"><body><link rel="sitemap" href="/s.xml">';
    expect(compact(findPageLinks(PAGE, noHeadEnd, null))).toEqual(['html describedby https://docs.example.com/a.txt']);
    expect(compact(findPageLinks(PAGE, '<link rel=sitemap href=/s.xml>', null))).toEqual(['html sitemap https://docs.example.com/s.xml']);
  });

  it('dedupes by rel + URL within the HTML', () => {
    const html = head('<link rel="describedby" href="/llms.txt"><link rel="describedby" href="https://docs.example.com/llms.txt" type="text/plain">');
    expect(findPageLinks(PAGE, html, null)).toEqual([{ rel: 'describedby', url: 'https://docs.example.com/llms.txt', from: 'html' }]);
  });
});

describe('findPageLinks: HTTP Link header', () => {
  it('reads the header, resolved against the page URL (not <base href>)', () => {
    const header = '<https://x.test/llms.txt>; rel="describedby"; type="text/plain", </a.md>; rel=alternate; type="text/markdown"';
    expect(findPageLinks(PAGE, head('<base href="https://elsewhere.example/">'), header)).toEqual([
      { rel: 'describedby', url: 'https://x.test/llms.txt', type: 'text/plain', from: 'header' },
      { rel: 'markdown', url: 'https://docs.example.com/a.md', type: 'text/markdown', from: 'header' },
    ]);
  });

  it('keeps one of an HTML and header duplicate, the HTML one, and adds what only the header has', () => {
    const html = head('<link rel="describedby" href="/llms.txt">');
    const header = '</llms.txt>; rel=describedby; type="text/plain", </sitemap.xml>; rel=sitemap, <x.md>; rel=alternate; type=text/html';
    expect(compact(findPageLinks(PAGE, html, header))).toEqual([
      'html describedby https://docs.example.com/llms.txt',
      'header sitemap https://docs.example.com/sitemap.xml',
    ]);
  });

  it('works with no HTML at all, and ignores non-http(s) header targets', () => {
    expect(compact(findPageLinks(PAGE, '', '<ftp://x.test/llms.txt>; rel=describedby, <//cdn.test/m.md>; rel=alternate; type=text/x-markdown')))
      .toEqual(['header markdown https://cdn.test/m.md (text/x-markdown)']);
  });
});

describe('parseLinkHeader', () => {
  it('parses several links with quoted and bare params', () => {
    const value = '<https://x.test/llms.txt>; rel="describedby"; type="text/plain", </a.md>; rel=alternate; type="text/markdown"';
    expect(parseLinkHeader(value, PAGE)).toEqual([
      { url: 'https://x.test/llms.txt', rel: ['describedby'], type: 'text/plain' },
      { url: 'https://docs.example.com/a.md', rel: ['alternate'], type: 'text/markdown' },
    ]);
  });

  it('handles commas and semicolons inside quotes and angle brackets, and escapes', () => {
    const value = '<https://x.test/a,b;c>; title="one, two; three \\"q\\""; rel="next", <https://x.test/d>; rel=prev';
    expect(parseLinkHeader(value, PAGE)).toEqual([
      { url: 'https://x.test/a,b;c', rel: ['next'] },
      { url: 'https://x.test/d', rel: ['prev'] },
    ]);
  });

  it('splits and lower-cases rel values, reads param names case-insensitively, keeps the first rel', () => {
    const value = '</m.md> ;  REL = "Alternate  DescribedBy\tNext" ; Type = "text/markdown" ; rel="ignored"';
    expect(parseLinkHeader(value, PAGE)).toEqual([
      { url: 'https://docs.example.com/m.md', rel: ['alternate', 'describedby', 'next'], type: 'text/markdown' },
    ]);
  });

  it('gives rel [] when absent and allows valueless params', () => {
    expect(parseLinkHeader('</x>; crossorigin; type=""', PAGE)).toEqual([{ url: 'https://docs.example.com/x', rel: [] }]);
  });

  it('skips malformed parts and keeps the good links', () => {
    const value = 'garbage, "quoted, <not a link>", <https://ok.test/1>; rel=a; junk "x, y"; rel=b, , ,<https://ok.test/2>;rel=c';
    expect(parseLinkHeader(value, PAGE).map((e) => [e.url, e.rel])).toEqual([
      ['https://ok.test/1', ['a']],
      ['https://ok.test/2', ['c']],
    ]);
  });

  it('skips relative targets when the base is unusable', () => {
    expect(parseLinkHeader('</rel>; rel=a, <https://abs.test/>; rel=b', 'not a url').map((e) => e.url)).toEqual(['https://abs.test/']);
  });

  it('never throws on garbage', () => {
    const inputs = ['', ',', ';', '<', '>', '<>', '<x', '"', '<x>; rel="unterminated', '<x>;;;=;=,', '\u0000<\uD800>;rel=\uFFFF', '<a>;'.repeat(10_000)];
    for (const input of inputs) {
      for (const base of [PAGE, '', 'nope']) expect(() => parseLinkHeader(input, base)).not.toThrow();
    }
    expect(parseLinkHeader('<>; rel=self', PAGE)).toEqual([{ url: PAGE, rel: ['self'] }]);
  });
});

describe('findPageLinks on big and broken pages', () => {
  const paragraph = '<p>Lorem ipsum dolor sit amet, <a href="/x">consectetur</a> adipiscing elit.</p>\n';
  const body = paragraph.repeat(Math.ceil((5 * 1024 * 1024) / paragraph.length));

  it('a 5 MB page parses and yields the head links (body links are not read)', () => {
    const html = head('<link rel="describedby" href="/llms.txt"><link rel="alternate" type="text/markdown" href="intro.md">',
      `${body}<link rel="sitemap" href="/late.xml">`);
    expect(html.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(compact(findPageLinks(PAGE, html, '</s.xml>; rel=sitemap'))).toEqual([
      'html describedby https://docs.example.com/llms.txt',
      'html markdown https://docs.example.com/guide/intro.md (text/markdown)',
      'header sitemap https://docs.example.com/s.xml',
    ]);
  });

  it('big inline scripts, styles and comments in the head do not push its links past the size cap', () => {
    const filler = 'x'.repeat(1024 * 1024);
    const html = head(`<style>/*${filler}*/</style><script>var s = "${filler} <body>";</script><!-- ${filler} -->`
      + '<link rel="describedby" href="/llms.txt">', body);
    expect(compact(findPageLinks(PAGE, html, null))).toEqual(['html describedby https://docs.example.com/llms.txt']);
  });

  it('a 5 MB page with no end of head is read up to the size cap only', () => {
    const html = `<link rel="describedby" href="/llms.txt">${body}<link rel="sitemap" href="/late.xml">`;
    expect(compact(findPageLinks(PAGE, html, null))).toEqual(['html describedby https://docs.example.com/llms.txt']);
  });

  it('never throws on garbage pages, URLs or headers', () => {
    const pages = ['', '\u0000\u0001<<<>>>', '<html', '<!--', '<script>', '<link rel=describedby href=/a', '</head>', '<head><base href>'];
    for (const html of pages) {
      for (const url of [PAGE, '', 'not a url']) {
        expect(() => findPageLinks(url, html, html)).not.toThrow();
      }
    }
    // Absolute hrefs still work when the page URL is unusable; relative ones are dropped.
    const html = head('<link rel="describedby" href="https://a.test/llms.txt"><link rel="sitemap" href="/s.xml">');
    expect(compact(findPageLinks('not a url', html, null))).toEqual(['html describedby https://a.test/llms.txt']);
  });
});

describe('findPageLinks on the demo-docs fixture site', () => {
  const htmlFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? htmlFiles(join(dir, entry.name)) : entry.name.endsWith('.html') ? [join(dir, entry.name)] : []);
  const linksOf = (path: string): PageLink[] =>
    findPageLinks(`${DEMO_ORIGIN}/${path}`, readFileSync(join(DEMO, path), 'utf8'), null);

  it('/guide/installation.html: describedby → /llms.txt, markdown → /guide/installation.md', () => {
    expect(linksOf('guide/installation.html')).toEqual([
      { rel: 'describedby', url: `${DEMO_ORIGIN}/llms.txt`, type: 'text/plain', from: 'html' },
      { rel: 'markdown', url: `${DEMO_ORIGIN}/guide/installation.md`, type: 'text/markdown', from: 'html' },
    ]);
  });

  it('/api/database.html: describedby → /api/llms.txt, no Markdown twin', () => {
    expect(linksOf('api/database.html')).toEqual([
      { rel: 'describedby', url: `${DEMO_ORIGIN}/api/llms.txt`, type: 'text/plain', from: 'html' },
    ]);
  });

  it('every page matches the README: 4 API pages → /api/llms.txt, 12 others → /llms.txt, 3 Markdown twins', () => {
    const files = htmlFiles(DEMO).map((file) => relative(DEMO, file).split('\\').join('/')).sort();
    expect(files).toHaveLength(16);
    const describedby = new Map<string, number>();
    const markdown: string[] = [];
    for (const file of files) {
      const links = linksOf(file);
      const targets = links.filter((l) => l.rel === 'describedby').map((l) => l.url);
      expect(targets, file).toHaveLength(1);
      const target = targets[0] ?? '';
      describedby.set(target, (describedby.get(target) ?? 0) + 1);
      expect(target, file).toBe(`${DEMO_ORIGIN}/${file.startsWith('api/') ? 'api/' : ''}llms.txt`);
      for (const l of links.filter((link) => link.rel === 'markdown')) {
        expect(l.url, file).toBe(`${DEMO_ORIGIN}/${file.replace(/\.html$/, '.md')}`);
        markdown.push(file);
      }
      expect(links.some((l) => l.rel === 'sitemap'), file).toBe(false);
    }
    expect(Object.fromEntries(describedby)).toEqual({ [`${DEMO_ORIGIN}/llms.txt`]: 12, [`${DEMO_ORIGIN}/api/llms.txt`]: 4 });
    expect(markdown).toEqual(['guide/configuration.html', 'guide/installation.html', 'guide/quickstart.html']);
  });
});
