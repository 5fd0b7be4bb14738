/**
 * Markdown reading shared by the quality metrics: which lines are prose, which are headings, which
 * are code. Code fences (``` and ~~~) and YAML front matter are never prose and never headings: a
 * `# comment` in a shell snippet is not an H1.
 */

export interface MdLine {
  /** The line as written. */
  raw: string;
  /** 0-based line number. */
  index: number;
  kind: 'text' | 'blank' | 'code' | 'heading';
  /** Heading level 1–6 (ATX `#`, or setext `===` → 1 / `---` → 2); 0 otherwise. */
  level: number;
  /** Heading text without the leading `#` markers; '' otherwise. */
  text: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
// Lines that cannot be a setext heading's text: list items, quotes, tables, indented code.
const NOT_PARAGRAPH = /^(?: {4,}|\t|\s*(?:[-*+]|\d+[.)])(?:\s|$)|\s*>|\s*\|)/;

/**
 * Classifies every line. For a setext heading the text line becomes the heading and its underline
 * becomes 'blank' (it carries no content of its own). An unclosed fence runs to the end.
 */
export function classifyLines(markdown: string): MdLine[] {
  const lines: MdLine[] = markdown.split(/\r\n|\r|\n/).map((raw, index) => ({ raw, index, kind: 'text', level: 0, text: '' }));
  let fence: string | null = null;
  let frontMatter = lines[0]?.raw.trim() === '---' && lines.slice(1).some((l) => l.raw.trim() === '---');
  for (const line of lines) {
    if (frontMatter) {
      line.kind = 'code';
      if (line.index > 0 && line.raw.trim() === '---') frontMatter = false;
      continue;
    }
    const marker = FENCE.exec(line.raw)?.[1];
    if (fence !== null) {
      line.kind = 'code';
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.raw.trim() === marker) fence = null;
      continue;
    }
    if (marker) {
      line.kind = 'code';
      fence = marker;
      continue;
    }
    if (line.raw.trim() === '') {
      line.kind = 'blank';
      continue;
    }
    const atx = ATX.exec(line.raw);
    if (atx) {
      line.kind = 'heading';
      line.level = atx[1]?.length ?? 1;
      // A closing sequence ("## Title ##") is kept: no converter writes one, so a trailing " #" is a permalink sign.
      line.text = (atx[2] ?? '').trim();
      continue;
    }
    const under = SETEXT.exec(line.raw);
    const prev = lines[line.index - 1];
    if (under && prev && prev.kind === 'text' && !NOT_PARAGRAPH.test(prev.raw)) {
      prev.kind = 'heading';
      prev.level = under[1]?.startsWith('=') ? 1 : 2;
      prev.text = prev.raw.trim();
      line.kind = 'blank';
    }
  }
  return lines;
}

/** Headings outside code, in order. */
export function headings(markdown: string): MdLine[] {
  return classifyLines(markdown).filter((l) => l.kind === 'heading');
}

/** Lower-case word tokens, exactly as tests/unit/convert-real-docs.test.ts counts them (`\w+`). */
export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(/\w+/g) ?? [];
}

/** Words of running text: Markdown link targets, images' URLs and emphasis marks don't count. */
export function proseWords(line: string): string[] {
  return stripLinkTargets(line)
    .replace(/[`*_~[\]()#>|]/g, ' ')
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
}

/** `[text](url)` → `[text]()`: the same chrome line links to a different URL on every page. */
export function stripLinkTargets(line: string): string {
  return line.replace(/\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, ']()');
}

/** Median of numbers (NaN for none). */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
