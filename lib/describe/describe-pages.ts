/**
 * Runs a description provider over a crawl's pages: cache first, a bounded worker pool,
 * retries with full-jitter backoff that honour Retry-After, and a plain-words reason for
 * every page left without a description. Never throws; resolves once every page has a result.
 *
 * Retry policy, by failure kind (see FailureKind):
 * - rate-limited, server, timeout, network: up to `maxRetries` retries. A rate-limit answer
 *   also pauses the other workers until its wait is over, so they don't keep hitting a
 *   server that just asked everyone to slow down;
 * - malformed: one retry (sampling or a proxy glitch can garble one answer; a server that
 *   never speaks the protocol would only waste `maxRetries` more calls per page);
 * - client: none (the same request gets the same 4xx);
 * - auth: none, and the whole run stops: in-flight calls are aborted and every page not yet
 *   described falls back with that reason, instead of hammering an endpoint that said no.
 */
import { cleanSummary } from './clean';
import { PROMPT_VERSION } from './prompt';
import type { DescribeResult, DescriptionCache, DescriptionProvider, PageToDescribe, ProviderAnswer, ProviderFailure } from './types';

export type * from './types';
export { endpointProvider, endpointProviderId, type EndpointConfig } from './endpoint';
export { builtinProvider, builtinAvailability } from './builtin';

export interface DescribeOptions {
  provider: DescriptionProvider;
  cache: DescriptionCache;
  /** Provider calls in flight at most. Default 4 (use 1 for the on-device model). */
  concurrency?: number;
  /** Provider calls are made for at most this many pages; cache hits and empty pages don't count. Default: no limit. */
  maxPages?: number;
  /** Default 3. */
  maxRetries?: number;
  /** Retry n waits a random time in [0, base·2ⁿ) (full jitter), or Retry-After when longer. Default 500. */
  baseDelayMs?: number;
  /** Cap on any single wait, Retry-After included. Default 30 000. */
  maxDelayMs?: number;
  signal?: AbortSignal;
  /** Called as each page settles, awaited (so a slow store slows the run); errors are ignored. */
  onResult?: (result: DescribeResult) => void | Promise<void>;
  /** For tests: resolves after `ms`, or early when `signal` aborts; never rejects. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** For tests: the jitter source, in [0, 1). */
  random?: () => number;
  /** Longest description kept (see cleanSummary). Default 200. */
  maxChars?: number;
}

/** The cache key: the same text, described by the same provider with the same prompt. */
export function cacheKey(contentHash: string, providerId: string, promptVersion: number = PROMPT_VERSION): string {
  return `v${promptVersion}|${providerId}|${contentHash}`;
}

const RETRYABLE = new Set<ProviderFailure['kind']>(['rate-limited', 'server', 'timeout', 'network']);

