import { describe, expect, it } from 'vitest';
import { learnBoilerplate } from '@/lib/generate/boilerplate';
import { classifyPages } from '@/lib/generate/page-class';
import { titleCleaner } from '@/lib/generate/site-titles';
import type { SourcePage } from '@/lib/generate/types';

const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${i}`).join(' ');

function page(path: string, title: string, markdown: string): SourcePage {
  const url = `https://docs.example.test${path}`;
  return { key: url, url, finalUrl: url, title, markdown, depth: 1, format: 'html', state: 'stored' };
}

describe('site-level title cleaning', () => {
  it('removes the suffix most titles share, and the site name at either end', () => {
    const titles = ['Writing views — Acorn 3.2 documentation', 'Models — Acorn 3.2 documentation', 'FAQ — Acorn 3.2 documentation', 'Acorn 3.2 documentation'];
    const clean = titleCleaner(titles, []);
    expect(clean('Writing views — Acorn 3.2 documentation')).toBe('Writing views');
    // A home page titled only with the site's name keeps it: there is nothing else to call it.
    expect(clean('Acorn 3.2 documentation')).toBe('Acorn 3.2 documentation');
    const book = titleCleaner(['Installation - The Book', 'Hello, World! - The Book', 'Ownership - The Book'], []);
    expect(book('Installation - The Book')).toBe('Installation');
    const prefixed = titleCleaner(['x'], ['Acorn']);
    expect(prefixed('Acorn | Getting started')).toBe('Getting started');
  });

  it('knows the colon prefix (Doxygen), the parenthesised suffix (Javadoc) and markup leaked into titles', () => {
    const doxygen = titleCleaner(['json-c: json_object.h File Reference', 'json-c: Main Page', 'json-c: arraylist.h File Reference'], []);
    expect(doxygen('json-c: json_object.h File Reference')).toBe('json_object.h File Reference');
    const javadoc = titleCleaner(['Jsoup (jsoup 1.15 API)', 'Element (jsoup 1.15 API)', 'Document (jsoup 1.15 API)'], []);
    expect(javadoc('Element (jsoup 1.15 API)')).toBe('Element');
    expect(titleCleaner(['x', 'y', 'z'], [])('<tt>json-c</tt> guide')).toBe('json-c guide');
    // A colon inside one title is part of it.
    expect(titleCleaner(['Tutorial: first steps', 'Install', 'Usage'], [])('Tutorial: first steps')).toBe('Tutorial: first steps');
    // gtk-doc: a colon before the site's name, which holds a colon of its own.
    const gtkdoc = titleCleaner(['Drawing: Cairo: A Vector Graphics Library', 'Fonts: Cairo: A Vector Graphics Library', 'cairo_t: Cairo: A Vector Graphics Library'], ['Cairo: A Vector Graphics Library']);
    expect(gtkdoc('Drawing: Cairo: A Vector Graphics Library')).toBe('Drawing');
    expect(gtkdoc('Cairo: A Vector Graphics Library')).toBe('Cairo: A Vector Graphics Library');
  });

  it('never strips a part only a few titles share', () => {
    const titles = ['Install - Linux', 'Install - macOS', 'Build - Windows', 'Usage', 'Tuning', 'FAQ'];
    const clean = titleCleaner(titles, []);
    expect(titles.map(clean)).toEqual(titles);
  });
});

describe('repeated chrome at the edges of pages', () => {
  const header = '# [Project documentation](https://docs.example.test/index.html)';
  const bar = '[Home](https://docs.example.test/) | [Table of contents](https://docs.example.test/contents.html) | [Index](https://docs.example.test/genindex.html)';
  const pager = (prev: string, next: string) => `« [${prev}](https://docs.example.test/${prev}.html) | [up](https://docs.example.test/) | [${next}](https://docs.example.test/${next}.html) »`;
  const footer = '© Copyright 2026, the Acorn team. Created using Sphinx.';
  const pages = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'].map((name, i, all) =>
    [header, bar, pager(all[i - 1] ?? 'start', all[i + 1] ?? 'end'), `# ${name}`, words(30, name), `Note: ${words(8, 'same')}`, words(20, `${name}x`), pager(all[i - 1] ?? 'start', all[i + 1] ?? 'end'), footer].join('\n\n'));

  it('strips the site header, nav bars, pagers and footers, and keeps the page', () => {
    const strip = learnBoilerplate(pages);
    const out = strip(pages[2] ?? '');
    expect(out.startsWith('# gamma\n\n')).toBe(true);
    expect(out).not.toContain('Project documentation');
    expect(out).not.toContain('Table of contents');
    expect(out).not.toContain('« [');
    expect(out).not.toContain('Created using Sphinx');
    // A note that repeats in the middle of pages is content.
    expect(out).toContain(`Note: ${words(8, 'same')}`);
    expect(out.endsWith(words(20, 'gammax'))).toBe(true);
  });

  it('leaves small sites and unique pages alone', () => {
    expect(learnBoilerplate(pages.slice(0, 3))(pages[0] ?? '')).toBe(pages[0]);
    const unique = ['one', 'two', 'three', 'four', 'five', 'six'].map((n) => `# ${n}\n\n${words(20, n)}`);
    const strip = learnBoilerplate(unique);
    expect(unique.map(strip)).toEqual(unique);
  });
});

describe('page classes', () => {
  const chapters = ['intro', 'install', 'usage', 'config', 'deploy'].map((name) => page(`/${name}.html`, name, `# ${name}\n\n${words(150, name)}`));

  it('finds an all-in-one page by what it contains, not by its name', () => {
    const all = page('/book-in-one-go.html', 'The whole book', chapters.map((c) => c.markdown).join('\n\n'));
    const toc = page('/contents.html', 'Contents', chapters.map((c) => `- [${c.title} ${words(9, 'toc')}](https://docs.example.test/${c.title}.html)`).join('\n'));
    const classes = classifyPages([...chapters, all, toc]);
    expect(classes.get(all)).toBe('aggregate');
    // A table of contents lists the pages but holds none of them.
    expect(classes.has(toc)).toBe(false);
    for (const chapter of chapters) expect(classes.has(chapter)).toBe(false);
  });

  it('marks an alphabetical index by its letter headings', () => {
    const letters = ['A', 'B', 'C', 'D', 'E', 'F'].map((l) => `## ${l}\n\n- [${l}lpha](https://docs.example.test/${l}.html)`).join('\n\n');
    const index = page('/index-all.html', 'Index', `# Index\n\n${letters}`);
    const doc = page('/guide.html', 'Guide', `# Guide\n\n## A\n\n${words(20, 'a')}\n\n## B\n\n${words(20, 'b')}`);
    const classes = classifyPages([index, doc]);
    expect([classes.get(index), classes.get(doc)]).toEqual(['index', undefined]);
  });

  it('marks source listings by location and title', () => {
    const viewcode = page('/_modules/acorn/tree.html', 'acorn.tree', '# Source code for acorn.tree\n\n```python\nimport os\n```');
    const rustdoc = page('/src/acorn/lib.rs.html', 'lib.rs - source', '```rust\nfn main() {}\n```');
    const overview = page('/_modules/index.html', 'Overview: module code', '# All modules for which code is available');
    const doc = page('/api/tree.html', 'Tree', '# Tree\n\nSource code: acorn/tree.py\n\nThe tree module grows trees.');
    const classes = classifyPages([viewcode, rustdoc, overview, doc]);
    expect([classes.get(viewcode), classes.get(rustdoc), classes.get(overview), classes.get(doc)]).toEqual(['source', 'source', 'source', undefined]);
  });
});
