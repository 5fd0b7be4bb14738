import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loopbackFetch, startFixtureServer, type FixtureServer, type Route } from '../fixtures/server';
import { fetchText } from '../../lib/fetch/fetch-text';
import { isSameSite } from '../../lib/url/site';
import { parseRobots } from '../../lib/discovery/robots';
import { crawlSitemaps, HTML_NOT_SITEMAP, type FetchedSitemap } from '../../lib/discovery/sitemap';
import { parseSitemap } from '../../lib/discovery/sitemap-parse';

const demo = fileURLToPath(new URL('../fixtures/sites/demo-docs/', import.meta.url));
const fetch = loopbackFetch();
const MAPS = 'maps.test';
let server: FixtureServer;

const o = (host = MAPS) => server.origin(host);
const XML = { 'content-type': 'application/xml; charset=utf-8' };
const urlset = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
    .map((u) => `  <url>\n    <loc>${u}</loc>\n    <lastmod>2026-03-10</lastmod>\n  </url>\n`)
    .join('')}</urlset>\n`;
const index = (children: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${children
    .map((c) => `  <sitemap><loc>${c}</loc></sitemap>\n`)
    .join('')}</sitemapindex>\n`;
/** A route whose XML is built at request time, when the server's port is known. */
const xml = (build: () => string, extra: Route = {}) => () => ({ headers: XML, body: build(), ...extra });
const pages = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${o()}/${name}/${i + 1}.html`);

beforeAll(async () => {
  const gz = (type: string) => () => ({ headers: { 'content-type': type }, body: gzipSync(urlset(pages('gz', 3))) });
  server = await startFixtureServer({
    'docs.scout-demo.test': { dir: demo },
    'other-site.test': { routes: { '/s.xml': xml(() => urlset([`${o('other-site.test')}/x`])) } },
    'sub.maps.test': { routes: { '/s.xml': xml(() => urlset([`${o('sub.maps.test')}/sub-page`])) } },
    [MAPS]: {
      routes: {
        '/loop-a.xml': xml(() => index([`${o()}/loop-b.xml`])),
        '/loop-b.xml': xml(() => index([`${o()}/loop-a.xml`, `${o()}/loop-b.xml#again`, `${o()}/leaf.xml`])),
        '/leaf.xml': xml(() => urlset(pages('leaf', 2))),
        '/d0.xml': xml(() => index([`${o()}/d1.xml`])),
        '/d1.xml': xml(() => index([`${o()}/d2.xml`])),
        '/d2.xml': xml(() => index([`${o()}/d3.xml`])),
        '/d3.xml': xml(() => urlset(pages('deep', 1))),
        '/many.xml': xml(() => index([1, 2, 3, 4, 5, 6].map((i) => `${o()}/part-${i}.xml`))),
        ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`/part-${i}.xml`, xml(() => urlset([...pages(`part${i}`, 2), `${o()}/shared.html`]))])),
        '/sitemap.xml.gz': gz('application/gzip'),
        '/sitemap-x.xml.gz': gz('application/x-gzip'),
        '/encoded.xml': () => ({ headers: { ...XML, 'content-encoding': 'gzip' }, body: gzipSync(urlset(pages('enc', 2))) }),
        '/broken.xml': xml(() => `<urlset><url><loc>${o()}/ok</loc></url><url><loc>${o()}/cut-of`),
        '/prose.xml': { headers: { 'content-type': 'text/plain' }, body: 'This is not a sitemap, sorry {' },
        '/rss.xml': xml(() => '<?xml version="1.0"?><rss version="2.0"><channel><item><link>https://a.test/</link></item></channel></rss>'),
        '/soft.xml': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!DOCTYPE html><html><head><title>Oops</title></head><body>Page not found</body></html>' },
        '/soft-fragment.xml': { headers: { 'content-type': 'text/html' }, body: '<p>Nothing here</p>' },
        '/xhtml.xml': { headers: XML, body: '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body>Gone</body></html>' },
        '/soft-mislabelled.xml': { headers: XML, body: '\n  <html lang="en"><body>Not here</body></html>' },
        '/real-but-html-type.xml': () => ({ headers: { 'content-type': 'text/html' }, body: urlset([`${o()}/labelled`]) }),
        '/server-error.xml': { status: 503, body: 'busy' },
        '/private.xml': { status: 403, body: 'no' },
        '/slow.xml': xml(() => urlset([`${o()}/slow`]), { delayMs: 400 }),
        '/ordered.xml': xml(() => index([`${o()}/late.xml`, `${o()}/early.xml`])),
        '/late.xml': xml(() => urlset([`${o()}/late-1`, `${o()}/late-2`]), { delayMs: 120 }),
        '/early.xml': xml(() => urlset([`${o()}/early-1`, `${o()}/late-1`])),
        '/mixed.xml': xml(() => index([`${o()}/leaf.xml`, `${o('other-site.test')}/s.xml`, `${o('sub.maps.test')}/s.xml`])),
        '/big.xml': xml(() => urlset(pages('big', 30))),
        '/fancy.xml': xml(
          () => `\uFEFF<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>
<!-- generated; <loc>${o()}/in-a-comment</loc> -->
<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <sm:url>
    <sm:loc>
      ${o()}/search?q=a&amp;page=2&#38;x=&#x31;
    </sm:loc>
    <image:image><image:loc>${o()}/img/cover.png</image:loc></image:image>
  </sm:url>
  <sm:url><image:loc>${o()}/img/bare.png</image:loc><sm:loc>${o()}/after-a-bare-image</sm:loc></sm:url>
  <sm:url><sm:loc><![CDATA[${o()}/raw?a=1&b=<2>]]></sm:loc></sm:url>
  <sm:url><sm:loc>/relative/page.html</sm:loc></sm:url>
  <sm:url><sm:loc>mailto:someone@maps.test</sm:loc></sm:url>
  <sm:url><sm:loc attr="a > b">${o()}/quoted-attr</sm:loc></sm:url>
</sm:urlset>`,
        ),
      },
    },
  });
});
afterAll(() => server.close());

