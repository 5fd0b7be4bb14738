/**
 * Writing the two files from the section model. llms.txt is exactly what the reference parser
 * (AnswerDotAI/llms-txt miniparse.py) reads without failing: H1, one blockquote line, a details
 * paragraph, then H2 sections holding nothing but `- [name](url): notes` lines.
 */
import { textFingerprint } from '../hash';
import { demoteHeadings } from './demote-headings';
import { headingLine, linkTarget, linkText, oneLine } from './text';
import type { BodyTokens, LlmsEntry, LlmsSectionModel } from './types';
import type { FullIndexEntry } from '../store/records/generate';

export type { BodyTokens };

/** The head both files share. */
export interface FileHead {
  title: string;
  summary?: string;
}

/** The H1 and blockquote lines every file starts with. */
export function headLines(head: FileHead): string[] {
  const lines = [`# ${head.title}`, ''];
  if (head.summary) lines.push(`> ${head.summary}`, '');
  return lines;
}

/** One entry line; the notes part only when there is a description (never a bare ": "). */
export function entryLine(entry: LlmsEntry): string {
  const notes = oneLine(entry.description);
  return `- [${linkText(entry.title)}](${linkTarget(entry.url)})${notes ? `: ${notes}` : ''}`;
}

/** llms.txt text; sections without entries are left out (an empty H2 is a spec warning). */
export function renderLlmsTxt(head: FileHead, details: string, sections: LlmsSectionModel[]): string {
  const lines = headLines(head);
  lines.push(oneLine(details), '');
  for (const section of sections) {
    if (section.entries.length === 0) continue;
    lines.push(`## ${headingLine(section.name, 'Docs')}`, '');
    for (const entry of section.entries) lines.push(entryLine(entry));
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A page of llms-full.txt: its content with what it needs to stand alone. */
export interface FullPage {
  key?: string;
  title: string;
  url: string;
  markdown: string;
  /** Tokens of this page's body in the file, counted before under this title (see renderLlmsFull). */
  bodyTokens?: BodyTokens;
  /** `demoteHeadings(markdown, title)`, when the caller made it already. */
  body?: string;
  /** The count of `${body}\n\n`, when the caller knows it holds for this title and Markdown (no fingerprint is checked). */
  bodyCount?: number;
  /** The URL its llms.txt entry links to, when not `url` (kept in the index: `FullIndexEntry.link`). */
  link?: string;
}

/**
 * llms-full.txt as `renderLlmsFull` made it: the text, its exact count, the pieces it is appended
 * from (joined, they are `text`), and where each page's body is in it (`index`, in file order) with
 * that body (`bodies[i]`, exactly `text.slice(index[i].bodyStart, index[i].bodyEnd)`).
 */
export interface RenderedFull {
  text: string;
  tokens: number;
  pieces: string[];
  index: FullIndexEntry[];
  bodies: string[];
}

/** The cache entry for a count of `markdown` under `title`. */
export function bodyTokensOf(title: string, markdown: string, count: number): BodyTokens {
  return { title, count, chars: markdown.length, hash: textFingerprint(markdown) };
}

/**
 * Whether a cached count still applies to this page under this title: the same title and the same
 * text (a text of the same length is not the same text). A count without a hash is counted again.
 */
export function cachedCountFits(cached: BodyTokens | undefined, title: string, markdown: string): cached is BodyTokens {
  return cached?.hash !== undefined && cached.title === title && cached.chars === markdown.length && cached.hash === textFingerprint(markdown);
}

/** Whether a body's count may be taken apart from the `Source:` line before it (see renderLlmsFull). */
export const bodySplitsCleanly = (body: string): boolean => /^[^\s/]/.test(body);

/**
 * The llms-full.txt text — the head, then each page under `## title`, a `Source: url` line and a
 * blank line, its headings demoted below H2 so the page boundaries stay the only H2s — and its
 * exact token count, without tokenizing the whole file again
 * (on a large site that second pass over megabytes cost seconds on every generation).
 *
 * Why a sum of pieces is exact: o200k first splits text into pre-tokens by a regex, then encodes
 * each pre-token alone. No pre-token pattern can join a newline to the non-space character after
 * it, so the file splits cleanly just after a run of newlines that precedes a non-space: before
 * each `## ` page heading, and between a page's `Source:` line (plus blank line) and its body when
 * the body starts with a non-space other than `/` (the punctuation pattern `[^\s\p{L}\p{N}]+[\r\n/]*`
 * carries a URL's last `-`, `#` or `/` over the newlines into a leading `/`). Each body is counted
 * with the two newlines that follow it (a body ending in punctuation takes them into its last pre-token), so that count can be kept on
 * the page and reused while the page and its title stay the same. The head and the last page
 * (its end is trimmed) are counted directly.
 */
export function renderLlmsFull(head: FileHead, pages: FullPage[], count: (text: string) => number = () => 0): RenderedFull {
  // The file is `[head, ...parts].join('\n').trimEnd()` and a newline; every part starts with `## `,
  // so the trim reaches into the last part only. It is made piece by piece, not with `join`: V8 keeps
  // it a string of the pieces and joins it only where it is read whole (the extension's store).
  // Joined here, a copy of the whole file was live beside every page and every page's body.
  // Each piece is kept as it is appended (`pieces`): a caller that writes the file piece by piece
  // (the CLI's store) never joins it. A piece is never a concatenation holding a body: writing a
  // concatenation flattens it in place, and the text would then hold a second copy of that body.
  const pieces: string[] = [];
  let text = '';
  const add = (piece: string) => {
    pieces.push(piece);
    text += piece;
  };
  let tokens = 0;
  const whole = (part: string, last: boolean): string => (last ? `${part.trimEnd()}\n` : `${part}\n`);
  const headPiece = whole(headLines(head).join('\n'), pages.length === 0);
  add(headPiece);
  tokens += count(headPiece);
  // Where each page's part starts and how long its header is: the index, without searching the text.
  const placed: Array<{ page: FullPage; start: number; header: number; body: string; hasBody: boolean }> = [];
  let at = headPiece.length;
  pages.forEach((page, i) => {
    const last = i === pages.length - 1;
    const header = `## ${headingLine(page.title, page.url)}\nSource: ${page.url}\n`;
    const body = page.body ?? demoteHeadings(page.markdown, page.title);
    const start = at;
    if (last) {
      const piece = whole(`${header}${body ? `\n${body}\n` : ''}`, true);
      add(piece);
      tokens += count(piece);
      at += piece.length;
      // The trim may reach into the last body: its body is what the file holds.
      const hasBody = piece.length > header.length + 1;
      placed.push({ page, start, header: header.length, body: hasBody ? piece.slice(header.length + 1, piece.length - 1) : '', hasBody });
      return;
    }
    placed.push({ page, start, header: header.length, body, hasBody: body !== '' });
    if (!body) {
      add(`${header}\n`);
      tokens += count(`${header}\n`);
      at += header.length + 1;
      return;
    }
    const opening = `${header}\n`;
    add(opening);
    add(body);
    add('\n\n');
    at += opening.length + body.length + 2;
    if (!bodySplitsCleanly(body)) {
      tokens += count(`${opening}${body}\n\n`);
      return;
    }
    const cached = page.bodyCount ?? (cachedCountFits(page.bodyTokens, page.title, page.markdown) ? page.bodyTokens.count : count(`${body}\n\n`));
    tokens += count(opening) + cached;
  });
  // A part is header, blank line, body, one newline; the newline joining it to the next is not its own.
  const index: FullIndexEntry[] = placed.map(({ page, start, header, body, hasBody }) => {
    const bodyStart = start + header + (hasBody ? 1 : 0);
    return { key: page.key ?? '', title: page.title, url: page.url, ...(page.link && page.link !== page.url ? { link: page.link } : {}), bodyStart, bodyEnd: bodyStart + body.length };
  });
  return { text, tokens, pieces, index, bodies: placed.map((p) => p.body) };
}
