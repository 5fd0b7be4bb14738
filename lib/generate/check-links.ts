/**
 * Checks that an llms.txt's links answer, politely: a few requests at a time, HEAD first (no
 * body), a time limit per link and a cap on how many links one check may cost a site.
 */
import { NetworkRefused } from '../fetch/guarded-fetch';

/** The outcome for one link, in the order the links were given. */
export interface LinkCheck {
  url: string;
  /** True for a 2xx answer (after redirects). */
  ok: boolean;
  status?: number;
  /** Why it is not ok, or why it was not checked, in plain words. */
  reason?: string;
}

export interface CheckLinksOptions {
  /** The fetch to use: the browser's own in the extension, a loopback one in tests. */
  fetch: typeof fetch;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Time allowed per link, in milliseconds (default 8 000). */
  timeoutMs?: number;
  /** Distinct links checked at most (default 200); later ones are reported as not checked. */
  limit?: number;
  /**
   * The private-network guard of the site the links are from (createNetworkGuard): a link it
   * refuses is reported as not checked, with its reason, and never requested. Redirect hops are
   * the fetch's to guard (guardedFetch in Node; the browser's rules in the extension).
   */
  guard?: (url: string) => string | null;
}

// Servers that do not implement HEAD answer these; the link itself may be fine.
const HEAD_UNSUPPORTED = new Set([405, 501]);

async function request(fetcher: typeof fetch, url: string, method: 'HEAD' | 'GET', signal: AbortSignal): Promise<number> {
  const response = await fetcher(url, { method, redirect: 'follow', signal });
  // Only the status matters; dropping the body frees the connection for the next check.
  await response.body?.cancel().catch(() => undefined);
  return response.status;
}

async function checkOne(url: string, fetcher: typeof fetch, timeoutMs: number, guard: CheckLinksOptions['guard']): Promise<LinkCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, ok: false, reason: 'Not a valid address.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { url, ok: false, reason: `Not checked: ${parsed.protocol.slice(0, -1)} links cannot be fetched.` };
  }
  const refused = guard?.(url);
  if (refused) return { url, ok: false, reason: `Not checked: ${refused}.` };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    let status = await request(fetcher, url, 'HEAD', controller.signal);
    if (HEAD_UNSUPPORTED.has(status)) status = await request(fetcher, url, 'GET', controller.signal);
    const ok = status >= 200 && status < 300;
    return ok ? { url, ok, status } : { url, ok, status, reason: `The server answered HTTP ${status}.` };
  } catch (error) {
    if (controller.signal.aborted) return { url, ok: false, reason: `No answer within ${Math.round(timeoutMs / 100) / 10} s.` };
    if (error instanceof NetworkRefused) return { url, ok: false, reason: `Not checked: ${error.message}.` };
    const message = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    return { url, ok: false, reason: `The request failed: ${message}` };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks each link once (repeated URLs share one request). Never rejects: every failure is a
 * result with a reason. Results come back in input order.
 */
export async function checkLinks(urls: string[], options: CheckLinksOptions): Promise<LinkCheck[]> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const timeoutMs = Math.max(1, options.timeoutMs ?? 8000);
  const limit = Math.max(0, Math.floor(options.limit ?? 200));
  const distinct = [...new Set(urls)];
  const checked = distinct.slice(0, limit);
  const results = new Map<string, LinkCheck>();
  for (const url of distinct.slice(limit)) {
    results.set(url, { url, ok: false, reason: `Not checked: only the first ${limit} links are checked.` });
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < checked.length) {
      const url = checked[next++];
      if (url === undefined) break;
      results.set(url, await checkOne(url, options.fetch, timeoutMs, options.guard));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, checked.length) }, worker));
  return urls.map((url) => results.get(url) ?? { url, ok: false, reason: 'Not checked.' });
}
