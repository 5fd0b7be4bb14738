/**
 * The order a reader meets pages in: breadth-first from the start page, following the links of
 * each page's Markdown in the order they appear. For a Sphinx site this is the order of the
 * index page's table of contents ("What's New, Tutorial, Library, …") rather than the alphabet,
 * and within a chapter the order of its own contents list.
 */
import { dedupeKey } from '../url/normalize';
import type { SourcePage } from './types';

// Inline Markdown link targets: `](url)` or `](<url>)`. Reference-style links are rare in
// converted pages; pages only reached through them fall back to depth-then-URL order.
const MARKDOWN_LINK = /\]\(\s*<?([^)\s>]+)/g;

/** Keys under which a page can be linked: its frontier key, its URLs and its Markdown twin. */
export function pageKeys(page: SourcePage): string[] {
  const keys = [page.key, dedupeKey(page.url), dedupeKey(page.finalUrl)];
  if (page.twinUrl) keys.push(dedupeKey(page.twinUrl));
  return keys;
}

const compare = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/** Depth, then URL (then key, for pages behind one URL): the crawl's breadth-first order without its enqueue sequence. */
export function byDepthThenUrl(a: SourcePage, b: SourcePage): number {
  return a.depth - b.depth || compare(a.finalUrl, b.finalUrl) || compare(a.key, b.key);
}

