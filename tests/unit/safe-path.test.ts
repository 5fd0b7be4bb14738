/**
 * The one rule for names Scout writes or zips (lib/generate/safe-path.ts), over the names hostile
 * URLs decode to: each either keeps to the rule when rewritten, or is refused with a reason.
 */
import { describe, expect, it } from 'vitest';
import { MAX_NAME_BYTES, MAX_PATH_CHARS, PathSet, relativeSitePath, safeName, segmentProblem, sitePathProblem } from '@/lib/generate/safe-path';

/** Names as a hostile site's URLs carry them (still percent-encoded), decoded the way a server would. */
const HOSTILE_SEGMENTS = [
  '..%5C..%5Cevil',
  'C%3A%5CUsers',
  'C:',
  '%00',
  'a%00b',
  'x'.repeat(300),
  'é'.repeat(200),
  'CON',
  'con.txt',
  'aux.txt',
  'Nul.tar.gz',
  'COM1',
  'lpt9.md',
  'COM¹',
  'CONIN$',
  '%2e%2e',
  '%2E',
  '...',
  'name.',
  'name ',
  ' name',
  'a%3Cb%3E',
  'pipe%7Cquery%3F',
  'star*',
  'quote%22',
  'tab%09name',
  'line%0Abreak',
  '%EF%BB%BFbom',
  'exe%E2%80%AEdm.md',
  'e%CC%81', // e + combining acute: NFD, macOS would store it as é
  '%FF%FE', // not valid UTF-8: kept as written
  '日本語'.repeat(40), // 360 bytes
  '😀'.repeat(70),
];

const decode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

const bytes = (text: string) => new TextEncoder().encode(text).length;

/** Everything the rule says, checked directly rather than through segmentProblem. */
function expectSafe(name: string): void {
  expect(name).not.toBe('');
  expect(name.replace(/\./g, '')).not.toBe('');
  expect(name).not.toMatch(/[\\/:*?"<>|]/);
  expect(name).not.toMatch(/\p{Cc}|\p{Cf}/u);
  expect(name).not.toMatch(/[. ]$/);
  expect(name.split('.')[0]?.trimEnd()).not.toMatch(/^(?:con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i);
  expect(bytes(name)).toBeLessThanOrEqual(MAX_NAME_BYTES);
  expect(name.normalize('NFC')).toBe(name);
}

describe('segmentProblem', () => {
  it('refuses every hostile name, each with a reason in words', () => {
    const allowed = new Set(['%FF%FE']);
    for (const raw of HOSTILE_SEGMENTS) {
      const problem = segmentProblem(decode(raw));
      if (allowed.has(raw)) expect(problem, raw).toBeNull();
      else expect(problem, raw).toMatch(/^(?:an? |the )\S.*\w/);
    }
  });

  it('accepts the names real docs sites use', () => {
    for (const name of ['llms.txt', 'llms-full.txt', 'index.html.md', 'my docs', 'naïve', 'v2.1', 'console', 'auxiliary.md', 'com10', '.well-known', 'API_reference', '日本語'.repeat(28)]) {
      expect(segmentProblem(name), name).toBeNull();
    }
  });
});

describe('safeName', () => {
  it('makes every hostile name one that keeps to the rule, or nothing at all', () => {
    for (const raw of HOSTILE_SEGMENTS) {
      const name = safeName(decode(raw));
      if (/^(?:%2e%2e|%2E|\.\.\.)$/i.test(raw)) expect(name, raw).toBe('');
      else {
        expectSafe(name);
        expect(segmentProblem(name), raw).toBeNull();
      }
    }
  });

  it('keeps what it can: device names get "_", long names a fingerprint before their extension', () => {
    expect(safeName('..\\..\\evil')).toBe('..-..-evil');
    expect(safeName('C:\\Users')).toBe('C-Users');
    expect(safeName('aux.txt')).toBe('aux_.txt');
    expect(safeName('CON')).toBe('CON_');
    expect(safeName('name. . ')).toBe('name');
    expect(safeName('naïve')).toBe('naïve');
    const long = safeName(`${'x'.repeat(300)}.md`);
    expect(long).toMatch(/^x+-[0-9a-f]{8}\.md$/);
    expect(bytes(long)).toBe(MAX_NAME_BYTES);
  });

  it('never puts two different long names on one name', () => {
    const a = safeName(`${'x'.repeat(300)}a`);
    const b = safeName(`${'x'.repeat(300)}b`);
    expect(a).not.toBe(b);
    expect(safeName(`${'x'.repeat(300)}a`)).toBe(a);
  });

  it('stays linear on page-sized names', () => {
    const started = performance.now();
    for (const filler of [' ', '.', '-', '\u0000', ' .']) safeName(`a${filler.repeat(200_000)}b${filler.repeat(200_000)}`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('relativeSitePath', () => {
  it('gives the decoded path of a file that can be written where the site has it', () => {
    expect(relativeSitePath('/llms.txt')).toEqual({ path: 'llms.txt' });
    expect(relativeSitePath('/my%20docs/llms-full.txt')).toEqual({ path: 'my docs/llms-full.txt' });
    expect(relativeSitePath('/ünïcode/llms.txt')).toEqual({ path: 'ünïcode/llms.txt' });
  });

  it('refuses, with the reason, a path any of whose names breaks the rule, or too long a path', () => {
    for (const raw of HOSTILE_SEGMENTS.filter((s) => s !== '%FF%FE')) {
      const result = relativeSitePath(`/${raw}/llms.txt`);
      expect(result, raw).toHaveProperty('reason');
      expect('reason' in result && result.reason, raw).toMatch(/^its path has /);
    }
    expect(sitePathProblem(`/a/${'b/'.repeat(100)}llms.txt`)).toMatch(new RegExp(`over the ${MAX_PATH_CHARS}`));
    expect(sitePathProblem('/a//llms.txt')).toBe('its path has an empty name');
    expect(sitePathProblem('/')).toBe('its path has no file name');
  });
});

describe('PathSet', () => {
  it('refuses a path that would land on one already taken: case apart, a file where a folder is, a folder where a file is', () => {
    const set = new PathSet();
    expect(set.claim('docs/llms.txt')).toBeNull();
    expect(set.claim('Docs/LLMS.txt')).toMatch(/same path/);
    expect(set.claim('docs')).toMatch(/folder has the same path/);
    expect(set.claim('docs/llms.txt/x.md')).toMatch(/a file already has the path of its folder docs\/llms\.txt/);
    expect(set.claim('docs/llms-full.txt')).toBeNull();
  });

  it('places a file published at a site path: decoded under the prefix, once; a broken path or a clash says which', () => {
    const set = new PathSet();
    expect(set.placeSiteFile('/my%20docs/llms.txt', 'site/')).toEqual({ path: 'site/my docs/llms.txt' });
    expect(set.placeSiteFile('/my%20docs/llms.txt', 'site/')).toEqual({ again: true });
    expect(set.placeSiteFile('/My%20Docs/llms.txt', 'site/')).toEqual({ reason: expect.stringMatching(/same path \(letter case aside\)/), clash: true });
    expect(set.placeSiteFile('/..%5C..%5Cevil/llms.txt', 'site/')).toEqual({ reason: expect.stringMatching(/^its path has /), clash: false });
  });
});
