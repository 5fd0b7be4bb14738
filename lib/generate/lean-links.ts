/**
 * Token-lean Markdown for llms-full.txt files and context packs. On API-heavy sites a fifth or more
 * of the full text is link targets (`[Session](https://…/orm/session_api.html#sqlalchemy.orm.Session)`
 * hundreds of times a page). Only link syntax changes, never a word of the text:
 *
 * 1. a link to another page of the crawled site becomes relative to the page's own URL (the
 *    `Source:` line above it in the file), whichever of `../x.html` and `/dir/x.html` is shorter;
 * 2. a link to an anchor (`#…`) on a page that is in the same file becomes its text: the reader
 *    finds the target in the file itself;
 * 3. a link whose target was already linked earlier on the page becomes its text.
 *
 * Images, fenced code, code (but for links to full addresses in inline code, see leanLine) and
 * links to other sites are left as they are.
 */
import { dedupeKey } from '../url/normalize';

/** What a page's links are compared with. */
export interface LeanContext {
  /** The crawled site's origin: links there become relative. */
  origin: string;
  /** True when the page behind this dedupe key (no fragment) is in the file being written. */
  inFile: (pageKey: string) => boolean;
}

// An inline link with an optional `"title"`; the text may hold escapes and one level of brackets,
// the target one level of parentheses (both as turndown writes them). Tried only where a `[` or
// `![` stands; code spans are found apart (codeSpanEnd), in one pass over the line.
const LINK_AT = /(!?)(?<!\\)\[((?:\\.|[^\\[\]]|\[(?:\\.|[^\\[\]])*\])*)\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)((?:\s+"(?:\\.|[^"\\])*")?)\)/y;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** `to` written relative to `from` (same origin), the shorter of directory-relative and root-relative. */
export function relativeUrl(from: URL, to: URL): string {
  const tail = `${to.search}${to.hash}`;
  if (to.pathname === from.pathname && to.search === from.search) return to.hash || from.pathname.slice(from.pathname.lastIndexOf('/') + 1) || './';
  const fromDirs = from.pathname.split('/').slice(0, -1);
  const toParts = to.pathname.split('/');
  let common = 0;
  while (common < fromDirs.length && common < toParts.length - 1 && fromDirs[common] === toParts[common]) common++;
  let relative = `${'../'.repeat(fromDirs.length - common)}${toParts.slice(common).join('/')}`;
  // A first segment with a colon would read as a scheme; an empty one as the directory itself.
  if (relative === '' || /^[^/]*:/.test(relative)) relative = `./${relative}`;
  return (relative.length <= to.pathname.length ? relative : to.pathname) + tail;
}

/**
 * Rewrites the links of one line outside fenced code; `seen` holds the targets already linked on
 * the page. Inside an inline code span only links to a full http(s) address count: converted API
 * pages write `<code><a href>` as `` `[Element](https://…)` ``, and real code seldom holds one.
 */
function leanLine(line: string, base: URL, context: LeanContext, seen: Set<string>, keys: Map<string, string>, inCode = false): string {
  const spans = codeSpans(line);
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < line.length) {
    const ch = line.charCodeAt(i);
    if (ch === 96) {
      const end = spans.get(i);
      if (end === undefined) {
        // A run with no closing run of its length is plain text, backticks and all.
        i = runEnd(line, i);
        continue;
      }
      const match = line.slice(i, end);
      if (!inCode && match.includes('](http')) {
        const run = line.slice(i, runEnd(line, i));
        out += `${line.slice(copied, i)}${run}${leanLine(match.slice(run.length, match.length - run.length), base, context, seen, keys, true)}${run}`;
        copied = end;
      }
      i = end;
      continue;
    }
    if (ch === 91 || ch === 33) {
      LINK_AT.lastIndex = i;
      const m = LINK_AT.exec(line);
      if (m) {
        out += line.slice(copied, i) + leanLink(m[0], m[1] ?? '', m[2] ?? '', m[3] ?? '', m[4] ?? '', base, context, seen, keys, inCode);
        i += m[0].length;
        copied = i;
        continue;
      }
    }
    i++;
  }
  return out + line.slice(copied);
}

/** The index just past the run of backticks starting at `start`. */
function runEnd(line: string, start: number): number {
  let end = start;
  while (line[end] === '`') end++;
  return end;
}

