import { describe, expect, it } from 'vitest';
import { chromeParts, keptCounts, keptSummary } from '../../bench/quality/kept';
import { pageFacts } from '../../bench/quality/page-facts';
import { linkedomAdapter } from '../../lib/convert/dom';

const parse = (body: string) => linkedomAdapter.parse(`<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`);

// A type page of an API reference: its own heading and text, then a section the generator puts on
// every type page word for word (rustdoc's "Blanket Implementations").
const BLANKET_HTML = '<h2>Blanket Implementations</h2><h3>impl From for T</h3><p>Returns the argument unchanged, always.</p><h3>impl Into for T</h3><p>Calls the conversion of the other type.</p>';
const BLANKET_MD = '## Blanket Implementations\n\n### impl From for T\n\nReturns the argument unchanged, always.\n\n### impl Into for T\n\nCalls the conversion of the other type.\n';
const own = (i: number) => `The type number ${i} holds its own words about widget ${i}.`;
const page = (i: number) => ({
  key: `k${i}`,
  url: `http://site.test/api/type${i}.html`,
  title: `Type${i}`,
  html: `<main><h1>Type${i}</h1><p>${own(i)}</p><h2>Methods of type ${i}</h2><p>Method text ${i} is only here.</p>${BLANKET_HTML}</main>`,
  markdown: `# Type${i}\n\n${own(i)}\n\n## Methods of type ${i}\n\nMethod text ${i} is only here.\n\n${BLANKET_MD}`,
});
const PAGES = Array.from({ length: 8 }, (_, i) => page(i));

/** Per page: facts from the HTML, the served Markdown, the chrome of the raw Markdown; summed. */
function score(pages: typeof PAGES, served: (p: (typeof PAGES)[number]) => string, siteNames: string[] = []) {
  const chrome = chromeParts(pages, { siteNames });
  return keptSummary(pages.map((p, i) => ({ url: p.url, kept: keptCounts(pageFacts(parse(p.html)), served(p), chrome[i]) })));
}

