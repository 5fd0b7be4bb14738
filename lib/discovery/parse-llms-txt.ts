/**
 * A pure, dependency-free parser for llms.txt files (spec v2, https://llmstxt.org).
 *
 * Real files stray from the spec a lot (README-style prose, code, H1s used as sections), so the
 * parser never throws: whatever does not fit the spec becomes a warning a person can read.
 */

/** One `- [name](url): notes` link list item, of an H2 section or of the details part. */
export interface LlmsLink {
  name: string;
  /** Absolute URL, resolved against the file's own URL. */
  url: string;
  /** The link target as written in the file (without `<>` around it). */
  rawUrl: string;
  notes?: string;
  /** 1-based line number. */
  line: number;
  /** True inside the `## Optional` section, whose links the spec marks as skippable (never in details). */
  optional: boolean;
}

/** An H2 section and the links listed in it. */
export interface LlmsSection {
  name: string;
  line: number;
  /** The spec gives `## Optional` (any case) a special meaning: secondary links. */
  optional: boolean;
  links: LlmsLink[];
}

/** Why a line (or the file) does not follow the llms.txt spec. */
export type LlmsWarningCode =
  | 'missing-h1' | 'multiple-h1' | 'h1-not-first' | 'multiple-blockquotes' | 'non-link-line'
  | 'h3-in-section' | 'duplicate-link' | 'empty-section' | 'invalid-url' | 'empty-file'
  | 'too-large' | 'line-too-long';

/** A spec deviation, with a message in plain words for a person. */
export interface LlmsWarning {
  code: LlmsWarningCode;
  /** 1-based line the problem starts on. */
  line: number;
  message: string;
}

/** Everything read from one llms.txt file. */
export interface ParsedLlmsTxt {
  /** Text of the first `# ` heading; null when there is none. */
  title: string | null;
  /** The `>` blockquote right after the title, continuation lines joined with spaces. */
  summary: string | null;
  /** Trimmed Markdown between the summary and the first H2. */
  details: string;
  sections: LlmsSection[];
  /** All links of all sections, in file order: the spec's links. */
  links: LlmsLink[];
  /**
   * Link list items in the details part (before the first H2), in file order. Not the spec's
   * links, but many real files list everything straight under the H1 with no `## ` section; the
   * reference parser drops those, a person (and a crawler) still wants them. Unusable targets are
   * skipped without a warning, and they never count for `duplicate-link`: details are free text.
   */
  detailLinks: LlmsLink[];
  warnings: LlmsWarning[];
}

/**
 * Budgets for one parse, since files come from any server: characters read (real indexes are
 * well under 1 MB; llms-full.txt files of a few MB are parsed for their links too), the longest
 * line tried as a link item (a real one with long notes is a few hundred characters), and time.
 * Each cut is a warning in words.
 */
export const PARSE_BUDGET = { chars: 4 * 1024 * 1024, linkLine: 8192, ms: 2000 };

type LineKind = 'blank' | 'h1' | 'h2' | 'h3' | 'fence' | 'code' | 'text';

/** One source line; `text` is the heading text for h1/h2/h3 lines. */
interface Line { no: number; raw: string; kind: LineKind; text: string }

// CommonMark ATX heading: up to 3 spaces, 1-6 '#', then a space. `#Title` is not a heading.
// Kept free of nested quantifiers so huge binary-ish lines cannot make it backtrack for long.
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*)$/s;
const FENCE = /^\s*(`{3,}|~{3,})/;
const QUOTE = /^ {0,3}>/;
const isQuote = (line: Line | undefined): boolean => line?.kind === 'text' && QUOTE.test(line.raw);
// `- [name](url): notes`. Lenient on purpose: `*`/`+` bullets, no space after the bullet
// (`-[name](url)`), indented (nested) items, `<url>` and `(url "title")` forms, and URLs holding
// one level of parentheses. The name may contain `]` as long as it is not followed by `(`.
// No two quantifiers can take the same spaces (the target, when there is one, starts with a
// non-space; the title with `"`), so a line of tabs cannot make it backtrack polynomially (#28).
const LINK =
  /^\s*[-*+][ \t]*\[((?:[^\]]|\](?!\())+)\]\(\s*(?:(<[^>]*>|(?:[^\s()]|\([^\s()]*\))+)\s*)?(?:"[^"]*"\s*)?\)(.*)$/s;

/** Heading text without the optional closing `#` run (CommonMark), or '' when empty. */
function headingText(raw: string): string {
  const text = raw.trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === 0) return '';
  return end < text.length && /\s/.test(text[end - 1] ?? '') ? text.slice(0, end).trim() : text;
}

