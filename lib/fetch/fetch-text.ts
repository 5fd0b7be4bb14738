import { concatBytes } from './bytes';
import { describeNetworkError } from './errors';
import { fetchFollowing, RedirectError, type Followed } from './redirects';

/**
 * One small-file fetch with the limits discovery needs: a timeout, a redirect
 * cap, a size cap and a plain-words reason on every failure. `fetch` comes in
 * as a parameter so lib/ runs in Node tests against loopback servers.
 */

export interface FetchTextOptions {
  /** The fetch to use: the browser's in the extension, a loopback-resolving one in tests. */
  fetch: typeof fetch;
  timeoutMs?: number;
  /** Bodies above this are cut; `truncated` says so. */
  maxBytes?: number;
  accept?: string;
  /**
   * Default 'include'. A function is asked per request, redirect hops included (where the
   * runtime shows them), so a same-site file that redirects to another site does not take
   * the user's cookies along: see credentialsFor in lib/url/credentials.ts.
   */
  credentials?: RequestCredentials | ((url: string) => RequestCredentials);
  /**
   * Asked before each redirect hop (where the runtime shows hops; in browsers, of where the
   * hidden chain ended): null to follow, else why not — fetchText then fails with that reason
   * and, where hops show, the target never gets a request. Discovery passes the private-network
   * guard here. Hops are limited to MAX_REDIRECTS (redirects.ts), as for pages.
   */
  checkRedirect?: (target: string) => string | null;
}

export interface TextResponse {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string;
  headers: Headers;
  text: string;
  bytes: number;
  truncated: boolean;
  ms: number;
}

/** A fetch that failed before any HTTP status: the reason is shown to the user as is. */
export class FetchFailure extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'FetchFailure';
  }
}

export const DEFAULT_ACCEPT = 'text/markdown, text/html;q=0.9, */*;q=0.8';

/**
 * GETs `url` and decodes the body as text (gzip files such as sitemap.xml.gz are
 * unpacked). Redirects go through the page fetcher's loop (fetchFollowing): hops
 * checked one by one where the runtime shows them (Node), a loop named as one, the
 * same hop limit; browsers hide redirect targets, so there the chain's end is learnt
 * without cookies and checked first. Cookies go only, with `redirect: 'manual'`, to
 * checked URLs on the site asked for, and `finalUrl` is where the answer came from.
 */
export async function fetchText(url: string, options: FetchTextOptions): Promise<TextResponse> {
  const { timeoutMs = 5000, maxBytes = 10 * 1024 * 1024 } = options;
  const started = Date.now();
  const signal = AbortSignal.timeout(timeoutMs);
  const { credentials } = options;
  const credentialsAt = (target: string): RequestCredentials => (typeof credentials === 'function' ? credentials(target) : credentials ?? 'include');
  let followed: Followed;
  try {
    followed = await fetchFollowing(options.fetch, url, { headers: { accept: options.accept ?? DEFAULT_ACCEPT }, signal }, { check: options.checkRedirect, credentials: credentialsAt });
  } catch (error) {
    throw new FetchFailure(url, error instanceof RedirectError ? error.message : describeError(error, timeoutMs));
  }
  if (followed.kind === 'stopped') throw new FetchFailure(url, followed.target === url ? followed.reason : `Redirected to ${followed.target}: ${followed.reason}`);
  const { res, finalUrl } = followed;
  const { text, bytes, truncated } = await readBody(res, maxBytes).catch((error: unknown) => {
    throw new FetchFailure(finalUrl, describeError(error, timeoutMs));
  });
  return {
    url,
    finalUrl,
    status: res.status,
    contentType: (res.headers.get('content-type') ?? '').toLowerCase(),
    headers: res.headers,
    text,
    bytes,
    truncated,
    ms: Date.now() - started,
  };
}

async function readBody(res: Response, maxBytes: number): Promise<{ text: string; bytes: number; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  const reader = res.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - total));
      total = maxBytes;
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  let body = concatBytes(chunks, total);
  // A .gz file (not Content-Encoding, which fetch already undid) starts with the gzip magic bytes.
  if (!truncated && body[0] === 0x1f && body[1] === 0x8b) body = await gunzip(body);
  return { text: new TextDecoder('utf-8').decode(body), bytes: total, truncated };
}

async function gunzip(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `No answer within ${timeoutMs / 1000} s`;
  }
  return describeNetworkError(error);
}
