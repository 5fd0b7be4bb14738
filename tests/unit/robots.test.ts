import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';
import { fetchText } from '../../lib/fetch/fetch-text';
import { parseRobots, SCOUT_USER_AGENT, type RobotsInfo } from '../../lib/discovery/robots';

const demo = fileURLToPath(new URL('../fixtures/sites/demo-docs/', import.meta.url));
const fetch = loopbackFetch();
let server: FixtureServer;

/** A robots.txt answer for a host, written in CRLF when asked. */
const robots = (body: string | Buffer, contentType = 'text/plain; charset=utf-8') => ({
  '/robots.txt': { headers: { 'content-type': contentType }, body },
});

beforeAll(async () => {
  server = await startFixtureServer({
    'docs.scout-demo.test': { dir: demo },
    'lines.test': {
      routes: robots(
        [
          '\uFEFFUser-agent: *',
          'Disallow: /private # members only',
          'Sitemap: https://cdn.elsewhere.test/a.xml',
          'Sitemap: /sitemaps/b.xml',
          'sitemap:sitemap-c.xml',
          'SITEMAP: http://lines.test/sitemaps/b.xml',
          'Sitemap: javascript:alert(1)',
          'Sitemap:',
        ].join('\r\n'),
      ),
    },
    'rules.test': {
      routes: robots(`User-agent: *
Disallow: /

# Our own group: replaces the * group entirely.
User-agent: LLMS-Txt-Scout
Disallow: /docs/
Allow: /docs/public/
Disallow: /docs/public/secret
Allow: /page
Disallow: /page
Disallow: /*.pdf$
Disallow: /tmp*/cache
`),
    },
    'delay.test': {
      routes: robots(`User-agent: *
Crawl-delay: 5

User-agent: SlowBot
User-agent: SnailBot
Crawl-delay: 0.5
Disallow:

User-agent: llms-txt-scout
Disallow: /private/

User-agent: BadBot
Crawl-delay: soon

User-agent: NegativeBot
Crawl-delay: -3
`),
    },
    'binary.test': { routes: robots(Buffer.from([0x00, 0xff, 0xfe, 0x3a, 0x0a, 0x80, 0x81, 0x3a, 0x2f]), 'application/octet-stream') },
    'html.test': { routes: robots('<!doctype html><html><body><h1>Welcome</h1><p>Disallow: / is not a rule here</p></body></html>', 'text/html') },
  });
});
afterAll(() => server.close());

async function robotsOf(host: string): Promise<{ info: RobotsInfo; origin: string }> {
  const res = await fetchText(server.url(host, '/robots.txt'), { fetch });
  expect(res.status).toBe(200);
  return { info: parseRobots(res.finalUrl, res.text), origin: server.origin(host) };
}

