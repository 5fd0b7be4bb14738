import { describe, expect, it } from 'vitest';
import { isSameSite, registrableDomain, siteInfo } from '@/lib/url/site';

describe('registrableDomain (Public Suffix List)', () => {
  it.each([
    ['docs.example.com', 'example.com'],
    ['docs.example.co.uk', 'example.co.uk'],
    ['a.b.example.co.uk', 'example.co.uk'],
    ['alice.github.io', 'alice.github.io'],
    ['docs.example.test', 'example.test'],
  ])('%s → %s', (host, expected) => expect(registrableDomain(host)).toBe(expected));

  it.each(['127.0.0.1', '[::1]', 'localhost', 'intranet'])('%s has no registrable domain', (host) => {
    expect(registrableDomain(host)).toBeNull();
  });
});

describe('isSameSite', () => {
  it('matches subdomains of one registrable domain, including multi-label suffixes', () => {
    expect(isSameSite('docs.example.co.uk', 'api.example.co.uk')).toBe(true);
    expect(isSameSite('example.co.uk', 'other.co.uk')).toBe(false);
    expect(isSameSite('alice.github.io', 'bob.github.io')).toBe(false);
    expect(isSameSite('docs.example.test', 'other.test')).toBe(false);
  });
  it('treats hosts without a registrable domain as their own site only', () => {
    expect(isSameSite('localhost', 'localhost')).toBe(true);
    expect(isSameSite('127.0.0.1', '127.0.0.2')).toBe(false);
  });
});

describe('siteInfo', () => {
  it('asks for the registrable domain and its subdomains', () => {
    const info = siteInfo('https://docs.example.co.uk/guide/intro.html?x=1#top');
    expect(info).toEqual({
      origin: 'https://docs.example.co.uk',
      host: 'docs.example.co.uk',
      site: 'example.co.uk',
      hostPatterns: ['*://example.co.uk/*', '*://*.example.co.uk/*'],
    });
  });
  it('asks only for the host itself when there is no registrable domain', () => {
    expect(siteInfo('http://localhost:8080/docs/').hostPatterns).toEqual(['*://localhost/*']);
    expect(siteInfo('http://192.168.1.20/docs/').hostPatterns).toEqual(['*://192.168.1.20/*']);
  });
  it('refuses non-web URLs', () => {
    expect(() => siteInfo('chrome://settings')).toThrow(/Not a web page/);
  });
});
