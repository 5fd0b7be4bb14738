import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';

// Shaped like a TypeDoc page of an undocumented interface (written by hand after its markup): the
// page marks no content container, its own text is short, and beside it a settings panel folded
// in a closed <details> holds form labels and options. Each member carries a small <aside> of
// notes ("Inherited from …", "Defined in …"), which is part of the member.
const convert = (html: string) => convertHtml(html, 'https://tally.example/api/interfaces/ScanContext.html', linkedomAdapter);

const note = (line: number, inherited = false) =>
  `<aside class="tsd-sources">${inherited ? '<p>Inherited from <a href="Base.html">Base</a>.<a href="Base.html#words">words</a></p>' : ''}<ul><li>Defined in <a href="https://git.example/tally/src/index.d.ts#L${line}">src/index.d.ts:${line}</a></li></ul></aside>`;

const settings = `<div class="tsd-navigation settings"><details class="tsd-accordion"><summary><h3>Settings</h3></summary><div><div class="tsd-filter-visibility"><span class="settings-label">Member Visibility</span><ul><li><label><input type="checkbox" name="protected"/><span>Protected</span></label></li><li><label><input type="checkbox" name="inherited" checked/><span>Inherited</span></label></li><li><label><input type="checkbox" name="external"/><span>External</span></label></li></ul></div><div><label for="theme">Theme</label><select id="theme"><option value="os">OS</option><option value="light">Light</option><option value="dark">Dark</option></select></div></div></details></div>`;

const page = (content: string, side = '') =>
  `<!doctype html><html><head><title>ScanContext | tally</title></head><body><header><a href="../index.html">tally</a></header><div class="container container-main"><div class="col-content"><div class="tsd-page-title"><h1>Interface ScanContext</h1></div>${content}</div><div class="col-sidebar"><div class="page-menu">${settings}${side}</div><div class="site-menu"><nav><a href="../modules.html">tally</a><ul><li>Loading...</li></ul></nav></div></div></div><footer><p>Generated using <a href="https://typedoc.org/">TypeDoc</a></p></footer></body></html>`;

const SMALL = `<div class="tsd-signature">interface ScanContext { <a href="#file">file</a>: string; }</div>${note(12)}<section><h2>Properties</h2><section class="tsd-member"><h3 id="file">file</h3><div class="tsd-signature">file: string</div>${note(13)}</section><section class="tsd-member"><h3 id="words">words</h3><div class="tsd-signature">words: number</div>${note(20, true)}</section></section>`;

describe('a page with little text of its own beside a folded settings panel', () => {
  it('keeps the page, not the panel: its H1, its members and their notes', () => {
    const { markdown } = convert(page(SMALL));
    expect(markdown.startsWith('# Interface ScanContext')).toBe(true);
    expect(markdown).not.toMatch(/Member Visibility|Settings|Protected|Theme/);
    expect(markdown).toContain('### file');
    expect(markdown).toContain('- Defined in [src/index.d.ts:13](https://git.example/tally/src/index.d.ts#L13)');
    expect(markdown).toContain('Inherited from [Base](https://tally.example/api/interfaces/Base.html).[words](https://tally.example/api/interfaces/Base.html#words)');
    expect(markdown).toContain('- Defined in [src/index.d.ts:20]');
  });
});

describe('asides', () => {
  const body = (aside: string) => `<!doctype html><html><head><title>Scan | tally</title></head><body><main><h1>Scan</h1><p>Scanning reads a file once and counts its words, lines and bytes as it goes.</p>${aside}<p>The counts are kept per file and summed at the end of the run.</p></main></body></html>`;

  it('keeps a short note of a few links beside the text', () => {
    expect(convertHtml(body('<aside><ul><li>Defined in <a href="https://git.example/x.ts#L3">x.ts:3</a></li></ul></aside>'), 'https://tally.example/scan.html', linkedomAdapter).markdown).toContain('Defined in [x.ts:3]');
  });

  it('drops a sidebar: a list of links, or a block with a heading', () => {
    const links = Array.from({ length: 6 }, (_, i) => `<li><a href="/p${i}.html">Page ${i}</a></li>`).join('');
    expect(convertHtml(body(`<aside><ul>${links}</ul></aside>`), 'https://tally.example/scan.html', linkedomAdapter).markdown).not.toContain('Page 1');
    expect(convertHtml(body('<aside><h2>Related</h2><p>See <a href="/count.html">Count</a>.</p></aside>'), 'https://tally.example/scan.html', linkedomAdapter).markdown).not.toContain('Related');
  });
});
