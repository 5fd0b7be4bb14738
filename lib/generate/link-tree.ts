/**
 * The structure a set of pages has through their own links, for splitting a folder that is flat on
 * disk. Best is the section page's own table of contents: Python's /library/index.html lists
 * "Text Processing Services" (text.html) with string, re, difflib… nested under it, though every
 * one of those pages sits in the one /library/ folder. Without one, the breadth-first tree of the
 * pages' links stands in for it.
 */
import { dedupeKey } from '../url/normalize';

// Inline Markdown link targets, as page-order.ts reads them.
const MARKDOWN_LINK = /\]\(\s*<?([^)\s>]+)/g;

/** One list item of a page's table of contents: its nesting (0 = top level) and the listed page it links to. */
export interface TocItem {
  level: number;
  key: string;
}

/** What the nested layout reads from the pages' Markdown: their links, and the lists of links they hold. */
export interface PageLinks {
  /** The keys of the listed pages a page links to, in order. */
  linksOf: (key: string) => string[];
  /** The page's list items that link to listed pages, with their nesting: its table of contents. */
  tocOf: (key: string) => TocItem[];
}

// A list item whose text starts with a link: `  - [Text Processing Services](text.html)`.
const TOC_ITEM = /^([ \t]*)(?:[-*+]|\d+[.)])[ \t]+\[(?:\\.|[^\\\]])*\]\(\s*<?([^)\s>]+)/;

/**
 * Links and tables of contents of the listed pages. `pages` gives each page's key, its addresses
 * (page and Markdown twin, any of which a link may use), its Markdown and the URL it resolves against.
 */
export function markdownLinks(pages: Array<{ key: string; urls: string[]; markdown: string; base: string }>): PageLinks {
  const byUrl = new Map<string, string>();
  for (const page of pages) for (const url of page.urls) if (!byUrl.has(dedupeKey(url))) byUrl.set(dedupeKey(url), page.key);
  const byKey = new Map(pages.map((page) => [page.key, page]));
  const resolved = new Map<string, string | null>();
  const resolve = (raw: string, base: string): string | null => {
    const target = raw.replace(/#[\s\S]*/, '');
    if (target === '') return null;
    const cacheKey = /^https?:\/\//i.test(target) ? target : `${base}\n${target}`;
    let found = resolved.get(cacheKey);
    if (found === undefined) {
      found = null;
      try {
        found = byUrl.get(dedupeKey(new URL(target, base).href)) ?? null;
      } catch {
        // Not a URL (a code sample that looks like a link).
      }
      resolved.set(cacheKey, found);
    }
    return found;
  };
  return {
    linksOf: (key) => {
      const page = byKey.get(key);
      if (!page) return [];
      const out: string[] = [];
      for (const match of page.markdown.matchAll(MARKDOWN_LINK)) {
        const found = resolve(match[1] ?? '', page.base);
        if (found !== null) out.push(found);
      }
      return out;
    },
    tocOf: (key) => {
      const page = byKey.get(key);
      if (!page) return [];
      const items: Array<{ indent: number; key: string }> = [];
      for (const line of page.markdown.split('\n')) {
        const match = TOC_ITEM.exec(line);
        if (!match) continue;
        const found = resolve(match[2] ?? '', page.base);
        if (found !== null) items.push({ indent: (match[1] ?? '').replace(/\t/g, '    ').length, key: found });
      }
      // Nesting levels from the distinct indents in use (turndown indents by 2, other sources by 4).
      const indents = [...new Set(items.map((item) => item.indent))].sort((a, b) => a - b);
      return items.map((item) => ({ level: indents.indexOf(item.indent), key: item.key }));
    },
  };
}

/**
 * Each page's parent in the link tree of `keys` (links leaving the set are ignored), from `keys[0]`.
 * Breadth-first, except that a page linked both from a page and from one of that page's own links
 * hangs under the latter, the more specific: a DocBook part's contents list its chapters and their
 * sections, but each section belongs to its chapter, which lists it too. A parent always comes
 * before its child in the breadth-first order, so the tree has no cycles. The first page and pages
 * no link reaches have no parent (null).
 */
export function linkTree(keys: string[], linksOf: (key: string) => string[]): Map<string, string | null> {
  const inSet = new Set(keys);
  const parent = new Map<string, string | null>(keys.map((key) => [key, null]));
  const first = keys[0];
  if (first === undefined) return parent;
  const seen = new Set([first]);
  const queue = [first];
  const targets = new Map<string, Set<string>>();
  for (let head = 0; head < queue.length; head++) {
    const key = queue[head] ?? '';
    const own = new Set<string>();
    for (const target of linksOf(key)) {
      if (!inSet.has(target) || target === key) continue;
      own.add(target);
      if (seen.has(target)) continue;
      seen.add(target);
      parent.set(target, key);
      queue.push(target);
    }
    targets.set(key, own);
  }
  const position = new Map(queue.map((key, i) => [key, i]));
  const linkers = new Map<string, string[]>();
  for (const key of queue) for (const target of targets.get(key) ?? []) linkers.set(target, [...(linkers.get(target) ?? []), key]);
  for (const key of queue.slice(1)) {
    const at = position.get(key) ?? 0;
    const earlier = (linkers.get(key) ?? []).filter((linker) => (position.get(linker) ?? at) < at);
    // A linker that also links a later linker of this page is its ancestor: the later one is more
    // specific. (A back link from that one, "Up" to the part, makes nothing its ancestor.)
    const after = (a: string, b: string) => (position.get(a) ?? 0) > (position.get(b) ?? 0);
    const specific = earlier.filter((linker) => !earlier.some((other) => after(other, linker) && targets.get(linker)?.has(other)));
    const chosen = specific.sort((a, b) => (position.get(b) ?? 0) - (position.get(a) ?? 0))[0];
    if (chosen !== undefined) parent.set(key, chosen);
  }
  return parent;
}