describe('kept ratios: what the bench calls chrome is dropped as chrome, not lost', () => {
  it("counts a repeated section's headings as dropped as chrome, out of the ratio", () => {
    const summary = score(PAGES, (p) => p.markdown.replace(BLANKET_MD, ''));
    expect(summary.headings).toMatchObject({ kept: 16, total: 16, dropped: 24, ratio: 1 });
    expect(summary.headings.droppedAs).toContain('impl from for t');
    // Without the chrome of the raw page, the same Markdown loses them.
    const blind = keptSummary(PAGES.map((p) => ({ url: p.url, kept: keptCounts(pageFacts(parse(p.html)), p.markdown.replace(BLANKET_MD, '')) })));
    expect(blind.headings).toMatchObject({ kept: 16, total: 40, dropped: 0 });
  });

  it('still counts as lost a heading that is not repeated across pages', () => {
    // Page 3's own section heading is lost; the chrome section is kept.
    const summary = score(PAGES, (p) => (p.key === 'k3' ? p.markdown.replace('## Methods of type 3', 'Methods of type 3') : p.markdown));
    expect(summary.headings).toMatchObject({ kept: 39, total: 40, dropped: 0 });
    expect(summary.headings.worst[0]).toMatchObject({ url: PAGES[3]?.url, lost: ['methods of type 3'] });
  });

  it('does not call chrome a repeated heading above the page\'s own text, nor a page\'s heading above repeated text', () => {
    const pages = PAGES.map((p, i) => ({
      ...p,
      html: p.html.replace('<h2>Methods of type', `<h2>Parameters</h2><p>Parameter ${i} means something else here.</p><h2>Notes ${i}</h2><p>Returns the argument unchanged, always.</p><h2>Methods of type`),
      markdown: p.markdown.replace('## Methods of type', `## Parameters\n\nParameter ${i} means something else here.\n\n## Notes ${i}\n\nReturns the argument unchanged, always.\n\n## Methods of type`),
    }));
    const chrome = chromeParts(pages);
    expect(chrome[0]).not.toMatch(/Parameters|Notes 0/);
    expect(chrome[0]).toContain('### impl From for T');
    const summary = score(pages, (p) => p.markdown.replace('## Parameters', 'Parameters').replace(/## Notes \d+/, 'Notes'));
    expect(summary.headings).toMatchObject({ kept: 40, total: 56, dropped: 0 });
  });

  it("drops a heading the bench's chrome patterns flag (the site's title over every page)", () => {
    const pages = PAGES.map((p) => ({ ...p, html: p.html.replace('<main><h1>', '<main><h2>Widgets</h2><h1>'), markdown: `## Widgets\n\n${p.markdown}` }));
    const summary = score(pages, (p) => p.markdown.replace('## Widgets\n\n', ''), ['Widgets']);
    expect(summary.headings).toMatchObject({ kept: 40, total: 40, dropped: 8 });
  });

  it('never counts code as chrome: a section holding code is not a chrome section', () => {
    const pages = PAGES.map((p) => ({
      ...p,
      html: p.html.replace('<p>Calls the conversion of the other type.</p>', '<p>Calls the conversion of the other type.</p><pre>let u = t.into();</pre>'),
      markdown: p.markdown.replace('Calls the conversion of the other type.\n', 'Calls the conversion of the other type.\n\n```\nlet u = t.into();\n```\n'),
    }));
    const served = (p: (typeof pages)[number]) => p.markdown.slice(0, p.markdown.indexOf('### impl Into'));
    const summary = score(pages, served);
    expect(summary.codeLines).toMatchObject({ kept: 0, total: 8, dropped: 0 });
    // "impl Into for T" holds code: its heading is lost; "Blanket Implementations" is not a chrome section either.
    expect(summary.headings).toMatchObject({ kept: 32, total: 40, dropped: 0 });
  });
  it('counts as chrome a copy inside a chrome section that only some pages get, never a page\'s own text there', () => {
    // 20 type pages; 6 also get one more blanket impl, word for word (30 %: below the 40 % share,
    // on more than the 5 pages repetition needs). On page 2 that impl has text of its own.
    const extra = (i: number) => `### impl ToString for T\n\n${i === 2 ? 'Converts type 2 its own way, unlike the rest.' : 'Converts the given value to a string.'}\n\n`;
    const extraHtml = (i: number) => `<h3>impl ToString for T</h3><p>${i === 2 ? 'Converts type 2 its own way, unlike the rest.' : 'Converts the given value to a string.'}</p>`;
    const pages = Array.from({ length: 20 }, (_, i) => page(i)).map((p, i) =>
      i >= 6 ? p : { ...p, html: p.html.replace('<h3>impl Into for T</h3>', `${extraHtml(i)}<h3>impl Into for T</h3>`), markdown: p.markdown.replace('### impl Into for T', `${extra(i)}### impl Into for T`) },
    );
    const served = (p: (typeof pages)[number]) => p.markdown.slice(0, p.markdown.indexOf('## Blanket Implementations'));
    const summary = score(pages, served);
    // Every page keeps its own 2 headings; page 2 loses its own impl and the section above it (not
    // all copy there); the other 5 copies, the section headings and the common impls are chrome.
    expect(summary.headings).toMatchObject({ kept: 40, total: 42, dropped: 64 });
    expect(summary.headings.worst[0]).toMatchObject({ url: pages[2]?.url, lost: expect.arrayContaining(['impl tostring for t']) });
  });
  it('counts as chrome a link bar atop 45 % of the pages (the index pages), not lost list items', () => {
    // 9 of 20 pages are index pages that open with the same letter bar.
    const BAR_MD = '- [A](http://site.test/index-a.html)\n- [B](http://site.test/index-b.html)\n- [C](http://site.test/index-c.html)\n\n';
    const BAR_HTML = '<ul><li><a href="/index-a.html">A</a></li><li><a href="/index-b.html">B</a></li><li><a href="/index-c.html">C</a></li></ul>';
    const pages = Array.from({ length: 20 }, (_, i) => page(i)).map((p, i) => (i >= 9 ? p : { ...p, html: p.html.replace('<main>', `<main>${BAR_HTML}`), markdown: `${BAR_MD}${p.markdown}` }));
    const summary = score(pages, (p) => p.markdown.replace(BAR_MD, ''));
    expect(summary.listItems).toMatchObject({ dropped: 27, total: 0 });
    // On 6 of 20 (30 %) it is not the site's frame: the bar's items count as lost.
    const few = pages.map((p, i) => (i < 6 ? p : page(i)));
    expect(score(few, (p) => p.markdown.replace(BAR_MD, '')).listItems).toMatchObject({ kept: 0, total: 18, dropped: 0 });
  });
});
