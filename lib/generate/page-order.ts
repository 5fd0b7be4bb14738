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

/**
 * The pages in reading order: breadth-first from the page at `startUrl` (else the shallowest page)
 * through Markdown links between the given pages; pages no link reaches follow in depth-then-URL
 * order. Deterministic: the same pages give the same order whatever order they come in.
 */
export function readingOrder(pages: SourcePage[], startUrl: string): SourcePage[] {
  const sorted = [...pages].sort(byDepthThenUrl);
  const byKey = new Map<string, SourcePage>();
  for (const page of sorted) for (const key of pageKeys(page)) if (!byKey.has(key)) byKey.set(key, page);
  const start = byKey.get(dedupeKey(startUrl)) ?? sorted[0];
  if (!start) return [];
  const cache = new Map<string, string | null>();
  const seen = new Set<SourcePage>([start]);
  const order: SourcePage[] = [start];
  for (let head = 0; head < order.length; head++) {
    const page = order[head];
    if (!page) break;
    for (const key of linksOf(page, cache)) {
      const target = byKey.get(key);
      if (target && !seen.has(target)) {
        seen.add(target);
        order.push(target);
      }
    }
  }
  for (const page of sorted) if (!seen.has(page)) order.push(page);
  return order;
}
