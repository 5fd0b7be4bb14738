import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { servedPages } from '../../bench/quality/head-to-head-run';
import { headToHead, headToHeadRow, longestIncreasing, normalizeHeading, sectionOrder, servedPageOf, worseRows, type HeadToHeadInput } from '../../bench/quality/head-to-head';

const served = ['/', '/guide/install', '/guide/config', '/api/fs/'];
const sources = ['# Home\n\nWelcome.', '# Install\n\n## Linux\n\n```sh\n# not a heading\n```\n\n## macOS', '# Config\n\n## Options\n\n### `timeout`', '# fs\n\n## `fs.readFile(path)`'];
const base = (over: Partial<HeadToHeadInput>): HeadToHeadInput => ({
  llmsTxt: '# Site\n',
  llmsFullTxt: '',
  servedPaths: served,
  hosts: ['docs.test', '127.0.0.1:4000'],
  topSections: ['Guide', 'API'],
  sources,
  ...over,
});

describe('servedPageOf', () => {
  const set = new Set(served);
  it('maps twins, index and .html spellings, absolute URLs of the site and relative ones to the page', () => {
    expect(servedPageOf('/guide/install.md', set, [])).toBe('/guide/install');
    expect(servedPageOf('http://docs.test/guide/config', set, ['docs.test'])).toBe('/guide/config');
    expect(servedPageOf('http://127.0.0.1:4000/api/fs/index.md', set, ['127.0.0.1:4000'])).toBe('/api/fs/');
    expect(servedPageOf('/api/fs', set, [])).toBe('/api/fs/');
    expect(servedPageOf('/index.md', set, [])).toBe('/');
    expect(servedPageOf('/guide/install.html', set, [])).toBe('/guide/install');
  });
  it('leaves other hosts, unknown paths and the llms files alone', () => {
    expect(servedPageOf('https://github.com/guide/install', set, ['docs.test'])).toBeNull();
    expect(servedPageOf('/guide/missing', set, [])).toBeNull();
    expect(servedPageOf('/llms-full.txt', set, [])).toBeNull();
  });
});

describe('section order', () => {
  it('is the share of matched sections in the navigation order', () => {
    expect(longestIncreasing([0, 2, 1, 3])).toBe(3);
    expect(sectionOrder(['Guide', 'API', 'Extra'], ['Guide', 'API'])).toBe(1);
    expect(sectionOrder(['API', 'Guide'], ['Guide', 'API'])).toBe(0.5);
    expect(sectionOrder(['C', 'B', 'A'], ['A', 'B', 'C'])).toBeCloseTo(1 / 3);
    expect(sectionOrder(['Guide'], ['Guide', 'API'])).toBeNull();
  });
});

describe('normalizeHeading', () => {
  it('reads a heading as a reader sees it', () => {
    expect(normalizeHeading('`fs.readFile(path)`')).toBe(normalizeHeading('fs\\.readFile\\(path\\)'));
    expect(normalizeHeading('[Options](#options) {#opts}')).toBe('options');
    expect(normalizeHeading('<code>timeout</code>')).toBe('timeout');
  });
});