/** The page keys `page` links to, in order. `cache` maps absolute targets to keys: sites repeat links a lot. */
export function linksOf(page: SourcePage, cache: Map<string, string | null>): string[] {
  const out: string[] = [];
  for (const match of page.markdown.matchAll(MARKDOWN_LINK)) {
    const target = (match[1] ?? '').replace(/#[\s\S]*/, '');
    if (target === '') continue;
    const absolute = /^https?:\/\//i.test(target) ? target : `${page.finalUrl}\n${target}`;
    let key = cache.get(absolute);
    if (key === undefined) {
      key = null;
      try {
        const url = new URL(target, page.finalUrl);
        if (url.protocol === 'http:' || url.protocol === 'https:') key = dedupeKey(url.href);
      } catch {
        // Not a URL (a code sample that looks like a link); it links nowhere.
      }
      cache.set(absolute, key);
    }
    if (key !== null) out.push(key);
  }
  return out;
}

/** The pages each page links to among `pages`, in order, each once; itself left out. */
export function pageLinker(pages: SourcePage[]): (page: SourcePage) => SourcePage[] {
  const byKey = new Map<string, SourcePage>();
  for (const page of [...pages].sort(byDepthThenUrl)) for (const key of pageKeys(page)) if (!byKey.has(key)) byKey.set(key, page);
  const cache = new Map<string, string | null>();
  return (page) => {
    const out = new Set<SourcePage>();
    for (const key of linksOf(page, cache)) {
      const target = byKey.get(key);
      if (target && target !== page) out.add(target);
    }
    return [...out];
  };
}

const bare = (url: string): string => url.replace(/[?#][\s\S]*$/, '');

/**
 * The folder a page heads: its URL's path up to the last slash, or the whole path when its last
 * segment has no extension (`/guide` heads `/guide/`, like `/guide/index.html` and `/guide/`).
 */
function folderOf(url: string): string {
  const path = bare(url);
  const slash = path.lastIndexOf('/');
  const last = path.slice(slash + 1);
  return last === '' || last.includes('.') ? path.slice(0, slash + 1) : `${path}/`;
}

/** The folder a URL's path sits in: `/guide/install/` and `/guide/install.html` sit in `/guide/`. */
function parentFolderOf(url: string): string {
  const path = bare(url).replace(/\/$/, '');
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** Whether the page is its folder's own page: `/guide/`, `/guide/index.html` or `/guide` for `/guide/`. */
function headsFolder(url: string): boolean {
  const last = bare(url).split('/').at(-1) ?? '';
  return last === '' || !last.includes('.') || /^index\.[a-z0-9]+$/i.test(last);
}

/**
 * The folder a page belongs to as a part: `/reference/datamodel.html` to `/reference/`; a page that
 * heads its folder (`/reference/index.html`, `/guide`) to the folder above, as that folder's part.
 */
function containerOf(url: string): string {
  return headsFolder(url) ? parentFolderOf(folderOf(url)) : folderOf(url);
}

/** How many of `targets` are parts of each folder, counted into every folder above theirs too. */
function folderCounts(targets: SourcePage[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const target of targets) {
    let folder = containerOf(target.finalUrl);
    // Up to the origin's root ("https://host/"), whose own parent is the scheme's "https://".
    while (folder.length > 0 && /^[a-z][a-z0-9+.-]*:\/\/[^/]+\//i.test(folder)) {
      counts.set(folder, (counts.get(folder) ?? 0) + 1);
      folder = parentFolderOf(folder);
    }
  }
  return counts;
}

/** What being the folder's own page weighs, above any count of links. */
const HEADS = 1e9;

/**
 * The pages in reading order: each page under the page that lists it as part of its own folder
 * (its "home": of the pages linking to it from a folder that holds it, the folder's own page (its
 * index), else the one with the most links into that folder, as a contents page has; else the
 * first page to link to it), children in the order their home links them, the tree read
 * breadth-first from the page at `startUrl` (else the shallowest page). A plain breadth-first walk of the links put a chapter wherever the first
 * cross-reference to it was met: a "What's New" page that mentions the data model listed
 * "3. Data model" before "1. Introduction". Pages no link reaches follow in depth-then-URL order.
 * Deterministic: the same pages give the same order whatever order they come in.
 */
export function readingOrder(pages: SourcePage[], startUrl: string): SourcePage[] {
  const sorted = [...pages].sort(byDepthThenUrl);
  const byKey = new Map<string, SourcePage>();
  for (const page of sorted) for (const key of pageKeys(page)) if (!byKey.has(key)) byKey.set(key, page);
  const start = byKey.get(dedupeKey(startUrl)) ?? sorted[0];
  if (!start) return [];
  const cache = new Map<string, string | null>();
  // Breadth-first over every link: which pages are reached, in what order, and who links whom.
  const links = new Map<SourcePage, SourcePage[]>();
  const seen = new Set<SourcePage>([start]);
  const reached: SourcePage[] = [start];
  for (let head = 0; head < reached.length; head++) {
    const page = reached[head] as SourcePage;
    const targets: SourcePage[] = [];
    const listed = new Set<SourcePage>();
    for (const key of linksOf(page, cache)) {
      const target = byKey.get(key);
      if (!target || target === page || listed.has(target)) continue;
      listed.add(target);
      targets.push(target);
      if (!seen.has(target)) {
        seen.add(target);
        reached.push(target);
      }
    }
    links.set(page, targets);
  }
  const home = new Map<SourcePage, SourcePage>();
  const weight = new Map<SourcePage, number>();
  for (const page of reached) {
    const folder = folderOf(page.finalUrl);
    const heads = headsFolder(page.finalUrl);
    const targets = links.get(page) ?? [];
    let counts: Map<string, number> | undefined;
    for (const target of targets) {
      if (target === start) continue;
      // -1: a cross-reference from outside the target's folder; else how much of that folder the
      // page lists, and above any count the folder's own page (its index) linking its pages.
      let holds = -1;
      const container = containerOf(target.finalUrl);
      if (container.startsWith(folder)) {
        counts ??= folderCounts(targets);
        holds = (counts.get(container) ?? 0) + (heads && folder === container ? HEADS : 0);
      }
      // Pages come in breadth-first order, so on a tie the first linker stays.
      if (!home.has(target) || holds > (weight.get(target) ?? -1)) {
        home.set(target, page);
        weight.set(target, holds);
      }
    }
  }
  const children = new Map<SourcePage, SourcePage[]>();
  for (const page of reached) {
    for (const target of links.get(page) ?? []) if (home.get(target) === page) (children.get(page) ?? children.set(page, []).get(page))?.push(target);
  }
  const order: SourcePage[] = [start];
  for (let head = 0; head < order.length; head++) order.push(...(children.get(order[head] as SourcePage) ?? []));
  // Two pages that are each other's home (and the pages under them) hang from no page the start
  // reaches: they follow in the breadth-first order they were reached in.
  if (order.length < reached.length) {
    const placed = new Set(order);
    for (const page of reached) if (!placed.has(page)) order.push(page);
  }
  for (const page of sorted) if (!seen.has(page)) order.push(page);
  return order;
}
