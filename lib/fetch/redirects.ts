/**
 * Redirects for the page fetcher, one hop at a time where the runtime shows them.
 *
 * Following by hand lets the crawler check each target before requesting it, so a
 * page that redirects to another site never sends that site a request (with the
 * user's cookies), and a redirect loop is named as one and not retried: fetch's own
 * "redirect count exceeded" read as a network error and was retried three times,
 * 20 requests each.
 *
 * Browsers hide redirect targets from `redirect: 'manual'` (an opaque response,
 * status 0, no Location). There the chain is walked once without credentials to
 * learn where it ends; only when that end passes `check` and is on the same site
 * is it fetched again with the caller's credentials. So a page that redirects to
 * another site never carries the user's cookies there. It costs two extra
 * requests per redirected page, none for the others (a 'manual' request that is
 * not redirected is an ordinary answer).
 */

import { isSameSite } from '../url/site';

/** A redirect chain that no retry can fix: a loop, too many hops, an unusable Location. */
export class RedirectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedirectError';
  }
}

export interface FollowOptions {
  /** Hops followed at most. Default 10: docs sites chain two or three (http→https, add a slash, a new path). */
  maxRedirects?: number;
  /** Asked before each hop: null to follow, else why not. The target is then never requested. */
  check?: (target: string) => string | null;
  /**
   * Credentials per hop, where it differs from `init.credentials`: a same-site file that
   * redirects to another site must not take the user's cookies along (lib/url/credentials.ts).
   */
  credentials?: (url: string) => RequestCredentials;
}

/** Where a request ended: a response (not a followable redirect), or a redirect `check` refused. */
export type Followed =
  | { kind: 'response'; res: Response; finalUrl: string }
  | { kind: 'stopped'; status: number; headers: Headers; target: string; reason: string };

/** Hops followed unless told otherwise, for pages and small files alike. */
export const MAX_REDIRECTS = 10;

// 300 and 305 are not followed by fetch either; 304 is an answer, not a redirect.
const FOLLOWED = new Set([301, 302, 303, 307, 308]);

/**
 * GETs `url` with `init`, following redirects by hand (see the module comment).
 * Throws {@link RedirectError} for a loop, more than `maxRedirects` hops or an
 * invalid Location; other errors are fetch's own.
 */
export async function fetchFollowing(fetchFn: typeof fetch, url: string, init: RequestInit, options: FollowOptions = {}): Promise<Followed> {
  const { maxRedirects = MAX_REDIRECTS, check } = options;
  const credentialsAt = options.credentials ?? (() => init.credentials);
  const chain = [url];
  let current = url;
  for (;;) {
    const res = await fetchFn(current, { ...init, credentials: credentialsAt(current), redirect: 'manual' });
    if (res.type === 'opaqueredirect') return followedByRuntime(fetchFn, current, init, check, credentialsAt);
    const location = FOLLOWED.has(res.status) ? res.headers.get('location') : null;
    if (location === null) return { kind: 'response', res, finalUrl: current };
    void res.body?.cancel().catch(() => undefined);
    const target = resolve(location, current);
    // Fragments never reach the server, so /a and /a#x are the same request.
    if (chain.some((u) => sameRequest(u, target))) throw new RedirectError(`Redirect loop: ${[...chain, target].map((u) => shown(u, url)).join(' → ')}`);
    if (chain.length > maxRedirects) throw new RedirectError(`More than ${maxRedirects} redirects`);
    const reason = check?.(target);
    if (reason) return { kind: 'stopped', status: res.status, headers: res.headers, target, reason };
    chain.push(target);
    current = target;
  }
}

/**
 * Why a hidden redirect chain could not be followed. In Chromium, Scout's network guard rules
 * (private-network-rules.ts) refuse a hop into the user's network inside the browser, before
 * any request is made there; fetch then fails without saying which hop it was.
 */
export const HIDDEN_HOP_REFUSED = 'Redirected to an address Scout does not request (on your own network) or could not reach; nothing was sent there';

async function followedByRuntime(fetchFn: typeof fetch, url: string, init: RequestInit, check: FollowOptions['check'], credentialsAt: (url: string) => RequestCredentials | undefined): Promise<Followed> {
  let probe: Response;
  try {
    probe = await fetchFn(url, { ...init, credentials: 'omit', redirect: 'follow' });
  } catch (error) {
    // The 'manual' request just showed this URL redirects, so the failure is the chain's, not the page's:
    // retrying would only repeat it.
    if (init.signal?.aborted) throw error;
    return { kind: 'stopped', status: 0, headers: new Headers(), target: url, reason: HIDDEN_HOP_REFUSED };
  }
  const end = probe.url || url;
  const reason = end === url ? null : check?.(end);
  if (reason) {
    void probe.body?.cancel().catch(() => undefined);
    return { kind: 'stopped', status: probe.status, headers: probe.headers, target: end, reason };
  }
  const credentials = credentialsAt(url);
  const cookiesGo = credentials !== 'omit' && credentialsAt(end) !== 'omit' && isSameSite(new URL(end).hostname, new URL(url).hostname);
  if (!cookiesGo) return { kind: 'response', res: probe, finalUrl: end };
  // Same site: the cookie-bearing request is the one whose answer counts (logged-in docs may redirect differently).
  void probe.body?.cancel().catch(() => undefined);
  const res = await fetchFn(url, { ...init, credentials, redirect: 'follow' });
  return { kind: 'response', res, finalUrl: res.url || url };
}

function resolve(location: string, base: string): string {
  try {
    const target = new URL(location, base);
    if (target.protocol === 'http:' || target.protocol === 'https:') return target.href;
  } catch {
    // fall through: same reason either way
  }
  throw new RedirectError(`Redirected to an address that is not a web page (${location.slice(0, 200)})`);
}

function sameRequest(a: string, b: string): boolean {
  return a.split('#')[0] === b.split('#')[0];
}

/** Paths for hops on the first URL's origin, whole URLs for the others: short, and still unambiguous. */
function shown(url: string, first: string): string {
  const u = new URL(url);
  return u.origin === new URL(first).origin ? u.pathname + u.search : url;
}