describe('headToHead', () => {
  const good = base({
    llmsTxt: '# Site\n\n> Summary.\n\n## Docs\n\n- [Home](/): Start here for what the site covers\n\n## Guide\n\n- [Install](http://docs.test/guide/install.md): How to install it on Linux and macOS\n- [Config](/guide/config): The settings and their defaults\n\n## API\n\n- [fs](/api/fs/): Reading and writing files on disk\n\n## Optional\n\n- [GitHub](https://github.com/x/y)\n',
    llmsFullTxt: '# Site\n\n## Home\nSource: /\n\nWelcome.\n\n## Install\n\n### Linux\n\n### macOS\n\n## Config\n\n### Options\n\n#### `timeout`\n\n## fs\n\n### fs.readFile(path)\n',
  });
  const poor = base({
    llmsTxt: '# Site\n\n## Table of Contents\n\n### API\n\n- [fs](/api/fs.md)\n\n### Guide\n\n- [Install](/guide/install.md): How to install it on Linux and macOS\n- [Install again](/guide/install)\n\n### Misc\n\n- [Full](/llms-full.txt)\n',
    llmsFullTxt: '# Install\n\n## Linux\n\n# fs\n\n```md\n## `fs.readFile(path)`\n```\n',
  });

  it('gives full marks to a file that lists every page in the navigation groups, described, with every heading', () => {
    const f = headToHead(good);
    expect(f.pagesListed).toBe(4);
    expect(f.unlisted).toEqual([]);
    // Optional lists no served page here (a GitHub link), so it is no section of pages.
    expect(f.sections).toEqual(['Guide', 'API']);
    expect(f.jaccard).toBe(1);
    expect(f.order).toBe(1);
    expect([f.entries, f.described, f.describedShare, f.weak]).toEqual([4, 4, 1, 0]);
    expect([f.sourceHeadings, f.headingsKept, f.headingsShare]).toEqual([9, 9, 1]);
    expect(f.rootChars).toBe(good.llmsTxt.length);
  });

  it('marks down missing pages, sections read from H3 groups out of order, notes missing and headings lost', () => {
    const f = headToHead(poor);
    expect(f.pagesListed).toBe(2);
    expect(f.unlisted).toEqual(['/', '/guide/config']);
    // Groups under "## Table of Contents" are the sections; the link to llms-full.txt lists no page.
    expect(f.sections).toEqual(['API', 'Guide']);
    expect(f.jaccard).toBe(1);
    expect(f.order).toBe(0.5);
    expect([f.entries, f.described, f.weak]).toEqual([3, 1, 0]);
    // Install, Linux and fs are kept; a heading inside a code block is not a heading.
    expect([f.sourceHeadings, f.headingsKept]).toEqual([9, 3]);
    expect(f.headingsLost.map((l) => l.text)).toContain('fs readfile path');
    expect(headToHeadRow('x', 'plugin', f)).toEqual(['x', 'plugin', '2 / 4', '1.00', '0.50', '33.3', '0', '33.3', String(poor.llmsTxt.length)]);
  });

  it('counts notes that only name the page and its kind, or are too short to say anything, as weak and not described', () => {
    const f = headToHead(base({ llmsTxt: '# Site\n\n## API\n\n- [fs](/api/fs/): fs module\n- [Install](/guide/install): Install page\n- [Config](/guide/config): Settings\n- [Home](/): Start here for what the site covers\n' }));
    expect([f.entries, f.described, f.weak]).toEqual([4, 1, 3]);
    expect(f.describedShare).toBe(0.25);
  });

  it('gives no section agreement to sections the navigation does not have, and n/a without a navigation', () => {
    const f = headToHead(base({ llmsTxt: '# Site\n\n## Pages\n\n- [Install](/guide/install)\n' }));
    expect(f.jaccard).toBe(0);
    expect(f.missing).toEqual(['guide', 'api']);
    expect(f.order).toBeNull();
    const flat = headToHead(base({ llmsTxt: '# Site\n\n## Pages\n\n- [Install](/guide/install)\n', topSections: [] }));
    expect([flat.jaccard, flat.order]).toEqual([null, null]);
    expect(headToHead(base({ sources: [] })).headingsShare).toBeNull();
  });

  it('says where the first file is worse, row by row, and nothing when it is not', () => {
    const g = headToHead(good);
    const p = headToHead(poor);
    expect(worseRows(g, p)).toEqual([]);
    expect(worseRows(p, g)).toEqual(['pages listed: 2 against 4', 'section order: 0.50 against 1.00', 'described: 33.3 % against 100.0 %', 'headings kept: 33.3 % against 100.0 %']);
    const echoes = headToHead(base({ llmsTxt: '# Site\n\n## API\n\n- [fs](/api/fs/): fs module\n' }));
    expect(worseRows(echoes, headToHead(base({ llmsTxt: '# Site\n\n## API\n\n- [fs](/api/fs/)\n' })))).toEqual(['weak notes: 1 against 0']);
  });
});

describe('servedPages', () => {
  it('are the pages built from Markdown, and the docs pages built from code that no source stands for, not the 404 page', () => {
    const root = mkdtempSync(join(tmpdir(), 'h2h-served-'));
    try {
      for (const file of ['404.html', 'index.html', 'docs/index.html', 'docs/guide.html', 'docs/classes/A.html', 'docs/style.css']) {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        writeFileSync(join(root, file), '<title>x</title>');
      }
      const sources = { '/docs/': '/src/index.md', '/docs/guide': '/src/guide.md' };
      // The landing page outside the docs (/index.html) is not one of theirs.
      expect(servedPages({ sources, folder: { root, cleanUrls: true }, startPath: '/docs/' })).toEqual(['/docs/', '/docs/guide', '/docs/classes/A.html']);
      expect(servedPages({ sources, startPath: '/docs/' })).toEqual(['/docs/', '/docs/guide']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
