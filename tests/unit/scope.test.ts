import { describe, expect, it } from 'vitest';
import { createScope } from '@/lib/url/scope';

describe('createScope — modes', () => {
  it("'site' keeps the registrable domain, subdomains included", () => {
    const inScope = createScope({ startUrl: 'https://docs.example.test/guide/', mode: 'site' });
    expect(inScope('https://docs.example.test/other')).toBeNull();
    expect(inScope('https://api.example.test/v1')).toBeNull();
    expect(inScope('https://example.test/')).toBeNull();
    expect(inScope('http://docs.example.test:8080/x')).toBeNull();
    expect(inScope('https://other.test/')).toBe('Outside the site (other.test)');
    expect(inScope('https://example.test.evil.test/')).toBe('Outside the site (example.test.evil.test)');
  });

  it("'site' uses the Public Suffix List for multi-label suffixes", () => {
    const uk = createScope({ startUrl: 'https://docs.example.co.uk/', mode: 'site' });
    expect(uk('https://www.example.co.uk/a')).toBeNull();
    expect(uk('https://other.co.uk/a')).toBe('Outside the site (other.co.uk)');
    // Private suffixes count: two github.io users are two sites.
    const pages = createScope({ startUrl: 'https://alice.github.io/proj/', mode: 'site' });
    expect(pages('https://alice.github.io/other/')).toBeNull();
    expect(pages('https://bob.github.io/proj/')).toBe('Outside the site (bob.github.io)');
  });

  it("'host' keeps exactly the start host and port", () => {
    const inScope = createScope({ startUrl: 'https://docs.example.test/guide/', mode: 'host' });
    expect(inScope('http://docs.example.test/anything')).toBeNull();
    expect(inScope('https://api.example.test/v1')).toBe('On another host (api.example.test)');
    expect(inScope('https://docs.example.test:8443/x')).toBe('On another host (docs.example.test:8443)');
  });

  it("'path' keeps the start page's directory on the start host", () => {
    const inScope = createScope({ startUrl: 'https://docs.example.test/docs/guide/intro.html', mode: 'path' });
    expect(inScope('https://docs.example.test/docs/guide/setup.html')).toBeNull();
    expect(inScope('https://docs.example.test/docs/guide/deep/er')).toBeNull();
    expect(inScope('https://docs.example.test/docs/guide')).toBeNull();
    expect(inScope('https://docs.example.test/docs/other')).toBe('Outside /docs/guide/');
    expect(inScope('https://docs.example.test/docs/guidebook/x')).toBe('Outside /docs/guide/');
    expect(inScope('https://docs.example.test/Docs/guide/x')).toBe('Outside /docs/guide/');
    expect(inScope('https://api.example.test/docs/guide/x')).toBe('On another host (api.example.test)');
    const dir = createScope({ startUrl: 'https://docs.example.test/docs/', mode: 'path' });
    expect(dir('https://docs.example.test/docs/a')).toBeNull();
    expect(dir('https://docs.example.test/blog')).toBe('Outside /docs/');
  });

  it('rejects URLs it cannot read and a start page that is not a web page', () => {
    expect(createScope({ startUrl: 'https://docs.example.test/', mode: 'site' })('mailto:a@b.test')).toBe('Not a valid URL');
    expect(() => createScope({ startUrl: 'file:///etc/passwd', mode: 'site' })).toThrow(/not a web address/);
  });
});

describe('createScope — include and exclude', () => {
  const start = 'https://docs.example.test/';

  it('exclude wins over include', () => {
    const inScope = createScope({ startUrl: start, mode: 'site', include: ['/docs/**'], exclude: ['/docs/drafts/**'] });
    expect(inScope('https://docs.example.test/docs/a/b')).toBeNull();
    expect(inScope('https://docs.example.test/docs/drafts/x')).toBe('Excluded by pattern /docs/drafts/**');
    expect(inScope('https://docs.example.test/blog/x')).toBe('Not matched by any include pattern');
    // The mode is checked first: its reason is the more useful one.
    expect(inScope('https://other.test/docs/a')).toBe('Outside the site (other.test)');
  });

  it('matches ** across segments, * within one, the query, and full-URL patterns', () => {
    const inScope = createScope({
      startUrl: start,
      mode: 'site',
      exclude: ['/blog/**', '/api/*.json', '/search?q=*', 'https://api.example.test/internal/**', 'tags/**', '   '],
    });
    expect(inScope('https://docs.example.test/blog')).toBe('Excluded by pattern /blog/**');
    expect(inScope('https://docs.example.test/blog/2024/01/post')).toBe('Excluded by pattern /blog/**');
    expect(inScope('https://docs.example.test/api/a.json?v=2')).toBe('Excluded by pattern /api/*.json');
    expect(inScope('https://docs.example.test/api/a/b.json')).toBeNull();
    expect(inScope('https://docs.example.test/search?q=x')).toBe('Excluded by pattern /search?q=*');
    expect(inScope('https://api.example.test/internal/keys')).toBe('Excluded by pattern https://api.example.test/internal/**');
    expect(inScope('https://docs.example.test/internal/keys')).toBeNull();
    expect(inScope('https://docs.example.test/tags/x')).toBe('Excluded by pattern tags/**');
    expect(inScope('https://docs.example.test/.well-known/x')).toBeNull();
  });

  it('throws a clear error for an invalid glob at creation time', () => {
    expect(() => createScope({ startUrl: start, mode: 'site', include: ['/docs/[abc'] })).toThrow(/Invalid pattern "\/docs\/\[abc"/);
    expect(() => createScope({ startUrl: start, mode: 'site', exclude: ['/a/{b,c'] })).toThrow(/Invalid pattern/);
    expect(() => createScope({ startUrl: start, mode: 'site', exclude: ['/a/[z-a]'] })).toThrow(/Invalid pattern/);
    expect(() => createScope({ startUrl: start, mode: 'site', exclude: ['/a/[a-z]'] })).not.toThrow();
  });
});

describe('createScope — a parsed URL', () => {
  it('answers for a URL object as for its text, and leaves the object as it was', () => {
    const inScope = createScope({ startUrl: 'http://docs.example.test/docs/', mode: 'path', exclude: ['/docs/old/**'] });
    const urls = ['http://docs.example.test/docs/a', 'http://docs.example.test/blog/', 'http://docs.example.test/docs/old/x', 'http://192.168.1.1/docs/', 'https://other.test/docs/', 'http://docs.example.test/docs/#/route', 'mailto:a@example.test'];
    for (const text of urls) {
      const url = new URL(text);
      expect(inScope(url), text).toBe(inScope(text));
      expect(url.href).toBe(new URL(text).href);
    }
    expect(inScope(new URL('http://192.168.1.1/docs/'))).toMatch(/private|local|network/i);
  });
});
