import { describe, expect, it } from 'vitest';
import { toEntries } from '@/lib/crawl/links';
import { keyOfNormalized, normalizeUrl } from '@/lib/url/normalize';
import { createScope } from '@/lib/url/scope';

const scope = createScope({ startUrl: 'https://docs.example.test/', mode: 'site' });
const link = (url: string, depth = 1) => ({ url, depth, source: 'link' as const });

describe('found links to frontier entries', () => {
  it('classifies a URL once however often a page repeats it, keeping the first sighting', () => {
    const entries = toEntries(
      [link('https://docs.example.test/a', 1), link('https://other.test/x'), link('https://docs.example.test/a', 2), link('https://docs.example.test/b/'), link('https://other.test/x')],
      { scope, robots: () => null },
    );
    expect(entries.map((e) => [e.url, e.depth, e.state ?? 'pending'])).toEqual([
      ['https://docs.example.test/a', 1, 'pending'],
      ['https://other.test/x', 1, 'skipped'],
      ['https://docs.example.test/b/', 1, 'pending'],
    ]);
    expect(entries[2]?.key).toBe('https://docs.example.test/b');
  });

  it('keys a normalized URL as the URL parser would: trailing slash folded before the query and fragment, never the root', () => {
    // The reference: parse, fold the path's trailing slash, serialize.
    const reference = (href: string) => {
      const u = new URL(href);
      if (u.pathname.length > 1 && u.pathname.endsWith('/')) u.pathname = u.pathname.slice(0, -1);
      return u.href;
    };
    const raw = [
      'https://docs.example.test/', 'https://docs.example.test', 'https://docs.example.test/docs/', 'https://docs.example.test/docs/?a=1',
      'https://docs.example.test/docs/?a=/b/', 'https://docs.example.test:8080/x//', 'http://[::1]:3000/a/', 'https://docs.example.test/#/guide/',
      'https://docs.example.test/a/#/guide?id=x', 'https://docs.example.test/a%2F/', 'https://docs.example.test/p?q=1#/r/', 'https://docs.example.test/?x=a/',
    ];
    for (const keep of [false, true]) {
      for (const r of raw) {
        const n = normalizeUrl(r, undefined, { keepHashRoute: keep });
        if (!('url' in n)) throw new Error(`not normalized: ${r}`);
        expect(keyOfNormalized(n.url), r).toBe(reference(n.url));
      }
    }
  });

  it('normalizes a link whatever parts it has: an empty fragment or query, credentials, escapes, tracking', () => {
    const cases: Array<[string, string, boolean?]> = [
      ['http://a.test/b#', 'http://a.test/b'],
      ['http://a.test/b?', 'http://a.test/b'],
      ['http://a.test/b?#x', 'http://a.test/b'],
      ['http://user:pw@a.test/p', 'http://a.test/p'],
      ['http://a.test/%7euser/%2f', 'http://a.test/~user/%2F'],
      ['http://a.test/b?utm_source=x&q=%7e#frag', 'http://a.test/b?q=~'],
      ['http://a.test/b?utm_source=x', 'http://a.test/b'],
      ['http://a.test/#/g?id=1', 'http://a.test/#/g', true],
      ['http://a.test/#/g?id=1', 'http://a.test/', false],
      ['http://a.test/plain.html', 'http://a.test/plain.html'],
    ];
    for (const [raw, want, keep] of cases) expect(normalizeUrl(raw, undefined, { keepHashRoute: keep }), raw).toEqual({ url: want });
  });
});
