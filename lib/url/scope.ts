import picomatch from 'picomatch';
import { createNetworkGuard } from './private-network';
import { isSameSite } from './site';
import { otherVariant } from './variants';
import { outsideBoundary, type DocsBoundary } from './boundary';

export { outsideBoundary } from './boundary';

/**
 * How far a crawl may wander from its start page:
 * - `docs`: the documentation's boundary (boundary.ts); without one, the start page's host;
 * - `site`: the start page's registrable domain, subdomains included (docs. and api.example.com);
 * - `host`: exactly the start page's host (and port);
 * - `path`: the start host, under the start page's directory.
 */
export type ScopeMode = 'docs' | 'site' | 'host' | 'path';

export interface ScopeOptions {
  startUrl: string;
  mode: ScopeMode;
  /** Globs; when any are given, a URL must match at least one. */
  include?: string[];
  /** Globs; a match puts the URL out of scope even when an include matches. */
  exclude?: string[];
  /** Follow links into other versions and languages of the docs (see variants.ts); off by default. */
  otherVariants?: boolean;
  /** Where the documentation is, for the `docs` mode. */
  boundary?: DocsBoundary;
}

type Matcher = { pattern: string; test: (url: URL) => boolean };

/**
 * The scope check: null when the URL is in scope, else why not. It takes a parsed URL too, so a
 * caller that has one (a page's links, already normalized) does not pay for another parse.
 */
export type Scope = (url: string | URL) => string | null;

/**
 * Builds the scope check for a crawl. The returned function gives null when the
 * URL is in scope, else the reason it is not, in words shown next to the URL
 * (e.g. "Outside the site (other.test)", "Outside /docs/",
 * "Excluded by pattern /blog/**", "Not matched by any include pattern"). Unless asked, it keeps
 * to the start page's version and language of the docs ("Another version of the docs (3.2; …)").
 *
 * Glob patterns (picomatch; `**` spans segments, `*` does not) are matched
 * against the URL's path, and against its path plus query, so `/docs/*.html`
 * also covers `/docs/a.html?v=2` while `/search?q=*` can target a query. A
 * pattern starting with http:// or https:// is matched against the full URL.
 * A pattern without a leading slash is taken from the root (`blog/**` ≡ `/blog/**`).
 *
 * The private-network guard (private-network.ts) comes first, so no mode, include
 * pattern or redirect can take a crawl from a public site into the user's own network,
 * and a refused URL carries that reason rather than a generic "outside the site". It
 * lives here so every caller of the scope — classification of found links, seeds,
 * redirect hops — gets it without a second check to forget.
 *
 * Throws an Error naming the pattern when a glob is invalid or the start URL
 * is not an http(s) URL, so settings can be validated by calling this.
 */
export function createScope(options: ScopeOptions): Scope {
  const start = parseWebUrl(options.startUrl);
  if (!start) throw new Error(`The start page is not a web address: ${options.startUrl}`);
  const prefix = directoryOf(start.pathname);
  const include = compileAll(options.include);
  const exclude = compileAll(options.exclude);
  const guard = createNetworkGuard(start.href);

  return (raw) => {
    const url = parseWebUrl(raw);
    if (!url) return 'Not a valid URL';
    const refused = guard(url);
    if (refused) return refused;
    const variant = options.otherVariants ? null : otherVariant(start.href, url.href);
    const { boundary } = options;
    if (options.mode === 'docs' && !isSameSite(start.hostname, url.hostname)) {
      // Another site is never documentation of this one, boundary or not: said as the site scope says it.
      return `Outside the site (${url.hostname})`;
    }
    if (options.mode === 'docs' && boundary) {
      // Another version is named as such (the panel offers it as a crawl of its own), before the boundary's reason.
      if (variant) return variant;
      // The start page itself is always in: it may sit above the docs it redirects into (`/` → `/en/stable/`).
      const outside = url.href === start.href ? null : outsideBoundary(boundary, url);
      if (outside) return outside;
    } else {
      const outside = checkMode(options.mode, start, url, prefix);
      if (outside) return outside;
      if (variant) return variant;
    }
    const excluded = exclude.find((m) => m.test(url));
    if (excluded) return `Excluded by pattern ${excluded.pattern}`;
    if (include.length > 0 && !include.some((m) => m.test(url))) return 'Not matched by any include pattern';
    return null;
  };
}

function checkMode(mode: ScopeMode, start: URL, url: URL, prefix: string): string | null {
  if (mode === 'site') {
    // Ports are ignored here: a site is a registrable domain, not an origin.
    return isSameSite(start.hostname, url.hostname) ? null : `Outside the site (${url.hostname})`;
  }
  // `host` includes a non-default port: localhost:3000 and localhost:8080 are different apps.
  if (url.host !== start.host) return `On another host (${url.host})`;
  if (mode === 'path') {
    // `/docs/guide` (no slash) is the directory page of `/docs/guide/` and stays in scope.
    // Case-sensitive on purpose, matching the normalization policy (servers are).
    const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
    if (!path.startsWith(prefix)) return `Outside ${prefix}`;
  }
  return null;
}

/** The directory a relative link on this page resolves against: `/docs/guide/intro.html` → `/docs/guide/`. */
function directoryOf(pathname: string): string {
  return pathname.slice(0, pathname.lastIndexOf('/') + 1) || '/';
}

function compileAll(patterns: string[] | undefined): Matcher[] {
  return (patterns ?? []).map((p) => p.trim()).filter((p) => p !== '').map(compile);
}

function compile(pattern: string): Matcher {
  const full = /^https?:\/\//i.test(pattern);
  const glob = full || pattern.startsWith('/') || pattern.startsWith('*') ? pattern : `/${pattern}`;
  let isMatch: (text: string) => boolean;
  try {
    // dot: `/**` must cover `/.well-known/…`; strictBrackets and debug make picomatch
    // throw on unbalanced brackets and bad ranges instead of silently matching nothing.
    isMatch = picomatch(glob, { dot: true, strictBrackets: true, debug: true });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`Invalid pattern "${pattern}": ${why}`);
  }
  return {
    pattern,
    test: full
      ? (url) => isMatch(url.href) || isMatch(url.origin + url.pathname)
      : (url) => isMatch(url.pathname) || (url.search !== '' && isMatch(url.pathname + url.search)),
  };
}

/** An http(s) URL without its fragment: the caller's own URL object when that is already so (never changed). */
function parseWebUrl(raw: string | URL): URL | null {
  if (typeof raw !== 'string' && (raw.protocol === 'http:' || raw.protocol === 'https:') && raw.hash === '') return raw;
  try {
    const url = new URL(typeof raw === 'string' ? raw : raw.href);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url;
  } catch {
    return null;
  }
}
