/** Every page a document links to: what the crawler may follow next. */
import { pageUrlOf } from './urls';

/**
 * All `<a href>` targets in `document`, navigation included: absolute (against `baseUrl`, i.e.
 * `<base href>` or the page URL), http(s) only, fragment removed, deduplicated, in document order.
 */
export function collectLinks(document: Document, baseUrl: string | undefined): string[] {
  const links = new Set<string>();
  // A docs page links the same targets many times (sidebar, body, index); each is resolved once.
  const seen = new Set<string | null>();
  // One tag-name lookup is a single pass over the tree; no selector engine involved.
  for (const anchor of document.getElementsByTagName('a')) {
    const href = anchor.getAttribute('href');
    if (seen.has(href)) continue;
    seen.add(href);
    const url = pageUrlOf(href, baseUrl);
    if (url) links.add(url);
  }
  return [...links];
}
