/**
 * Fetching one page for the crawler: Accept negotiation (Markdown first), the
 * page's `.md` twin, retries with backoff and Retry-After, conditional requests,
 * charset decoding, a hard size cap, redirects checked hop by hop where the
 * runtime allows (redirects.ts) and plain-words reasons. `fetch` comes in as
 * a parameter (the browser's, with the user's cookies; a loopback one in tests).
 *
 * `fetchPageBody` leaves an HTML page's bytes undecoded for the converter; `fetchPage` decodes them.
 *
 * `fetchPage` never throws: every outcome, cancellation included ("Cancelled"),
 * is a result. A caller that aborts on pause must check its own signal before
 * recording a 'failed' result, and put the URL back to pending instead.
 */
import { LOOKS_LIKE_HTML_CHARS, looksLikeHtml, notFoundReason } from './soft-404';
import { NetworkRefused } from './guarded-fetch';
import { RedirectError } from './redirects';
import { decodeBody, decodeHead, isBlankBody, looksLikeMarkdown, mimeOf, sniffBinary } from './body';
import { exchange, type Answer } from './exchange';
import { formatBytes } from '../format';
import { statusReason } from './status';

export interface PageFetchOptions {
  fetch: typeof fetch;
  /** Per request, headers and body together. Default 10 000. */
  timeoutMs?: number;
  /** Retries after the first attempt, on network errors, timeouts, 429 and 5xx gateways. Default 3. */
  maxRetries?: number;
  /** Backoff base: retry n waits a random time in [0, base·2ⁿ) (full jitter). Default 500. */
  baseDelayMs?: number;
  /** A longer Retry-After fails the URL with that reason instead of stalling the crawl. Default 60 000. */
  maxRetryAfterMs?: number;
  /** Bigger bodies are skipped with a reason; reading stops at the limit. Default 5 MB. */
  maxBytes?: number;
  /** Default 'include': logged-in docs need the user's cookies. */
  credentials?: RequestCredentials;
  /** Try the page's Markdown twins (see {@link markdownTwinCandidates}) before the page. */
  tryMarkdownTwin?: boolean;
  /** Cancel: aborts requests and retry waits. */
  signal?: AbortSignal;
  /** `retryAfter` when the wait is the server's own Retry-After (a pause it asked for), not a backoff. */
  onRetry?: (info: { url: string; attempt: number; waitMs: number; reason: string; status?: number; retryAfter: boolean }) => void;
  /** Validators from the previous fetch of this URL (same tryMarkdownTwin setting). */
  conditional?: { etag?: string; lastModified?: string };
  /**
   * Asked before each redirect hop (where the runtime shows hops; in browsers, of where the
   * hidden chain ended, learnt without cookies): null to follow, else why not — the result
   * is then 'skipped' with that reason and the target never gets a cookie-bearing request
   * (where hops show, no request at all). The crawler passes its scope check here.
   */
  checkRedirect?: (target: string) => string | null;
}

type Fetched = { url: string; finalUrl: string; status: number; contentType: string; etag?: string; lastModified?: string; bytes: number; retries: number };

/** What {@link fetchPage} gives back; an HTML page comes decoded, as `html`. */
export type PageFetchResult = OtherResult | (Fetched & { kind: 'html'; html: string });

/**
 * What {@link fetchPageBody} gives back; an HTML page comes as its undecoded `body`, for the
 * converter to decode ({@link decodeBody}, with `sniffMeta`) where it parses the page.
 */
export type PageBodyResult = OtherResult | HtmlBodyResult;
export type HtmlBodyResult = Fetched & { kind: 'html'; body: Uint8Array };

type OtherResult =
  | (Fetched & { kind: 'markdown'; markdown: string; twinUrl?: string })
  | { kind: 'not-modified'; url: string; status: 304; retries: number }
  | { kind: 'skipped'; url: string; finalUrl?: string; status?: number; reason: string }
  | { kind: 'failed'; url: string; status?: number; reason: string; retries: number };

/** Options with defaults applied. */
type Settings = Required<Pick<PageFetchOptions, 'fetch' | 'timeoutMs' | 'maxRetries' | 'baseDelayMs' | 'maxRetryAfterMs' | 'maxBytes' | 'credentials'>> & PageFetchOptions;

