/**
 * Writing the two files from the section model. llms.txt is exactly what the reference parser
 * (AnswerDotAI/llms-txt miniparse.py) reads without failing: H1, one blockquote line, a details
 * paragraph, then H2 sections holding nothing but `- [name](url): notes` lines.
 */
import { textFingerprint } from '../hash';
import { demoteHeadings } from './demote-headings';
import { headingLine, linkTarget, linkText, oneLine } from './text';
import type { BodyTokens, LlmsEntry, LlmsSectionModel } from './types';

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
export function renderLlmsFull(head: FileHead, pages: FullPage[], count: (text: string) => number = () => 0): { text: string; tokens: number } {
  // The file is `[head, ...parts].join('\n').trimEnd()` and a newline; every part starts with `## `,
  // so the trim reaches into the last part only. It is made piece by piece, not with `join`: V8 keeps
  // it a string of the pieces, joined into one block where it is first read (indexFullText), once
  // the caller has let its pages go. Joined here, a copy of the whole file was live beside every
  // page and every page's body.
  let text = '';
  let tokens = 0;
  const whole = (part: string, last: boolean): string => (last ? `${part.trimEnd()}\n` : `${part}\n`);
  const headPiece = whole(headLines(head).join('\n'), pages.length === 0);
  text += headPiece;
  tokens += count(headPiece);
  pages.forEach((page, i) => {
    const last = i === pages.length - 1;
    const header = `## ${headingLine(page.title, page.url)}\nSource: ${page.url}\n`;
    const body = demoteHeadings(page.markdown, page.title);
    if (last || !bodySplitsCleanly(body)) {
      const piece = whole(`${header}${body ? `\n${body}\n` : ''}`, last);
      text += piece;
      tokens += count(piece);
      return;
    }
    const opening = `${header}\n`;
    text += `${opening}${body}\n\n`;
    const cached = cachedCountFits(page.bodyTokens, page.title, page.markdown) ? page.bodyTokens.count : count(`${body}\n\n`);
    tokens += count(opening) + cached;
  });
  return { text, tokens };
}