const crawl = (roots: string[], extra: Partial<Parameters<typeof crawlSitemaps>[1]> = {}) =>
  crawlSitemaps(roots, { fetch, allowHost: (h) => isSameSite(h, MAPS), timeoutMs: 2000, ...extra });
const byPath = (files: FetchedSitemap[]) => Object.fromEntries(files.map((f) => [new URL(f.url).pathname + new URL(f.url).hash, f]));
const hits = (path: string, host = MAPS) => server.requests.filter((r) => r.host === host && r.path === path).length;

describe('crawlSitemaps', () => {
  it('follows the demo site from robots.txt: an index of 2 urlsets, 14 pages, no drafts', async () => {
    const host = 'docs.scout-demo.test';
    const res = await fetchText(server.url(host, '/robots.txt'), { fetch });
    const robots = parseRobots(res.finalUrl, res.text);
    expect(robots.sitemaps).toEqual([`${o(host)}/sitemap.xml`]);
    const seen: string[] = [];
    const result = await crawlSitemaps(robots.sitemaps, { fetch, allowHost: (h) => isSameSite(h, host), onFile: (f) => seen.push(f.url) });
    expect(result.files.map((f) => [new URL(f.url).pathname, f.kind, f.status, f.depth])).toEqual([
      ['/sitemap.xml', 'index', 'found', 0],
      ['/sitemap-docs.xml', 'urlset', 'found', 1],
      ['/sitemap-meta.xml', 'urlset', 'found', 1],
    ]);
    expect(result.files[1]?.parentUrl).toBe(`${o(host)}/sitemap.xml`);
    expect(result.files[0]?.children).toHaveLength(2);
    expect(result.urls).toHaveLength(14);
    expect(result.urls.slice(0, 2)).toEqual([`${o(host)}/guide/index.html`, `${o(host)}/guide/installation.html`]);
    expect(result.urls).toContain(`${o(host)}/`);
    expect(result.urls.some((u) => u.includes('/drafts/'))).toBe(false);
    expect(result.urls.every((u) => robots.isAllowed(u))).toBe(true);
    expect(result.capped).toBe(false);
    expect(seen.sort()).toEqual(result.files.map((f) => f.url).sort());
  });

  it('fetches each sitemap once, so an index loop (A → B → A) ends', async () => {
    const result = await crawl([`${o()}/loop-a.xml`, `${o()}/loop-a.xml#top`, `http://MAPS.test:${server.port}/loop-a.xml`]);
    expect(result.files.map((f) => new URL(f.url).pathname)).toEqual(['/loop-a.xml', '/loop-b.xml', '/leaf.xml']);
    expect(result.urls).toEqual(pages('leaf', 2));
    expect(hits('/loop-a.xml')).toBe(1);
    expect(hits('/loop-b.xml')).toBe(1);
    expect(result.capped).toBe(false);
  });

  it('stops at maxDepth and says so', async () => {
    const shallow = await crawl([`${o()}/d0.xml`], { maxDepth: 2 });
    const files = byPath(shallow.files);
    expect(files['/d2.xml']?.status).toBe('found');
    expect(files['/d3.xml']).toMatchObject({ status: 'not-followed', depth: 3, parentUrl: `${o()}/d2.xml` });
    expect(files['/d3.xml']?.reason).toMatch(/deeper than 2 levels/);
    expect(shallow.urls).toEqual([]);
    expect(shallow.capped).toBe(true);
    expect(hits('/d3.xml')).toBe(0);
    const deep = await crawl([`${o()}/d0.xml`]); // default 3 reaches it
    expect(deep.urls).toEqual(pages('deep', 1));
    expect(deep.capped).toBe(false);
  });

  it('stops at maxFiles (roots count), dedupes page URLs, and reports capped', async () => {
    const result = await crawl([`${o()}/many.xml`], { maxFiles: 4 });
    const status = result.files.map((f) => `${new URL(f.url).pathname} ${f.status}`);
    expect(status).toEqual([
      '/many.xml found',
      '/part-1.xml found', '/part-2.xml found', '/part-3.xml found',
      '/part-4.xml not-followed', '/part-5.xml not-followed', '/part-6.xml not-followed',
    ]);
    expect(result.files[4]?.reason).toMatch(/limit of 4 sitemap files/);
    expect(result.urls).toEqual([...pages('part1', 2), `${o()}/shared.html`, ...pages('part2', 2), ...pages('part3', 2)]);
    expect(result.capped).toBe(true);
    expect(hits('/part-4.xml')).toBe(0);
  });

  it('keeps at most maxUrls page URLs, the first ones in file order', async () => {
    const result = await crawl([`${o()}/big.xml`], { maxUrls: 10 });
    expect(result.urls).toEqual(pages('big', 10));
    expect(result.files[0]?.urls).toHaveLength(30); // the file itself is reported whole
    expect(result.capped).toBe(true);
  });

  it('reads gzip sitemaps served as application/gzip, application/x-gzip or Content-Encoding', async () => {
    const result = await crawl([`${o()}/sitemap.xml.gz`, `${o()}/sitemap-x.xml.gz`, `${o()}/encoded.xml`]);
    expect(result.files.map((f) => [f.status, f.kind])).toEqual([['found', 'urlset'], ['found', 'urlset'], ['found', 'urlset']]);
    expect(result.urls).toEqual([...pages('gz', 3), ...pages('enc', 2)]);
  });

  it('tells a missing sitemap, a soft 404 and a broken file apart, keeping what a cut-off file holds', async () => {
    const names = ['/nope.xml', '/soft.xml', '/soft-fragment.xml', '/xhtml.xml', '/soft-mislabelled.xml', '/real-but-html-type.xml', '/broken.xml', '/prose.xml', '/rss.xml', '/server-error.xml', '/private.xml', '/slow.xml'];
    const result = await crawl(names.map((n) => `${o()}${n}`), { timeoutMs: 200 });
    const f = byPath(result.files);
    expect(f['/nope.xml']).toMatchObject({ status: 'missing', reason: 'Not found (HTTP 404)', httpStatus: 404 });
    expect(f['/soft.xml']).toMatchObject({ status: 'missing', reason: HTML_NOT_SITEMAP, httpStatus: 200 });
    expect(f['/soft-fragment.xml']).toMatchObject({ status: 'missing', reason: HTML_NOT_SITEMAP }); // by its type
    expect(f['/xhtml.xml']).toMatchObject({ status: 'missing', reason: HTML_NOT_SITEMAP }); // by its root element
    expect(f['/soft-mislabelled.xml']).toMatchObject({ status: 'missing', reason: HTML_NOT_SITEMAP }); // by its start
    expect(f['/real-but-html-type.xml']).toMatchObject({ status: 'found', kind: 'urlset', urls: [`${o()}/labelled`] });
    expect(f['/broken.xml']).toMatchObject({ status: 'found', kind: 'urlset', urls: [`${o()}/ok`] });
    expect(f['/prose.xml']).toMatchObject({ status: 'error', kind: 'invalid', reason: 'Not a sitemap: the XML has no <urlset> or <sitemapindex>' });
    expect(f['/rss.xml']?.reason).toMatch(/root element is <rss>/);
    expect(f['/server-error.xml']).toMatchObject({ status: 'error', reason: 'The server answered HTTP 503' });
    expect(f['/private.xml']).toMatchObject({ status: 'error', reason: 'Access denied (HTTP 403)' });
    expect(f['/slow.xml']).toMatchObject({ status: 'error', reason: 'No answer within 0.2 s' });
    expect(result.urls).toEqual([`${o()}/labelled`, `${o()}/ok`]);
  });

  it('does not follow child sitemaps on another site, but does on a subdomain', async () => {
    const result = await crawl([`${o()}/mixed.xml`]);
    const other = result.files.find((f) => f.url.includes('other-site.test'));
    expect(other).toMatchObject({ status: 'not-followed', depth: 1, parentUrl: `${o()}/mixed.xml` });
    expect(other?.reason).toMatch(/other-site\.test is another site/);
    expect(hits('/s.xml', 'other-site.test')).toBe(0);
    expect(result.urls).toEqual([...pages('leaf', 2), `${o('sub.maps.test')}/sub-page`]);
    expect(result.capped).toBe(false);
  });

  it('orders URLs by the tree, not by which answer came first', async () => {
    const result = await crawl([`${o()}/ordered.xml`]);
    expect(result.urls).toEqual([`${o()}/late-1`, `${o()}/late-2`, `${o()}/early-1`]);
    expect(result.files.map((f) => new URL(f.url).pathname)).toEqual(['/ordered.xml', '/late.xml', '/early.xml']);
  });

  it('reports bad roots without throwing', async () => {
    const result = await crawl(['not a url', 'ftp://maps.test/s.xml']);
    expect(result.files.map((f) => f.status)).toEqual(['error', 'error']);
    expect(result.urls).toEqual([]);
  });
});

