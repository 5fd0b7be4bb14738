import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';

// A theme that marks no content container, shaped like DocBook XSL's chunked output: a pager table
// above and below, and a one-line footer of the site's between the content and the lower pager.
// On a short page the footer has about as much prose as the content, so no block holds most of it.
const framed = (title: string, heading: string, content: string) => `<!doctype html><html><head><title>${title}</title></head><body>
<div class="a1"><table><tr><td><a href="b.html">Prev</a></td><th></th><td><a href="d.html">Next</a></td></tr></table><hr/></div>
<div class="a2"><div class="a3"><div><div><h2 class="t"><a id="x"></a>${heading}</h2></div></div></div>${content}</div>
<div class="a4"><hr/>Last updated 2023-01-25 09:27:30 -- Tally Tools 2.8.0</div>
<div class="a5"><hr/><table><tr><td><a href="b.html">Prev</a></td><td><a href="up.html">Up</a></td><td><a href="d.html">Next</a></td></tr>
<tr><td></td><td><a href="index.html">Home</a></td><td></td></tr></table></div>
</body></html>`;
const convert = (html: string) => convertHtml(html, 'https://docs.example.com/manual/apd.html', linkedomAdapter).markdown;

describe('a short page of an unmarked theme', () => {
  it('is the block its title heading opens, not the body with its footer and pagers', () => {
    const markdown = convert(framed('D. Hardware List', 'D. Hardware List', '<p>Refer to the <a href="https://hcl.example/">online list</a>.</p>'));
    expect(markdown).toContain('D. Hardware List');
    expect(markdown).toContain('Refer to the [online list](https://hcl.example/).');
    expect(markdown).not.toContain('Last updated');
    expect(markdown).not.toMatch(/Prev|Next|Home/);
  });

  it('finds the heading when the title adds the site name after it', () => {
    const markdown = convert(framed('I.8. Changes from 2.6.2 to 2.6.3 - Tally Manual', 'I.8. Changes from 2.6.2 to 2.6.3', '<ul><li>nothing that affects upgraded systems.</li></ul>'));
    expect(markdown).toContain('nothing that affects upgraded systems.');
    expect(markdown).not.toContain('Last updated');
  });

  it('is the titled block on a title-only page, not the footer line that outweighs it', () => {
    const markdown = convert(framed('E. Documentation', 'E. Documentation', ''));
    expect(markdown).toContain('E. Documentation');
    expect(markdown).not.toContain('Last updated');
  });

  it('keeps the body when no heading says the title: nothing is lost on a guess', () => {
    const markdown = convert(framed('Something else', 'D. Hardware List', '<p>Refer to the <a href="https://hcl.example/">online list</a>.</p>'));
    expect(markdown).toContain('Refer to the');
    expect(markdown).toContain('Last updated');
  });

  it('keeps the body when the titled block holds too little of the prose', () => {
    const footer = 'A long frame paragraph of the site that is not the page and says a great deal more than the page does. '.repeat(3);
    const html = framed('D. Hardware List', 'D. Hardware List', '<p>See it.</p>').replace('Last updated', footer);
    expect(convert(html)).toContain('A long frame paragraph');
  });
});

// A contents page of a manual whose theme marks nothing (shaped like texi2any 7's output): a node
// bar, a heading whose words differ from the <title>, and the node's menu — links only. The bar's
// labels and separators are the page's only text outside links.
describe('a page whose content is a heading and a list of links', () => {
  const page = `<!doctype html><html><head><title>Kinds (widget: a library of widgets)</title></head><body>
<div class="section" id="Kinds"><div class="header"><p>
Next: <a href="Layout.html" rel="next">Layout</a>, Previous: <a href="Basics.html" rel="prev">Basics</a>, Up: <a href="Using.html" rel="up">Using widget</a> &nbsp; [<a href="Index.html" rel="index">Index</a>]</p>
</div><hr><h3 class="section">2.3 Kinds</h3>
<ul class="section-toc"><li><a href="Buttons.html">Buttons</a></li><li><a href="Sliders.html">Sliders</a></li><li><a href="Menus.html">Menus</a></li></ul>
</div></body></html>`;

  it('is that heading and list, not the navigation bar above them', () => {
    const markdown = convertHtml(page, 'https://docs.example.com/manual/Kinds.html', linkedomAdapter).markdown;
    expect(markdown).toContain('2.3 Kinds');
    expect(markdown).toContain('[Sliders](https://docs.example.com/manual/Sliders.html)');
    expect(markdown).not.toMatch(/Next:|Previous:|Up:/);
  });
});