/** Describes `pages`; results come back in the same order. */
export async function describePages(pages: PageToDescribe[], opts: DescribeOptions): Promise<DescribeResult[]> {
  const { provider, cache, maxPages = Infinity, maxRetries = 3, baseDelayMs = 500, maxDelayMs = 30_000, maxChars = 200 } = opts;
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 4));
  const sleep = opts.sleep ?? sleepFor;
  const random = opts.random ?? Math.random;
  // One controller for the run: the caller's cancel and an auth failure both abort every in-flight call.
  const run = new AbortController();
  const onCancel = () => run.abort();
  if (opts.signal?.aborted) run.abort();
  opts.signal?.addEventListener('abort', onCancel, { once: true });
  let fatal: string | null = null;
  let resumeAt = 0;
  const stopReason = (): string | null => (opts.signal?.aborted ? 'Cancelled' : fatal ?? (run.signal.aborted ? 'Cancelled' : null));

  const results: DescribeResult[] = new Array<DescribeResult>(pages.length);
  const settle = async (index: number, result: DescribeResult) => {
    results[index] = result;
    try {
      await opts.onResult?.(result);
    } catch {
      // The caller's bookkeeping failing must not leave other pages unsettled.
    }
  };
  const fallback = (page: PageToDescribe, reason: string, attempts: number): DescribeResult => ({ key: page.key, source: 'fallback', reason, attempts });

  async function describeOne(page: PageToDescribe): Promise<DescribeResult> {
    let attempts = 0;
    let waitedUntil = 0;
    for (let retries = 0; ; retries++) {
      if (resumeAt > waitedUntil && resumeAt > Date.now()) await sleep(resumeAt - Date.now(), run.signal);
      const stop = stopReason();
      if (stop) return fallback(page, stop, attempts);
      attempts++;
      const answer = await ask(provider, page, run.signal);
      if (answer.ok) {
        const text = cleanSummary(answer.text, maxChars);
        if (text === null) return fallback(page, unusableReason(answer.text), attempts);
        await cache.put(cacheKey(page.contentHash, provider.id), text).catch(() => undefined);
        return { key: page.key, description: text, source: 'ai', attempts };
      }
      if (answer.kind === 'cancelled' || run.signal.aborted) return fallback(page, stopReason() ?? 'Cancelled', attempts);
      if (answer.kind === 'auth') {
        fatal ??= answer.reason;
        run.abort();
        return fallback(page, answer.reason, attempts);
      }
      const allowed = RETRYABLE.has(answer.kind) ? maxRetries : answer.kind === 'malformed' ? Math.min(1, maxRetries) : 0;
      if (retries >= allowed) return fallback(page, gaveUpReason(answer, retries), attempts);
      const backoff = random() * Math.min(maxDelayMs, baseDelayMs * 2 ** retries);
      const wait = Math.min(maxDelayMs, Math.max(answer.retryAfterMs ?? 0, backoff));
      waitedUntil = Date.now() + wait;
      if (answer.kind === 'rate-limited') resumeAt = Math.max(resumeAt, waitedUntil);
      await sleep(wait, run.signal);
    }
  }

  // Pages that need no call settle first, in order; the rest queue for the workers.
  const queue: number[] = [];
  for (const [index, page] of pages.entries()) {
    const stop = stopReason();
    if (stop) await settle(index, fallback(page, stop, 0));
    else if (page.markdown.trim() === '') await settle(index, fallback(page, 'The page has no text to describe', 0));
    else {
      const hit = await cache.get(cacheKey(page.contentHash, provider.id)).catch(() => undefined);
      if (hit !== undefined) await settle(index, { key: page.key, description: hit, source: 'cache', attempts: 0 });
      else if (queue.length >= maxPages) await settle(index, fallback(page, `Over this run's limit of ${maxPages} ${maxPages === 1 ? 'page' : 'pages'}`, 0));
      else queue.push(index);
    }
  }

  // A worker pool, not Promise.all over every page: at most `concurrency` calls in flight.
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const index = queue[next++] ?? 0;
      const page = pages[index];
      if (page) await settle(index, await describeOne(page));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  } finally {
    opts.signal?.removeEventListener('abort', onCancel);
  }
  return results;
}

/** A provider that throws instead of answering is treated as a client failure (no retry). */
async function ask(provider: DescriptionProvider, page: PageToDescribe, signal: AbortSignal): Promise<ProviderAnswer> {
  try {
    return await provider.describe(page, signal);
  } catch (error) {
    if (signal.aborted) return { ok: false, kind: 'cancelled', reason: 'Cancelled' };
    return { ok: false, kind: 'client', reason: `The description provider failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function unusableReason(raw: string): string {
  const flat = raw.replace(/\s+/g, ' ').trim();
  if (flat === '') return 'The answer was empty';
  return `The answer was not a usable description: “${flat.length > 80 ? `${flat.slice(0, 79)}…` : flat}”`;
}

function gaveUpReason(answer: ProviderFailure, retries: number): string {
  if (retries === 0) return answer.reason;
  const after = `gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'}`;
  if (answer.kind === 'rate-limited') return `The endpoint kept answering 429 (rate limited) — ${after}`;
  return `${answer.reason} — ${after}`;
}

/** Waits `ms`, or less when the signal aborts first (the timer is cleared so cancel is prompt). */
function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
