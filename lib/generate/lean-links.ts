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

// A code span (left alone) or an inline link with an optional `"title"`; the text may hold escapes
// and one level of brackets, the target one level of parentheses (both as turndown writes them).
const SPAN_OR_LINK = /(`+)[\s\S]*?\1|(!?)\[((?:\\.|[^\\[\]]|\[(?:\\.|[^\\[\]])*\])*)\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)((?:\s+"(?:\\.|[^"\\])*")?)\)/g;
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
  return line.replace(SPAN_OR_LINK, (match: string, ticks: string | undefined, bang: string, text: string, target: string, title: string) => {
    if (ticks !== undefined) {
      if (inCode || !match.includes('](http')) return match;
      return `${ticks}${leanLine(match.slice(ticks.length, match.length - ticks.length), base, context, seen, keys, true)}${ticks}`;
    }
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
  });
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
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const opener = FENCE.exec(line)?.[1];
    if (fence !== null) {
      // A fence closes with a run of the same character at least as long as the one that opened it.
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = null;
      continue;
    }
    if (opener) {
      fence = opener;
      continue;
    }
    if (line.includes('](')) lines[i] = leanLine(line, base, context, seen, keys);
  }
  return lines.join('\n');
}

// SPAN_OR_LINK's link alternative alone.
const LINK = /\[((?:\\.|[^\\[\]]|\[(?:\\.|[^\\[\]])*\])*)\]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*(?:\s+"(?:\\.|[^"\\])*")?\)/g;

/** The words of Markdown read with every link as its text: what lean links must keep exactly. */
export function textWords(markdown: string): string[] {
  return markdown.replace(LINK, '$1').split(/\s+/).filter(Boolean);
}
