/** Every page a document links to: what the crawler may follow next. */
import { pruneNonText } from './clean';
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

/**
 * {@link pruneNonText} of `root` (the document element, or the body when there is none), then
 * {@link collectLinks} of `document`, in one walk over the document instead of two: the links
 * are read as the pruning walk passes them. When the document holds elements outside `root`
 * (linkedom keeps a stray top-level element beside the first), the two run apart as before.
 */
export function pruneAndCollectLinks(document: Document, root: Element, baseUrl: string | undefined, hrefs: HrefCache = new Map()): string[] {
  if (root !== document.documentElement || root.nextElementSibling !== null) {
    pruneNonText(root);
    return collectLinks(document, baseUrl, hrefs);
  }
  const links = new Set<string>();
  pruneNonText(root, (anchor) => {
    const href = anchor.getAttribute('href');
    const url = href === null ? undefined : cachedPageUrl(href, baseUrl, hrefs);
    if (url) links.add(url);
  });
  return [...links];
}
