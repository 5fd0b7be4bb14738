import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';
import { generateOutputs } from '@/lib/generate/generate';
import { titleOrHeading } from '@/lib/generate/site-titles';
import type { SourcePage } from '@/lib/generate/types';

// A title that is only a node, file or identifier name gives way to the page's own heading; a
// title a reader would write stays, whatever its heading says.
const TEXINFO = readFileSync(join(__dirname, '../fixtures/generators/texinfo-node.html'), 'utf8');
const ORIGIN = 'https://tally.example/manual';

/** The Texinfo 7 node fixture as another node: its file, `<title>`, meta description and heading. */
function texinfoNode(node: string, file: string, heading: string): SourcePage {
  const html = TEXINFO.replaceAll('Scanner Options (Tally Manual)', `${node} (Tally Manual)`).replace('3.2 Scanner Options', heading);
  const url = `${ORIGIN}/${file}`;
  const page = convertHtml(html, url, linkedomAdapter);
  return { key: url, url, finalUrl: url, title: page.title, description: page.description, markdown: page.markdown, depth: 1, format: 'html', state: 'stored' };
}

describe('the title comes from the H1 where <title> is a node or file name', () => {
  it.each([
    ['a Texinfo node named like its file', 'Cxx', 'https://f.example/manual/Cxx.html', '18 Generating C++ Scanners'],
    ['an all-capitals node', 'EOF', 'https://f.example/manual/End_002dof_002dfile.html', '13 End-of-File Rules'],
    ['a file name', 'intro.html', 'https://f.example/docs/intro.html', 'Introducing Tally'],
    ['a README', 'README', 'https://f.example/docs/', 'Tally: count words, lines and records'],
    ['a CamelCase identifier', 'ScannerOpts', 'https://f.example/api/opts.html', 'Tuning the word splitter'],
    ['a Texinfo top node', 'Top', 'https://f.example/manual/index.html', 'MIT/GNU Scheme'],
  ])('takes the heading for %s', (_name, title, _url, heading) => {
    expect(titleOrHeading(title, heading)).toBe(heading);
  });

  it.each([
    ['a class under "Class X"', 'Document', 'https://f.example/api/org/Document.html', 'Class Document'],
    ['a CamelCase identifier sharing a word', 'ScannerOpts', 'https://f.example/api/opts.html', 'Scanner options'],
    ['a title of several words', 'Scanner Options', 'https://f.example/manual/Scanner-Options.html', '3.2 Options'],
    ['a module under its own name', 'Data.List', 'https://f.example/Data-List.html', 'Data.List'],
    ['the site name on its home page', 'Tally', 'https://f.example/', 'Welcome'],
    ['a home page under the site name', 'Home', 'https://f.example/', 'Tally'],
    ['a heading that is only a number', 'EOF', 'https://f.example/EOF.html', '13'],
  ])('keeps %s', (_name, title, _url, heading) => {
    expect(titleOrHeading(title, heading, ['Tally'])).toBe(title);
  });

  it('lists Texinfo nodes by their headings, once the manual name is off their titles', () => {
    const pages = [
      texinfoNode('Cxx', 'Cxx.html', '18 Generating C++ Scanners'),
      texinfoNode('EOF', 'EOF.html', '13 End-of-File Rules'),
      texinfoNode('Scanner Options', 'Scanner-Options.html', '3.2 Scanner Options'),
      texinfoNode('Performance', 'Performance.html', '17 Performance Considerations'),
    ];
    const { sections } = generateOutputs({ startUrl: `${ORIGIN}/Cxx.html`, pages, generatedAt: new Date('2026-11-26T00:00:00Z') });
    const titles = sections.flatMap((section) => section.entries.map((entry) => entry.title));
    expect(titles.sort()).toEqual(['18 Generating C++ Scanners', '13 End-of-File Rules', 'Performance', 'Scanner Options'].sort());
  });
});
