/** Every page a document links to: what the crawler may follow next. */
import { pageUrlOf } from './urls';

/**
 * All `<a href>` targets in `document`, navigation included: absolute (against `baseUrl`, i.e.
 * `<base href>` or the page URL), http(s) only, fragment removed, deduplicated, in document order.
 */
export function collectLinks(document: Document, baseUrl: string | undefined): string[] {
  const links = new Set<string>();
  // One tag-name lookup is a single pass over the tree; no selector engine involved.
  for (const anchor of document.getElementsByTagName('a')) {
    const url = pageUrlOf(anchor.getAttribute('href'), baseUrl);
    if (url) links.add(url);
  }
  return [...links];
}
