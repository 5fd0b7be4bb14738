import { afterEach, describe, expect, it } from 'vitest';
import { callChat, chatCompletionsUrl, endpointProvider, redact, type EndpointConfig } from '@/lib/describe/endpoint';
import { builtinAvailability, builtinProvider } from '@/lib/describe/builtin';
import { endpointProblem } from '@/lib/describe/settings';
import type { ChatMessage } from '@/lib/describe/prompt';
import { answer, hang, malformed, rateLimited, serverError, startChatServer, type ChatHandler, type ChatServer } from '../fixtures/chat-server';

const KEY = 'sk-test-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';
const MESSAGES: ChatMessage[] = [{ role: 'user', content: 'Describe.' }];

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: ChatHandler, apiKey?: string): Promise<ChatServer> {
  server = await startChatServer(handler, apiKey === undefined ? {} : { apiKey });
  return server;
}

const call = (config: EndpointConfig, options: Partial<Parameters<typeof callChat>[2]> = {}) => callChat(config, MESSAGES, { fetch, ...options });

describe('chatCompletionsUrl', () => {
  it.each([
    ['https://api.openai.com/v1/chat/completions', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1/', 'https://api.openai.com/v1/chat/completions'],
    ['  http://localhost:11434/v1  ', 'http://localhost:11434/v1/chat/completions'],
    ['http://localhost:11434', 'http://localhost:11434/v1/chat/completions'],
    ['https://openrouter.ai/api/v1', 'https://openrouter.ai/api/v1/chat/completions'],
    ['https://generativelanguage.googleapis.com/v1beta/openai/', 'https://generativelanguage.googleapis.com/v1beta/openai/chat/completions'],
    ['https://x.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21', 'https://x.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21'],
  ])('%s → %s', (input, expected) => {
    expect(chatCompletionsUrl(input)).toBe(expected);
  });
});

describe('callChat against a real server', () => {
  it('posts model and messages, sends the key only as a Bearer header, and returns the text', async () => {
    const s = await serve(() => answer('Explains streams.'), KEY);
    const result = await call({ url: s.baseUrl, model: 'm1', apiKey: KEY }, { maxTokens: 50 });
    expect(result).toEqual({ ok: true, text: 'Explains streams.' });
    const request = s.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toMatchObject({ model: 'm1', messages: MESSAGES, max_tokens: 50, stream: false });
    expect(request?.raw).not.toContain(KEY);
    expect(request?.headers.cookie).toBeUndefined();
  });

  it('sends no Authorization header without a key (local servers)', async () => {
    const s = await serve(() => answer('ok'));
    await call({ url: s.url, model: 'm' });
    expect(s.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('accepts content as an array of parts, skipping non-text parts', async () => {
    const content = [{ type: 'reasoning', text: 'hmm' }, { type: 'text', text: 'Lists the ' }, { type: 'text', text: 'options.' }];
    const s = await serve(() => ({ kind: 'json', body: { choices: [{ message: { role: 'assistant', content } }] } }));
    expect(await call({ url: s.url, model: 'm' })).toEqual({ ok: true, text: 'Lists the options.' });
  });

  it.each([
    ['not JSON', malformed(), /not with JSON/],
    ['no choices', { kind: 'json', body: { object: 'chat.completion' } } as const, /no message text/],
    ['a refusal', { kind: 'json', body: { choices: [{ message: { content: null, refusal: 'No.' } }] } } as const, /declined to answer: No\./],
    ['cut off while thinking', { kind: 'json', body: { choices: [{ message: { content: null }, finish_reason: 'length' }] } } as const, /cut off before any text/],
  ])('calls %s malformed', async (_, behaviour, reason) => {
    const s = await serve(() => behaviour);
    const result = await call({ url: s.url, model: 'm' });
    expect(result).toMatchObject({ ok: false, kind: 'malformed' });
    expect(!result.ok && result.reason).toMatch(reason);
  });

  it('reads Retry-After in seconds and as an HTTP-date, and retry-after-ms', async () => {
    const date = new Date(Date.now() + 3000).toUTCString();
    const behaviours = [rateLimited('2'), rateLimited(date), { kind: 'status', status: 429, headers: { 'retry-after-ms': '1500' } } as const, rateLimited()];
    const s = await serve((_, n) => behaviours[n - 1] ?? answer('x'));
    const seconds = await call({ url: s.url, model: 'm' });
    expect(seconds).toEqual({ ok: false, kind: 'rate-limited', status: 429, retryAfterMs: 2000, reason: 'The endpoint answered HTTP 429 (rate limited)' });
    const fromDate = await call({ url: s.url, model: 'm' });
    expect(!fromDate.ok && fromDate.retryAfterMs).toBeGreaterThan(1000);
    expect(!fromDate.ok && fromDate.retryAfterMs).toBeLessThanOrEqual(3000);
    expect(await call({ url: s.url, model: 'm' })).toMatchObject({ kind: 'rate-limited', retryAfterMs: 1500 });
    const none = await call({ url: s.url, model: 'm' });
    expect(none).toMatchObject({ kind: 'rate-limited' });
    expect(!none.ok && 'retryAfterMs' in none).toBe(false);
  });

  it.each([
    [500, 'server', /^The endpoint answered HTTP 500 \(server error\): internal error$/],
    [503, 'server', /HTTP 503/],
    [404, 'client', /check the URL .* and the model name/],
    [400, 'client', /^The endpoint answered HTTP 400: internal error$/],
    [402, 'auth', /no quota or credit/],
  ])('classifies HTTP %i as %s', async (status, kind, reason) => {
    const s = await serve(() => serverError(status));
    const result = await call({ url: s.url, model: 'm' });
    expect(result).toMatchObject({ ok: false, kind, status });
    expect(!result.ok && result.reason).toMatch(reason);
  });

  it('treats 401 and an empty account as auth failures, in plain words', async () => {
    const s = await serve((_, n) => (n === 1 ? serverError(401) : { kind: 'status', status: 429, body: '{"error":{"code":"insufficient_quota"}}' }));
    expect(await call({ url: s.url, model: 'm', apiKey: 'k' })).toMatchObject({ kind: 'auth', reason: 'The endpoint answered HTTP 401: check the API key' });
    expect(await call({ url: s.url, model: 'm' })).toMatchObject({ kind: 'auth', reason: 'The endpoint answered HTTP 429: the account has no quota or credit left' });
  });

  it('times out a server that never answers', async () => {
    const s = await serve(() => hang());
    const started = Date.now();
    expect(await call({ url: s.url, model: 'm' }, { timeoutMs: 200 })).toEqual({ ok: false, kind: 'timeout', reason: 'No answer within 0.2 s' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('cancels: the request is aborted and the server sees the connection close', async () => {
    const s = await serve(() => hang());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await call({ url: s.url, model: 'm' }, { signal: controller.signal })).toEqual({ ok: false, kind: 'cancelled', reason: 'Cancelled' });
    await expect.poll(() => s.requests[0]?.abortedAt).toBeDefined();
  });

  it('reports a refused connection as a network failure and a bad URL as a client failure', async () => {
    const s = await serve(() => answer('x'));
    const url = s.url;
    await s.close();
    server = undefined;
    expect(await call({ url, model: 'm' })).toMatchObject({ ok: false, kind: 'network', reason: expect.stringMatching(/^Could not connect/) });
    expect(await call({ url: 'not a url', model: 'm' })).toMatchObject({ ok: false, kind: 'client', reason: 'The endpoint URL is not a valid http(s) URL' });
  });
});

describe('the API key never appears in a reason', () => {
  const WRONG = 'sk-wrong-9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b';
  const fragments = (key: string) => Array.from({ length: key.length - 7 }, (_, i) => key.slice(i, i + 8));

  it('not when the server echoes the wrong key back in its 401', async () => {
    const s = await serve(() => answer('never'), KEY);
    const result = await call({ url: s.url, model: 'm', apiKey: WRONG });
    expect(result).toMatchObject({ ok: false, kind: 'auth' });
    expect(s.requests[0]?.headers.authorization).toBe(`Bearer ${WRONG}`);
    const text = JSON.stringify(result);
    for (const piece of fragments(WRONG)) expect(text).not.toContain(piece);
  });

  it.each([400, 500, 422])('not when a %i body quotes it whole or masked', async (status) => {
    const body = JSON.stringify({ error: { message: `Bad request for key ${KEY} (masked: ${KEY.slice(0, 12)}...${KEY.slice(-6)}) from ${KEY.slice(5, 20)}` } });
    const s = await serve(() => ({ kind: 'status', status, body }));
    const result = await call({ url: s.url, model: 'm', apiKey: KEY });
    expect(result.ok).toBe(false);
    const text = JSON.stringify(result);
    expect(text).toContain('Bad request for key');
    for (const piece of fragments(KEY)) expect(text).not.toContain(piece);
  });

  it('redact hides whole and partial keys but leaves other words', () => {
    expect(redact(`key=${KEY}; masked sk-test-4f9a...6b5c; model gpt-4o-mini-2024`, KEY)).toBe('key=[key hidden]; masked [key hidden] model gpt-4o-mini-2024');
    // A short key is hidden where it stands alone, not inside ordinary words.
    expect(redact('Incorrect API key provided: abc1. Check the key abc12.', 'abc1')).toBe('Incorrect API key provided: [key hidden]. Check the key abc12.');
  });
});

describe('an API key over plain http', () => {
  it('is never sent to another computer: the call fails in words and nothing is requested', async () => {
    const asked: string[] = [];
    const recording: typeof fetch = (input, init) => {
      asked.push(String(input));
      return fetch(input, init);
    };
    for (const url of ['http://models.example.test/v1', 'http://192.168.1.20:11434/v1', 'http://[fd00::1]:8080/v1']) {
      const answer = await callChat({ url, model: 'm', apiKey: KEY }, MESSAGES, { fetch: recording });
      expect(answer).toMatchObject({ ok: false, kind: 'client' });
      expect(!answer.ok && answer.reason).toMatch(/unencrypted.*https:\/\//);
      expect(endpointProblem({ url, model: 'm', apiKey: KEY })).toMatch(/https:\/\//);
    }
    expect(asked).toEqual([]);
    // Without a key, or on this computer, plain http is fine.
    expect(endpointProblem({ url: 'http://models.example.test/v1', model: 'm' })).toBeNull();
    expect(endpointProblem({ url: 'http://localhost:11434/v1', model: 'm', apiKey: KEY })).toBeNull();
  });

  it('goes to a server on this computer (127.0.0.1)', async () => {
    const s = await serve(() => answer('Local answer.'), KEY);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect(await call({ url: s.url, model: 'm', apiKey: KEY })).toEqual({ ok: true, text: 'Local answer.' });
  });
});

describe('endpointProvider', () => {
  it('is keyed by model and server and sends the page prompt', async () => {
    const s = await serve(() => answer('Lists options.'));
    const provider = endpointProvider({ url: s.url, model: 'llama3.2' }, fetch);
    expect(provider.id).toBe(`endpoint:llama3.2@${chatCompletionsUrl(s.url)}`);
    // The same model name on another server is another provider: its cached descriptions are its own.
    expect(endpointProvider({ url: 'https://models.example.test/v1', model: 'llama3.2' }, fetch).id).not.toBe(provider.id);
    const page = { key: 'k', title: 'Options', url: 'https://docs.example.test/options', markdown: '# Options\n\nAll of them.', contentHash: 'h' };
    expect(await provider.describe(page, new AbortController().signal)).toEqual({ ok: true, text: 'Lists options.' });
    expect(s.requests[0]?.body.messages?.[1]?.content).toContain('URL: https://docs.example.test/options');
    expect(s.requests[0]?.body.max_tokens).toBe(300);
  });
});

describe("Chrome's built-in Summarizer", () => {
  it('is unavailable in Node, where there is no Summarizer', async () => {
    expect('Summarizer' in globalThis).toBe(false);
    expect(await builtinAvailability()).toBe('unavailable');
  });

  it('is unavailable when Summarizer is malformed or availability() throws', async () => {
    expect(await builtinAvailability({ Summarizer: {} })).toBe('unavailable');
    expect(await builtinAvailability({ Summarizer: null })).toBe('unavailable');
    const throwing = { Summarizer: { availability: () => Promise.reject(new Error('boom')), create: () => Promise.reject(new Error('boom')) } };
    expect(await builtinAvailability(throwing)).toBe('unavailable');
  });

  it('as a provider, answers with a run-stopping failure when the API is absent', async () => {
    const provider = builtinProvider();
    expect(provider.id).toBe('builtin');
    const page = { key: 'k', title: 'T', url: 'https://x.test/', markdown: 'text', contentHash: 'h' };
    expect(await provider.describe(page, new AbortController().signal)).toMatchObject({ ok: false, kind: 'auth', reason: expect.stringMatching(/not available/) });
  });
});
