/**
 * Metric 6 — non-documentation pages listed outside `## Optional`.
 *
 * Classes (the first that applies):
 *  * 'source'    — a source listing: Sphinx viewcode (`/_modules/…`, "Source code for x",
 *                  "Overview: module code"), Javadoc `src-html/`, Doxygen `…_source.html` /
 *                  "x.c Source File", rustdoc `/src/…` ("Source of the Rust file");
 *  * 'search'    — a search page (`search.html`, `/search/`, title "Search" / "Search Results");
 *  * 'index'     — a generated index: Sphinx genindex / module index, Javadoc index-all, all-classes,
 *                  class tree and deprecated lists (by path or by their fixed titles),
 *                  or titled "General Index", "Index – A", "Python Module Index" (a bare "Index"
 *                  is not enough: home pages are called that too);
 *  * 'aggregate' — an all-in-one page (mdBook print.html, Node all.html, single-page editions),
 *                  found by *content containment* (see `aggregatePages`), never by its name.
 * Counted only for entries in non-Optional sections; the pages found anywhere are kept too, for diagnosis.
 */
import { stripLinkTargets, wordTokens } from './markdown';

export type NonDocClass = 'source' | 'search' | 'index' | 'aggregate';

/** The class of a page from its URL and title alone (aggregates need the other pages: aggregatePages). */
export function nonDocByName(url: string, title: string): Exclude<NonDocClass, 'aggregate'> | null {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // A relative URL: use it as it is.
  }
  const t = title.trim();
  if (/\/_modules\/|\/src-html\/|_source\.html$|\/src\/.+\.rs\.html$/i.test(path)) return 'source';
  if (/^source code for\b|^overview: module code$|\bsource file$|^source of the rust file\b/i.test(t)) return 'source';
  if (/(?:^|\/)search(?:\.html?)?\/?$|\/search\/index\.html$/i.test(path) || /^search(?: results| page)?$/i.test(t)) return 'search';
  if (/(?:^|\/)(?:genindex(?:-[^/]*)?|py-modindex|modindex|[a-z]+-modindex|index-all|index-\d+|all(?:classes|packages|modules)(?:-index|-frame|-noframe)?|overview-tree|deprecated-list)\.html?$|\/index-files\//i.test(path)) return 'index';
  if (/^all (?:classes|packages|modules)(?: and interfaces)?$|^(?:class|package) hierarchy\b|^hierarchy for all packages$|^deprecated list$/i.test(t)) return 'index';
  // A bare "Index" is also what home pages call themselves (Node's index.html): only the path tells genindex.html apart.
  if (/^(?:general index|alphabetical index|index of all\b.*|(?:python |global )?module index)$|^(?:general )?index\s*[-–—:]\s*\S{1,12}$/i.test(t) || /\bmodule index$/i.test(t)) return 'index';
  return null;
}

/** 32-bit FNV-1a of a string. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Markdown without its links and images, text included: what containment compares is prose. A table
 * of contents (Sphinx contents.html) holds every page's *title*, and hub pages are mostly titles, so
 * with link text kept a TOC would "contain" every hub; an all-in-one page holds the prose itself.
 */
export function withoutLinks(markdown: string): string {
  return stripLinkTargets(markdown).replace(/!?\[[^\]]*\]\(\)/g, ' ');
}

/**
 * A page's word 8-shingles as hashes; with `sample` > 1, only the shingles whose hash is divisible by
 * it (the same ones on every page, so containment stays an unbiased estimate at 1/sample the memory).
 */
export function shingles(text: string, size = 8, sample = 1): Set<number> {
  const words = wordTokens(withoutLinks(text));
  const out = new Set<number>();
  for (let i = 0; i + size <= words.length; i++) {
    const h = fnv1a(words.slice(i, i + size).join(' '));
    if (h % sample === 0) out.add(h);
  }
  return out;
}

export interface ContainmentPage {
  key: string;
  markdown: string;
}

export interface AggregateFinding {
  key: string;
  /** Pages whose text it mostly contains. */
  contains: number;
  /** Up to 5 of their keys. */
  examples: string[];
}

/**
 * Aggregates by content containment: page P is an aggregate when, for at least `minContained` other,
 * mutually different pages Q, at least `threshold` of Q's shingles occur in P, and those pages
 * together make up at least `coverage` of P's shingles. Shingles found on more than
 * `commonPages` pages are ignored on both sides (chrome and boilerplate say nothing about
 * containment), and so are pages with fewer than `minShingles` remaining shingles (a stub is
 * contained anywhere). One pass over an inverted index: shingle → pages.
 */
