import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';

const page = (content: string) => `<!doctype html><html><head><title>Contributing</title></head><body><main>${content}</main></body></html>`;
const describeOf = (content: string) => convertHtml(page(content), 'https://docs.example.com/contributing.html', linkedomAdapter).description;
const SECTION = '<h2>Support questions</h2><p>Please do not use the issue tracker for this. The issue tracker is a tool to address bugs and feature requests in Tally itself.</p>';

describe("the lead ends at the page's first section heading", () => {
  it("is the page's short opening sentence, not the first long paragraph of a section below it", () => {
    expect(describeOf(`<h1>How to contribute to Tally</h1><p>Thank you for considering contributing to Tally!</p>${SECTION}`)).toBe('Thank you for considering contributing to Tally!');
  });

  it('still reads on past a heading when nothing before it reads alone (a label, a list intro)', () => {
    expect(describeOf(`<h1>How to contribute</h1><p>Note: read this.</p>${SECTION}`)).toMatch(/^Please do not use the issue tracker/);
    expect(describeOf(`<h1>How to contribute</h1>${SECTION}`)).toMatch(/^Please do not use the issue tracker/);
  });
});
