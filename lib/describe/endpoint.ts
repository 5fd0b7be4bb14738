/**
 * A client for OpenAI-compatible chat completions (OpenAI, Ollama, LM Studio, llama.cpp,
 * vLLM, OpenRouter, Groq…): one request, one {@link ProviderAnswer}, never throws.
 * The API key travels only in the Authorization header, and every reason is scrubbed of it:
 * servers do echo keys back in error bodies ("Incorrect API key provided: sk-…").
 */
import { describeNetworkError } from '../fetch/errors';
import { parseRetryAfter } from '../fetch/page-fetcher';
import { pageMessages, type ChatMessage } from './prompt';
import type { DescriptionProvider, FailureKind, ProviderAnswer } from './types';

export interface EndpointConfig {
  /** The full `…/v1/chat/completions` URL, or a base URL ending in `/v1` (see {@link chatCompletionsUrl}). */
  url: string;
  model: string;
  apiKey?: string;
}

export interface CallChatOptions {
  fetch: typeof fetch;
  signal?: AbortSignal;
  /** Headers and body together. Default 30 000. */
  timeoutMs?: number;
  /** Sent as `max_tokens` when set. */
  maxTokens?: number;
}

/**
 * The chat-completions URL for what a user typed: full URLs stay as they are; a base URL
 * (`…/v1`, `…/v1beta/openai`, a bare origin such as `http://localhost:11434`) gets the rest.
 */
export function chatCompletionsUrl(url: string): string {
  const trimmed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return trimmed;
  }
  const path = parsed.pathname.replace(/(?<!\/)\/+$/, '');
  if (/\/(?:v\d\w*|openai)$/i.test(path)) parsed.pathname = `${path}/chat/completions`;
  else if (path === '') parsed.pathname = '/v1/chat/completions';
  return parsed.href;
}

/** A server on the user's own machine: plain http never leaves it, so a key sent there is not exposed. */
export function onThisComputer(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1';
}

/**
 * The cache's and the generator's name for an endpoint's descriptions: its model on its server,
 * so two servers calling different models by one name ("llama3") never share cached text.
 */
export function endpointProviderId(config: Pick<EndpointConfig, 'url' | 'model'>): string {
  return `endpoint:${config.model}@${chatCompletionsUrl(config.url)}`;
}

/** One chat completion. See {@link FailureKind} for what each failure means to the caller. */
export async function callChat(config: EndpointConfig, messages: ChatMessage[], options: CallChatOptions): Promise<ProviderAnswer> {
  const key = config.apiKey?.trim() || undefined;
  const fail = (kind: FailureKind, reason: string, extra: { status?: number; retryAfterMs?: number } = {}): ProviderAnswer => ({
    ok: false,
    kind,
    ...extra,
    reason: redact(reason, key),
  });
  const url = chatCompletionsUrl(config.url);
  if (!/^https?:\/\/[^/]/i.test(url)) return fail('client', 'The endpoint URL is not a valid http(s) URL');
  if (key && /^http:/i.test(url) && !onThisComputer(url)) {
    return fail('client', `The API key would cross the network unencrypted to ${new URL(url).host}: use an https:// URL (plain http:// is only for a server on this computer, such as localhost)`);
  }
  if (options.signal?.aborted) return fail('cancelled', 'Cancelled');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onCancel = () => controller.abort();
  options.signal?.addEventListener('abort', onCancel, { once: true });
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const body = { model: config.model, messages, stream: false, ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}) };
  // Called unbound: a browser's fetch throws "Illegal invocation" when `this` is the options object.
  const doFetch = options.fetch;
  try {
    // credentials 'omit': the user's cookies for the endpoint's site are none of its business here.
    const res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: controller.signal, credentials: 'omit' });
    const text = await res.text();
    if (res.ok) return readAnswer(text, fail);
    return classifyStatus(res.status, res.headers, text, key !== undefined, fail);
  } catch (error) {
    if (options.signal?.aborted) return fail('cancelled', 'Cancelled');
    if (timedOut) return fail('timeout', `No answer within ${Number((timeoutMs / 1000).toFixed(1))} s`);
    return fail('network', describeNetworkError(error));
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCancel);
  }
}

type Fail = (kind: FailureKind, reason: string, extra?: { status?: number; retryAfterMs?: number }) => ProviderAnswer;

