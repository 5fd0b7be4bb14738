import { concatBytes } from './bytes';
import { describeNetworkError } from './errors';
import { formatBytes } from '../format';
import { fetchFollowing, RedirectError, type Followed } from './redirects';

/**
 * One small-file fetch with the limits discovery needs: a timeout, a redirect
 * cap, a size cap and a plain-words reason on every failure. `fetch` comes in
 * as a parameter so lib/ runs in Node tests against loopback servers.
 */

export interface FetchTextOptions {
  /** The fetch to use: the browser's in the extension, a loopback-resolving one in tests. */
  fetch: typeof fetch;
  /**
   * How long to wait for the answer, and then for each next piece of its body (default 5 s). A
   * body still arriving is not cut at this: a 50 MB sitemap takes longer than that to read.
   */
  timeoutMs?: number;
  /** How long the whole body may take (default 60 s): a server that trickles ends here. */
  maxMs?: number;
  /** Text above this (counted after unpacking) is cut; `truncated` and `cut` say so. */
  maxBytes?: number;
  /**
   * Takes the text piece by piece as it is decoded, for a reader that need not hold a big file
   * whole (sitemaps); `text` then keeps only the first HEAD_CHARS, for sniffing what the file is.
   */
  onText?: (piece: string) => void;
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
  /** Bytes read off the wire (compressed, for a .gz file). */
  bytes: number;
  /** True when a cap cut the text (size, or time once the body was arriving); `cut` says which, in words. */
  truncated: boolean;
  cut?: string;
  /** Set when the cut was time, not size: the server stalled or was still sending at `maxMs`. */
  cutByTime?: true;
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

/** What `text` keeps of a body handed to `onText`. */
export const HEAD_CHARS = 64 * 1024;

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
  const { timeoutMs = 5000, maxMs = 60_000, maxBytes = 10 * 1024 * 1024 } = options;
  const started = Date.now();
  const clock = new Clock(timeoutMs, maxMs);
  const { signal } = clock;
  const { credentials } = options;
  const credentialsAt = (target: string): RequestCredentials => (typeof credentials === 'function' ? credentials(target) : credentials ?? 'include');
  let followed: Followed;
  try {
    followed = await fetchFollowing(options.fetch, url, { headers: { accept: options.accept ?? DEFAULT_ACCEPT }, signal }, { check: options.checkRedirect, credentials: credentialsAt });
  } catch (error) {
    clock.end();
    throw new FetchFailure(url, error instanceof RedirectError ? error.message : describeError(error, timeoutMs));
  }
  if (followed.kind === 'stopped') {
    clock.end();
    throw new FetchFailure(url, followed.target === url ? followed.reason : `Redirected to ${followed.target}: ${followed.reason}`);
  }
  const { res, finalUrl } = followed;
  const { text, bytes, truncated, cut, cutByTime } = await readBody(res, maxBytes, clock, options.onText)
    .catch((error: unknown) => {
      throw error instanceof FetchFailure ? error : new FetchFailure(finalUrl, describeError(error, timeoutMs));
    })
    .finally(() => clock.end());
  return {
    url,
    finalUrl,
    status: res.status,
    contentType: (res.headers.get('content-type') ?? '').toLowerCase(),
    headers: res.headers,
    text,
    bytes,
    truncated,
    cut,
    ...(cutByTime ? { cutByTime } : {}),
    ms: Date.now() - started,
  };
}

/**
 * The timers over one fetchText: `timeoutMs` for the answer and for each wait between two pieces
 * of its body, `maxMs` over the whole. Either aborts the request; `stopped` says which fired, so a
 * body cut by time keeps what arrived, as a body cut by size does.
 */
class Clock {
  private readonly controller = new AbortController();
  private idle: ReturnType<typeof setTimeout>;
  private readonly total: ReturnType<typeof setTimeout>;
  stopped?: 'idle' | 'total';

