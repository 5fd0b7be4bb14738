/**
 * The private-network guard as a fetch: every request Scout makes outside a browser (the
 * command line, the headless engine) goes through one of these, so no code path — robots.txt,
 * docsify's Markdown, a link check, `scout lint <url>` — can reach the user's machine or
 * network from a public site because it forgot to ask. In the extension the same refusal is
 * the browser's (declarativeNetRequest rules, private-network-rules.ts); here nothing below
 * Scout would refuse.
 *
 * `redirect: 'follow'` is followed here by hand ('manual' shows Location in Node), so every
 * hop is judged before it is requested; credentials in headers (cookies, Authorization) are
 * dropped on a hop to another origin, as browsers drop Authorization. 'manual' and 'error'
 * requests pass through: the caller sees each hop and sends it back through this fetch.
 */
import { FOLLOWED, MAX_REDIRECTS, RedirectError, redirectTarget, sameRequest } from './redirects';

/**
 * A request the guard refused: nothing was sent to `url`. The message is the reason in words,
 * the guard's own ("A loopback address (127.0.0.1): Scout never fetches these from a public
 * site"), after "Redirected to <url>: " when a redirect hop was refused.
 */
export class NetworkRefused extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
    hop: boolean,
  ) {
    super(hop ? `Redirected to ${url}: ${reason}` : reason);
    this.name = 'NetworkRefused';
  }
}

/** Null to go ahead, else why not (createNetworkGuard in lib/url/private-network.ts). */
export type UrlGuard = (url: string | URL) => string | null;

/** Headers that carry who the user is: never sent to another origin than the one asked. */
const CREDENTIAL_HEADERS = ['cookie', 'authorization', 'proxy-authorization'];

/**
 * `fetchFn` behind `guard`: a refused URL (or redirect hop) rejects with {@link NetworkRefused}
 * before anything is sent; a chain longer than `maxRedirects` or looping rejects with a
 * RedirectError. Otherwise answers as `fetchFn` does (the final hop's response, its `url` the
 * hop's, `redirected` set when there were hops).
 */
export function guardedFetch(fetchFn: typeof fetch, guard: UrlGuard, options: { maxRedirects?: number } = {}): typeof fetch {
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const check = (url: string, hop = true) => {
    const reason = guard(url);
    if (reason) throw new NetworkRefused(url, reason, hop);
  };
  return async (input, init) => {
    const request = input instanceof Request ? input : null;
    const first = request ? request.url : input instanceof URL ? input.href : String(input);
    check(first, false);
    if ((init?.redirect ?? request?.redirect ?? 'follow') !== 'follow') return fetchFn(input, init);

    let method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers ?? request?.headers);
    let body = init?.body ?? null;
    if (request?.body && body === null) throw new TypeError('guardedFetch follows redirects itself: pass a request body in init, not in a Request');
    const signal = init?.signal ?? request?.signal;
    const origin = new URL(first).origin;
    const chain = [first];
    let current = first;
    for (;;) {
      const crossOrigin = new URL(current).origin !== origin;
      const res = await fetchFn(current, { ...init, method, headers, body, signal, redirect: 'manual', ...(crossOrigin ? { credentials: 'omit' as const } : {}) });
      // Browsers hide the hops ('manual' gives an opaque answer): there the browser's own rules
      // guard them (private-network-rules.ts), and where the chain ended is judged after.
      if (res.type === 'opaqueredirect') return followedByBrowser(fetchFn, current, { ...init, method, headers, body, signal }, check);
      const location = FOLLOWED.has(res.status) ? res.headers.get('location') : null;
      if (location === null) {
        if (chain.length > 1) Object.defineProperty(res, 'redirected', { value: true });
        return res;
      }
      void res.body?.cancel().catch(() => undefined);
      const target = redirectTarget(location, current);
      if (chain.some((u) => sameRequest(u, target))) throw new RedirectError(`Redirect loop: ${[...chain, target].join(' → ')}`);
      if (chain.length > maxRedirects) throw new RedirectError(`More than ${maxRedirects} redirects`);
      check(target);
      // As fetch does (Fetch standard, "HTTP-redirect fetch"): 303 turns anything but HEAD into a
      // GET, 301/302 turn a POST into a GET; the body goes with the method.
      if ((res.status === 303 && method !== 'HEAD') || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = null;
        headers.delete('content-type');
        headers.delete('content-length');
      }
      if (new URL(target).origin !== origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name);
      chain.push(target);
      current = target;
    }
  };
}

async function followedByBrowser(fetchFn: typeof fetch, url: string, init: RequestInit, check: (url: string) => void): Promise<Response> {
  const res = await fetchFn(url, { ...init, redirect: 'follow' });
  if (res.url && res.url !== url) {
    try {
      check(res.url);
    } catch (error) {
      void res.body?.cancel().catch(() => undefined);
      throw error;
    }
  }
  return res;
}
