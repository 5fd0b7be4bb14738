/**
 * The shapes shared by the description providers (an OpenAI-compatible endpoint, Chrome's
 * on-device Summarizer) and the orchestrator that runs them over a crawl's pages.
 */

/** A stored page to describe. `contentHash` (e.g. the page's contentFingerprint) keys the cache. */
export interface PageToDescribe {
  key: string;
  title: string;
  url: string;
  markdown: string;
  contentHash: string;
}

/**
 * Why a call failed, which decides what happens next:
 * - `rate-limited`, `server`, `timeout`, `network`: worth retrying with backoff;
 * - `malformed` (an answer we cannot read): retried once;
 * - `client` (a 4xx about this request): not retried;
 * - `auth`: the provider will not serve us at all (bad key, no quota, model unavailable) —
 *   the whole run stops, since every further call would fail the same way;
 * - `cancelled`: the caller's signal.
 */
export type FailureKind = 'rate-limited' | 'server' | 'client' | 'auth' | 'malformed' | 'timeout' | 'network' | 'cancelled';

export interface ProviderFailure {
  ok: false;
  kind: FailureKind;
  status?: number;
  /** From Retry-After / retry-after-ms, when the server sent one. */
  retryAfterMs?: number;
  /** Plain words for the user; never contains an API key. */
  reason: string;
}

/** One call's outcome; `text` is the model's raw answer (cleaned later by cleanSummary). */
export type ProviderAnswer = { ok: true; text: string } | ProviderFailure;

export interface DescriptionProvider {
  /** Part of the cache key: 'endpoint:<model>@<chat completions URL>' or 'builtin'. */
  id: string;
  /** Must not throw; must stop promptly when `signal` aborts (answering kind 'cancelled'). */
  describe(page: PageToDescribe, signal: AbortSignal): Promise<ProviderAnswer>;
}

/** Where finished descriptions are kept between runs (Dexie in the extension, memory in tests). */
export interface DescriptionCache {
  get(key: string): Promise<string | undefined>;
  put(key: string, text: string): Promise<void>;
}

export interface DescribeResult {
  key: string;
  description?: string;
  /** 'fallback': no description; the generator keeps whatever it had (e.g. the meta description). */
  source: 'ai' | 'cache' | 'fallback';
  /** Why it fell back, in plain words. */
  reason?: string;
  /** Provider calls made for this page (0 for cache hits and pages never tried). */
  attempts: number;
}
