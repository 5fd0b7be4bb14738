import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';

// The page header (H1, lead, summary) is kept whatever builds the navigation: a theme that marks no
// content container, whose navigation a script fills in, must not lose the header to a member group
// that holds most of the page's prose.
const DIR = join(__dirname, '../fixtures/generators');
const convert = (html: string, url = 'https://docs.example.com/api/Settings.html') => convertHtml(html, url, linkedomAdapter);
const page = (body: string, title = 'Settings | Tally') => `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${body}</body></html>`;
const headings = (markdown: string) => markdown.split('\n').filter((line) => /^#{1,6} /.test(line));
const member = (name: string) =>
  `<section><h3>${name}</h3><p>${name}(value: string): Settings</p><p>Changes how the scanner reads its input when ${name} is set, and returns the settings so calls chain.</p></section>`;
const MEMBERS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'].map(member).join('');
const LEAD = 'Settings hold every option a Tally scanner reads before it counts the words of a file.';

describe('the page header is kept whatever builds the navigation', () => {
  it('keeps a TypeDoc class page whole: its H1, its description, its index and every member group', () => {
    const { markdown, description } = convert(readFileSync(join(DIR, 'typedoc.html'), 'utf8'), 'https://tally.example/api/classes/Settings.html');
    expect(markdown.startsWith(`# Class Settings\n\n${LEAD} Create one, change what you need, and hand it to a scanner.`)).toBe(true);
    expect(headings(markdown).slice(0, 4)).toEqual(['# Class Settings', '##### Index', '### Methods', '## Methods']);
    expect(markdown).toContain('### separators');
    expect(markdown).not.toMatch(/On This Page|Loading\.\.\.|Generated using/);
    expect(description).toBe(`${LEAD} Create one, change what you need, and hand it to a scanner.`);
  });

  it.each([
    ['a plain header block', `<div class="top"><h1>Class Settings</h1></div><div><p>${LEAD}</p></div>`],
    ['a lead in its own wrapper', `<h1>Class Settings</h1><section><div><p>${LEAD}</p></div></section>`],
    ['a breadcrumb before the H1', `<ol><li><a href="/api/">API</a></li><li>Settings</li></ol><h1>Class Settings</h1><p>${LEAD}</p>`],
  ])('keeps the lead between the H1 and the member group with %s', (_name, header) => {
    const { markdown, description } = convert(page(`<div class="layout"><div class="c">${header}<div class="members">${MEMBERS}</div></div><div class="side"><nav><a href="/api/a">A</a></nav></div></div>`));
    expect(markdown.startsWith(`# Class Settings\n\n${LEAD}`)).toBe(true);
    expect(description).toBe(LEAD);
    expect(headings(markdown)).toHaveLength(9);
  });

  it('does not take in the navigation around the content, nor a site banner', () => {
    const links = Array.from({ length: 30 }, (_, i) => `<a href="/api/c${i}.html">Class number ${i}</a>`).join(' ');
    const aside = convert(page(`<div class="layout"><h1>Class Settings</h1><p>${LEAD}</p><div class="members">${MEMBERS}</div><div class="list">${links}</div></div>`));
    expect(aside.markdown).not.toContain('Class number');
    const banner = convert(page(`<div class="banner"><h1>Tally</h1><p>${LEAD}</p></div><div class="members">${MEMBERS}</div>`, 'Tally'));
    expect(banner.markdown).not.toContain(LEAD);
  });

  it('leaves a marked container that already follows its H1 as it was (Starlight)', () => {
    const { markdown } = convert(readFileSync(join(DIR, 'starlight.html'), 'utf8'), 'https://orbit.example/reference/path/');
    expect(markdown.startsWith('# Path\n\nThe `path` module provides utilities')).toBe(true);
    expect(markdown).not.toMatch(/Edit page|Previous|Next/);
  });
});
