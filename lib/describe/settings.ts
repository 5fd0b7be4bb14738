import { endpointProviderId, onThisComputer, type EndpointConfig } from './endpoint';

/**
 * How page descriptions are written. Kept in the extension's local storage
 * (storage.local: this device only, never synced) and never in IndexedDB, so the
 * API key is in no export, no pages.json and no job record.
 */
export interface DescribeSettings {
  provider: 'none' | 'builtin' | 'endpoint';
  endpoint: EndpointConfig;
  /** Calls in flight at most. */
  concurrency: number;
  /** Cost guard: pages sent to the model per run at most (cache hits are free). */
  maxPages: number;
  /** The endpoint URL the user agreed to send page text to; a different URL asks again. */
  consentedTo?: string;
}

export const DEFAULT_DESCRIBE_SETTINGS: DescribeSettings = {
  provider: 'none',
  endpoint: { url: '', model: '', apiKey: '' },
  concurrency: 4,
  maxPages: 200,
};

export const DESCRIBE_SETTINGS_KEY = 'describeSettings';

/** Settings from storage, with anything missing or out of range replaced by the defaults. */
export function normalizeDescribeSettings(raw: unknown): DescribeSettings {
  const s = { ...DEFAULT_DESCRIBE_SETTINGS, ...(typeof raw === 'object' && raw ? raw : {}) } as DescribeSettings;
  const int = (v: unknown, min: number, max: number, d: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.round(v))) : d);
  return {
    provider: s.provider === 'builtin' || s.provider === 'endpoint' ? s.provider : 'none',
    endpoint: { url: String(s.endpoint?.url ?? '').trim(), model: String(s.endpoint?.model ?? '').trim(), apiKey: String(s.endpoint?.apiKey ?? '').trim() },
    concurrency: int(s.concurrency, 1, 16, DEFAULT_DESCRIBE_SETTINGS.concurrency),
    maxPages: int(s.maxPages, 1, 10_000, DEFAULT_DESCRIBE_SETTINGS.maxPages),
    ...(s.consentedTo ? { consentedTo: s.consentedTo } : {}),
  };
}

/** The provider id the cache and the generator use, or null when descriptions are deterministic. */
export function providerId(s: DescribeSettings): string | null {
  if (s.provider === 'builtin') return 'builtin';
  if (s.provider === 'endpoint' && s.endpoint.url && s.endpoint.model) return endpointProviderId(s.endpoint);
  return null;
}

/** What is wrong with the endpoint settings, in plain words, or null. */
export function endpointProblem(e: EndpointConfig): string | null {
  if (!e.url) return 'Enter the endpoint URL (for example https://openrouter.ai/api/v1 or http://localhost:11434/v1).';
  try {
    const u = new URL(e.url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'The endpoint URL must start with https:// (or http:// for a local server).';
    if (u.protocol === 'http:' && e.apiKey?.trim() && !onThisComputer(e.url)) return `With an API key the endpoint URL must start with https://: over http:// the key would cross the network unencrypted to ${u.host}.`;
  } catch {
    return 'The endpoint URL is not a valid address.';
  }
  if (!e.model) return 'Enter the model name (for example gpt-4o-mini or llama3.2).';
  return null;
}
