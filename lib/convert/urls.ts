/** URL resolution for conversion: relative references become absolute, junk becomes undefined. */

/** Parses `href` against `base`; undefined when either is unusable (never throws). */
export function absoluteUrl(href: string | null | undefined, base: string | undefined): URL | undefined {
  if (href == null) return undefined;
  try {
    return new URL(href, base);
  } catch {
    return undefined;
  }
}

/**
 * href → its page URL (http(s), fragment removed) or undefined, for one page's base URL: the
 * steps of one conversion share it, so each distinct href is parsed once (a page with 100,000
 * links parsed each of them in three steps).
 */
export type HrefCache = Map<string, string | undefined>;

/** {@link pageUrlOf}, remembered in `cache` (which must belong to the same `base`). */
export function cachedPageUrl(href: string, base: string | undefined, cache: HrefCache): string | undefined {
  // One lookup for a hit; `has` only tells a remembered undefined (not http(s)) from a miss.
  const known = cache.get(href);
  if (known !== undefined || cache.has(href)) return known;
  const page = pageUrlOf(href, base);
  cache.set(href, page);
  return page;
}

/** Whether a URL is something a crawler can fetch: http or https. */
export function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** The absolute http(s) form of `href` without its fragment, or undefined for anything else. */
export function pageUrlOf(href: string | null | undefined, base: string | undefined): string | undefined {
  const url = absoluteUrl(href, base);
  if (!url || !isHttp(url)) return undefined;
  url.hash = '';
  return url.href;
}

// Schemes that make sense as Markdown link targets; `javascript:`, `data:` and the like do not.
const LINKABLE_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:', 'ftp:']);

/** The absolute form of a link target for Markdown (fragment kept), or undefined if not linkable. */
export function linkTarget(href: string | null | undefined, base: string | undefined): string | undefined {
  const url = absoluteUrl(href, base);
  return url && LINKABLE_SCHEMES.has(url.protocol) ? url.href : undefined;
}
