import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';

const ORIGIN = 'https://docs.acorn.test';
const convert = (body: string) => convertHtml(`<!doctype html><html><head><title>T</title></head><body>${body}</body></html>`, `${ORIGIN}/index.html`, linkedomAdapter).markdown;

describe('lists the converter keeps', () => {
  it('keeps a manual start page’s contents whose links are named toc-… (GNU Texinfo)', () => {
    const entry = (id: string, text: string, nested = '') => `<li><a id="toc-${id}" href="${id}.html">${text}</a>${nested}</li>`;
    const md = convert(`<div class="top"><h1>Acorn Manual</h1><p>This manual documents Acorn 1.0, the tiny database.</p><h2>Table of Contents</h2><div class="contents"><ul class="no-bullet">${entry('Introduction', 'Introduction')}${entry('Installation', '1 Installation', `<ul class="no-bullet">${entry('Unix', '1.1 Unix Installation')}</ul>`)}</ul></div></div>`);
    expect(md).toContain(`- [Introduction](${ORIGIN}/Introduction.html)\n- [1 Installation](${ORIGIN}/Installation.html)\n  - [1.1 Unix Installation](${ORIGIN}/Unix.html)`);
  });

  it('keeps in-page contents links out (named toc-…, leading to places on the page)', () => {
    const md = convert(`<main><h1>Acorn</h1><p>Acorn is a tiny database that keeps its trees balanced.</p><ul><li><a id="toc-a" href="#a">Part A</a></li></ul><h2 id="a">Part A</h2><p>Text of part A, long enough to be the content.</p></main>`);
    expect(md).not.toContain('[Part A]');
  });

  it('keeps the bullets of a list of text items when one item holds a titled box (DocBook)', () => {
    const md = convert(`<div class="section"><h2>Supporters</h2><div class="itemizedlist"><ul><li><p>Eaton has been:</p><ul><li>providing documents,</li><li>supporting its customers.<div class="warning"><h3>Warning</h3><p>Eaton no longer supports it.</p></div></li></ul></li><li>Gamatronic revived the driver.</li><li>Riello provided protocols.</li></ul></div></div>`);
    expect(md).toContain('- Eaton has been:');
    expect(md).toContain('  - providing documents,');
    expect(md).toContain('- Gamatronic revived the driver.');
    expect(md).toContain('- Riello provided protocols.');
  });
});