const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
const TWIN_TYPES = new Set(['text/markdown', 'text/x-markdown', 'text/plain']);
const PAGE_TYPES = new Set(['text/markdown', 'text/x-markdown', 'text/plain', 'text/html', 'application/xhtml+xml', '']);
// Paths that are Markdown already: asking for `x.md.md` would only cost a 404.
const MARKDOWN_EXT = /\.(md|markdown|mdx|txt)$/i;

/**
 * Markdown twins of a page, in the order they are tried (query and fragment dropped):
 * - `page.html` → `page.html.md` (llms.txt v1: append `.md`), `page.md` (v2: replace the extension);
 * - `dir/` → `dir/index.html.md` (v1), `dir/index.md` (v2);
 * - `page` (no extension) → `page.md` (both versions agree).
 * v1 comes first because it was the published rule longer. Extensionless pages do
 * not also try `page/index.md`: sites link directories with a slash often enough,
 * and every extra candidate is one more request per page on sites without twins.
 * Pages that are Markdown or text already get none.
 */
export function markdownTwinCandidates(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const base = `${parsed.origin}${parsed.pathname}`;
  if (base.endsWith('/')) return [`${base}index.html.md`, `${base}index.md`];
  const name = parsed.pathname.slice(parsed.pathname.lastIndexOf('/') + 1);
  if (MARKDOWN_EXT.test(name)) return [];
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return [`${base}.md`];
  return [`${base}.md`, `${base.slice(0, base.length - name.length + dot)}.md`];
}

/** Fetches one page; see {@link PageFetchResult} for what comes back. Never throws. */
export async function fetchPage(url: string, options: PageFetchOptions): Promise<PageFetchResult> {
  const res = await fetchPageBody(url, options);
  if (res.kind !== 'html') return res;
  const { body, ...rest } = res;
  return { ...rest, html: decodeBody(body, res.contentType, true) };
}

/**
 * As {@link fetchPage}, with an HTML page left undecoded: the crawl sends the bytes to a converter
 * on another thread without decoding or copying them in its own (see lib/pipeline/convert-port.ts).
 */
export async function fetchPageBody(url: string, options: PageFetchOptions): Promise<PageBodyResult> {
  const settings: Settings = {
    timeoutMs: 10_000,
    maxRetries: 3,
    baseDelayMs: 500,
    maxRetryAfterMs: 60_000,
    maxBytes: 5 * 1024 * 1024,
    credentials: 'include',
    ...stripUndefined(options),
    fetch: options.fetch,
  };
  if (settings.tryMarkdownTwin) {
    for (const twin of markdownTwinCandidates(url)) {
      if (settings.signal?.aborted) return cancelled(url, 0);
      const found = await tryTwin(url, twin, settings);
      if (found) return found;
    }
  }
  return fetchWithRetries(url, settings);
}

/** One attempt, no retries: a twin that fails in any way just means "use the page". */
async function tryTwin(url: string, twin: string, settings: Settings): Promise<PageBodyResult | null> {
  const answer = await exchange(twin, settings, (code, mime) => code === 200 && TWIN_TYPES.has(mime)).catch(() => null);
  if (!answer) return null;
  // The validators sent were this URL's; a 304 means what was stored is current.
  if (answer.status === 304) return { kind: 'not-modified', url, status: 304, retries: 0 };
  if (answer.status !== 200 || !answer.body || sniffBinary(answer.body)) return null;
  const text = decodeBody(answer.body, answer.contentType, false);
  // notFoundReason rejects soft 404s: an HTML page (by type or by content) served for page.md.
  if (notFoundReason({ status: answer.status, contentType: answer.contentType, text })) return null;
  return { kind: 'markdown', ...common(url, answer, 0), markdown: text, twinUrl: twin };
}