function classifyStatus(status: number, headers: Headers, body: string, hasKey: boolean, fail: Fail): ProviderAnswer {
  const said = serverMessage(body);
  const detail = said ? `: ${said}` : '';
  const retryAfterMs = readRetryAfter(headers);
  const extra = { status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  const prefix = `The endpoint answered HTTP ${status}`;
  // Auth bodies are left out of the reason entirely: they are where keys get echoed, partly masked.
  if (status === 401) return fail('auth', `${prefix}: ${hasKey ? 'check the API key' : 'it needs an API key'}`, extra);
  if (status === 403) {
    // Ollama answers 403 to browser origins it was not told to allow, whatever the key.
    return fail('auth', `${prefix} (forbidden): check the API key and its access to this model, or allow this extension's origin on the server (Ollama: OLLAMA_ORIGINS)`, extra);
  }
  // OpenAI says 429 `insufficient_quota` for an empty account, OpenRouter 402: retrying cannot help, so they stop the run.
  // (Only that code: Gemini's per-minute limits also mention "quota", and those pass.)
  if (status === 402 || (status === 429 && body.includes('insufficient_quota'))) {
    return fail('auth', `${prefix}: the account has no quota or credit left`, extra);
  }
  if (status === 429) return fail('rate-limited', `${prefix} (rate limited)`, extra);
  if (status === 404) return fail('client', `${prefix}: check the URL (it should end in /v1/chat/completions) and the model name${detail}`, extra);
  if (status === 408 || status >= 500) return fail('server', `${prefix} (server error)${detail}`, extra);
  return fail('client', `${prefix}${detail}`, extra);
}

function readAnswer(body: string, fail: Fail): ProviderAnswer {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return fail('malformed', 'The endpoint answered, but not with JSON');
  }
  const choice = field(field(json, 'choices'), 0);
  const message = field(choice, 'message');
  // `choices[0].text` is the legacy completions shape, which some servers still send.
  const content = field(message, 'content') ?? field(choice, 'text');
  if (typeof content === 'string') return { ok: true, text: content };
  if (Array.isArray(content)) return { ok: true, text: content.map(partText).join('') };
  const refusal = field(message, 'refusal');
  if (typeof refusal === 'string') return fail('malformed', `The model declined to answer: ${clip(refusal)}`);
  if (field(choice, 'finish_reason') === 'length') {
    return fail('malformed', 'The answer was cut off before any text (a reasoning model may need a higher token limit)');
  }
  const said = serverMessage(body);
  return fail('malformed', `The endpoint's answer has no message text (choices[0].message.content)${said ? `: ${said}` : ''}`);
}

/** Content parts: `{type: 'text', text}` counts; reasoning or image parts do not. */
function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  const type = field(part, 'type');
  const text = field(part, 'text');
  return typeof text === 'string' && (type === undefined || type === 'text' || type === 'output_text') ? text : '';
}

/** `retry-after-ms` (OpenAI) first, then the standard Retry-After (seconds or an HTTP-date). */
function readRetryAfter(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  return parseRetryAfter(headers.get('retry-after')) ?? undefined;
}

/** The server's own words from an error body (`{error: {message}}`, `{error}`, `{message}`, `{detail}`, or plain text). */
function serverMessage(body: string): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    // An HTML error page says nothing a person could use in one line.
    return /^\s*</.test(body) ? '' : clip(body);
  }
  const error = field(json, 'error');
  const candidates = [field(error, 'message'), error, field(json, 'message'), field(json, 'detail')];
  const found = candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '');
  return found ? clip(found) : '';
}

function field(value: unknown, key: string | number): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string | number, unknown>)[key] : undefined;
}

function clip(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Hides the key and any word sharing 8 characters in a row with it: servers echo keys
 * whole or masked in the middle ("sk-proj-abcd…wxyz"), and a reason is shown and stored.
 */
export function redact(text: string, key: string | undefined): string {
  if (!key) return text;
  // A short (test, local) key would match inside ordinary words: hide it only where it stands alone.
  if (key.length < 8) return text.replace(new RegExp(`(?<![\\w-])${escapeRegExp(key)}(?![\\w-])`, 'g'), '[key hidden]');
  const hidden = text.split(key).join('[key hidden]');
  const runs = new Set<string>();
  for (let i = 0; i + 8 <= key.length; i++) runs.add(key.slice(i, i + 8));
  return hidden.replace(/\S{8,}/g, (word) => ([...runs].some((run) => word.includes(run)) ? '[key hidden]' : word));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface EndpointProviderOptions {
  timeoutMs?: number;
  /** Default 300: one sentence is ~40 tokens; the rest is room for models that think first. */
  maxTokens?: number;
  /** Page text sent per call, in o200k tokens. Default 1500. */
  budgetTokens?: number;
}

/** A {@link DescriptionProvider} over {@link callChat}, with the prompt from prompt.ts. */
export function endpointProvider(config: EndpointConfig, fetchFn: typeof fetch, options: EndpointProviderOptions = {}): DescriptionProvider {
  const { timeoutMs, maxTokens = 300, budgetTokens = 1500 } = options;
  return {
    id: endpointProviderId(config),
    describe: (page, signal) =>
      callChat(config, pageMessages(page, budgetTokens), { fetch: fetchFn, signal, maxTokens, ...(timeoutMs === undefined ? {} : { timeoutMs }) }),
  };
}
