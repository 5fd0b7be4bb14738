import { concatBytes } from './bytes';
import { describeNetworkError } from './errors';

/**
 * One small-file fetch with the limits discovery needs: a timeout, a redirect
 * cap, a size cap and a plain-words reason on every failure. `fetch` comes in
 * as a parameter so lib/ runs in Node tests against loopback servers.
 */

export interface FetchTextOptions {
  /** The fetch to use: the browser's in the extension, a loopback-resolving one in tests. */
  fetch: typeof fetch;
  timeoutMs?: number;
  maxRedirects?: number;
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
   * Asked before each redirect hop (where the runtime shows hops: not in browsers): null
   * to follow, else why not — fetchText then fails with that reason and the target never
   * gets a request. Discovery passes the private-network guard here.
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
  redirects: number;
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
 * unpacked). Redirects are followed by hand where the runtime exposes them
 * (Node); browsers hide redirect targets from `redirect: 'manual'`, so there the
 * browser follows them and `finalUrl` tells where it ended.
 */
export async function fetchText(url: string, options: FetchTextOptions): Promise<TextResponse> {
  const { timeoutMs = 5000, maxRedirects = 3, maxBytes = 10 * 1024 * 1024 } = options;
  const started = Date.now();
  const signal = AbortSignal.timeout(timeoutMs);
  let current = url;
  let redirects = 0;
  const credentialsOf = (target: string): RequestCredentials =>
    typeof options.credentials === 'function' ? options.credentials(target) : options.credentials ?? 'include';
  for (;;) {
    let res: Response;
    try {
      res = await options.fetch(current, {
        headers: { accept: options.accept ?? DEFAULT_ACCEPT },
        credentials: credentialsOf(current),
        redirect: 'manual',
        signal,
      });
      if (res.type === 'opaqueredirect') res = await followHidden(current, options, credentialsOf, signal);
    } catch (error) {
      throw new FetchFailure(current, describeError(error, timeoutMs));
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      void res.body?.cancel();
      if (++redirects > maxRedirects) throw new FetchFailure(url, `More than ${maxRedirects} redirects`);
      const target = new URL(location, current).href;
      const refused = options.checkRedirect?.(target);
      if (refused) throw new FetchFailure(url, `Redirected to ${target}: ${refused}`);
      current = target;
      continue;
    }
    const { text, bytes, truncated } = await readBody(res, maxBytes).catch((error: unknown) => {
      throw new FetchFailure(current, describeError(error, timeoutMs));
    });
    return {
      url,
      finalUrl: res.url || current,
      status: res.status,
      contentType: (res.headers.get('content-type') ?? '').toLowerCase(),
      headers: res.headers,
      text,
      bytes,
      truncated,
      redirects: redirects + (res.redirected ? 1 : 0),
      ms: Date.now() - started,
    };
  }
}

/**
 * A redirect the browser will not show (redirect: 'manual' gave an opaque response): the
 * browser follows it, carrying this URL's credentials to wherever it leads. So when cookies
 * would go, it is followed without them first, and asked again with them only when the chain
 * ends where they belong — one more request, for redirected files only.
 */
async function followHidden(url: string, options: FetchTextOptions, credentialsOf: (u: string) => RequestCredentials, signal: AbortSignal): Promise<Response> {
  const init = { headers: { accept: options.accept ?? DEFAULT_ACCEPT }, signal };
  const mode = credentialsOf(url);
  if (mode === 'omit' || typeof options.credentials !== 'function') return options.fetch(url, { ...init, credentials: mode });
  const bare = await options.fetch(url, { ...init, credentials: 'omit' });
  if (credentialsOf(bare.url || url) !== 'include') return bare;
  void bare.body?.cancel().catch(() => undefined);
  return options.fetch(url, { ...init, credentials: mode });
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