  constructor(
    private readonly timeoutMs: number,
    readonly maxMs: number,
  ) {
    this.idle = setTimeout(() => this.stop('idle'), timeoutMs);
    this.total = setTimeout(() => this.stop('total'), maxMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A piece of the body arrived: the wait for the next one starts now. */
  progress(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.stop('idle'), this.timeoutMs);
  }

  end(): void {
    clearTimeout(this.idle);
    clearTimeout(this.total);
  }

  /** What a time cut says, once some of the body was read. */
  cut(read: string): string | undefined {
    if (this.stopped === 'idle') return `The server stopped sending for ${seconds(this.timeoutMs)}: only the first ${read} were read`;
    if (this.stopped === 'total') return `Still arriving after ${seconds(this.maxMs)}: only the first ${read} were read`;
    return undefined;
  }

  private stop(why: 'idle' | 'total'): void {
    this.stopped ??= why;
    this.controller.abort(new DOMException(`Stopped: ${why}`, 'TimeoutError'));
  }
}

const seconds = (ms: number) => `${ms / 1000} s`;

interface ReadBody {
  text: string;
  bytes: number;
  truncated: boolean;
  cut?: string;
  cutByTime?: true;
}

/**
 * Reads at most `maxBytes` of text, counted after unpacking: a .gz file body (gzip magic bytes)
 * is inflated here as a stream, and a Content-Encoding arrives already unpacked by the runtime,
 * chunk by chunk; either way the count is checked on every unpacked chunk, so a small file that
 * unpacks to gigabytes stops at the cap instead of being inflated whole. Bytes are decoded as
 * they arrive, so only the text is kept.
 */
async function readBody(res: Response, maxBytes: number, clock: Clock, onText?: (piece: string) => void): Promise<ReadBody> {
  const reader = res.body?.getReader();
  if (!reader) return { text: '', bytes: 0, truncated: false };
  clock.progress();
  const head: Uint8Array[] = [];
  let wire = 0;
  while (wire < 2) {
    const { done, value } = await reader.read();
    if (done) break;
    clock.progress();
    head.push(value);
    wire += value.byteLength;
  }
  const first = concatBytes(head, wire);
  const gzipFile = first[0] === 0x1f && first[1] === 0x8b;
  // The compressed side has the same cap: a stream that inflates to nothing must end too.
  let wireCut = false;
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.byteLength > 0) controller.enqueue(first);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      clock.progress();
      wire += value.byteLength;
      if (gzipFile && wire > maxBytes) {
        wireCut = true;
        controller.close();
        await reader.cancel().catch(() => undefined);
        return;
      }
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  // DOM typings let DecompressionStream take any BufferSource; it is fed Uint8Arrays only.
  const inflate = () => new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
  const out = (gzipFile ? source.pipeThrough(inflate()) : source).getReader();
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  let kept = 0;
  const take = (piece: string) => {
    if (!onText) return void parts.push(piece);
    onText(piece);
    if (kept < HEAD_CHARS) parts.push(piece.slice(0, HEAD_CHARS - kept));
    kept += piece.length;
  };
  let total = 0;
  let truncated = false;
  let timeCut: string | undefined;
  try {
    for (;;) {
      const { done, value } = await out.read();
      if (done) break;
      if (total + value.byteLength > maxBytes) {
        take(decoder.decode(value.subarray(0, maxBytes - total), { stream: true }));
        total = maxBytes;
        truncated = true;
        await out.cancel().catch(() => undefined);
        break;
      }
      take(decoder.decode(value, { stream: true }));
      total += value.byteLength;
    }
  } catch (error) {
    // The compressed side was cut at the cap, so the inflater saw a file that ends too soon.
    if (wireCut) {
      // Read up to the cut: what it unpacked to is kept.
    } else if (clock.stopped && total > 0) {
      // Cut by time (a stall, or a body still arriving at maxMs): what arrived is kept, as at a size cap.
      timeCut = clock.cut(formatBytes(total));
    } else if (gzipFile && !(error instanceof DOMException)) {
      throw new FetchFailure(res.url, 'The file starts like gzip but could not be unpacked (damaged or cut short)');
    } else throw error;
  }
  truncated ||= wireCut;
  take(decoder.decode());
  const text = parts.join('');
  if (timeCut && !truncated) return { text, bytes: gzipFile ? wire : total, truncated: true, cut: timeCut, cutByTime: true };
  if (!truncated) return { text, bytes: gzipFile ? wire : total, truncated };
  const cap = formatBytes(maxBytes);
  const encoded = /gzip|deflate|br|zstd/i.test(res.headers.get('content-encoding') ?? '');
  const cut = wireCut
    ? `The compressed file is larger than ${cap}: only what its first ${cap} unpack to was read`
    : gzipFile || encoded
      ? `Unpacks to more than ${cap}${gzipFile ? ` (from ${formatBytes(wire)} read so far)` : ''}: only the first ${cap} were read`
      : `Larger than ${cap}: only the first ${cap} were read`;
  return { text, bytes: gzipFile ? wire : total, truncated, cut };
}

function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `No answer within ${seconds(timeoutMs)}`;
  }
  return describeNetworkError(error);
}
