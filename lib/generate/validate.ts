/**
 * A linter for any llms.txt: the spec (v2) and the reference parser's quirks, in plain words.
 * Severities follow what breaks: an `error` makes the reference parser fail or the file unusable,
 * a `warning` loses or misreads something, an `info` is advice.
 */
import { parseLlmsTxt, type LlmsLink, type LlmsWarningCode } from '../discovery/parse-llms-txt';

export { checkLinks, type LinkCheck, type CheckLinksOptions } from './check-links';

/** One thing the linter noticed, tied to a 1-based line. */
export interface Finding {
  line: number;
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
}

// The parser's warnings, by what they break. The reference parser (AnswerDotAI/llms-txt
// miniparse.py) raises on any non-link line inside a section, so those are errors.
const PARSER_SEVERITY: Record<LlmsWarningCode, Finding['severity']> = {
  'missing-h1': 'error',
  'empty-file': 'error',
  'non-link-line': 'error',
  'multiple-h1': 'warning',
  'h1-not-first': 'warning',
  'multiple-blockquotes': 'warning',
  'h3-in-section': 'warning',
  'duplicate-link': 'warning',
  'empty-section': 'warning',
  'invalid-url': 'warning',
  'too-large': 'warning',
  'line-too-long': 'warning',
};

const MAX_TITLE = 120;
const LARGE_BYTES = 1_000_000;
const MANY_LINKS = 1000;
const H1 = /^ {0,3}#[ \t]+\S/;
const QUOTE = /^ {0,3}>/;

