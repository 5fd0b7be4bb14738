import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';

// A type page that implements members defined elsewhere: the generator shows each member's
// signature with the summary of the definition it implements, cut short by a "Read more" link to
// that definition. The names and words are invented; the shape is the one API generators use.
const URL_HERE = 'https://api.example.org/kit/struct.Widget.html';
const convert = (body: string, url = URL_HERE) =>
  convertHtml(`<!doctype html><html><head><title>Widget</title></head><body><main>${body}</main></body></html>`, url, linkedomAdapter).markdown;
const OWN = 'A widget holds a value and draws it on a panel when asked to.';

describe('a summary copied from a definition on another page', () => {
  it('is dropped, and the member heading it sat under stays', () => {
    const markdown = convert(`<h1>Widget</h1><p>${OWN}</p><h2>Implementations</h2><h3>impl Paint for Widget</h3><h4>fn paint(&amp;self)</h4><div class="docblock"><p>Paints the value on the given canvas. <a href="../paint/trait.Paint.html#tymethod.paint">Read more</a></p></div>`);
    expect(markdown).toContain(OWN);
    expect(markdown).toContain('fn paint(&self)');
    expect(markdown).not.toContain('Paints the value on the given canvas.');
    expect(markdown).not.toContain('Read more');
  });

  it('stays when the link goes to a whole page, to this page, or is not the paragraph\'s end', () => {
    const teaser = 'Our new release draws widgets twice as fast as the last one did.';
    const local = 'The drawing rules are given further down this page in full.';
    const glossary = 'The alignment of a value says where values may start in memory.';
    const markdown = convert(`<h1>Widget</h1><p>${teaser} <a href="../news/release-2.html">Read more</a></p><p>${local} <a href="#rules">Read more</a></p><p>${local.replace('full', 'detail')} <a href="${URL_HERE}#rules">Read more</a></p><p>${glossary} <a href="../layout.html#alignment">Read more</a>.</p>`);
    expect(markdown).toContain(teaser);
    expect(markdown).toContain(local);
    expect(markdown).toContain(local.replace('full', 'detail'));
    expect(markdown).toContain(glossary);
  });
});
