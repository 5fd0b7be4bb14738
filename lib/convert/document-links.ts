/** Every page a document links to: what the crawler may follow next. */
import { cachedPageUrl, type HrefCache } from './urls';

/**
 * All `<a href>` targets in `document`, navigation included: absolute (against `baseUrl`, i.e.
 * `<base href>` or the page URL), http(s) only, fragment removed, deduplicated, in document order.
 */
export function collectLinks(document: Document, baseUrl: string | undefined, hrefs: HrefCache = new Map()): string[] {
  const links = new Set<string>();
  // One tag-name lookup is a single pass over the tree; no selector engine involved.
  for (const anchor of document.getElementsByTagName('a')) {
    const href = anchor.getAttribute('href');
    // A docs page links the same targets many times (sidebar, body, index); each is resolved once.
    const url = href === null ? undefined : cachedPageUrl(href, baseUrl, hrefs);
    if (url) links.add(url);
  }
  return [...links];
}