/** Labels each line, so that nothing inside a ``` or ~~~ fence is read as a heading or a link. */
function classify(rawLines: string[]): Line[] {
  let fence: { char: string; size: number } | null = null;
  return rawLines.map((raw, index): Line => {
    const line: Line = { no: index + 1, raw, kind: 'text', text: '' };
    const fenceMatch = FENCE.exec(raw);
    if (fence) {
      line.kind = 'code';
      // A fence closes on the same character, at least as long, with nothing after it.
      const marker = fenceMatch?.[1] ?? '';
      if (marker[0] === fence.char && marker.length >= fence.size && raw.trim() === marker) fence = null;
    } else if (fenceMatch?.[1]) {
      line.kind = 'fence';
      fence = { char: fenceMatch[1][0] ?? '`', size: fenceMatch[1].length };
    } else if (raw.trim() === '') {
      line.kind = 'blank';
    } else {
      const heading = HEADING.exec(raw);
      line.text = heading ? headingText(heading[2] ?? '') : '';
      const level = heading?.[1]?.length ?? 0;
      if (line.text !== '') line.kind = level === 1 ? 'h1' : level === 2 ? 'h2' : 'h3';
    }
    return line;
  });
}

/** A link read from a LINK match; `url` is null when the target is not a usable address. */
type LinkCandidate = Omit<LlmsLink, 'url'> & { url: string | null };

