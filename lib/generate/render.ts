/**
 * Writing the two files from the section model. llms.txt is exactly what the reference parser
 * (AnswerDotAI/llms-txt miniparse.py) reads without failing: H1, one blockquote line, a details
 * paragraph, then H2 sections holding nothing but `- [name](url): notes` lines.
 */
import { demoteHeadings } from './demote-headings';
import { headingLine, linkTarget, linkText, oneLine } from './text';
import type { LlmsEntry, LlmsSectionModel } from './types';

/** The head both files share. */
export interface FileHead {
  title: string;
  summary?: string;
}

function headLines(head: FileHead): string[] {
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
  title: string;
  url: string;
  markdown: string;
}

/**
 * llms-full.txt text: the head, then each page under `## title`, a `Source: url` line and a blank
 * line, its headings demoted below H2 so the page boundaries stay the only H2s.
 */
export function renderLlmsFullTxt(head: FileHead, pages: FullPage[]): string {
  const parts = [headLines(head).join('\n')];
  for (const page of pages) {
    const title = headingLine(page.title, page.url);
    const body = demoteHeadings(page.markdown, page.title);
    parts.push(`## ${title}\nSource: ${page.url}\n${body ? `\n${body}\n` : ''}`);
  }
  return `${parts.join('\n').trimEnd()}\n`;
}