describe('parseSitemap', () => {
  it('handles prefixes, CDATA, entities, comments and extension <loc>s over HTTP', async () => {
    const res = await fetchText(`${o()}/fancy.xml`, { fetch });
    const file = parseSitemap(res.finalUrl, res.text);
    expect(file.kind).toBe('urlset');
    expect(file.urls).toEqual([`${o()}/search?q=a&page=2&x=1`, `${o()}/after-a-bare-image`, `${o()}/raw?a=1&b=%3C2%3E`, `${o()}/quoted-attr`]);
    expect(file.skipped).toBe(2); // the relative one and the mailto:
  });

  it('reads indexes and plain-text sitemaps, and explains what is not a sitemap', () => {
    const idx = parseSitemap('https://a.test/i.xml', index(['https://a.test/1.xml', 'https://a.test/2.xml']));
    expect(idx).toMatchObject({ kind: 'index', children: ['https://a.test/1.xml', 'https://a.test/2.xml'], urls: [] });
    expect(parseSitemap('https://a.test/s.txt', 'https://a.test/a\r\n\r\nhttps://a.test/b\n')).toMatchObject({ kind: 'urlset', urls: ['https://a.test/a', 'https://a.test/b'] });
    expect(parseSitemap('u', '').error).toBe('Not a sitemap: the file is empty');
    expect(parseSitemap('u', 'hello\nhttps://a.test/').error).toBe('Not a sitemap: the XML has no <urlset> or <sitemapindex>');
    expect(parseSitemap('u', '<!doctype html><html><body>hi</body></html>').error).toBe('Not a sitemap: this is an HTML page');
    for (const junk of ['<', '<urlset', '<urlset><url><loc', '<<<>>>', '<!--', '<![CDATA[', '\u0000\uFFFF', '<a b="unterminated>']) {
      expect(() => parseSitemap('u', junk)).not.toThrow();
    }
    // Only the first <loc> directly inside <url> counts, even when an extension uses a default namespace.
    const nested = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://a.test/wrong-kind.xml</loc></sitemap><url><image xmlns="http://www.google.com/schemas/sitemap-image/1.1"><loc>https://a.test/i.png</loc></image><loc>https://a.test/page</loc><loc>https://a.test/second-loc</loc></url></urlset>';
    expect(parseSitemap('u', nested).urls).toEqual(['https://a.test/page']);
    // A file cut off inside a <loc>: half a URL is neither kept nor counted as skipped.
    const cut = parseSitemap('u', '<urlset><url><loc>https://a.test/whole</loc></url><url><loc>https://a.test/ha');
    expect(cut).toMatchObject({ kind: 'urlset', urls: ['https://a.test/whole'], skipped: 0 });
  });

  // Speed is a benchmark concern (~100 ms here vs ~1.2 s with linkedom); this checks completeness at the protocol's maximum.
  it('reads every URL of a 50 000-URL sitemap', () => {
    const urls = Array.from({ length: 50_000 }, (_, i) => `https://a.test/docs/page-${i}.html`);
    const file = parseSitemap('https://a.test/big.xml', urlset(urls));
    expect(file.urls).toHaveLength(50_000);
    expect(file.urls[49_999]).toBe('https://a.test/docs/page-49999.html');
  });
});
