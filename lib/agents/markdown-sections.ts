/**
 * A page's Markdown cut at its headings: what `search_docs` indexes (one chunk a heading) and what
 * `read_page` returns for one section. Fenced code is never a heading (a `# comment` in a shell
 * snippet), and a line of `=` or `-` under a line of text is (CommonMark's setext headings, which
 * Markdown twins use). Loops over lines with anchored patterns only: the text is page input.
 */

export interface MarkdownSection {
  /** The heading's text, without the `#` marks and trailing `#`s; '' for the text before the first heading. */
  heading: string;
  /** 1–6; 0 for the text before the first heading. */
  level: number;
  /** The headings above this one, outermost first ("Tutorial", "Lists"), for a result's place in the page. */
  trail: string[];
  /** First line (the heading line) and the line after the section's own text, before any sub-heading. */
  start: number;
  /** Where the section ends with its sub-sections: the next heading of the same or a higher level. */
  end: number;
  /** The section's own text up to its first sub-heading, heading line included. */
  text: string;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t](.*))?$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
// A line that cannot be a setext heading's text: a list item, a quote, a table row, indented code.
const NOT_PARAGRAPH = /^(?: {4,}|\t|\s*(?:[-*+]|\d+[.)])(?:\s|$)|\s*>|\s*\|)/;

/** `## Title ##` → "Title": the closing run of `#` goes when a space stands before it. */
function atxText(raw: string): string {
  let text = raw.trim();
  let end = text.length;
  while (end > 0 && text.charAt(end - 1) === '#') end--;
  if (end < text.length && (end === 0 || text.charAt(end - 1) === ' ' || text.charAt(end - 1) === '\t')) text = text.slice(0, end).trim();
  return plainHeading(text);
}

/**
 * A heading as a reader types it: link syntax reduced to its text, no code marks, no backslash
 * escapes ("1\\. Command line" → "1. Command line", "The [`json`](…) module" → "The json module").
 * A loop, as the text is page input.
 */
export function plainHeading(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text.charAt(i);
    if (char === '\\' && i + 1 < text.length) {
      out += text.charAt(i + 1);
      i += 2;
      continue;
    }
    if (char === ']' && text.charAt(i + 1) === '(') {
      const close = text.indexOf(')', i + 2);
      if (close > 0) {
        i = close + 1;
        continue;
      }
    }
    if (char !== '`' && char !== '[' && char !== ']' && char !== '*') out += char;
    i++;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Each heading line's index and level (fence-aware). */
export function headingLines(lines: string[]): Array<{ line: number; level: number; text: string; underline: boolean }> {
  const found: Array<{ line: number; level: number; text: string; underline: boolean }> = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const marker = FENCE.exec(raw)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && raw.trim() === marker) fence = null;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    const atx = ATX.exec(raw);
    if (atx) {
      found.push({ line: i, level: atx[1]?.length ?? 1, text: atxText(atx[2] ?? ''), underline: false });
      continue;
    }
    const next = lines[i + 1];
    const underline = next === undefined ? null : SETEXT.exec(next);
    const previous = lines[i - 1];
    const startsParagraph = previous === undefined || previous.trim() === '';
    if (underline && raw.trim() !== '' && startsParagraph && !NOT_PARAGRAPH.test(raw)) {
      found.push({ line: i, level: underline[1]?.startsWith('=') ? 1 : 2, text: plainHeading(raw), underline: true });
      i++;
    }
  }
  return found;
}

/** The page's sections, in order: the text before the first heading (when there is any) and one per heading. */
export function markdownSections(markdown: string): MarkdownSection[] {
  const lines = markdown.split(/\r\n|\r|\n/);
  const headings = headingLines(lines);
  const sections: MarkdownSection[] = [];
  const firstLine = headings[0]?.line ?? lines.length;
  const lead = lines.slice(0, firstLine).join('\n').trim();
  if (lead) sections.push({ heading: '', level: 0, trail: [], start: 0, end: firstLine, text: lead });
  const open: Array<{ level: number; text: string }> = [];
  headings.forEach((heading, index) => {
    while (open.length && (open[open.length - 1]?.level ?? 0) >= heading.level) open.pop();
    const trail = open.map((h) => h.text);
    open.push({ level: heading.level, text: heading.text });
    const ownEnd = headings[index + 1]?.line ?? lines.length;
    let end = lines.length;
    for (let j = index + 1; j < headings.length; j++) {
      const later = headings[j];
      if (later && later.level <= heading.level) {
        end = later.line;
        break;
      }
    }
    sections.push({ heading: heading.text, level: heading.level, trail, start: heading.line, end, text: lines.slice(heading.line, ownEnd).join('\n').trim() });
  });
  return sections;
}

/** The whole section under `section`'s heading, sub-sections included, as Markdown. */
export function sectionText(markdown: string, section: MarkdownSection): string {
  return markdown.split(/\r\n|\r|\n/).slice(section.start, section.end).join('\n').trim();
}

const fold = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The section a reader means by `wanted`: its heading exactly (letter case and spacing aside), else
 * the one heading that contains it. Several that contain it: the first, as a page reads top down.
 */
export function findSection(sections: MarkdownSection[], wanted: string): MarkdownSection | undefined {
  const key = fold(wanted.replace(/^#+\s*/, ''));
  if (!key) return undefined;
  const headed = sections.filter((s) => s.level > 0);
  return headed.find((s) => fold(s.heading) === key) ?? headed.find((s) => fold(s.heading).includes(key));
}
