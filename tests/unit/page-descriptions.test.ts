import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';
import { markdownDescription } from '@/lib/crawl/markdown-meta';
import { generateOutputs } from '@/lib/generate/generate';
import type { SourcePage } from '@/lib/generate/types';

// A description is the page's lead: never a member's text, a signature, or the title said again.
const TEXINFO = readFileSync(join(__dirname, '../fixtures/generators/texinfo-node.html'), 'utf8');
const ORIGIN = 'https://tally.example/manual';

function texinfoNode(node: string, file: string): SourcePage {
  const html = TEXINFO.replaceAll('Scanner Options (Tally Manual)', `${node} (Tally Manual)`);
  const url = `${ORIGIN}/${file}`;
  const page = convertHtml(html, url, linkedomAdapter);
  return { key: url, url, finalUrl: url, title: page.title, description: page.description, markdown: page.markdown, depth: 1, format: 'html', state: 'stored' };
}

// Haddock's shape: a module header, then each member as a definition line and its documentation.
const SIGNATURE = '<p class="src"><a id="v:newline" class="def">newline</a> :: (<a href="Text-Parser.html#t:MonadParser">MonadParser</a> e s m, <a href="Text-Stream.html#t:Token">Token</a> s ~ <a href="Data-Char.html#t:Char">Char</a>) =&gt; m (<a href="Text-Stream.html#t:Token">Token</a> s) <a href="src/Text.Parser.Char.html#newline" class="link">Source</a> <a href="#v:newline" class="selflink">#</a></p>';
const MEMBER_DOC = '<div class="doc"><p>Parse a newline character, and return it as the token the stream holds for it, whatever the stream.</p></div>';
const haddock = (description: string, definition = SIGNATURE) =>
  `<!doctype html><html><head><title>Text.Parser.Char</title></head><body><div id="content"><div id="module-header"><p class="caption">Text.Parser.Char</p></div>${description}` +
  `<div id="interface"><h1>Documentation</h1><div class="top">${definition}${MEMBER_DOC}</div></div></div></body></html>`;
const describe_ = (html: string) => convertHtml(html, 'https://hackage.example/Text-Parser-Char.html', linkedomAdapter).description;

describe('descriptions come from the page lead, never a member or a signature', () => {
  it('takes the module description before its members', () => {
    expect(describe_(haddock('<div id="description"><p class="caption">Description</p><div class="doc"><p>Commonly used character parsers, for streams of characters of any kind and size.</p></div></div>')))
      .toBe('Commonly used character parsers, for streams of characters of any kind and size.');
  });

  it('gives none rather than a signature or the member after it', () => {
    expect(describe_(haddock(''))).toBeUndefined();
  });

  it('gives none rather than the text after a definition line with its own anchor', () => {
    const bare = '<p class="src"><a id="v:newline" class="def">newline</a> <a href="src/Text.Parser.Char.html#newline" class="link">Source</a> <a href="#v:newline" class="selflink">#</a></p>';
    expect(describe_(haddock('<div class="doc"><p>Debugging helpers.</p></div>', bare))).toBeUndefined();
  });

  it('still takes prose whose words are links, and a Markdown lead before a signature only', () => {
    const linked = '<main><h1>Input</h1><p>See <a href="/a">Input Files</a> for where <a href="/t">Tally</a> looks (and why) before it counts the <a href="/w">words</a> of a file.</p></main>';
    expect(convertHtml(linked, 'https://tally.example/input.html', linkedomAdapter).description).toBe('See Input Files for where Tally looks (and why) before it counts the words of a file.');
    const signature = 'newline :: ([MonadParser](https://h.example/P.html#t:M) e s m, [Token](https://h.example/S.html#t:T) s ~ [Char](https://h.example/C.html#t:C)) => m ([Token](https://h.example/S.html#t:T) s) [Source](https://h.example/src/P.html)';
    expect(markdownDescription(`# Text.Parser.Char\n\n${signature}\n\nParse a newline character, and return it as the token the stream holds for it.`)).toBeUndefined();
    expect(markdownDescription(`# Tally\n\nTally counts words, lines and records (of any size) in files.\n\n${signature}`)).toBe('Tally counts words, lines and records (of any size) in files.');
    const bar = 'Next: [Introduction](https://t.example/Introduction.html), Previous: [(dir)](https://t.example/dir/), Up: [(dir)](https://t.example/dir/)';
    expect(markdownDescription(`${bar}\n\n# Tally\n\nThis manual documents the use of Tally 1.2.`)).toBe('This manual documents the use of Tally 1.2.');
    expect(markdownDescription('class [Chunk](https://h.example/#t:Chunk) chunk where [Source](https://h.example/src/C.html)\n\nData types that can be converted to numbers of either byte order.')).not.toMatch(/^class/);
  });

  it('never takes a description that only repeats the title and the manual\'s name', () => {
    const page = texinfoNode('Cxx', 'Cxx.html');
    const echo = { ...page, description: 'Cxx - Tally manual' };
    const { sections } = generateOutputs({ startUrl: `${ORIGIN}/Cxx.html`, pages: [echo], generatedAt: new Date('2026-11-26T00:00:00Z'), docsName: 'Tally' });
    expect(sections[0]?.entries[0]?.description).toMatch(/^See Input Files for where Tally looks for its input\./);
  });
});
