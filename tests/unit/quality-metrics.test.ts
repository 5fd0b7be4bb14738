import { describe, expect, it } from 'vitest';
import { chromeLines, type ChromePage } from '../../bench/quality/chrome';
import { descriptionQuality, summaryQuality, weakReason } from '../../bench/quality/descriptions';
import { fullDuplication } from '../../bench/quality/duplication';
import { cleanSource, sourceF1, tokenF1 } from '../../bench/quality/f1';
import { multipleH1, permalinkArtifact, permalinkHeadings } from '../../bench/quality/headings';
import { splitLlmsFull } from '../../bench/quality/llms-full';
import { classifyLines, median } from '../../bench/quality/markdown';
import { aggregatePages, nonDocByName, nonDocPages } from '../../bench/quality/non-doc';
import { h1HoldsName, scoreSite } from '../../bench/quality/scorecard';
import { normalizeSectionName, sectionAgreement } from '../../bench/quality/sections';
import { nameCore, presentedNames, siteNamePart, titlesWithSiteName } from '../../bench/quality/titles';

/** Deterministic prose: `n` words drawn from a large made-up vocabulary (seeded), so pages share no 8-word run by chance. */
function prose(seed: number, n: number): string {
  let x = seed * 2654435761 + 1;
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    words.push(`w${(x >>> 8) % 5000}`);
  }
  return words.join(' ');
}

const page = (key: string, markdown: string, extra: Partial<ChromePage> = {}): ChromePage => ({ key, url: `https://d.test/${key}.html`, title: key, markdown, ...extra });

describe('markdown lines', () => {
  it('knows headings from code and setext underlines', () => {
    const lines = classifyLines('# One\n\n```sh\n# not a heading\n```\nTwo\n===\n- item\n---\n');
    expect(lines.filter((l) => l.kind === 'heading').map((l) => [l.level, l.text])).toEqual([[1, 'One'], [1, 'Two']]);
    expect(lines[3]?.kind).toBe('code');
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });
});

describe('metric 2: titles carrying the site name', () => {
  it('finds the name as a separable part, whatever the version or generic words', () => {
    expect(siteNamePart('Writing views — Django 3.2.25 documentation', ['Django documentation'])).toBe('Django 3.2.25 documentation');
    expect(siteNamePart('Installation - The Rust Programming Language', ['The Rust Programming Language'])).toBe('The Rust Programming Language');
    expect(siteNamePart('Flask Documentation (2.2.x) » API', ['Flask Documentation (2.2.x)'])).toBe('Flask Documentation (2.2.x)');
    expect(siteNamePart('File system | Node.js v18.20.4 Documentation', ['Node.js v20.1.0 documentation'])).toBe('Node.js v18.20.4 Documentation');
    expect(nameCore('Python 3.11.2 documentation')).toBe('python');
  });

  it('does not count titles that merely mention the project or are the name', () => {
    expect(siteNamePart('Installing Flask', ['Flask'])).toBeNull();
    expect(siteNamePart('Flask Documentation (2.2.x)', ['Flask Documentation (2.2.x)'])).toBeNull();
    expect(siteNamePart('os.path — Common pathname manipulations', ['Python 3.11.2 documentation'])).toBeNull();
    expect(siteNamePart('Flask-SQLAlchemy — Extensions', ['Flask'])).toBeNull();
    // A name that is only generic words would match every "… — Documentation".
    expect(siteNamePart('Intro — Documentation', ['Documentation'])).toBeNull();
  });

  it('finds the name a site presents in its titles, and lets a home page be "Name: tagline"', () => {
    const titles = ['Document (jsoup Java HTML Parser 1.15.3 API)', 'Element (jsoup Java HTML Parser 1.15.3 API)', 'Node (jsoup Java HTML Parser 1.15.3 API)', 'Jsoup (jsoup Java HTML Parser 1.15.3 API)', 'Index (jsoup Java HTML Parser 1.15.3 API)', 'Overview', 'Tree (Other API)'];
    expect(presentedNames(titles, ['jsoup'])).toEqual(['jsoup Java HTML Parser 1.15.3 API']);
    // Fewer than 5 titles share it: not the site's.
    expect(presentedNames(titles.slice(0, 4), ['jsoup'])).toEqual([]);
    expect(siteNamePart('Index (jsoup Java HTML Parser 1.15.3 API)', ['jsoup', 'jsoup Java HTML Parser 1.15.3 API'])).toBe('jsoup Java HTML Parser 1.15.3 API');
    expect(siteNamePart('Flask Documentation (2.2.x)', ['Flask'])).toBeNull();
    expect(siteNamePart('Requests: HTTP for Humans™', ['Requests'], true)).toBeNull();
    expect(siteNamePart('Requests: HTTP for Humans™', ['Requests'])).toBe('Requests');
    expect(siteNamePart('json-c: json-c', ['json-c'], true)).toBe('json-c');
    const home = titlesWithSiteName([{ name: 'Docs', optional: false, entries: [{ title: 'Requests: HTTP for Humans™', url: 'https://r.test/' }, { title: 'Requests: Install', url: 'https://r.test/install' }] }], ['Requests'], 10, ['https://r.test/']);
    expect(home.count).toBe(1);
  });

  it('counts entries and section names, not the Optional heading', () => {
    const result = titlesWithSiteName(
      [
        { name: 'Django FAQ — Django 3.2.25 documentation', optional: false, entries: [{ title: 'Writing views — Django 3.2.25 documentation', url: 'a' }, { title: 'Models', url: 'b' }] },
        { name: 'Optional', optional: true, entries: [{ title: 'Index | Django documentation', url: 'c' }] },
      ],
      ['Django documentation', 'Django 3.2.25 documentation'],
    );
    expect(result).toMatchObject({ count: 3, entries: 2, sections: 1 });
    expect(result.examples[0]).toMatchObject({ where: 'section', part: 'Django 3.2.25 documentation' });
  });
});