describe('parseRobots', () => {
  it('reads the demo site: its sitemap index, /drafts/ disallowed, the rest allowed', async () => {
    const { info, origin } = await robotsOf('docs.scout-demo.test');
    expect(info.sitemaps).toEqual([`${origin}/sitemap.xml`]);
    expect(info.isAllowed(`${origin}/drafts/secret-roadmap.html`)).toBe(false);
    expect(info.isAllowed(`${origin}/drafts/`)).toBe(false);
    expect(info.isAllowed(`${origin}/guide/installation.html`)).toBe(true);
    expect(info.isAllowed(`${origin}/`)).toBe(true);
    expect(info.crawlDelaySeconds()).toBeUndefined();
    expect(info.ruleCount).toBe(2);
    expect(info.groupCount).toBe(1);
  });

  it('resolves relative Sitemap lines, dedupes them, drops non-web ones, and copes with CRLF, BOM and comments', async () => {
    const { info, origin } = await robotsOf('lines.test');
    // lines.test has no port in its absolute Sitemap line, so that one is a different URL.
    expect(info.sitemaps).toEqual([
      'https://cdn.elsewhere.test/a.xml',
      `${origin}/sitemaps/b.xml`,
      `${origin}/sitemap-c.xml`,
      'http://lines.test/sitemaps/b.xml',
    ]);
    expect(info.isAllowed(`${origin}/private/notes`)).toBe(false);
    expect(info.isAllowed(`${origin}/public`)).toBe(true);
    expect(info.ruleCount).toBe(1);

    // fetch's TextDecoder eats a BOM, so hand one over directly too, with old-Mac CR line ends.
    const direct = parseRobots('https://a.test/robots.txt', '\uFEFFUser-agent: *\rDisallow: /x\rSitemap: /s.xml\r');
    expect(direct.isAllowed('https://a.test/x/1')).toBe(false);
    expect(direct.isAllowed('https://a.test/y')).toBe(true);
    expect(direct.sitemaps).toEqual(['https://a.test/s.xml']);
    const dup = parseRobots('https://a.test/robots.txt', 'Sitemap: https://a.test/s.xml\nSitemap: /s.xml\n');
    expect(dup.sitemaps).toEqual(['https://a.test/s.xml']);
  });

  it('applies the longest matching rule, lets Allow win a tie, and honours * and $ wildcards', async () => {
    const { info, origin } = await robotsOf('rules.test');
    const allowed = (path: string, ua?: string) => info.isAllowed(`${origin}${path}`, ua);
    expect(allowed('/docs/intro')).toBe(false);
    expect(allowed('/docs/public/a.html')).toBe(true); // longer Allow beats Disallow: /docs/
    expect(allowed('/docs/public/secret-plan')).toBe(false); // longer Disallow beats that Allow
    expect(allowed('/page')).toBe(true); // same length: Allow wins
    expect(allowed('/file.pdf')).toBe(false);
    expect(allowed('/file.pdf?download=1')).toBe(true); // $ anchors the end
    expect(allowed('/tmp-42/cache/x')).toBe(false);
    expect(allowed('/anything-else')).toBe(true); // our group has no rule for it; * is not consulted
    expect(allowed('/anything-else', 'OtherBot')).toBe(false); // other agents fall back to *
    expect(allowed('/docs/intro', `${SCOUT_USER_AGENT}/2.1`)).toBe(false); // a version suffix still matches
    expect(info.isAllowed('/docs/intro')).toBe(false); // relative to the robots URL
    expect(info.isAllowed('/docs/public/')).toBe(true);
    expect(info.isAllowed('http://elsewhere.test/docs/intro')).toBe(true); // not this file's origin
    expect(info.ruleCount).toBe(8);
    expect(info.groupCount).toBe(2);
  });

  it('reads Crawl-delay from the group that applies, without inheriting from *', async () => {
    const { info, origin } = await robotsOf('delay.test');
    expect(info.crawlDelaySeconds()).toBeUndefined(); // our group exists and sets none
    expect(info.crawlDelaySeconds('SnailBot')).toBe(0.5); // consecutive User-agent lines share a group
    expect(info.crawlDelaySeconds('slowbot')).toBe(0.5);
    expect(info.crawlDelaySeconds('SomeOtherBot')).toBe(5);
    expect(info.crawlDelaySeconds('BadBot')).toBeUndefined();
    expect(info.crawlDelaySeconds('NegativeBot')).toBeUndefined();
    expect(info.isAllowed(`${origin}/private/x`)).toBe(false);
    expect(info.isAllowed(`${origin}/private/x`, 'SlowBot')).toBe(true); // empty Disallow allows all
    expect(info.groupCount).toBe(5);
  });

  it('never throws on garbage: no sitemaps, everything allowed', async () => {
    for (const host of ['binary.test', 'html.test']) {
      const { info, origin } = await robotsOf(host);
      expect(info.sitemaps).toEqual([]);
      expect(info.isAllowed(`${origin}/`)).toBe(true);
      expect(info.isAllowed(`${origin}/admin`)).toBe(true);
      expect(info.ruleCount).toBe(0);
    }
    const odd = ['', '\n\n', ':::', 'Disallow /nope', '{"User-agent": "*"}', 'x'.repeat(100_000), '\u0000\uFFFF:'];
    for (const text of odd) {
      const info = parseRobots('https://a.test/robots.txt', text);
      expect(info.sitemaps).toEqual([]);
      expect(info.isAllowed('https://a.test/nope')).toBe(true);
    }
    const noBase = parseRobots('not a url', 'User-agent: *\nDisallow: /\nSitemap: /s.xml\nSitemap: https://a.test/s.xml');
    expect(noBase.sitemaps).toEqual(['https://a.test/s.xml']);
    expect(noBase.isAllowed('also not a url')).toBe(true);
    expect(noBase.isAllowed('https://a.test/')).toBe(true);
  });
});
