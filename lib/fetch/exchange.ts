/**
 * One GET for the page fetcher: the headers it sends (Accept, conditional validators), one
 * deadline over headers and body, redirects checked hop by hop where the runtime shows them,
 * and a body read only when wanted and only up to the size cap. Errors become plain words.
 */
import { concatBytes } from './bytes';
import { mimeOf } from './body';
import { describeNetworkError, networkDetail } from './errors';
import { DEFAULT_ACCEPT } from './fetch-text';
import { NetworkRefused } from './guarded-fetch';
import { fetchFollowing, RedirectError } from './redirects';

export interface ExchangeSettings {
  fetch: typeof fetch;
  timeoutMs: number;
  maxBytes: number;
  credentials: RequestCredentials;
  signal?: AbortSignal;
  conditional?: { etag?: string; lastModified?: string };
  checkRedirect?: (target: string) => string | null;
}

/** What one request produced; `body` is absent when it was not wanted or too big. */
export interface Answer {
  status: number;
  finalUrl: string;
  headers: Headers;
  contentType: string;
  body?: Uint8Array;
  /** Set when `checkRedirect` refused a hop: why (finalUrl is the refused target). */
  stopped?: string;
}

/**
 * GETs `url` under one deadline covering headers and body (a server that trickles
 * its body times out too). The body is read only when `wantBody` says so — PDFs,
 * error pages and retries are dropped unread. Throws an Error whose message is
 * the reason in words ("No answer within 10 s", "Could not connect: …"); a
 * RedirectError when the redirect chain itself is broken, a NetworkRefused when the
 * network guard (guarded-fetch.ts) refused the URL or a hop (neither is worth a retry).
 */
export async function exchange(url: string, settings: ExchangeSettings, wantBody: (status: number, mime: string) => boolean): Promise<Answer> {
  const controller = new AbortController();
  let timedOut = false;
  let reading = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, settings.timeoutMs);
  const onCancel = () => controller.abort();
  settings.signal?.addEventListener('abort', onCancel, { once: true });
  try {
    if (settings.signal?.aborted) throw new Error('Cancelled');
    const headers: Record<string, string> = { accept: DEFAULT_ACCEPT };
    if (settings.conditional?.etag) headers['if-none-match'] = settings.conditional.etag;
    if (settings.conditional?.lastModified) headers['if-modified-since'] = settings.conditional.lastModified;
    // Hop by hop where the runtime shows redirects; in browsers the chain's end is learnt
    // without cookies and checked before any cookie-bearing request (see redirects.ts).
    const init: RequestInit = { headers, credentials: settings.credentials, signal: controller.signal };
    const followed = await fetchFollowing(settings.fetch, url, init, { check: settings.checkRedirect });
    if (followed.kind === 'stopped') return { status: followed.status, finalUrl: followed.target, headers: followed.headers, contentType: '', stopped: followed.reason };
    const { res, finalUrl } = followed;
    const contentType = (res.headers.get('content-type') ?? '').toLowerCase();
    const answer: Answer = { status: res.status, finalUrl, headers: res.headers, contentType };
    if (!wantBody(res.status, mimeOf(contentType))) {
      void res.body?.cancel().catch(() => undefined);
      return answer;
    }
    reading = true;
    const body = await readCapped(res, settings.maxBytes);
    return body ? { ...answer, body } : answer;
  } catch (error) {
    if (settings.signal?.aborted) throw new Error('Cancelled');
    if (timedOut) throw new Error(`No answer within ${Number((settings.timeoutMs / 1000).toFixed(1))} s`);
    if (error instanceof RedirectError || error instanceof NetworkRefused) throw error;
    // The server answered and then the body broke off (a reset, a crash mid-page): "could not connect" would mislead.
    if (reading) throw new Error(`The connection broke while reading the page: ${networkDetail(error)}`);
    throw new Error(describeNetworkError(error));
  } finally {
    clearTimeout(timer);
    settings.signal?.removeEventListener('abort', onCancel);
  }
}

/** The body, or null once it passes maxBytes: reading stops there, nothing more is buffered. */
async function readCapped(res: Response, maxBytes: number): Promise<Uint8Array | null> {
  // Content-Length is the encoded size; when even that is too big, don't start.
  if (Number(res.headers.get('content-length') ?? 0) > maxBytes) {
    void res.body?.cancel().catch(() => undefined);
    return null;
  }
  const reader = res.body?.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      void reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return concatBytes(chunks, total);
}

