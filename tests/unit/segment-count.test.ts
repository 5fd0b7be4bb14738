import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { paragraphsOf, segmentCounter, segmentsOf } from '@/lib/generate/segment-count';
import { leanMarkdown } from '@/lib/generate/lean-links';
import { countTokens } from '@/lib/tokens';
import { renderLlmsFull } from '@/lib/generate/render';
import { assembleFull, countFull } from '@/lib/generate/full-text';
import { nodeDocsDir } from '../fixtures/real-docs';

// Texts where a careless cut would join or split o200k pre-tokens differently.
const TRICKY = [
  'end of a sentence.\n/usr/bin/env is a path on its own line',
  'a list:\n  - item one\n  - [link](https://docs.example.test/a/b.html#x-y), [[1]](../c.html#id1)\n\n  \n   indented\n\tcode',
  "it's, they're and we'll: contractions at a cut\nlines\r\nwith CRLF\r\n",
  'spaces   between    words\u00a0and\u2003Unicode spaces\n\u3000ideographic space, 漢字の文, emoji 🎉 here',
  'numbers 12345678 and v3.11.2, 1,000,000; x=y+z*2 // comment\n/* block */',
  'special tokens as text: <|endoftext|> and <|im_start|>user',
  'trailing spaces   \n\n\n',
  '```python\ndef f(x):\n    return x  # two spaces\n```\n',
  'CamelCaseWords andALLCAPS MixedCase123 under_score snake_case kebab-case',
];

describe('segment counts', () => {
  it('add up to the count of the whole text', () => {
    for (const text of TRICKY) {
      const segments = segmentsOf(text);
      expect(segments.join('')).toBe(text);
      expect(segments.reduce((sum, s) => sum + countTokens(s), 0), JSON.stringify(text)).toBe(countTokens(text));
    }
  });

  it('count real pages and their lean-link variants exactly, each distinct segment once', () => {
    // The Node.js docs' Markdown sources: prose, tables, code, links of every kind.
    const dir = nodeDocsDir();
    const files = readdirSync(dir).filter((f) => f.endsWith('.md.gz')).slice(0, 12);
    expect(files.length).toBeGreaterThan(5);
    const count = segmentCounter();
    const context = { origin: 'https://nodejs.org', inFile: () => true };
    for (const file of files) {
      const markdown = gunzipSync(readFileSync(`${dir}/${file}`)).toString('utf8');
      const absolute = markdown.replace(/\]\((?!https?:)([^)\s]+)\)/g, '](https://nodejs.org/api/$1)');
      const lean = leanMarkdown(absolute, `https://nodejs.org/api/${file.replace(/\.md\.gz$/, '.html')}`, context);
      for (const text of [`${absolute}\n\n`, `${lean}\n\n`]) expect(count(text), file).toBe(countTokens(text));
    }
  });
});

describe('paragraph cuts', () => {
  // Characters around a blank line that decide whether a cut is safe: newlines, spaces, tabs, `/`,
  // a Unicode space, punctuation after a letter.
  const ALPHABET = ['\n', '\n', '\n\n', ' ', '  ', '\t', '/', '\u00a0', 'a', 'Z', '9', '.', ',', '(', ')', '#', "'", '-', '\r'];
  // A fixed seed: the same texts on every run, and a failure names the text.
  let seed = 12345;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const texts = [...TRICKY, ...Array.from({ length: 3000 }, () => Array.from({ length: 1 + random(40) }, () => ALPHABET[random(ALPHABET.length)]).join(''))];

  it('split a text only where its segments split, into the same segments', () => {
    let cut = 0;
    for (const text of texts) {
      const paragraphs = paragraphsOf(text);
      expect(paragraphs.join(''), JSON.stringify(text)).toBe(text);
      expect(paragraphs.flatMap(segmentsOf), JSON.stringify(text)).toEqual(segmentsOf(text));
      if (paragraphs.length > 1) cut++;
    }
    // The texts exercise the cut, not only texts with no blank line.
    expect(cut).toBeGreaterThan(300);
  });

  it('count a text the same whether its paragraphs were counted before or not', () => {
    const count = segmentCounter();
    const fresh = (text: string) => segmentCounter()(text);
    for (const text of texts) expect(count(text), JSON.stringify(text)).toBe(fresh(text));
    // A paragraph counted in one text and found again in another.
    const a = 'Intro text.\n\nShared paragraph, word for word.\n\nEnd of a.';
    const b = 'Other intro.\n\nShared paragraph, word for word.\n\n/path after a blank line';
    expect(count(a)).toBe(countTokens(a));
    expect(count(b)).toBe(countTokens(b));
  });
});

describe('llms-full.txt counts from pieces', () => {
  // A URL ending in punctuation and a body starting with `/`: o200k's punctuation pre-token
  // (`[^\s\p{L}\p{N}]+[\r\n/]*`) runs from the URL over the blank line into the body.
  const urls = ['https://docs.example.test/a/', 'https://docs.example.test/a-', 'https://docs.example.test/a#x-', 'https://docs.example.test/a.html'];
  const bodies = ['/usr/bin is a path', '/* a comment */ then code', '// note', 'Plain words', '- a list item'];
  const cases = urls.flatMap((url) => bodies.map((body) => ({ url, body })));

  it('equal the count of the whole file, whatever ends the Source URL and starts the body', () => {
    for (const { url, body } of cases) {
      const pages = [
        { title: 'First', url, markdown: body },
        { title: 'Second', url: 'https://docs.example.test/b', markdown: 'The end.' },
      ];
      const { text, tokens } = renderLlmsFull({ title: 'Site', summary: 'Docs.' }, pages, countTokens);
      expect(tokens, JSON.stringify({ url, body })).toBe(countTokens(text));
      const parts = pages.map((p, i) => ({ key: String(i), title: p.title, url: p.url, body: p.markdown }));
      const fast = countFull({ title: 'Site', summary: 'Docs.' }, parts, countTokens, (part) => countTokens(`${part.body}\n\n`));
      expect(fast, JSON.stringify({ url, body })).toBe(countTokens(assembleFull({ title: 'Site', summary: 'Docs.' }, parts)));
    }
  });
});
