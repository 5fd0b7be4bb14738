/**
 * Discovery's input budgets against hostile sites on loopback (#28): gzip bombs stop at the cap
 * while inflating, a million-child sitemap index is one row with its cut in words, a huge or
 * hostile llms.txt is parsed within its budget, and one discovery writes a bounded number of rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@/lib/store/db';
import { discover, MAX_RESULTS } from '@/lib/discovery/discover';
import { PARSE_BUDGET, parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { crawlSitemaps } from '@/lib/discovery/sitemap';
import { scanSitemap, SitemapScanner } from '@/lib/discovery/sitemap-parse';
import { fetchText } from '@/lib/fetch/fetch-text';
import { fetchPage } from '@/lib/fetch/page-fetcher';
import { bombSite, hugeIndexSite, linkFloodSite, sentBytes } from '../fixtures/hostile-budgets';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

const fetch = loopbackFetch();
const MIB = 1024 * 1024;
let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer({ 'bomb.test': bombSite(), 'huge-index.test': hugeIndexSite(), 'links.test': linkFloodSite() });
});
afterAll(() => server.close());

describe('gzip bombs', () => {
  it('stops inflating a .gz file body at the cap, and says so', async () => {
    const started = Date.now();
    const res = await fetchText(server.url('bomb.test', '/llms.txt'), { fetch, maxBytes: 10 * MIB });
    expect(res.text.length).toBe(10 * MIB);
    expect(res.text.startsWith('# Bomb\n')).toBe(true);
    expect(res.truncated).toBe(true);
    expect(res.cut).toMatch(/^Unpacks to more than 10 MB \(from [\d.]+ KB read so far\): only the first 10 MB were read$/);
    // Read off the wire: what 10 MB unpack from (~10 KB at ~1000:1), not the whole ~1 MB bomb.
    expect(res.bytes).toBeLessThan(200 * 1024);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops an endless Content-Encoding: gzip answer at the cap, and says so', async () => {
    const res = await fetchText(server.url('bomb.test', '/encoded/llms.txt'), { fetch, maxBytes: 10 * MIB });
    expect(res.truncated).toBe(true);
    expect(res.text.length).toBe(10 * MIB);
    expect(res.cut).toBe('Unpacks to more than 10 MB: only the first 10 MB were read');
    expect(sentBytes.get('/encoded/llms.txt')).toBeLessThan(4 * MIB);
  });

  it('skips a crawled page whose Content-Encoding unpacks past the page limit, reading no further', async () => {
    const started = Date.now();
    const result = await fetchPage(server.url('bomb.test', '/encoded/page.html'), { fetch, maxBytes: 5 * MIB });
    expect(result).toMatchObject({ kind: 'skipped', reason: 'Larger than 5 MB' });
    expect(sentBytes.get('/encoded/page.html')).toBeLessThan(4 * MIB);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('names a file that starts like gzip but is not', async () => {
    await expect(fetchText(server.url('bomb.test', '/damaged.xml.gz'), { fetch })).rejects.toMatchObject({
      reason: 'The file starts like gzip but could not be unpacked (damaged or cut short)',
    });
  });

  it('lists a bomb served as a sitemap as found, empty, with the cut in words', async () => {
    const crawl = await crawlSitemaps([server.url('bomb.test', '/sitemap.xml')], { fetch, maxBytes: 10 * MIB });
    expect(crawl.files).toHaveLength(1);
    expect(crawl.files[0]).toMatchObject({ status: 'found', kind: 'urlset', urls: [], reason: expect.stringMatching(/^Unpacks to more than 10 MB .*only the first 10 MB were read$/) });
    expect(crawl.capped).toBe(true);
  });

  it('ends discovery of the bomb site with each cut shown on its file', async () => {
    const { results } = await discover({ pageUrl: server.url('bomb.test', '/'), fetch, timeoutMs: 10_000 });
    const at = (path: string) => results.find((r) => r.url === server.url('bomb.test', path));
    expect(at('/llms.txt')).toMatchObject({ status: 'found', title: 'Bomb', truncated: true, reason: expect.stringMatching(/^Unpacks to more than 10 MB/) });
    expect(at('/sitemap.xml')).toMatchObject({ status: 'found', reason: expect.stringMatching(/^Unpacks to more than 50 MB/) });
    expect(at('/encoded/sitemap.xml')).toMatchObject({ status: 'found', reason: 'Unpacks to more than 50 MB: only the first 50 MB were read' });
  });
});

describe('a sitemap index with a million children', () => {
  it('is one row whose reason names the cut; children and URLs stop at their limits', async () => {
    const started = Date.now();
    const found: string[] = [];
    const { results } = await discover({ pageUrl: server.url('huge-index.test', '/'), fetch, timeoutMs: 20_000, onResult: (r) => found.push(r.url) });
    const seconds = (Date.now() - started) / 1000;
    const index = results.find((r) => r.url === server.url('huge-index.test', '/sitemap.xml'));
    // ~70 bytes an entry: the 50 MB cap is reached first, so the count is "more than".
    expect(index?.reason).toMatch(/^Sitemap index lists more than [\d,]{7} sitemaps \(unpacks to more than 50 MB: only the first 50 MB were read\); Scout fetched the first 49$/);
    const children = results.filter((r) => r.parentUrl === index?.url);
    expect(children.length).toBe(49 + 10);
    expect(children.filter((r) => r.status === 'found').length).toBeGreaterThanOrEqual(10);
    expect(children.filter((r) => r.status === 'not-followed').map((r) => r.reason)).toEqual(
      expect.arrayContaining(['Not fetched: the limit of 50,000 page URLs was reached', 'Not fetched: the limit of 50 sitemap files was reached']),
    );
    expect(found.length).toBeLessThan(200);
    console.log(`million-child index: ${results.length} results, ${seconds.toFixed(1)} s`);
  }, 60_000);
});

describe('sitemaps read as they arrive', () => {
  const xml = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="/s.xsl"?>
<!-- generated; <loc>https://maps.test/in-a-comment</loc> -->
<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <sm:url><sm:loc>
      https://maps.test/search?q=a&amp;page=2&#38;x=&#x31;
  </sm:loc><image:image><image:loc>https://maps.test/img.png</image:loc></image:image></sm:url>
  <sm:url><sm:loc><![CDATA[https://maps.test/raw?a=1&b=<2>]]></sm:loc></sm:url>
  <sm:url><sm:loc>/relative</sm:loc></sm:url>
  <sm:url attr='a > b'><sm:loc>https://maps.test/last</sm:loc></sm:url>
</sm:urlset>`;

  it('reads the same entries whatever the pieces it is fed in', () => {
    const whole = scanSitemap('https://maps.test/s.xml', xml);
    expect(whole.file.urls).toEqual(['https://maps.test/search?q=a&page=2&x=1', 'https://maps.test/raw?a=1&b=%3C2%3E', 'https://maps.test/last']);
    for (let size = 1; size <= 17; size++) {
      const scanner = new SitemapScanner('https://maps.test/s.xml');
      for (let i = 0; i < xml.length; i += size) scanner.feed(xml.slice(i, i + size));
      expect(scanner.end(), `pieces of ${size}`).toEqual(whole);
    }
  });

  it('keeps 50,000 entries of a bigger file and counts the rest', () => {
    const scanner = new SitemapScanner('https://maps.test/s.xml');
    scanner.feed('<urlset>');
    for (let i = 0; i < 60_000; i++) scanner.feed(`<url><loc>https://maps.test/${i}</loc></url>`);
    const { file } = scanner.end();
    expect(file.urls).toHaveLength(50_000);
    expect(file.more).toBe(10_000);
  });

  it('stops at a <loc> that never ends instead of holding it', () => {
    const scanner = new SitemapScanner('https://maps.test/s.xml');
    scanner.feed('<urlset><url><loc>https://maps.test/ok</loc></url><url><loc>https://maps.test/');
    for (let i = 0; i < 40; i++) scanner.feed('a'.repeat(65_536));
    expect(scanner.overlong).toBe(true);
    expect(scanner.end().file.urls).toEqual(['https://maps.test/ok']);
  });
});

describe('llms.txt parse budget', () => {
  it('does not try a 300 KB line as a link item, and says so', () => {
    const text = `# Tabs\n\n## Docs\n- [a](${'\t'.repeat(300_000)}\n- [b](/b)\n`;
    const started = Date.now();
    const parsed = parseLlmsTxt(text, 'https://links.test/llms.txt');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(parsed.links.map((l) => l.url)).toEqual(['https://links.test/b']);
    expect(parsed.warnings.find((w) => w.code === 'line-too-long')?.message).toBe('Line 4 is 300,006 characters long: too long to be a link item, so it was not read as one.');
  });

  it('reads the first 4 MB of a larger file and says how far it read', () => {
    const line = (i: number) => `- [Page ${i}](/p/${i}): notes about page ${i} ${'x'.repeat(40)}`;
    const text = `# Big\n\n## Pages\n${Array.from({ length: 100_000 }, (_, i) => line(i)).join('\n')}\n`;
    expect(text.length).toBeGreaterThan(8 * MIB);
    const parsed = parseLlmsTxt(text, 'https://links.test/llms.txt');
    const warning = parsed.warnings.find((w) => w.code === 'too-large');
    expect(warning?.message).toMatch(/^The file is [\d.]+ MB of text: Scout read its first 4 MB \(lines 1–[\d,]+\) for its title, sections and links; the rest was not checked\.$/);
    expect(parsed.links.length).toBeGreaterThan(40_000);
    expect(parsed.links.length).toBeLessThan(100_000);
  });

  it('stops trying links when its time is up, and says where', () => {
    const saved = PARSE_BUDGET.ms;
    PARSE_BUDGET.ms = -1;
    try {
      const text = `# T\n\n## A\n${Array.from({ length: 1000 }, (_, i) => `- [p${i}](/p/${i})`).join('\n')}\n`;
      const parsed = parseLlmsTxt(text, 'https://links.test/llms.txt');
      expect(parsed.links.length).toBe(63);
      expect(parsed.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^Scout stopped reading links at line 67 after -?0(\.\d+)? s: the rest of the file was not checked\.$/)]);
    } finally {
      PARSE_BUDGET.ms = saved;
    }
  });

  it('ends discovery of the 300 KB tab line', async () => {
    const started = Date.now();
    const { results } = await discover({ pageUrl: server.url('links.test', '/'), fetch, timeoutMs: 5000, followDepth: 0 });
    expect(results.find((r) => r.url === server.url('links.test', '/llms.txt'))).toMatchObject({ status: 'found', linkCount: 1, warningCount: expect.any(Number) });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('rows per discovery', () => {
  it('lists at most MAX_RESULTS locations and says how many more it saw', async () => {
    const db = createDb(`budgets-${Math.random()}`);
    try {
      const job = await runDiscoveryJob(db, { jobId: 'flood', pageUrl: server.url('links.test', '/flood/'), fetch });
      const rows = await db.discovered.where('jobId').equals('flood').count();
      expect(rows).toBe(MAX_RESULTS);
      expect(job.counters.unlisted).toBeGreaterThan(39_000 - MAX_RESULTS);
      expect(job.message).toMatch(/ · [\d,]+ more locations not listed \(limit of 1,000 rows\) · /);
    } finally {
      await db.delete();
    }
  }, 60_000);
});
