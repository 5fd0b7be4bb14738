/**
 * Page Markdown inside llms-full.txt: the file's `#` is the site and each `##` is one page, so a
 * page's own headings move down until none is H1 or H2. Code blocks and front matter are copied
 * untouched: a `# comment` in a shell snippet is not a heading.
 */
import { oneLine } from './text';

const ATX = /^( {0,3})(#{1,6})(?=[ \t]|$)(.*)$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// Lines that cannot be the text of a setext heading: they are list items, quotes, tables, code.
const NOT_PARAGRAPH = /^(?: {4,}|\t|\s*(?:[-*+]|\d+[.)])(?:\s|$)|\s*>|\s*\|)/;

type Kind = 'text' | 'blank' | 'code' | 'atx' | 'setext-text' | 'setext-line';
interface Line { raw: string; kind: Kind; level: number }

/** Labels lines: fenced code and front matter are 'code'; headings get their level. `open` is a fence left unclosed. */
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

/**
 * Shifts all headings by the same amount so the highest becomes `###` (`#` → `###`, `##` → `###`
 * when the page has no `#`, …), keeping their relative order; levels past 6 stay at 6. Setext
 * headings become ATX ones. A first heading that only repeats `title` is dropped, because the
 * page's `## title` already stands above it. A code fence the page leaves open is closed.
 */
export function demoteHeadings(markdown: string, title?: string): string {
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
