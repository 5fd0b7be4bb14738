/**
 * Pieces of llms-full.txt. The generator writes the site's llms-full.txt once; every other
 * full-text file (a section's llms-full.txt, a context pack) is cut from it page by page, so a
 * page reads the same everywhere and nothing is converted twice. The index says where each page's
 * body is in the site's file; files are assembled in exactly the format `renderLlmsFull` writes.
 */
import { textFingerprint } from '../hash';
import { bodySplitsCleanly, headLines, type FileHead } from './render';
import { headingLine } from './text';
import type { FullIndexEntry } from '../store/records/generate';
import type { LlmsSectionModel } from './types';

/** Stored with each version's files, so the store holds its shape (lib/store/records/generate.ts). */
export type { FullIndexEntry };

/** One page as it goes into a full-text file. */
export interface FullPart {
  key: string;
  title: string;
  url: string;
  body: string;
}

/**
 * Finds each listed page of `sections` in the site's llms-full.txt, in file order. Pages the file
 * leaves out (aggregates, Optional when the user chose so) are simply not in the index. The search
 * is for the page's exact `## title` + `Source: url` lines, from where the previous page ended.
 */
export function indexFullText(text: string, sections: LlmsSectionModel[]): FullIndexEntry[] {
  const index: FullIndexEntry[] = [];
  let from = 0;
  const found: Array<{ key: string; title: string; url: string; link: string; start: number; headerEnd: number }> = [];
  for (const entry of sections.flatMap((section) => section.entries)) {
    const header = `## ${headingLine(entry.title, entry.pageUrl)}\nSource: ${entry.pageUrl}\n`;
    const at = text.indexOf(`\n${header}`, Math.max(0, from - 1));
    if (at < 0) continue;
    found.push({ key: entry.key, title: entry.title, url: entry.pageUrl, link: entry.url, start: at + 1, headerEnd: at + 1 + header.length });
    from = at + 1 + header.length;
  }
  found.forEach((page, i) => {
    // A page's part ends where the newline joining it to the next part starts (the last: the file's end).
    const end = i + 1 < found.length ? (found[i + 1]?.start ?? text.length) - 1 : text.length;
    const hasBody = end > page.headerEnd + 1;
    // The part is header, blank line, body, one newline.
    const bodyStart = hasBody ? page.headerEnd + 1 : page.headerEnd;
    const bodyEnd = hasBody ? Math.max(bodyStart, end - 1) : bodyStart;
    index.push({ key: page.key, title: page.title, url: page.url, ...(page.link !== page.url ? { link: page.link } : {}), bodyStart, bodyEnd });
  });
  return index;
}

/** The page's body as it is in the site's llms-full.txt. */
export function bodyOf(text: string, entry: FullIndexEntry): string {
  return text.slice(entry.bodyStart, entry.bodyEnd);
}

function partText(part: FullPart): string {
  return `## ${headingLine(part.title, part.url)}\nSource: ${part.url}\n${part.body ? `\n${part.body}\n` : ''}`;
}

/** A full-text file: the head, then each page under `## title` and its `Source:` line (the llms-full.txt format). */
export function assembleFull(head: FileHead, parts: FullPart[], preamble = ''): string {
  const headText = headLines(head).join('\n') + preamble;
  return `${[headText, ...parts.map(partText)].join('\n').trimEnd()}\n`;
}

/** What `fullTextPieces` counted: once its last piece is taken (`done`), the file's length, exact count and pages. */
export interface FullTotals {
  chars: number;
  tokens: number;
  pages: number;
  done: boolean;
}

/**
 * `assembleFull(head, parts, preamble)` piece by piece (the pieces joined are exactly that text),
 * counted as they go: once the last piece is taken, `totals` holds the text's length and the
 * count `countFull` gives (the same sums, in the same order). Each part is taken from `parts` only
 * when its piece is due, so a file's parts (every page's body with its links made lean, as much
 * text as the file) need never be held at once. Every piece but the last ends its own text (a part
 * starts with `## `), so only the last is trimmed; one part is held back to know which is last.
 */
export function* fullTextPieces(head: FileHead, parts: Iterable<FullPart>, count: (text: string) => number, bodyTokens: (part: FullPart) => number, totals: FullTotals, preamble = ''): Generator<string> {
  const headText = headLines(head).join('\n') + preamble;
  const piece = (text: string, part: FullPart | undefined, last: boolean): string => {
    if (last || !part || !bodySplitsCleanly(part.body)) totals.tokens += count(last ? `${text.trimEnd()}\n` : `${text}\n`);
    else totals.tokens += count(text.slice(0, text.length - part.body.length - 1)) + bodyTokens(part);
    if (part) totals.pages++;
    const out = last ? `${part ? '\n' : ''}${text.trimEnd()}\n` : part ? `\n${text}` : text;
    totals.chars += out.length;
    return out;
  };
  let pending: { text: string; part?: FullPart } = { text: headText };
  for (const part of parts) {
    yield piece(pending.text, pending.part, false);
    pending = { text: partText(part), part };
  }
  yield piece(pending.text, pending.part, true);
  totals.done = true;
}

/**
 * The exact o200k count of `assembleFull(head, parts, preamble)` without tokenizing the bodies
 * again: `bodyTokens(part)` is the count of `${body}\n\n`, which the caller caches. It is exact for
 * the reason given at `renderLlmsFull`: no pre-token joins a newline run to the non-space after it,
 * so the file splits cleanly before each `## ` and before each body that `bodySplitsCleanly`.
 */
export function countFull(head: FileHead, parts: FullPart[], count: (text: string) => number, bodyTokens: (part: FullPart) => number, preamble = ''): number {
  let tokens = 0;
  // One piece at a time (the head, then each part's text): a site's whole file is never built here.
  for (let i = 0; i <= parts.length; i++) {
    const part = parts[i - 1];
    const piece = part ? partText(part) : headLines(head).join('\n') + preamble;
    const last = i === parts.length;
    if (last || !part || !bodySplitsCleanly(part.body)) {
      tokens += count(last ? `${piece.trimEnd()}\n` : `${piece}\n`);
      continue;
    }
    tokens += count(piece.slice(0, piece.length - part.body.length - 1)) + bodyTokens(part);
  }
  return tokens;
}

/** A body's fingerprint, to key cached counts (lib/hash.ts). */
export const bodyFingerprint = textFingerprint;