/** What follows the link's `(url)` on its line: "" for none, ":" for an empty note, etc. */
function afterLink(raw: string, link: LlmsLink): string {
  const open = raw.indexOf('](');
  const at = open < 0 ? -1 : raw.indexOf(link.rawUrl, open);
  if (at < 0) return '';
  const rest = raw.slice(at + link.rawUrl.length).replace(/^>?(?:\s+"[^"]*")?\s*\)/, '');
  return rest.trim();
}

function lintLinks(lines: string[], links: LlmsLink[], add: (f: Finding) => void): void {
  for (const link of links) {
    const at = link.line;
    const raw = lines[at - 1] ?? '';
    const protocol = /^([a-z][a-z0-9+.-]*):/i.exec(link.url)?.[1]?.toLowerCase();
    if (protocol !== 'http' && protocol !== 'https') {
      add({ line: at, severity: 'warning', code: 'non-http-link', message: `Line ${at}: the link “${link.name}” points to ${link.url}, which is not a web (http or https) address.` });
    }
    // Resolved against the file's own address here, but an agent handed the text alone (pasted,
    // bundled, read from disk) has no base: the link leads nowhere.
    if (!/^[a-z][a-z0-9+.-]*:/i.test(link.rawUrl) && (protocol === 'http' || protocol === 'https')) {
      add({ line: at, severity: 'warning', code: 'relative-link', message: `Line ${at}: the link “${link.name}” is written as a relative address (${link.rawUrl}), which leads nowhere once the file is read without its own address. Write it in full: ${link.url}` });
    }
    const rest = afterLink(raw, link);
    if (/^:\s*$/.test(rest)) {
      add({ line: at, severity: 'warning', code: 'empty-notes', message: `Line ${at}: the link “${link.name}” is followed by “:” with no description; drop the colon or add one.` });
    } else if (rest !== '' && !rest.startsWith(':')) {
      add({ line: at, severity: 'warning', code: 'notes-without-colon', message: `Line ${at}: the description after the link “${link.name}” does not start with “: ”, so the reference parser drops it.` });
    }
    if (link.rawUrl.includes(')')) {
      add({ line: at, severity: 'warning', code: 'parenthesis-in-url', message: `Line ${at}: the address of “${link.name}” contains “)”; the reference parser cuts it there. Write it as %29.` });
    }
    if (link.name.includes(']')) {
      add({ line: at, severity: 'warning', code: 'bracket-in-name', message: `Line ${at}: the link name “${link.name}” contains “]”, which the reference parser cannot read; use other brackets.` });
    }
    if (link.name.length > MAX_TITLE) {
      add({ line: at, severity: 'info', code: 'long-title', message: `Line ${at}: the link name is ${link.name.length} characters long; a short page title reads better.` });
    }
  }
}

function lintFile(text: string, url: string): Finding[] {
  const findings: Finding[] = [];
  const add = (finding: Finding): void => {
    findings.push(finding);
  };
  const parsed = parseLlmsTxt(text, url);
  for (const warning of parsed.warnings) {
    add({ line: warning.line, severity: PARSER_SEVERITY[warning.code], code: warning.code, message: warning.message });
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const titleIndex = lines.findIndex((line) => H1.test(line));
  if (parsed.title !== null) {
    // The parser found a title, so the scan does too, short of odd input; line 1 is the safe fallback.
    const titleLine = Math.max(1, titleIndex + 1);
    if (/\s>\s/.test(parsed.title) && parsed.summary === null) {
      add({ line: titleLine, severity: 'warning', code: 'summary-in-title', message: `Line ${titleLine}: the title seems to hold the summary after “>”; put the summary on its own line starting with “> ”.` });
    } else if (parsed.summary === null) {
      add({ line: titleLine, severity: 'info', code: 'summary-missing', message: `There is no summary: add a line starting with “> ” right after the title on line ${titleLine}, saying in one sentence what the project is.` });
    }
    // The reference parser reads only the first line of the summary; the rest becomes details.
    let first = Math.max(0, titleIndex + 1);
    while (first < lines.length && (lines[first] ?? '').trim() === '') first++;
    let last = first;
    while (QUOTE.test(lines[last] ?? '')) last++;
    if (last - first > 1) {
      add({ line: first + 1, severity: 'warning', code: 'multiline-summary', message: `Lines ${first + 1}–${last}: the “>” summary spans ${last - first} lines; the reference parser reads only the first. Keep it to one line.` });
    }
  }
  for (const section of parsed.sections) {
    const name = section.name.trim();
    if (!section.optional && /\boptionals?\b/i.test(name)) {
      add({ line: section.line, severity: 'warning', code: 'optional-misspelled', message: `Line ${section.line}: section “${name}” looks meant as the “Optional” section, but only a section named exactly “Optional” marks links as skippable.` });
    }
  }
  lintLinks(lines, [...parsed.links, ...parsed.detailLinks], add);
  if (parsed.links.length === 0 && parsed.detailLinks.length > 0) {
    const at = parsed.detailLinks[0]?.line ?? 1;
    add({ line: at, severity: 'warning', code: 'links-outside-sections', message: `Line ${at}: the ${parsed.detailLinks.length} links are not under any “## ” section, and the reference parser only reads links inside sections.` });
  }
  const bytes = new TextEncoder().encode(text).length;
  const linkCount = parsed.links.length + parsed.detailLinks.length;
  if (bytes > LARGE_BYTES || linkCount > MANY_LINKS) {
    const size = bytes > LARGE_BYTES ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${linkCount} links`;
    add({ line: 1, severity: 'info', code: 'large-file', message: `The file is large (${size}): consider splitting it into nested llms.txt files, one per part of the site.` });
  }
  return findings;
}

const SEVERITY_ORDER: Record<Finding['severity'], number> = { error: 0, warning: 1, info: 2 };

/**
 * Lints llms.txt text fetched from `url` (relative links resolve against it). Findings are sorted
 * by line, errors first on a line. Never throws: odd input gives findings, not exceptions.
 */
export function validateLlmsTxt(text: string, url: string): Finding[] {
  let findings: Finding[];
  try {
    findings = lintFile(typeof text === 'string' ? text : '', url);
  } catch (error) {
    findings = [{ line: 1, severity: 'error', code: 'internal-error', message: `The file could not be checked: ${String(error)}` }];
  }
  return findings.sort((a, b) => a.line - b.line || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}
