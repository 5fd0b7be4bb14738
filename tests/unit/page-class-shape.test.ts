import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';
import { classifyPages } from '@/lib/generate/page-class';
import type { SourcePage } from '@/lib/generate/types';

// Source listings and alphabetical indexes told apart by their structure, whatever their URL or
// title says: pages written in the shape of Haddock's and rustdoc's output, under neutral paths.
const ORIGIN = 'https://docs.example.test';

function stored(path: string, html: string): SourcePage {
  const url = `${ORIGIN}${path}`;
  const page = convertHtml(html, url, linkedomAdapter);
  return { key: url, url, finalUrl: url, title: page.title, markdown: page.markdown, depth: 1, format: 'html', state: 'stored' };
}

const CODE = Array.from({ length: 60 }, (_, i) => (i % 7 === 0 ? '' : `  counted${i} = count (words line${i}) + ${i}`));

/** Haddock's hyperlinked source: one <pre> of spans with an anchor per line, nothing else. */
const haddockSource = `<html><head><title>Tally.Count</title></head><body><pre>${CODE.map((line, i) =>
  `<span id="line-${i + 1}"></span><span class="hs-identifier">${line}</span>`).join('\n')}</pre></body></html>`;

/** rustdoc's source view: a column of line numbers beside the code. */
const rustdocSource = `<html><head><title>count.rs</title></head><body><main><div class="example-wrap"><pre class="src-line-numbers">${CODE.map((_, i) =>
  `<span id="${i + 1}">${i + 1}</span>`).join('\n')}</pre><pre class="rust"><code>${CODE.join('\n')}</code></pre></div></main></body></html>`;

/** A page of documentation that is mostly one long example: its own title, no line numbers. */
const example = `<html><head><title>A full configuration</title></head><body><main><h1>A full configuration</h1><p>Every option at once.</p><pre><code>${CODE.join('\n')}</code></pre></main></body></html>`;

const LETTERS = 'ABCDEFGHIJKLMNOPRSTUVW'.split('');
/** Haddock's index: a bar of links to each letter's page, then the entries. */
const letterIndex = (letter: string) => `<html><head><title>tally-1.0: Index - ${letter}</title></head><body><div id="content"><div id="alphabet"><ul>${LETTERS.map((l) =>
  `<li><a href="doc-index-${l}.html">${l}</a></li>`).join('')}</ul></div><div id="index"><p class="caption">Index - ${letter}</p><table><tr><td class="src">${letter.toLowerCase()}count</td><td class="module"><a href="Tally-Count.html#v:count">Tally.Count</a></td></tr></table></div></div></body></html>`;
/** A page with a few letter links that is not an index (a table of keyboard keys). */
const keys = `<html><head><title>Keys</title></head><body><main><h1>Keys</h1><p>Press one of <a href="#a">A</a>, <a href="#b">B</a> or <a href="#c">C</a> to choose what Tally counts in the file you opened, then press Enter to count it.</p></main></body></html>`;

describe('source listings and indexes are told apart by structure', () => {
  it('puts hyperlinked source pages in the source class under any path', () => {
    const pages = [stored('/code/Tally.Count.html', haddockSource), stored('/view/count.html', rustdocSource), stored('/guide/config.html', example)];
    const classes = classifyPages(pages);
    expect(pages.map((page) => classes.get(page))).toEqual(['source', 'source', undefined]);
  });

  it('puts alphabetical index pages with a letter bar in the index class, and not a page with a few letter links', () => {
    const pages = [stored('/idx/A.html', letterIndex('A')), stored('/idx/B.html', letterIndex('B')), stored('/guide/keys.html', keys)];
    const classes = classifyPages(pages);
    expect(pages.map((page) => classes.get(page))).toEqual(['index', 'index', undefined]);
  });

  it('puts the pages an index’s letter bar leads to in the index class, though a crawl took their own bar off as chrome', () => {
    const withoutBar = (page: SourcePage): SourcePage => ({ ...page, markdown: page.markdown.replace(/^(?:- \[[^\]]*\]\([^)]*\)\n)+/m, '') });
    // The whole index keeps the bar (and a link to all entries beside the letters); each letter's page lost it.
    const whole = stored('/idx/doc-index.html', letterIndex('').replace('</ul>', '<li><a href="doc-index-All.html">All</a></li></ul>'));
    const a = withoutBar(stored('/idx/doc-index-A.html', letterIndex('A')));
    const all = withoutBar(stored('/idx/doc-index-All.html', letterIndex('')));
    expect(a.markdown).not.toContain('[B](');
    const guide = stored('/guide/keys.html', keys);
    const classes = classifyPages([whole, a, all, guide]);
    expect([whole, a, all, guide].map((page) => classes.get(page))).toEqual(['index', 'index', 'index', undefined]);
    // Without the page that still has the bar, nothing tells them apart.
    const alone = classifyPages([a, guide]);
    expect(alone.get(a)).toBeUndefined();
  });
});
