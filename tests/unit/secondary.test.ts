import { describe, expect, it } from 'vitest';
import { isChangelog, isLicenseText, isSecondaryPage } from '@/lib/generate/secondary';

// Optional is decided by what a page is and where the site's navigation puts it, never by words
// in its file name.
const page = (path: string, title: string, markdown = `# ${title}\n\nThis page explains how the option works, with an example.`) => ({ finalUrl: `https://docs.example.test${path}`, title, markdown });

describe('what a page is', () => {
  it('tells a changelog by version headings with dates, not a migration guide or numbered chapter headings', () => {
    const changelog = ['# Changelog', '## Python 3.11.2 final', '*Release date: 2023-02-08*', '### Library', '- Fixed x.', '## Python 3.11.1 final', '*Release date: 2022-12-06*', '### Library', '## Python 3.11.0 final', '*Release date: 2022-10-24*'].join('\n\n');
    expect(isChangelog(changelog)).toBe(true);
    expect(isChangelog(['# Releases', '## v2.0.1 (Mar 1, 2024)', '## v2.0.0 (Feb 2, 2024)', '## v1.9.0 (12 January 2024)'].join('\n\n'))).toBe(true);
    expect(isChangelog(['# Upgrading', '## Upgrading to 2.0', 'Rename x.', '## Upgrading to 3.0', 'Rename y.', '## Upgrading to 4.0', 'Rename z.'].join('\n\n'))).toBe(false);
    expect(isChangelog(['# Chapter 3. Syntax', '## 3.1. Lexical rules', 'Since 2023-01-01.', '## 3.2. Keywords', 'Until 2024-01-01.', '## 3.3. Constants'].join('\n\n'))).toBe(false);
    expect(isChangelog(['```', '## 1.0 2023-01-01', '## 1.1 2023-02-01', '## 1.2 2023-03-01', '```'].join('\n'))).toBe(false);
  });

  it('tells a licence by its clauses, not by one mention of a licence', () => {
    expect(isLicenseText('Permission is hereby granted, free of charge, to any person obtaining a copy. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.')).toBe(true);
    expect(isLicenseText('Tally is distributed under the MIT license; see the repository for its text.')).toBe(false);
    // BSD's wording names who provides it before "as is", within the sentence.
    expect(isLicenseText('This software is provided by the copyright holders and contributors "as is" and any express or implied warranties of merchantability are disclaimed.')).toBe(true);
    expect(isLicenseText('A token is provided by the server. Use it as is. Without warranty of delivery.')).toBe(false);
  });

  it('reads a hostile run of its clause prefixes in linear time', () => {
    const started = performance.now();
    expect(isLicenseText('IS PROVIDED BY "'.repeat(50_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('isSecondaryPage', () => {
  it('never by a file name: cookies, sitemap, about, news, changes and search pages about those topics stay', () => {
    for (const [path, title] of [['/http/cookies.html', 'HTTP Cookies'], ['/guide/sitemap.xml.html', 'sitemap.xml'], ['/about.html', 'About Connections'], ['/news.html', 'News Feeds'], ['/changes.html', 'Tracking Changes'], ['/search.html', 'Full-text Search'], ['/bugs.html', 'Dealing with Bugs']]) {
      expect(isSecondaryPage(page(path as string, title as string), '/'), path).toBe(false);
    }
  });

  it('words in a title or folder count only for a page the navigation does not list', () => {
    expect(isSecondaryPage(page('/legal.html', 'Legal Notice'), '/')).toBe(true);
    expect(isSecondaryPage(page('/legal.html', 'Legal Notice'), '/', true)).toBe(false);
    expect(isSecondaryPage(page('/news/feeds.html', 'Feeds'), '/')).toBe(true);
    expect(isSecondaryPage(page('/news/feeds.html', 'Feeds'), '/', true)).toBe(false);
  });

  it('what the page is counts wherever it is listed: changelogs, licences, generated pages, old versions', () => {
    const changelog = ['# Release Notes', '## A.1. Release 3.2', 'Release date: 2026-01-14', '## A.2. Release 3.1', 'Release date: 2025-02-14', '## A.3. Release 3.0', 'Release date: 2024-03-14'].join('\n\n');
    expect(isSecondaryPage(page('/release.html', 'Appendix A. Release Notes', changelog), '/', true)).toBe(true);
    expect(isSecondaryPage(page('/appendix-b.html', 'Appendix B. Terms', 'Permission to use, copy, modify, and distribute this software is hereby granted. IN NO EVENT SHALL THE AUTHORS BE LIABLE.'), '/', true)).toBe(true);
    expect(isSecondaryPage(page('/genindex-A.html', 'Index'), '/', true)).toBe(true);
    expect(isSecondaryPage(page('/org/x/class-use/Y.html', 'Uses of Class org.x.Y'), '/', true)).toBe(true);
    expect(isSecondaryPage(page('/search.html', 'Search'), '/', true)).toBe(true);
    expect(isSecondaryPage(page('/2.4/guide.html', 'Guide'), '/', true)).toBe(true);
    expect(isSecondaryPage(page('/reference.html', 'Part VI. Reference'), '/', true)).toBe(false);
  });
});
