/**
 * demoteHeadings reads most lines by their first character, splits on `\n` alone when the text
 * has no carriage return, and returns the text itself when nothing moves. It is checked here
 * against the plain definition (every line through the patterns, the text split at every kind of
 * line break, every line rebuilt) on generated Markdown made of the lines where a shortcut could go
 * wrong: headings indented by up to four spaces, setext underlines, fences open and closed, front
 * matter, blank lines of spaces and tabs or non-ASCII spaces, `\r\n` and lone `\r` breaks.
 */
import { describe, expect, it } from 'vitest';
import { demoteHeadings } from '@/lib/generate/demote-headings';
import { oneLine } from '@/lib/generate/text';

// The definition, as the generator had it before the shortcuts.
const ATX = /^( {0,3})(#{1,6})(?=[ \t]|$)(.*)$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// Lines that cannot be the text of a setext heading: they are list items, quotes, tables, code.
const NOT_PARAGRAPH = /^(?: {4,}|\t|\s*(?:[-*+]|\d+[.)])(?:\s|$)|\s*>|\s*\|)/;

type Kind = 'text' | 'blank' | 'code' | 'atx' | 'setext-text' | 'setext-line';
interface Line { raw: string; kind: Kind; level: number }

function classify(markdown: string): { lines: Line[]; open: string | null } {
  const lines: Line[] = markdown.split(/\r\n|\r|\n/).map((raw) => ({ raw, kind: 'text', level: 0 }));
  let fence: string | null = null;
  // YAML front matter (Markdown twins often start with it) ends on a `---` that is no setext underline.
  let frontMatter = lines[0]?.raw.trim() === '---' && lines.slice(1).some((l) => l.raw.trim() === '---');
  lines.forEach((line, index) => {
    if (frontMatter) {
      line.kind = 'code';
      if (index > 0 && line.raw.trim() === '---') frontMatter = false;
      return;
    }
    const marker = FENCE.exec(line.raw)?.[1];
    if (fence !== null) {
      line.kind = 'code';
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.raw.trim() === marker) fence = null;
      return;
    }
    if (marker) {
      line.kind = 'code';
      fence = marker;
      return;
    }
    if (line.raw.trim() === '') {
      line.kind = 'blank';
      return;
    }
    const atx = ATX.exec(line.raw);
    if (atx) {
      line.kind = 'atx';
      line.level = atx[2]?.length ?? 1;
      return;
    }
    const previous = lines[index - 1];
    const underline = SETEXT_UNDERLINE.exec(line.raw)?.[1];
    if (underline && previous?.kind === 'text' && !NOT_PARAGRAPH.test(previous.raw)) {
      previous.kind = 'setext-text';
      previous.level = underline[0] === '=' ? 1 : 2;
      line.kind = 'setext-line';
    }
  });
  return { lines, open: fence };
}

function headingTextOf(line: Line): string {
  const text = line.kind === 'atx' ? (ATX.exec(line.raw)?.[3] ?? '') : line.raw;
  return oneLine(text).replace(/(?<!\s)\s+#+$/, '');
}

function referenceDemote(markdown: string, title?: string): string {
  const { lines, open } = classify(markdown);
  const firstContent = lines.findIndex((line) => line.kind !== 'blank');
  const first = lines[firstContent];
  const dropFirst = first !== undefined && title !== undefined && (first.kind === 'atx' || first.kind === 'setext-text')
    && headingTextOf(first).toLowerCase() === oneLine(title).toLowerCase();
  // The shift is measured without the dropped title, so "# T / ## A" gives "### A", not "#### A".
  let top = 7;
  lines.forEach((line, index) => {
    if (dropFirst && index === firstContent) return;
    if ((line.kind === 'atx' || line.kind === 'setext-text') && line.level < top) top = line.level;
  });
  const shift = top <= 6 ? Math.max(0, 3 - top) : 0;
  const out: string[] = [];
  lines.forEach((line, index) => {
    if (dropFirst && (index === firstContent || (first.kind === 'setext-text' && index === firstContent + 1))) return;
    if (line.kind === 'setext-line') return;
    if (line.kind === 'atx' || line.kind === 'setext-text') {
      const hashes = '#'.repeat(Math.min(6, line.level + shift));
      out.push(line.kind === 'atx' && shift === 0 ? line.raw : `${hashes} ${headingTextOf(line)}`.trimEnd());
      return;
    }
    out.push(line.raw);
  });
  // An unclosed fence would swallow every page after this one in llms-full.txt.
  if (open !== null) out.push(open);
  return out.join('\n').trim();
}

function generator(seed: number) {
  let state = seed;
  const random = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor(state / 65536) % n;
  };
  return { random, pick: <T>(items: readonly T[]): T => items[random(items.length)] as T };
}

const LINES = [
  'Title', 'Some text here.', 'ünicode first', '\u00a0nbsp first', '# Title', '## Section', '###### Six', '####### Seven', '#NoSpace', '   # Three spaces',
  '    # Four spaces', '\t# Tab', '# Closing #', '## Trailing ##  ', '#', '===', '---', '   ---', '- item', '-item', '* star', '1. one', '> quote', '| a | b |',
  '```', '```js', '~~~', '````', '   ```', '    ```', '`code` start', '~tilde', '=equals', '', ' ', '   ', '    ', '\t', '\u00a0', '\u3000 ', 'text #',
];
const BREAKS = ['\n', '\n', '\n', '\n', '\r\n', '\r'];

function page(random: (n: number) => number, pick: <T>(items: readonly T[]) => T): string {
  const lines: string[] = [];
  for (let l = 0; l < random(16); l++) lines.push(pick(LINES));
  const crlf = random(4) === 0;
  let text = lines.map((line, i) => (i === 0 ? line : `${crlf ? pick(BREAKS) : '\n'}${line}`)).join('');
  if (random(5) === 0) text = `---\ntitle: x\n---\n${text}`;
  return text;
}

describe('demoteHeadings', () => {
  it('gives what the line-by-line definition gives', () => {
    const { random, pick } = generator(11);
    const titles = [undefined, 'Title', 'Section', 'Closing', 'Six'];
    let moved = 0;
    for (let n = 0; n < 20000; n++) {
      const markdown = page(random, pick);
      const title = pick(titles);
      const expected = referenceDemote(markdown, title);
      if (expected !== markdown.trim()) moved++;
      expect(demoteHeadings(markdown, title), JSON.stringify([markdown, title])).toBe(expected);
    }
    // Both kinds of page came up: ones rewritten and ones returned as they were.
    expect(moved).toBeGreaterThan(1000);
    expect(moved).toBeLessThan(19000);
  });
});
