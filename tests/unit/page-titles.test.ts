import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';
import { generateOutputs } from '@/lib/generate/generate';
import { fileNameWords, titleOrHeading } from '@/lib/generate/site-titles';
import type { SourcePage } from '@/lib/generate/types';

// A title that is only a node, file or identifier name gives way to the page's own heading; a
// title a reader would write stays, whatever its heading says.
const TEXINFO = readFileSync(join(__dirname, '../fixtures/generators/texinfo-node.html'), 'utf8');
const ORIGIN = 'https://tally.example/manual';

/** The Texinfo 7 node fixture as another node: its file, `<title>`, meta description and heading. */
function texinfoNode(node: string, file: string, heading: string, manual = 'Tally Manual'): SourcePage {
  const html = TEXINFO.replaceAll('Scanner Options (Tally Manual)', `${node} (${manual})`).replace('3.2 Scanner Options', heading);
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
    ['a node of several words named like its file', 'Edwin Scheme Mode', 'https://f.example/manual/Edwin-Scheme-Mode.html', '8.3 Scheme Mode'],
    ['a node whose file name escapes its hyphen', 'Command-Line Options', 'https://f.example/manual/Command_002dLine-Options.html', '2.4 Startup switches'],
    ['a node named in other words than its section', 'Reduction of Operators', 'https://f.example/manual/Reduction-of-Operators.html', '4.2.4 Operator Reduction'],
    ['an item titled "Name in module" under "Kind module::Name"', 'Span in proc_macro', 'https://f.example/proc_macro/struct.Span.html', 'Struct proc_macro::Span'],
    ['an item whose kind is a word of its module', 'quote in proc_macro', 'https://f.example/proc_macro/macro.quote.html', 'Macro proc_macro::quote'],
    ['a name tied to its context by "to the"', 'Guide to the API', 'https://f.example/docs/api-guide.html', 'API Guide'],
  ])('takes the heading for %s', (_name, title, url, heading) => {
    expect(titleOrHeading(title, heading, ['Tally'], url)).toBe(heading);
  });

  it.each([
    ['a class under "Class X"', 'Document', 'https://f.example/api/org/Document.html', 'Class Document'],
    ['a CamelCase identifier sharing a word', 'ScannerOpts', 'https://f.example/api/opts.html', 'Scanner options'],
    ['a title of several words that is not its file name', 'Scanner Options', 'https://f.example/manual/options.html', '3.2 Options'],
    ['a file-named title that agrees with its heading', 'Scanner Options', 'https://f.example/manual/Scanner-Options.html', '3.2 Scanner Options'],
    ['a title naming more than its heading', 'Span in proc_macro', 'https://f.example/proc_macro/struct.Span.html', 'Struct Span'],
    ['a title whose other words are not connectives', 'Installing Tally on Linux', 'https://f.example/install.html', 'Installing on Linux'],
    ['a module under its own name', 'Data.List', 'https://f.example/Data-List.html', 'Data.List'],
    ['the site name on its home page', 'Tally', 'https://f.example/', 'Welcome'],
    ['a home page under the site name', 'Home', 'https://f.example/', 'Tally'],
    ['a heading that is only a number', 'EOF', 'https://f.example/EOF.html', '13'],
  ])('keeps %s', (_name, title, url, heading) => {
    expect(titleOrHeading(title, heading, ['Tally'], url)).toBe(title);
  });

  it.each([
    ['https://f.example/manual/Edwin-Scheme-Mode.html', ['edwin', 'scheme', 'mode']],
    ['https://f.example/manual/Command_002dLine-Options.html', ['command', 'line', 'options']],
    ['https://f.example/docs/Getting%20Started.htm', ['getting', 'started']],
    ['https://f.example/docs/', ['docs']],
    ['not a url', []],
  ])('reads the words of the file name of %s', (url, expected) => {
    expect(fileNameWords(url)).toEqual(expected);
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

  it('keeps a manual name with a colon in its parentheses whole: no title is cut inside them', () => {
    // Texinfo's shape when the manual's title has a subtitle: "Node (tally: the tiny word counter)".
    const manual = 'tally: the tiny word counter';
    const pages = [
      { ...texinfoNode('Top', 'index.html', 'tally', manual), depth: 0 },
      texinfoNode('Memory Usage', 'Memory-Usage.html', '2.3 Memory Usage', manual),
      texinfoNode('Thread Safety', 'Thread-Safety.html', '2.4 Thread Safety', manual),
      texinfoNode('Missing Features', 'Missing-Features.html', '3 Missing Features', manual),
    ];
    const out = generateOutputs({ startUrl: `${ORIGIN}/index.html`, pages, generatedAt: new Date('2026-11-26T00:00:00Z') });
    const titles = out.sections.flatMap((section) => section.entries.map((entry) => entry.title));
    expect(titles.filter((t) => t.includes('(') !== t.includes(')'))).toEqual([]);
    expect(titles).toEqual(expect.arrayContaining(['Memory Usage', 'Thread Safety', 'Missing Features']));
    expect(out.llmsTxt.split('\n')[0]).not.toMatch(/\)$/);
  });

  it('lists a Texinfo node named like its file by its heading when the two differ', () => {
    const pages = [
      texinfoNode('Edwin Scheme Mode', 'Edwin-Scheme-Mode.html', '8.3 Scheme Mode'),
      texinfoNode('Scanner Options', 'Scanner-Options.html', '3.2 Scanner Options'),
      texinfoNode('Performance', 'Performance.html', '17 Performance Considerations'),
    ];
    const { sections } = generateOutputs({ startUrl: `${ORIGIN}/Performance.html`, pages, generatedAt: new Date('2026-11-26T00:00:00Z') });
    const titles = sections.flatMap((section) => section.entries.map((entry) => entry.title));
    expect(titles.sort()).toEqual(['8.3 Scheme Mode', 'Performance', 'Scanner Options'].sort());
  });

  it('lists API items titled "Name in module" by their "Kind module::Name" headings', () => {
    // rustdoc's shape: `<title>Span in proc_macro - Rust</title>`, the H1 with the item's kind and path.
    const item = (kind: string, name: string, file: string): SourcePage => {
      const url = `https://f.example/proc_macro/${file}`;
      const html = `<!doctype html><html><head><title>${name} in proc_macro - Rust</title></head><body>
        <nav class="sidebar"><a href="index.html">proc_macro</a></nav>
        <main><h1><span>${kind} <a href="index.html">proc_macro</a>::<a href="#">${name}</a></span></h1>
        <p>The ${name} item of the proc_macro crate, documented here with enough words to be a lead paragraph.</p></main>
        </body></html>`;
      const page = convertHtml(html, url, linkedomAdapter);
      return { key: url, url, finalUrl: url, title: page.title, description: page.description, markdown: page.markdown, depth: 1, format: 'html', state: 'stored' };
    };
    const pages = [item('Struct', 'Span', 'struct.Span.html'), item('Enum', 'Delimiter', 'enum.Delimiter.html'), item('Macro', 'quote', 'macro.quote.html'), item('Trait', 'MultiSpan', 'trait.MultiSpan.html')];
    const { sections } = generateOutputs({ startUrl: 'https://f.example/proc_macro/struct.Span.html', pages, generatedAt: new Date('2026-11-26T00:00:00Z') });
    const titles = sections.flatMap((section) => section.entries.map((entry) => entry.title));
    expect(titles.sort()).toEqual(['Struct proc_macro::Span', 'Enum proc_macro::Delimiter', 'Macro proc_macro::quote', 'Trait proc_macro::MultiSpan'].sort());
  });
});
