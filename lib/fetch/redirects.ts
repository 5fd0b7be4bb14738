/**
 * Redirects for the page fetcher, one hop at a time where the runtime shows them.
 *
 * Following by hand lets the crawler check each target before requesting it, so a
 * page that redirects to another site never sends that site a request (with the
 * user's cookies), and a redirect loop is named as one and not retried: fetch's own
 * "redirect count exceeded" read as a network error and was retried three times,
 * 20 requests each.
 *
 * The rule for the user's cookies: a request that may carry them is only ever made with
 * `redirect: 'manual'`, to a URL that `check` allowed and that is on the same site as the
 * URL asked for. So whatever a server answers, the browser never takes the cookies one hop
 * further on its own. Where hops show (Node), each hop is a new request under that rule.
 *
 * Browsers hide redirect targets from `redirect: 'manual'` (an opaque response,
 * status 0, no Location; Chromium and Firefox alike). There the chain is walked once
 * without credentials to learn where it ends; that end is checked, and only when it is on
 * the same site is it requested with the caller's credentials — again with 'manual'. A
 * server may answer the cookie-bearing request differently (a hostile site redirects
 * signed-in requests to another site it knows the user is logged in to); when that
 * request redirects again, Scout cannot see where to and stops with a reason
 * ({@link SIGNED_IN_REDIRECT}). It does not fall back to the cookie-less answer: that would
 * store a signed-out page (often a login page) as if it were what the user sees, in a crawl
 * whose point is the signed-in docs. Costs: two extra requests per redirected page, none
 * for the others (a 'manual' request that is not redirected is an ordinary answer).
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

/** Statuses fetch follows: 300 and 305 are not followed by fetch either; 304 is an answer, not a redirect. */
export const FOLLOWED = new Set([301, 302, 303, 307, 308]);

/**
 * GETs `url` with `init`, following redirects by hand (see the module comment).
 * Throws {@link RedirectError} for a loop, more than `maxRedirects` hops or an
 * invalid Location; other errors are fetch's own.
 */
export async function fetchFollowing(fetchFn: typeof fetch, url: string, init: RequestInit, options: FollowOptions = {}): Promise<Followed> {
  const { maxRedirects = MAX_REDIRECTS, check } = options;
  const credentialsAt = credentialsRule(url, options.credentials ?? (() => init.credentials));
  const chain = [url];
  let current = url;
  for (;;) {
    const res = await fetchFn(current, { ...init, credentials: credentialsAt(current), redirect: 'manual' });
    if (res.type === 'opaqueredirect') return followedByRuntime(fetchFn, current, init, check, credentialsAt);
    const location = FOLLOWED.has(res.status) ? res.headers.get('location') : null;
    if (location === null) return { kind: 'response', res, finalUrl: current };
    void res.body?.cancel().catch(() => undefined);
    const target = redirectTarget(location, current);
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
 * The caller's credentials per URL, narrowed to the site of the URL asked for: a hop to
 * another site goes without cookies whatever the caller said (its `credentials` may be a
 * constant 'include', right for the page asked for and wrong for where it redirects).
 */
function credentialsRule(url: string, asked: (url: string) => RequestCredentials | undefined): (target: string) => RequestCredentials | undefined {
  const site = hostOf(url);
  return (target) => {
    if (target === url) return asked(target);
    const host = hostOf(target);
    return host !== null && site !== null && isSameSite(host, site) ? asked(target) : 'omit';
  };
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/**
 * Why a hidden redirect chain could not be followed. The browser's fetch fails the same way
 * ("Failed to fetch", nothing more) for a chain that loops or runs past its 20 hops, for a hop
 * that Scout's network guard rules (private-network-rules.ts) refused inside the browser before
 * any request was made there, and for a hop whose server did not answer; so the reason names
 * each, and says which one is sure: nothing went to the user's network.
 */
export const HIDDEN_HOP_REFUSED =
  'Its redirects could not be followed: they loop or run past 20 hops, or lead to an address Scout does not request (on your own network) or that did not answer — the browser does not say which. Nothing was sent to your network';

/** Why a page that redirects only when the user's cookies go along was not followed (see the module comment). */
export const SIGNED_IN_REDIRECT =
  'Redirects elsewhere when you are signed in; Scout cannot see where in this browser, so it did not follow with your cookies';

async function followedByRuntime(fetchFn: typeof fetch, current: string, init: RequestInit, check: FollowOptions['check'], credentialsAt: (url: string) => RequestCredentials | undefined): Promise<Followed> {
  let probe: Response;
  try {
    probe = await fetchFn(current, { ...init, credentials: 'omit', redirect: 'follow' });
  } catch (error) {
    // The 'manual' request just showed this URL redirects, so the failure is the chain's, not the page's:
    // retrying would only repeat it.
    if (init.signal?.aborted) throw error;
    return { kind: 'stopped', status: 0, headers: new Headers(), target: current, reason: HIDDEN_HOP_REFUSED };
  }
  const end = probe.url || current;
  const reason = end === current ? null : check?.(end);
  if (reason) {
    void probe.body?.cancel().catch(() => undefined);
    return { kind: 'stopped', status: probe.status, headers: probe.headers, target: end, reason };
  }
  // Another site, or a caller that sends no cookies: the cookie-less answer is the answer.
  const credentials = credentialsAt(end);
  if (credentials === 'omit' || credentialsAt(current) === 'omit') return { kind: 'response', res: probe, finalUrl: end };
  // Same site: the cookie-bearing answer is the one that counts (logged-in docs may differ), asked of
  // the checked end itself and without letting the browser follow anything further.
  void probe.body?.cancel().catch(() => undefined);
  // Without cookies this URL answered; with them it redirected (the first, 'manual' request).
  if (end === current) return signedInRedirect(current);
  const res = await fetchFn(end, { ...init, credentials, redirect: 'manual' });
  if (res.type === 'opaqueredirect' || FOLLOWED.has(res.status)) {
    void res.body?.cancel().catch(() => undefined);
    return signedInRedirect(end);
  }
  return { kind: 'response', res, finalUrl: end };
}

function signedInRedirect(target: string): Followed {
  return { kind: 'stopped', status: 0, headers: new Headers(), target, reason: SIGNED_IN_REDIRECT };
}

/** A Location header as the absolute http(s) URL it points to, or a RedirectError naming it. */
export function redirectTarget(location: string, base: string): string {
  try {
    const target = new URL(location, base);
    if (target.protocol === 'http:' || target.protocol === 'https:') return target.href;
  } catch {
    // fall through: same reason either way
  }
  throw new RedirectError(`Redirected to an address that is not a web page (${location.slice(0, 200)})`);
}

/** Fragments never reach the server, so /a and /a#x are the same request. */
export function sameRequest(a: string, b: string): boolean {
  return a.split('#')[0] === b.split('#')[0];
}

/** Paths for hops on the first URL's origin, whole URLs for the others: short, and still unambiguous. */
function shown(url: string, first: string): string {
  const u = new URL(url);
  return u.origin === new URL(first).origin ? u.pathname + u.search : url;
}