describe('metric 3: chrome', () => {
  it('matches the known chrome patterns', () => {
    const pages = [
      page('a', '# [Project documentation](index.html)\n\n# Real title\n\nText of the page.'),
      page('a2', '### [Project Documentation (2.1)](index.html)\n\n### Real title\n\nText of the page.'),
      page('a3', '# Project documentation\n\n# macOS\n\nText of the page.', { title: 'macOS' }),
      page('b', 'Home | Table of contents | Index | Modules\n\nBody text here.'),
      page('c', 'Body.\n\n[« previous](a.html) | [up](index.html) | [next »](c.html)'),
      page('d', 'Body.\n\n© Copyright 2023, Somebody.\n\nCreated using [Sphinx](https://sphinx-doc.org/) 5.3.0.'),
      page('e', 'Body.\n\n[Edit this page](https://github.com/x/y/edit/main/e.md)'),
      page('f', 'You are viewing an old version of this documentation.\n\nBody.'),
      page('g', 'We use cookies to improve your experience. [Accept](#)\n\nBody.'),
      page('h', '[Skip to content](#main)\n\n# Title\n\nBody.'),
      page('i', '# Title\n\nBody.\n\n[Previous\n\nIntro](intro.html)\n\nLast updated on Jan 3, 2025 by Ann'),
    ];
    const result = chromeLines(pages, { siteNames: ['Project documentation'] });
    expect(result.pages).toBe(11);
    expect(result.byKind).toEqual({
      'site-title': 3, 'nav-bar': 1, pager: 2, footer: 2, 'edit-link': 1, 'version-banner': 1, 'cookie-notice': 1, 'skip-link': 1,
    });
  });

  it('leaves content alone: tables, terms, code, legal pages, permalink headings', () => {
    const pages = [
      page('a', '| Home | Index | Next |\n|---|---|---|\n| a | b | c |'),
      page('b', 'Fixers:\n\nnext\n\nHandles the next() method.'),
      page('c', '```\nHome | Table of contents | Index\n```'),
      page('copyright', 'Copyright © 2001-2023 Python Software Foundation. All rights reserved.', { title: 'Copyright' }),
      page('e', '# [What is ownership?](e.html#what-is-ownership)\n\nText.'),
      page('f', 'Cookies: we never accept cookies from blocked domains unless the policy allows.'),
      page('g', '## [Tutorial](tutorial/index.html)\n\nA card on a hub page.\n\n## [Guide](guide/index.html)'),
      page('home', '# Project\n\nWelcome.', { title: 'Project' }),
      page('index', '# Project\n\nWelcome.\n\n## Project 2.0\n\n## Contents', { title: 'Overview' }),
      page('why', '# Why …\n\n## … Structured Logging?\n\nText.\n\n## … Project?\n\nText.', { title: 'Why …' }),
      page('i', 'If true, “Created using Sphinx” is shown in the HTML footer. Default is `True`.'),
      page('j', 'Copyright (c) 2009-2012 Hewlett-Packard Development Company, L.P.\n\nThe iterator.\n\nOne.\n\nTwo.\n\nThree.\n\nFour.\n\nFive.'),
      page('h', '**Last updated on: October 07, 2026.**\n\nDownload the docs.\n\nOne.\n\nTwo.\n\nThree.\n\nFour.\n\nFive.'),
    ];
    const result = chromeLines(pages, { siteNames: ['Project'] });
    expect(result.top).toEqual([]);
    expect(result.pages).toBe(0);
  });

  it('finds lines repeated on ≥ 40 % of pages (min 5), ignoring link targets, headings and the sources', () => {
    const pages = Array.from({ length: 10 }, (_, i) =>
      page(`p${i}`, `## Parameters here too\n\n${prose(i, 30)}\n\n${i < 4 ? `Found a bug? [Report it](https://bugs.test/${i}) please.` : 'Unique.'}\n\n${i < 5 ? `Was this page useful to you? [Tell us](https://t.test/${i})` : ''}`),
    );
    const result = chromeLines(pages);
    // 4 of 10 pages is 40 % but under the 5-page minimum; 5 of 10 counts; the repeated heading never does.
    expect(result.pages).toBe(5);
    expect(result.top).toEqual([{ kind: 'repeated', line: 'Was this page useful to you? [Tell us]()', pages: 5, example: 'https://d.test/p0.html' }]);
    const withSources = pages.map((p) => ({ ...p, source: 'Was this page useful to you? [Tell us](x.md)' }));
    expect(chromeLines(withSources).pages).toBe(0);
  });

  it("counts an author's note repeated on every page of one folder as that part's content, a site-wide line as chrome", () => {
    const note = 'This is a hazardous module: use it only if you know what you are doing.';
    const at = (path: string, i: number, extra: string) => ({ ...page(`p${i}`, `${prose(i, 30)}\n\n${extra}`), url: `https://d.test${path}` });
    const inFolder = Array.from({ length: 6 }, (_, i) => at(`/hazmat/p${i}.html`, i, note));
    const outside = Array.from({ length: 6 }, (_, i) => at(`/guide/q${i}.html`, i + 6, 'Unique.'));
    expect(chromeLines([...inFolder, ...outside]).pages).toBe(0);
    // The same line spread over both folders is the frame's.
    const spread = [...inFolder.slice(0, 3), ...outside.map((p, i) => (i < 3 ? { ...p, markdown: `${p.markdown}\n\n${note}` } : p))];
    expect(chromeLines([...spread, ...inFolder.slice(3)]).pages).toBe(9);
    // A folder holding nearly the whole site is no part of it.
    const nearlyAll = [...inFolder, ...outside.slice(0, 4).map((p) => ({ ...p, url: p.url.replace('/guide/', '/hazmat/') })), ...outside.slice(4)];
    expect(chromeLines(nearlyAll.map((p, i) => (i < 10 ? { ...p, markdown: `${p.markdown}\n\n${note}` } : p))).pages).toBeGreaterThanOrEqual(10);
  });
});

describe('metric 4 and 5: headings', () => {
  it('recognises permalink artifacts', () => {
    expect(permalinkArtifact('[What Is Ownership?](https://d.test/ch04-01.html#what-is-ownership)')).toBe('self-link');
    expect(permalinkArtifact('Installation[¶](#installation)')).toBe('marker-link');
    expect(permalinkArtifact('Installation [#](#installation)')).toBe('marker-link');
    expect(permalinkArtifact('[](#installation)Installation')).toBe('empty-link');
    expect(permalinkArtifact('Installation¶')).toBe('marker');
    expect(permalinkArtifact('Installation #')).toBe('marker');
    expect(permalinkArtifact('Installation 🔗')).toBe('marker');
    expect(permalinkArtifact('Section § ')).toBe('marker');
    expect(permalinkArtifact('C#')).toBeNull();
    expect(permalinkArtifact('Using `#[derive]`')).toBeNull();
    expect(permalinkArtifact('[Project](index.html)')).toBeNull();
  });

  it('counts permalink headings and pages with several H1s outside code', () => {
    const pages = [
      { key: 'a', url: 'a', markdown: '# A¶\n\n## B[¶](#b)\n\ntext #' },
      { key: 'b', url: 'b', markdown: '# Title\n\n```bash\n# comment\n```\n\nOther\n=====\n' },
      { key: 'c', url: 'c', markdown: '# One\n\n## Two\n\n### Three' },
    ];
    expect(permalinkHeadings(pages)).toMatchObject({ headings: 2, pages: 1, byKind: { marker: 1, 'marker-link': 1 } });
    expect(multipleH1(pages)).toEqual({ pages: 1, max: 2, examples: [{ url: 'b', h1s: ['# Title', 'Other'] }] });
  });
});

describe('metric 6: non-doc pages', () => {
  it('classifies by path and title', () => {
    expect(nonDocByName('https://d.test/_modules/flask/app.html', 'flask.app')).toBe('source');
    expect(nonDocByName('https://d.test/x.html', 'Source code for flask.app')).toBe('source');
    expect(nonDocByName('https://d.test/_modules/index.html', 'Overview: module code')).toBe('source');
    expect(nonDocByName('https://d.test/search.html', 'Search')).toBe('search');
    expect(nonDocByName('https://d.test/genindex-A.html', 'Index')).toBe('index');
    expect(nonDocByName('https://d.test/py-modindex.html', 'Python Module Index')).toBe('index');
    expect(nonDocByName('https://d.test/index.html', 'Index')).toBeNull();
    expect(nonDocByName('https://d.test/indexing.html', 'Indexing and searching')).toBeNull();
    expect(nonDocByName('https://d.test/usage/search.html', 'Search')).toBe('search');
    expect(nonDocByName('https://d.test/allclasses-index.html', 'All Classes')).toBe('index');
    expect(nonDocByName('https://d.test/index-all.html', 'Index (jsoup API)')).toBe('index');
    expect(nonDocByName('https://d.test/x.html', 'Class Hierarchy')).toBe('index');
  });

  it('finds all-in-one pages by containment, not tables of contents or duplicates', () => {
    const bodies = [0, 1, 2, 3, 4].map((i) => `# Page ${i}\n\n${prose(i + 1, 120)}`);
    const pages = [
      ...bodies.map((markdown, i) => ({ key: `p${i}`, markdown })),
      { key: 'print', markdown: bodies.slice(0, 4).join('\n\n') },
      { key: 'two', markdown: bodies.slice(0, 2).join('\n\n') },
      { key: 'copy', markdown: bodies[4] ?? '' },
      { key: 'toc', markdown: bodies.map((b, i) => `- [${b.slice(0, 200)}](p${i}.html)`).join('\n') },
    ];
    // Man pages that all include one shared option list: each is "contained" in the next, none is an aggregate.
    const options = prose(99, 300);
    for (let i = 0; i < 4; i++) pages.push({ key: `man${i}`, markdown: `# git-diff-${i}\n\n${prose(200 + i, 40 + 30 * i)}\n\n${options}` });
    // A reference page that small pages each quote a part of, with much more of its own: no aggregate.
    const reference = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => prose(500 + i, 60));
    pages.push({ key: 'config', markdown: reference.join('\n\n') });
    for (let i = 0; i < 4; i++) pages.push({ key: `cmd${i}`, markdown: `# npm-${i}\n\n${prose(600 + i, 20)}\n\n${reference[i] ?? ''}` });
    const found = aggregatePages(pages);
    // It holds p0–p3 and 'two' (= p0 + p1, itself no aggregate): 3 different texts once 'two' covers p0 and p1.
    expect(found.map((f) => [f.key, f.contains])).toEqual([['print', 3]]);
    expect(aggregatePages(pages, { sample: 2 }).map((f) => f.key)).toEqual(['print']);
  });

  it('counts only non-Optional entries', () => {
    const result = nonDocPages(
      [
        { key: 'a', title: 'Overview: module code', url: 'https://d.test/_modules/index.html', optional: false },
        { key: 'b', title: 'Search', url: 'https://d.test/search.html', optional: true },
        { key: 'c', title: 'Print this book', url: 'https://d.test/print.html', optional: false },
        { key: 'd', title: 'Guide', url: 'https://d.test/guide.html', optional: false },
      ],
      [{ key: 'c', contains: 12, examples: [] }],
    );
    expect(result).toMatchObject({ outsideOptional: 2, anywhere: 3, byClass: { source: 1, aggregate: 1 } });
  });
});

describe('metric 7: llms-full duplication', () => {
  it('sums the blocks of ≥ 80 characters seen before, over the file length', () => {
    const long = 'A'.repeat(50) + ' ' + 'b'.repeat(40);
    const text = `# Site\n\n## One\nSource: u1\n\n${long}\n\nshort\n\n## Two\nSource: u2\n\n${long}\n\nshort\n\n[x](https://example.test/a/very/long/url/that/makes/the/line/long/enough/to/count/if/urls/counted/xxxxxxxxxx)\n\n[x](https://example.test/a/very/long/url/that/makes/the/line/long/enough/to/count/if/urls/counted/xxxxxxxxxx)\n`;
    const result = fullDuplication(text);
    expect(result.repeatedChars).toBe(long.length);
    expect(result.share).toBeCloseTo(long.length / text.length, 10);
    expect(result.top).toEqual([{ block: long, repeats: 1, chars: long.length }]);
    expect(fullDuplication('').share).toBe(0);
  });
});

describe('metric 8: section agreement', () => {
  it('is the Jaccard index of normalized names, without Optional', () => {
    expect(normalizeSectionName('  Part I.  Tutorial ')).toBe('tutorial');
    expect(normalizeSectionName('2. Lexical structure')).toBe('lexical structure');
    expect(normalizeSectionName('10.1 Type system')).toBe('type system');
    expect(normalizeSectionName('Chapter 3: Names')).toBe('names');
    expect(normalizeSectionName('Python/C API Reference Manual')).toBe('python c api reference manual');
    expect(normalizeSectionName('I/O streams')).toBe('i o streams');
    expect(normalizeSectionName('What’s New in Python')).toBe('what s new in python');
    const result = sectionAgreement(['Part I. Tutorial', 'Reference', 'Misc', 'Optional'], ['TUTORIAL', 'Reference', 'How-to guides']);
    expect(result.jaccard).toBeCloseTo(2 / 4, 10);
    expect(result.extra).toEqual(['misc']);
    expect(result.missing).toEqual(['how to guides']);
    expect(sectionAgreement(['Docs'], []).jaccard).toBeNull();
  });
});

describe('metric 9 and 10: descriptions and summary', () => {
  it('names why a description is weak', () => {
    expect(weakReason('Copyright © 1996–2026 The PostgreSQL Global Development Group')).toBe('copyright');
    expect(weakReason('For pre-releases, the last component will be a string with the prerelease version:')).toBe('introduces-list');
    expect(weakReason('See also the module documentation for details.')).toBe('see-also');
    expect(weakReason('New in version 3.8.')).toBe('version-note');
    expect(weakReason('Changed in version 3.2: The function now accepts bytes.')).toBe('version-note');
    expect(weakReason('Deprecated since version 3.6, will be removed.')).toBe('version-note');
    expect(weakReason('The os module.')).toBe('too-short');
    expect(weakReason('Writing your first app', 'Writing your first app')).toBe('repeats-title');
    expect(weakReason('Writing your first app.', 'Writing your first app')).toBe('repeats-title');
    expect(weakReason('This tutorial walks you through writing your first app.', 'Writing your first app')).toBeNull();
  });

  it('reports the share described and the weak ones among non-Optional entries', () => {
    const result = descriptionQuality([
      { title: 'A', url: 'a', description: 'A guide to the configuration file format.', optional: false },
      { title: 'B', url: 'b', description: 'See also: the reference.', optional: false },
      { title: 'C', url: 'c', optional: false },
      { title: 'D', url: 'd', optional: false, description: '   ' },
      { title: 'E', url: 'e', optional: true, description: 'New in version 2.' },
    ]);
    expect(result).toMatchObject({ entries: 4, described: 2, share: 0.5, weak: 1, byReason: { 'see-also': 1 }, undescribed: [{ title: 'C', url: 'c' }, { title: 'D', url: 'd' }] });
    expect(summaryQuality(undefined).weak).toBe('missing');
    expect(summaryQuality('Copyright © 1996–2026 The Group').weak).toBe('copyright');
    expect(summaryQuality('The official documentation of the Foo web framework.').weak).toBeNull();
  });
});

describe('metric 11: token F1 against the source', () => {
  it('strips front matter, MDX imports and HTML comments from the source, not fenced examples', () => {
    const source = [
      '---', 'title: Intro', 'sidebar_position: 2', '---', '',
      "import Tabs from '@theme/Tabs';", 'import {', '  TabItem,', "} from '@theme/TabItem';", '',
      '<!-- YAML', 'added: v0.1.90', '-->', '# Intro', '', 'Hello world.', '',
      '```js', "import fs from 'node:fs';", '```',
    ].join('\n');
    expect(cleanSource(source).trim()).toBe(['# Intro', '', 'Hello world.', '', '```js', "import fs from 'node:fs';", '```'].join('\n'));
  });

  it('is the harmonic mean of bag precision and recall', () => {
    expect(tokenF1('a b c d', 'a b c d')).toBe(1);
    expect(tokenF1('x y', 'a b')).toBe(0);
    // overlap 2 (a, b); P = 2/4, R = 2/2 → F1 = 2/3.
    expect(tokenF1('a b e f', 'a B')).toBeCloseTo(2 / 3, 10);
    const result = sourceF1([
      { url: 'u1', markdown: 'a b', source: '---\nt: 1\n---\na b' },
      { url: 'u2', markdown: 'a b e f', source: 'a b' },
      { url: 'u3', markdown: 'x', source: 'a' },
    ]);
    expect(result).toMatchObject({ pages: 3, min: 0, lowest: [{ url: 'u3', f1: 0 }, { url: 'u2' }, { url: 'u1', f1: 1 }] });
    expect(result.median).toBeCloseTo(2 / 3, 10);
    expect(sourceF1([])).toMatchObject({ pages: 0, median: null });
  });
});

describe('the scorecard of one site', () => {
  it('reads llms-full.txt back into pages, code blocks included', () => {
    const text = '# Site\n\n> Sum.\n\n## One\nSource: https://d.test/1\n\nBody one.\n\n```md\n## Not a page\n```\n\n## Two\nSource: https://d.test/2\n';
    expect(splitLlmsFull(text)).toEqual([
      { title: 'One', url: 'https://d.test/1', body: 'Body one.\n\n```md\n## Not a page\n```' },
      { title: 'Two', url: 'https://d.test/2', body: '' },
    ]);
  });

  it('puts the metrics together from the generated output and the stored pages', () => {
    const pages = [
      { key: 'k1', finalUrl: 'https://d.test/', title: 'Home', markdown: '# [Proj docs](index.html)\n\n# Home\n\nWelcome to the project.', format: 'html' as const },
      { key: 'k2', finalUrl: 'https://d.test/guide.html', title: 'Guide', markdown: '# Guide¶\n\nHow to use it.', format: 'html' as const, source: '# Guide\n\nHow to use it.' },
    ];
    const score = scoreSite({
      siteName: 'Proj docs',
      topSections: ['Guides'],
      pages,
      output: {
        title: 'Proj docs',
        summary: 'Copyright 2024 Proj',
        llmsTxt: '# Proj docs\n',
        llmsFullTxt: '# Proj docs\n\n## Home\nSource: https://d.test/\n\n### Home\n\nWelcome to the project.\n\n## Guide\nSource: https://d.test/guide.html\n\n### Guide¶\n\nHow to use it.\n',
        sections: [{ name: 'Guides — Proj docs', optional: false, entries: [
          { key: 'k1', title: 'Home', url: 'https://d.test/', pageUrl: 'https://d.test/' },
          { key: 'k2', title: 'Guide', url: 'https://d.test/guide.html', pageUrl: 'https://d.test/guide.html', description: 'How to use it:' },
        ] }],
      },
    });
    expect(score.h1.matches).toBe(true);
    expect(h1HoldsName('Python 3.11.2 documentation', 'Python')).toBe(true);
    expect(h1HoldsName('Flask Documentation (2.2.x)', 'Flask')).toBe(true);
    expect(h1HoldsName('SYNOPSIS', 'Git')).toBe(false);
    expect(h1HoldsName('api.nodejs.test', 'Node.js')).toBe(false);
    expect(h1HoldsName('Pythonic docs', 'Python')).toBe(false);
    expect(h1HoldsName('<tt>json-c</tt>', 'json-c')).toBe(false);
    expect(h1HoldsName('Overview (jsoup Java HTML Parser 1.15.3 API)', 'jsoup', ['jsoup Java HTML Parser 1.15.3 API'])).toBe(false);
    expect(h1HoldsName('jsoup Java HTML Parser 1.15.3 API', 'jsoup', ['jsoup Java HTML Parser 1.15.3 API'])).toBe(true);
    // Where the sources are known, their own repetition is measured the same way.
    expect(score.duplication.sources).toEqual({ share: 0, pages: 1 });
    expect(score.titles.count).toBe(1);
    expect(score.chrome.rawStored.pages).toBe(1);
    expect(score.chrome.served.pages).toBe(1);
    expect(score.chrome.full.pages).toBe(0);
    expect(score.permalinks.full.headings).toBe(1);
    expect(score.multiH1.pages).toBe(1);
    expect(score.sections.jaccard).toBe(0);
    expect(score.descriptions).toMatchObject({ entries: 2, described: 1, weak: 1 });
    expect(score.summary.weak).toBe('copyright');
    expect(score.f1).toMatchObject({ pages: 1 });
    expect(score.llmsTxtChars).toBe(12);
  });
});

describe('metric 11: text F1 leaves link targets out on both sides', () => {
  it('scores a page whose only difference is rewritten links as 1', async () => {
    const { textOnly, tokenF1 } = await import('../../bench/quality/f1');
    const source = 'Read [`fs.open()`][] or [the guide](guide.md#start).\n\n[`fs.open()`]: #fsopenpath';
    const page = 'Read [`fs.open()`](https://docs.example.test/docs/fs#fsopenpath) or [the guide](https://docs.example.test/docs/guide#start).';
    expect(tokenF1(textOnly(page), textOnly(source))).toBe(1);
    expect(tokenF1(page, source)).toBeLessThan(0.8);
  });
});