/** Reads a LINK match: name, target resolved against `base`, notes. */
function readLink(match: RegExpExecArray, line: number, base: URL | undefined, optional: boolean): LinkCandidate {
  const name = (match[1] ?? '').trim();
  const rawUrl = (match[2] ?? '').replace(/^<|>$/g, '').trim();
  // Markdown backslash escapes apply in link targets; firecrawl output writes `/\#anchor`.
  const target = rawUrl.replace(/\\([!-/:-@[-`{-~])/g, '$1');
  let url: string | null = null;
  try {
    if (target !== '') url = new URL(target, base).href;
  } catch {
    // Unparseable target (e.g. `https://[bad`); the caller decides whether to warn.
  }
  // Notes follow `:` in the spec; some files omit the space, or use a dash instead of the colon.
  const notes = (match[3] ?? '').replace(/^\s*[:\-–—]?\s*/, '').trim();
  const link: LinkCandidate = { name, url, rawUrl, line, optional };
  if (notes !== '') link.notes = notes;
  return link;
}

/** "Line 3 is …" or "Lines 3–5 are …", for messages about a run of lines. */
function linesAre(from: number, to: number): string {
  return from === to ? `Line ${from} is` : `Lines ${from}–${to} are`;
}

/**
 * Parses llms.txt text. `baseUrl` is the file's own URL; relative link targets resolve against it.
 * Never throws: an empty, HTML or binary input gives a result with warnings.
 */
export function parseLlmsTxt(text: string, baseUrl: string): ParsedLlmsTxt {
  const result: ParsedLlmsTxt = {
    title: null, summary: null, details: '', sections: [], links: [], detailLinks: [], warnings: [],
  };
  const warn = (code: LlmsWarningCode, line: number, message: string): void => {
    result.warnings.push({ code, line, message });
  };
  // A UTF-8 BOM is allowed by the spec; Windows editors also leave CRLF endings.
  const source = (typeof text === 'string' ? text : '').replace(/^\uFEFF/, '');
  if (source.trim() === '') {
    warn('empty-file', 1, 'The file is empty.');
    return result;
  }
  let base: URL | undefined; // When baseUrl is unusable, relative links become invalid-url warnings.
  try {
    base = new URL(baseUrl);
  } catch {
    // Stays undefined.
  }

  const budget = PARSE_BUDGET;
  const cutAt = source.length > budget.chars ? source.lastIndexOf('\n', budget.chars) : -1;
  const lines = classify((source.length > budget.chars ? source.slice(0, cutAt > 0 ? cutAt : budget.chars) : source).split(/\r\n|\r|\n/));
  if (source.length > budget.chars) {
    const mb = (n: number) => `${Number((n / 1024 / 1024).toFixed(1))} MB`;
    warn('too-large', lines.length, `The file is ${mb(source.length)} of text: Scout read its first ${mb(budget.chars)} (lines 1–${lines.length.toLocaleString('en')}) for its title, sections and links; the rest was not checked.`);
  }
  const deadline = Date.now() + budget.ms;
  let outOfTime = false;
  let tried = 0;
  /**
   * The link item on a line, if any; lines too long for one (a warning in sections; details are
   * free text), or past the time budget (see outOfTime), are not tried.
   */
  const linkOn = (line: Line, inSection: boolean): RegExpExecArray | null => {
    if (outOfTime) return null;
    if ((++tried & 63) === 0 && Date.now() > deadline) {
      outOfTime = true;
      warn('too-large', line.no, `Scout stopped reading links at line ${line.no.toLocaleString('en')} after ${budget.ms / 1000} s: the rest of the file was not checked.`);
      return null;
    }
    if (line.raw.length > budget.linkLine) {
      if (inSection) warn('line-too-long', line.no, `Line ${line.no} is ${line.raw.length.toLocaleString('en')} characters long: too long to be a link item, so it was not read as one.`);
      return null;
    }
    return LINK.exec(line.raw);
  };
  const firstH2 = lines.findIndex((l) => l.kind === 'h2');
  const preambleEnd = firstH2 < 0 ? lines.length : firstH2;
  const titleIndex = lines.findIndex((l) => l.kind === 'h1');
  const titleLine = lines[titleIndex];
  if (!titleLine) {
    warn('missing-h1', 1, 'The file has no title: an llms.txt file must start with a “# Project name” heading.');
  } else {
    result.title = titleLine.text;
    if (lines.slice(0, titleIndex).some((l) => l.kind !== 'blank')) {
      warn('h1-not-first', titleLine.no, `The title on line ${titleLine.no} is not at the top of the file: llms.txt must start with the “# Project name” heading.`);
    }
  }
  const secondH1 = (line: Line): void =>
    warn('multiple-h1', line.no, `Line ${line.no} is another “#” top-level heading: llms.txt has only one, for the project name.`);

  // Preamble: summary blockquote, then free "details" Markdown, up to the first H2.
  const preamble = lines.slice(titleIndex >= 0 && titleIndex < preambleEnd ? titleIndex + 1 : 0, preambleEnd);
  let cursor = preamble.findIndex((l) => l.kind !== 'blank');
  const summaryParts: string[] = [];
  for (let l = preamble[cursor]; l && isQuote(l); l = preamble[++cursor]) {
    summaryParts.push(l.raw.replace(/^\s*>\s?/, '').trim());
  }
  const summary = summaryParts.filter((part) => part !== '').join(' ');
  if (summary !== '') result.summary = summary;
  const details = cursor < 0 ? [] : preamble.slice(cursor);
  let quoteBlocks = summaryParts.length > 0 ? 1 : 0;
  details.forEach((line, i) => {
    if (line.kind === 'h1') secondH1(line);
    // Only the quote right after the title is the summary; later ones are easy to mistake for it.
    if (isQuote(line) && !isQuote(details[i - 1]) && ++quoteBlocks > 1) {
      warn('multiple-blockquotes', line.no, `Line ${line.no} starts another “>” quote: only the one right after the title is read as the summary.`);
    }
  });
  result.details = details.map((l) => l.raw).join('\n').trim();
  for (const line of details) {
    const match = line.kind === 'text' ? linkOn(line, false) : null;
    if (outOfTime) break;
    const link = match ? readLink(match, line.no, base, false) : null;
    if (link && link.url !== null) result.detailLinks.push({ ...link, url: link.url });
  }

  // Sections: the spec wants only link list items between H2s.
  const seen = new Map<string, number>();
  let section: LlmsSection | null = null;
  let run: { from: number; to: number } | null = null;
  const flushRun = (): void => {
    if (run && section) {
      const what = run.from === run.to ? 'a link' : 'links';
      warn('non-link-line', run.from, `${linesAre(run.from, run.to)} not ${what} in section “${section.name}”: sections should only list links.`);
    }
    run = null;
  };
  const closeSection = (): void => {
    flushRun();
    if (section && section.links.length === 0) {
      warn('empty-section', section.line, `Section “${section.name}” on line ${section.line} has no links.`);
    }
  };
  const addLink = (match: RegExpExecArray, lineNo: number, into: LlmsSection): void => {
    const candidate = readLink(match, lineNo, base, into.optional);
    const { url } = candidate;
    if (url === null) {
      warn('invalid-url', lineNo, `Line ${lineNo}: the link “${candidate.name}” points to “${candidate.rawUrl}”, which is not a usable address.`);
      return;
    }
    const link: LlmsLink = { ...candidate, url };
    const firstLine = seen.get(url);
    if (firstLine === undefined) seen.set(url, lineNo);
    else warn('duplicate-link', lineNo, `Line ${lineNo} links to ${url} again (already listed on line ${firstLine}).`);
    into.links.push(link);
    result.links.push(link);
  };
  for (let i = preambleEnd; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    if (line.kind === 'h2') {
      closeSection();
      section = { name: line.text, line: line.no, optional: line.text.toLowerCase() === 'optional', links: [] };
      result.sections.push(section);
      continue;
    }
    if (!section) continue;
    if (line.kind === 'text') {
      const match = linkOn(line, true);
      if (outOfTime) break;
      if (!match) {
        run = run ? { from: run.from, to: line.no } : { from: line.no, to: line.no };
        continue;
      }
      flushRun();
      addLink(match, line.no, section);
      continue;
    }
    flushRun();
    if (line.kind === 'h1' && i !== titleIndex) secondH1(line);
    if (line.kind === 'h3') {
      // The reference parser splits on `##`, so it mis-reads `### X` as a section named `# X`; we
      // keep the current section (a list of links has no sub-levels) and say so.
      warn('h3-in-section', line.no, `Line ${line.no} in section “${section.name}” is a sub-heading: llms.txt sections are flat lists of links, so it is ignored.`);
    }
    if (line.kind === 'fence') {
      let end = i;
      while (lines[end + 1]?.kind === 'code') end++;
      warn('non-link-line', line.no, `${linesAre(line.no, end + 1)} a code block in section “${section.name}”: sections should only list links.`);
      i = end;
    }
  }
  closeSection();
  // Section-level warnings are emitted when a section ends; show everything in file order.
  result.warnings.sort((a, b) => a.line - b.line);
  return result;
}

/**
 * True when the URL's path names an llms-family file that discovery should follow: llms.txt,
 * llms-full.txt, llms-<name>.txt, llms.md/.mdx/.markdown, or any *.txt under an /llms/ directory.
 */
export function isLlmsFileUrl(url: string): boolean {
  let parsed: URL;
  try {
    // A dummy base lets bare paths through; query strings and fragments are ignored.
    parsed = new URL(url, 'https://base.invalid/');
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const segments = parsed.pathname.toLowerCase().split('/');
  const file = segments.pop() ?? '';
  // llms-full.txt and llms-ctx.txt are the spec's expanded variants; sites add more llms-<name>.txt.
  if (/^llms(-[^/]+)?\.txt$/.test(file) || /^llms\.(md|mdx|markdown)$/.test(file)) return true;
  // Nested indexes such as /llms/api.txt.
  return file.endsWith('.txt') && file.length > 4 && segments.includes('llms');
}
