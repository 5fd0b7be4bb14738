import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { buildZip, comparableUrl, coverage, exportFileName, packFileName, siteFileName, type ExportPage } from '@/lib/generate/export';
import { segmentProblem } from '@/lib/generate/safe-path';

const O = 'https://docs.example.com';
const md = (name: string) => `# ${name}\n\nBody of ${name}.\n`;

function unzip(pages: ExportPage[]): Record<string, string> {
  const files = unzipSync(buildZip({ host: 'docs.example.com', llmsTxt: '# Site\n', llmsFullTxt: '# Site\n\n## A\n', pages }));
  return Object.fromEntries(Object.entries(files).map(([name, data]) => [name, strFromU8(data)]));
}

describe('buildZip', () => {
  it('writes each page without the chrome the site repeats on every page, as llms-full.txt has it', () => {
    const footer = '© Copyright 2026, the Acorn team. Created using Sphinx 5.3.0.';
    const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
    const files = unzip(names.map((n) => ({ url: `${O}/${n}.html`, title: n, markdown: `# ${n}\n\nAll about ${n} and its many uses.\n\n${footer}` })));
    expect(files['pages/gamma.md']).toBe('# gamma\n\nAll about gamma and its many uses.');
  });

  it('refuses a stored page without its text, naming it, with or without a chrome model', () => {
    const pages = [
      { url: `${O}/a.html`, title: 'A', markdown: md('A') },
      { url: `${O}/damaged`, title: 'Damaged', markdown: null as unknown as string },
    ];
    expect(() => unzip(pages)).toThrow(`the stored page ${O}/damaged has no text`);
    expect(() => buildZip({ host: 'docs.acorn.test', llmsTxt: '', llmsFullTxt: '', pages, chrome: { v: 1, repeated: [], frameTail: [] } as never })).toThrow('has no text');
  });

  it('holds llms.txt, llms-full.txt, pages.json and one Markdown file per page', () => {
    const pages: ExportPage[] = [
      { url: `${O}/`, title: 'Home', description: 'The home page.', markdown: md('Home'), tokens: 12 },
      { url: `${O}/guide/`, title: 'Guide', markdown: md('Guide') },
      { url: `${O}/guide/intro.html`, title: 'Intro', markdown: md('Intro'), tokens: 3 },
      { url: `${O}/api/client.html.md`, title: 'Client', markdown: md('Client') },
      { url: `${O}/ünïcode/naïve page.html`, title: 'Naive', markdown: md('Naive') },
    ];
    const files = unzip(pages);
    expect(Object.keys(files).sort()).toEqual([
      'llms-full.txt',
      'llms.txt',
      'pages.json',
      'pages/api/client.md',
      'pages/guide/index.md',
      'pages/guide/intro.md',
      'pages/index.md',
      'pages/ünïcode/naïve-page.md',
    ]);
    expect(files['llms.txt']).toBe('# Site\n');
    expect(files['llms-full.txt']).toBe('# Site\n\n## A\n');
    expect(files['pages/guide/intro.md']).toBe(md('Intro'));
    expect(files['pages/ünïcode/naïve-page.md']).toBe(md('Naive'));
    expect(JSON.parse(files['pages.json'] ?? '')).toEqual([
      { url: `${O}/`, title: 'Home', description: 'The home page.', tokens: 12, path: 'pages/index.md' },
      { url: `${O}/guide/`, title: 'Guide', description: null, tokens: null, path: 'pages/guide/index.md' },
      { url: `${O}/guide/intro.html`, title: 'Intro', description: null, tokens: 3, path: 'pages/guide/intro.md' },
      { url: `${O}/api/client.html.md`, title: 'Client', description: null, tokens: null, path: 'pages/api/client.md' },
      // pages.json keeps each URL as given; only the file name is made safe.
      { url: `${O}/ünïcode/naïve page.html`, title: 'Naive', description: null, tokens: null, path: 'pages/ünïcode/naïve-page.md' },
    ]);
  });

  it('never writes outside pages/, never twice to one name, and folds queries into names', () => {
    const urls = [
      `${O}/guide/intro.html`,
      `${O}/guide/intro.md`, // same name once extensions go
      `${O}/Guide/Intro.html`, // same name on a case-insensitive disk
      `${O}/../../etc/passwd`,
      `${O}/a/%2e%2e/%2e%2e/etc/shadow`,
      `${O}/x/..%2F..%2Fsecret.html`,
      `${O}/x/..%5C..%5Cwin.html`,
      `${O}/search?q=a b&page=2`,
      `${O}/search?q=a b&page=3`,
      `${O}/CON.html`,
      `${O}/dir.md/page`,
      `${O}/dir.md`,
      `${O}/${'long-'.repeat(40)}.html`,
      'not a url at all',
    ];
    const files = unzip(urls.map((url) => ({ url, title: url, markdown: url })));
    const names = Object.keys(files).filter((name) => name.startsWith('pages/'));
    expect(names).toEqual([
      'pages/guide/intro.md',
      'pages/guide/intro-2.md',
      'pages/Guide/Intro-3.md',
      'pages/etc/passwd.md',
      'pages/etc/shadow.md',
      'pages/x/secret.md',
      'pages/x/win.md',
      'pages/search_q=a-b-page=2.md',
      'pages/search_q=a-b-page=3.md',
      'pages/CON_.md',
      'pages/dir.md_/page.md',
      'pages/dir.md',
      `pages/${'long-'.repeat(16).slice(0, -1)}.md`,
      'pages/not-a-url-at-all.md',
    ]);
    for (const name of names) {
      expect(name.split('/')).not.toContain('..');
      expect(name).toMatch(/^pages\/[^\\:*?"<>|]+\.md$/);
    }
    // Each file holds its own page.
    expect(files['pages/guide/intro-2.md']).toBe(`${O}/guide/intro.md`);
    expect(files['pages/etc/passwd.md']).toBe(`${O}/../../etc/passwd`);
    const meta = JSON.parse(files['pages.json'] ?? '[]') as Array<{ path: string }>;
    expect(meta.map((m) => m.path)).toEqual(names);
  });
});

describe('buildZip, page names Windows would refuse or misread', () => {
  it('renames device names with an extension, invisible characters and names too long for a Windows path', () => {
    const urls = [
      `${O}/aux.txt`,
      `${O}/aux.txt/page.html`,
      `${O}/Nul.tar.gz`,
      `${O}/%EF%BB%BF%E2%80%AEdm.exe`,
      `${O}/${'deep/'.repeat(60)}page.html`,
      `${O}/${'deep/'.repeat(60)}other.html`,
    ];
    const names = Object.keys(unzip(urls.map((url) => ({ url, title: url, markdown: url })))).filter((n) => n.startsWith('pages/'));
    expect(names.slice(0, 4)).toEqual(['pages/aux_.txt.md', 'pages/aux_.txt/page.md', 'pages/Nul_.tar.gz.md', 'pages/dm.exe.md']);
    // Cut to 200 characters, each with a fingerprint of its URL: two deep pages stay two files.
    for (const name of names.slice(4)) {
      expect(name.length).toBeLessThanOrEqual(200);
      expect(name).toMatch(/^pages\/(?:deep\/)+(?:page|other)-[0-9a-f]{8}\.md$/);
    }
    expect(new Set(names).size).toBe(urls.length);
  });
});

describe('exportFileName', () => {
  it('names each download after the site', () => {
    expect(exportFileName('docs.example.com', 'llms')).toBe('docs.example.com-llms.txt');
    expect(exportFileName('docs.example.com', 'llms-full')).toBe('docs.example.com-llms-full.txt');
    expect(exportFileName('docs.example.com', 'zip')).toBe('docs.example.com-llms-txt.zip');
    expect(exportFileName('docs.example.com', 'json')).toBe('docs.example.com-pages.json');
  });

  it('keeps only characters that are safe in a file name', () => {
    expect(exportFileName('Docs.Example.COM:8080', 'llms')).toBe('docs.example.com-8080-llms.txt');
    expect(exportFileName('../evil/host', 'zip')).toBe('evil-host-llms-txt.zip');
    expect(exportFileName('', 'json')).toBe('site-pages.json');
  });

  it('names downloads of nested files and context packs safely, whatever the path or section is called', () => {
    expect(siteFileName('docs.example.com', '/library/llms-full.txt')).toBe('docs.example.com-library-llms-full.txt');
    for (const path of ['/..%5C..%5Cevil/llms.txt', '/C%3A%5CUsers/llms.txt', '/a%00b/llms.txt', `/${'x'.repeat(300)}/llms.txt`, '/%2e%2e/%2e%2e/llms.txt', '/CON/llms.txt']) {
      const name = siteFileName('docs.example.com', path);
      expect(name, path).toMatch(/^docs\.example\.com-[\p{L}\p{N}._-]+$/u);
      expect(segmentProblem(name), path).toBeNull();
    }
    expect(siteFileName('docs.example.com', '/..%5C..%5Cevil/llms.txt')).toBe('docs.example.com-..-..-evil-llms.txt');
    const pack = packFileName('docs.example.com', `..\\..\\${'Ω'.repeat(300)}\u0000`, 128_000);
    expect(pack).toBe('docs.example.com-context-128k.md');
    expect(segmentProblem(packFileName('docs.example.com', 'CON', 32_000))).toBeNull();
  });
});

describe('coverage', () => {
  it('matches URLs across twins, trailing slashes, index files, fragments and schemes', () => {
    expect(comparableUrl(`${O}/a.html`)).toBe(comparableUrl(`${O}/a.html.md`));
    expect(comparableUrl(`${O}/a.md`)).toBe(comparableUrl(`${O}/a.html`));
    expect(comparableUrl(`${O}/guide/`)).toBe(comparableUrl(`${O}/guide/index.html`));
    expect(comparableUrl(`${O}/guide`)).toBe(comparableUrl('http://docs.example.com/guide/index.md#top'));
    expect(comparableUrl(`${O}/a?x=1`)).not.toBe(comparableUrl(`${O}/a?x=2`));
    expect(comparableUrl(`${O}/a`)).not.toBe(comparableUrl('https://other.example.com/a'));
  });

  it('lists which generated pages the published file has, misses, and what else it links', () => {
    const published = parseLlmsTxt([
      '# Site', '', '> S.', '',
      '- [Straight under the title](/d.html)',
      '', '## Docs', '',
      '- [A](/a.html.md): twin of a page',
      '- [B](/b/)',
      '- [C](/c.md#part)',
      '- [C again](/c.html)',
      '- [Elsewhere](https://other.example.com/x)',
      '- [Nested](/api/llms.txt)',
    ].join('\n'), `${O}/llms.txt`);
    const generated = [`${O}/a.html`, `${O}/b/index.html`, `${O}/c.html`, `${O}/e.html`, `${O}/d.html`];
    expect(coverage(published, generated)).toEqual({
      listed: [`${O}/a.html`, `${O}/b/index.html`, `${O}/c.html`, `${O}/d.html`],
      missing: [`${O}/e.html`],
      extra: ['https://other.example.com/x', `${O}/api/llms.txt`],
    });
  });

  it('an empty or unrelated file lists nothing', () => {
    const generated = [`${O}/a.html`];
    expect(coverage(parseLlmsTxt('', `${O}/llms.txt`), generated)).toEqual({ listed: [], missing: generated, extra: [] });
    expect(coverage(parseLlmsTxt('# X\n\n## D\n\n- [Z](https://z.test/)\n', `${O}/llms.txt`), [])).toEqual({ listed: [], missing: [], extra: ['https://z.test/'] });
  });
});
