import { describe, expect, it } from 'vitest';
import { binaryExtensionReason, dedupeKey, isTrackingParam, normalizeUrl, TRACKING_PARAMS } from '@/lib/url/normalize';

const norm = (raw: string, base?: string) => {
  const result = normalizeUrl(raw, base);
  return 'url' in result ? result.url : `SKIP: ${result.skip}`;
};

describe('normalizeUrl', () => {
  it('drops tracking parameters and keeps the others in their order and spelling', () => {
    expect(norm('https://docs.example.test/a?utm_source=x&b=2&gclid=1&a=1&fbclid=z&UTM_Medium=m')).toBe('https://docs.example.test/a?b=2&a=1');
    expect(norm('https://docs.example.test/a?_ga=1&mc_cid=2&mc_eid=3&msclkid=4&_gl=5&yclid=6&ref_src=7&igshid=8')).toBe('https://docs.example.test/a');
    // `flag` without `=` and `%20` survive as written (URLSearchParams would rewrite them).
    expect(norm('https://docs.example.test/s?flag&q=a%20b&utm_campaign=c')).toBe('https://docs.example.test/s?flag&q=a%20b');
    // GitHub's ?ref=branch selects content: not a tracking parameter.
    expect(norm('https://github.example.test/o/r/blob/x?ref=main')).toBe('https://github.example.test/o/r/blob/x?ref=main');
  });

  it('lists the usual tracking parameters', () => {
    expect(TRACKING_PARAMS).toEqual(expect.arrayContaining(['utm_*', 'gclid', 'fbclid', 'msclkid', 'mc_cid', 'mc_eid', '_ga', '_gl', 'yclid', 'ref_src', 'igshid']));
    expect(isTrackingParam('utm_anything')).toBe(true);
    expect(isTrackingParam('page')).toBe(false);
  });

  it('drops the fragment, an empty query and default ports; lowercases scheme and host only', () => {
    expect(norm('HTTPS://Docs.Example.TEST:443/Guide/Intro.html#setup')).toBe('https://docs.example.test/Guide/Intro.html');
    expect(norm('http://docs.example.test:80/a?')).toBe('http://docs.example.test/a');
    expect(norm('http://docs.example.test:8080/a?utm_source=x#y')).toBe('http://docs.example.test:8080/a');
  });

  it('keeps paths case-sensitive and keeps duplicate slashes', () => {
    expect(norm('https://docs.example.test/API/Reference.HTML')).toBe('https://docs.example.test/API/Reference.HTML');
    expect(norm('https://docs.example.test/a//b')).toBe('https://docs.example.test/a//b');
  });

  it('normalizes percent-encoding without decoding reserved characters', () => {
    expect(norm('https://docs.example.test/%7euser/%61%2fb%2F?q=%7e%3d')).toBe('https://docs.example.test/~user/a%2Fb%2F?q=~%3D');
    expect(norm('https://docs.example.test/a b/é')).toBe('https://docs.example.test/a%20b/%C3%A9');
    expect(norm('https://docs.example.test/a/./b/../c')).toBe('https://docs.example.test/a/c');
  });

  it('resolves relative links against the base', () => {
    const base = 'https://docs.example.test/docs/guide/intro.html';
    expect(norm('setup.html#x', base)).toBe('https://docs.example.test/docs/guide/setup.html');
    expect(norm('../api/', base)).toBe('https://docs.example.test/docs/api/');
    expect(norm('/root', base)).toBe('https://docs.example.test/root');
    expect(norm('//api.example.test/v1', base)).toBe('https://api.example.test/v1');
    expect(norm('?page=2', base)).toBe('https://docs.example.test/docs/guide/intro.html?page=2');
    expect(norm('  next.html\n', base)).toBe('https://docs.example.test/docs/guide/next.html');
  });

  it('converts an IDN host to punycode and strips credentials', () => {
    expect(norm('https://Bücher.example.test/Straße')).toBe('https://xn--bcher-kva.example.test/Stra%C3%9Fe');
    expect(norm('https://user:secret@docs.example.test/a')).toBe('https://docs.example.test/a');
  });

  it('skips non-web schemes and invalid URLs with a reason', () => {
    expect(norm('mailto:someone@example.test')).toBe('SKIP: Not a web link (mailto:)');
    expect(norm('javascript:void(0)')).toBe('SKIP: Not a web link (javascript:)');
    expect(norm('data:text/plain,hi')).toBe('SKIP: Not a web link (data:)');
    expect(norm('tel:+123')).toBe('SKIP: Not a web link (tel:)');
    expect(norm('ftp://files.example.test/a')).toBe('SKIP: Not a web link (ftp:)');
    expect(norm('http://')).toBe('SKIP: Not a valid URL');
    expect(norm('no base here')).toBe('SKIP: Not a valid URL');
  });
});

describe('dedupeKey', () => {
  it('folds trailing-slash variants but not the root', () => {
    expect(dedupeKey('https://docs.example.test/docs/')).toBe(dedupeKey('https://docs.example.test/docs'));
    expect(dedupeKey('https://docs.example.test/')).toBe('https://docs.example.test/');
    expect(dedupeKey('https://docs.example.test/docs/?a=1')).toBe('https://docs.example.test/docs?a=1');
  });
  it('agrees with normalization and keeps case and parameter order significant', () => {
    expect(dedupeKey('https://docs.example.test/docs/#x')).toBe(dedupeKey('https://docs.example.test/docs?utm_source=y'));
    expect(dedupeKey('https://docs.example.test/Docs')).not.toBe(dedupeKey('https://docs.example.test/docs'));
    expect(dedupeKey('https://docs.example.test/s?a=1&b=2')).not.toBe(dedupeKey('https://docs.example.test/s?b=2&a=1'));
  });
});

describe('binaryExtensionReason', () => {
  it('names binary extensions, compound ones included', () => {
    expect(binaryExtensionReason('https://docs.example.test/manual.PDF')).toBe('Binary file (.pdf)');
    expect(binaryExtensionReason('https://docs.example.test/dl/src.tar.gz?x=1')).toBe('Binary file (.tar.gz)');
    for (const ext of ['png', 'jpg', 'zip', 'mp4', 'woff2', 'exe', 'dmg']) {
      expect(binaryExtensionReason(`https://docs.example.test/f.${ext}`)).toBe(`Binary file (.${ext})`);
    }
  });
  it('lets pages through', () => {
    for (const path of ['/guide.html', '/guide', '/v1.2/', '/api.md', '/download?file=a.pdf', '/.png']) {
      expect(binaryExtensionReason(`https://docs.example.test${path}`)).toBeNull();
    }
  });
});
