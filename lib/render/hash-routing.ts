/**
 * Does a rendered page route by hash? Single-page apps built on a hash router (docsify, Vue and
 * React apps with `createHashHistory`, older Angular) link their pages as `#/path` on one
 * document. Such routes are pages for that site only; everywhere else a fragment is a place in
 * the page and is dropped (lib/url/normalize.ts).
 */

/** Fewer distinct routes than this could be a stray `#/` link, not a router. */
const MIN_ROUTES = 2;

/** True when `links` (absolute, fragments kept) hold at least two distinct `#/…` routes on the page's own document. */
export function routesByHash(pageUrl: string, links: string[]): boolean {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    return false;
  }
  const routes = new Set<string>();
  for (const link of links) {
    try {
      const url = new URL(link);
      if (url.origin !== page.origin || url.pathname !== page.pathname) continue;
      const route = /^#!?\/[^?]*/.exec(url.hash)?.[0];
      if (route && route !== '#/' && route !== '#!/') routes.add(route);
    } catch {
      // Not a URL: no route.
    }
    if (routes.size >= MIN_ROUTES) return true;
  }
  return false;
}