async function fetchWithRetries(url: string, settings: Settings): Promise<PageBodyResult> {
  for (let retries = 0; ; retries++) {
    let reason: string;
    let status: number | undefined;
    let waitMs: number | null = null;
    try {
      const answer = await exchange(url, settings, (code, mime) => code >= 200 && code < 300 && PAGE_TYPES.has(mime));
      if (!RETRY_STATUSES.has(answer.status)) return classify(url, answer, retries, settings);
      status = answer.status;
      reason = answer.status === 429 ? 'Too many requests (HTTP 429)' : `Server error (HTTP ${answer.status})`;
      waitMs = parseRetryAfter(answer.headers.get('retry-after'));
      if (waitMs !== null && waitMs > settings.maxRetryAfterMs) {
        return { kind: 'failed', url, status: answer.status, retries, reason: `${reason}: the server asked to wait ${Math.ceil(waitMs / 1000)} s` };
      }
    } catch (error) {
      if (settings.signal?.aborted) return cancelled(url, retries);
      // A loop stays a loop: retrying it would only repeat every hop.
      if (error instanceof RedirectError) return { kind: 'failed', url, retries, reason: error.message };
      // Refused by the network guard: nothing was sent, and asking again would be refused again.
      if (error instanceof NetworkRefused) return { kind: 'skipped', url, reason: error.message };
      status = undefined;
      reason = error instanceof Error ? error.message : String(error);
    }
    if (retries >= settings.maxRetries) {
      const why = retries > 0 ? `${reason} — gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : reason;
      return { kind: 'failed', url, retries, reason: why, ...(status === undefined ? {} : { status }) };
    }
    const retryAfter = waitMs !== null;
    // Full jitter: spreads retries from parallel workers so they do not hit the server in step.
    waitMs ??= Math.random() * Math.min(settings.maxRetryAfterMs, settings.baseDelayMs * 2 ** retries);
    settings.onRetry?.({ url, attempt: retries + 1, waitMs, reason, status, retryAfter });
    if (!(await sleep(waitMs, settings.signal))) return cancelled(url, retries);
  }
}

function classify(url: string, answer: Answer, retries: number, settings: Settings): PageBodyResult {
  const { status, finalUrl } = answer;
  if (answer.stopped) return { kind: 'skipped', url, finalUrl, status, reason: answer.stopped };
  if (status === 304) return { kind: 'not-modified', url, status: 304, retries };
  const refused = statusReason(status, { loggedInHint: true });
  if (refused) return { kind: 'failed', url, status, retries, reason: refused };
  const mime = mimeOf(answer.contentType);
  const skip = (reason: string): PageBodyResult => ({ kind: 'skipped', url, finalUrl, status, reason });
  if (!PAGE_TYPES.has(mime)) return skip(`Not a web page (${mime})`);
  if (!answer.body) return skip(`Larger than ${formatBytes(settings.maxBytes)}`);
  if (sniffBinary(answer.body)) return skip(`Binary content served as ${mime || 'a page without a content type'}`);
  const { body, contentType } = answer;
  const isHtmlType = mime === 'text/html' || mime === 'application/xhtml+xml';
  const sniffMeta = isHtmlType || mime === '';
  if (sniffMeta) {
    // HTML is decoded by its converter, which reads it whole: here only as far as these checks read.
    if (isBlankBody(body, contentType, sniffMeta)) return skip('The page is empty');
    if (isHtmlType || looksLikeHtml(decodeHead(body, contentType, sniffMeta, LOOKS_LIKE_HTML_CHARS))) return { kind: 'html', ...common(url, answer, retries), body };
  }
  const text = decodeBody(body, contentType, sniffMeta);
  if (text.trim() === '') return skip('The page is empty');
  if (mime === 'text/markdown' || mime === 'text/x-markdown') return { kind: 'markdown', ...common(url, answer, retries), markdown: text };
  // text/plain, or no type at all: Markdown only when it reads like Markdown and not like HTML.
  const facts = { status, contentType: 'text/plain', text };
  if (notFoundReason(facts) === null && looksLikeMarkdown(text)) return { kind: 'markdown', ...common(url, answer, retries), markdown: text };
  return skip(`Not a web page (${mime || 'no content type'})`);
}

function common(url: string, answer: Answer, retries: number) {
  const etag = answer.headers.get('etag') ?? undefined;
  const lastModified = answer.headers.get('last-modified') ?? undefined;
  return {
    url,
    finalUrl: answer.finalUrl,
    status: answer.status,
    contentType: answer.contentType,
    ...(etag ? { etag } : {}),
    ...(lastModified ? { lastModified } : {}),
    bytes: answer.body?.byteLength ?? 0,
    retries,
  };
}

/** Retry-After as delta-seconds or an HTTP-date (RFC 9110 §10.2.3), in ms; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Waits ms; false when the signal aborted first (the timer is cleared, so cancel is prompt). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function cancelled(url: string, retries: number): PageBodyResult {
  return { kind: 'failed', url, retries, reason: 'Cancelled' };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