export function aggregatePages(
  pages: ContainmentPage[],
  options: { threshold?: number; minContained?: number; minShingles?: number; commonPages?: number; sample?: number; size?: number; coverage?: number } = {},
): AggregateFinding[] {
  const threshold = options.threshold ?? 0.5;
  const coverage = options.coverage ?? 0.5;
  const minContained = options.minContained ?? 3;
  const sample = options.sample ?? 1;
  const minShingles = options.minShingles ?? Math.max(3, Math.ceil(40 / sample));
  const commonPages = options.commonPages ?? Math.max(5, Math.ceil(pages.length * 0.1));
  const sets = pages.map((p) => shingles(p.markdown, options.size ?? 8, sample));
  const index = new Map<number, number[]>();
  sets.forEach((set, i) => {
    for (const h of set) {
      const list = index.get(h);
      if (list) list.push(i);
      else index.set(h, [i]);
    }
  });
  const contains = pages.map(() => [] as number[]);
  // Each page's shingles that are not common (what containment is measured on).
  const own = sets.map((set) => [...set].filter((h) => (index.get(h)?.length ?? 0) <= commonPages));
  own.forEach((hashes, q) => {
    if (hashes.length < minShingles) return;
    const shared = new Map<number, number>();
    for (const h of hashes) for (const p of index.get(h) ?? []) if (p !== q) shared.set(p, (shared.get(p) ?? 0) + 1);
    for (const [p, n] of shared) if (n / hashes.length >= threshold) contains[p]?.push(q);
  });
  const found: AggregateFinding[] = [];
  contains.forEach((qs, p) => {
    const page = pages[p];
    const mine = sets[p];
    if (!page || !mine) return;
    // Two pages that hold each other (a page and its copy) are duplicates, not an aggregate: only the
    // Qs P is bigger than count. And the Qs must be *different* pages: several man pages that all
    // include the same option list are each "contained" in a fourth that includes it too, yet that
    // page holds one text, not many. Greedily, biggest first, a Q counts when at least half of what
    // it shares with P is not already covered by the Qs counted before it.
    const covered = new Set<number>();
    const distinct: number[] = [];
    for (const q of qs.filter((x) => (sets[x]?.size ?? 0) < mine.size).sort((a, b) => (own[b]?.length ?? 0) - (own[a]?.length ?? 0))) {
      const inP = (own[q] ?? []).filter((h) => mine.has(h));
      const novel = inP.filter((h) => !covered.has(h)).length;
      if (inP.length === 0 || novel / inP.length < 0.5) continue;
      distinct.push(q);
      for (const h of inP) covered.add(h);
    }
    // And together they must make up most of P: an all-in-one page *is* the other pages, where a
    // reference page that several small pages quote (npm's config list) holds much more besides.
    const pSize = own[p]?.length ?? 0;
    if (distinct.length >= minContained && pSize > 0 && covered.size / pSize >= coverage) {
      found.push({ key: page.key, contains: distinct.length, examples: distinct.slice(0, 5).map((q) => pages[q]?.key ?? '') });
    }
  });
  return found.sort((a, b) => b.contains - a.contains);
}

export interface NonDocEntry {
  key: string;
  title: string;
  url: string;
  optional: boolean;
}

export interface NonDocResult {
  /** Non-Optional entries that are not documentation. */
  outsideOptional: number;
  byClass: Partial<Record<NonDocClass, number>>;
  /** Every listed page found non-doc (also in Optional), for diagnosis. */
  anywhere: number;
  examples: { title: string; url: string; class: NonDocClass; optional: boolean; contains?: number }[];
}

/** Metric 6, from the listed entries and the aggregates found among the listed pages. */
export function nonDocPages(entries: NonDocEntry[], aggregates: AggregateFinding[], keepExamples = 12): NonDocResult {
  const aggregate = new Map(aggregates.map((a) => [a.key, a]));
  const result: NonDocResult = { outsideOptional: 0, byClass: {}, anywhere: 0, examples: [] };
  const optionalExamples: NonDocResult['examples'] = [];
  for (const entry of entries) {
    const agg = aggregate.get(entry.key);
    const cls: NonDocClass | null = nonDocByName(entry.url, entry.title) ?? (agg ? 'aggregate' : null);
    if (!cls) continue;
    result.anywhere += 1;
    const example = { title: entry.title, url: entry.url, class: cls, optional: entry.optional, ...(agg ? { contains: agg.contains } : {}) };
    if (entry.optional) {
      optionalExamples.push(example);
      continue;
    }
    result.outsideOptional += 1;
    result.byClass[cls] = (result.byClass[cls] ?? 0) + 1;
    // One example per class first, so a class with hundreds of pages does not hide the others.
    if (result.examples.length < keepExamples && result.examples.filter((e) => e.class === cls).length < Math.ceil(keepExamples / 3)) result.examples.push(example);
  }
  // Aggregates in Optional still put the whole site twice into llms-full.txt: show them too.
  for (const e of optionalExamples) if (e.class === 'aggregate' && result.examples.length < keepExamples) result.examples.push(e);
  return result;
}