/**
 * Code spans of a line as CommonMark reads them: a run of backticks opens one, closed by the next
 * run of exactly its length; a run with no such closer is plain text. Start → end (past the closing
 * run). One pass from the end records, for every run, the next run of the same length, so no run
 * is searched for twice (as a backreference pattern, each unclosed run re-reads the rest of the line).
 */
function codeSpans(line: string): Map<number, number> {
  const runs: { start: number; end: number }[] = [];
  for (let i = line.indexOf('`'); i >= 0; i = line.indexOf('`', i)) {
    const end = runEnd(line, i);
    runs.push({ start: i, end });
    i = end;
  }
  const nextSame = new Array<number>(runs.length).fill(-1);
  const lastOfLength = new Map<number, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    const run = runs[r] as { start: number; end: number };
    const length = run.end - run.start;
    nextSame[r] = lastOfLength.get(length) ?? -1;
    lastOfLength.set(length, r);
  }
  const spans = new Map<number, number>();
  for (let r = 0; r < runs.length; ) {
    const close = nextSame[r] ?? -1;
    if (close < 0) {
      r++;
      continue;
    }
    spans.set((runs[r] as { start: number }).start, (runs[close] as { end: number }).end);
    r = close + 1;
  }
  return spans;
}

/** One link, made lean: `match` is the whole `[text](target "title")`. */
function leanLink(
  match: string,
  bang: string,
  text: string,
  target: string,
  title: string,
  base: URL,
  context: LeanContext,
  seen: Set<string>,
  keys: Map<string, string>,
  inCode: boolean,
): string {
  if (bang === '!' || text === '' || (inCode && !/^https?:\/\//i.test(target))) return match;
  let url: URL;
  try {
    url = new URL(target, base);
  } catch {
    return match;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return match;
  if (seen.has(url.href)) return text;
  seen.add(url.href);
  if (url.hash.length > 1) {
    const page = url.href.slice(0, url.href.length - url.hash.length);
    let key = keys.get(page);
    if (key === undefined) {
      key = dedupeKey(page);
      keys.set(page, key);
    }
    if (context.inFile(key)) return text;
  }
  if (url.origin !== context.origin) return match;
  return `[${text}](${relativeUrl(base, url)}${title})`;
}

/**
 * The page's Markdown with its links made lean (see the module comment). `pageUrl` is the page's
 * own address, the one its `Source:` line gives. Deterministic; never throws on odd Markdown.
 */
export function leanMarkdown(markdown: string, pageUrl: string, context: LeanContext, keys = new Map<string, string>()): string {
  let base: URL;
  try {
    base = new URL(pageUrl);
  } catch {
    return markdown;
  }
  const seen = new Set<string>();
  let fence: string | null = null;
  // The page is read line by line in place, and only a line a link changes is cut out and
  // replaced: most lines hold no link, and a page with none comes back as it came.
  let out = '';
  let copied = 0;
  // The next `](` at or after the line being read (-1: none left): no line's search reads past the next link.
  let nextLink = markdown.indexOf('](');
  for (let start = 0; start <= markdown.length; ) {
    const newline = markdown.indexOf('\n', start);
    const end = newline < 0 ? markdown.length : newline;
    // A fence line starts with a space, a backtick or a tilde (FENCE): other lines are not tried.
    const first = markdown.charCodeAt(start);
    const opener = first === 32 || first === 96 || first === 126 ? FENCE.exec(markdown.slice(start, end))?.[1] : undefined;
    if (fence !== null) {
      // A fence closes with a run of the same character at least as long as the one that opened it.
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && markdown.slice(start, end).trim() === opener) fence = null;
    } else if (opener) {
      fence = opener;
    } else {
      if (nextLink >= 0 && nextLink < start) nextLink = markdown.indexOf('](', start);
      if (nextLink >= 0 && nextLink < end) {
        const line = markdown.slice(start, end);
        const lean = leanLine(line, base, context, seen, keys);
        if (lean !== line) {
          out += markdown.slice(copied, start) + lean;
          copied = end;
        }
      }
    }
    start = end + 1;
  }
  return copied === 0 ? markdown : out + markdown.slice(copied);
}
