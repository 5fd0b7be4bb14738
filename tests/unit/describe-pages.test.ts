import { afterEach, describe, expect, it } from 'vitest';
import { cacheKey, describePages, endpointProvider, endpointProviderId, type DescribeOptions, type DescribeResult, type DescriptionCache, type PageToDescribe } from '@/lib/describe/describe-pages';
import { PROMPT_VERSION } from '@/lib/describe/prompt';
import { answer, hang, malformed, pageUrlOf, rateLimited, serverError, startChatServer, unauthorized, type ChatHandler, type ChatServer } from '../fixtures/chat-server';

/** A DescriptionCache in memory; `entries` shows what it holds. */
function memoryCache(entries = new Map<string, string>()): DescriptionCache & { entries: Map<string, string> } {
  return {
    entries,
    get: async (key) => entries.get(key),
    put: async (key, text) => {
      entries.set(key, text);
    },
  };
}

const KEY = 'sk-live-0123456789abcdef0123456789abcdef';

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function pages(count: number, from = 0): PageToDescribe[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `k${from + i}`,
    title: `Page ${from + i}`,
    url: `https://docs.example.test/page-${from + i}`,
    markdown: `# Page ${from + i}\n\nHow to use feature ${from + i}.`,
    contentHash: `hash-${from + i}`,
  }));
}

/** A server, a provider on it, and instant waits (recorded) unless a test asks for real time. */
async function setUp(handler: ChatHandler, options: { apiKey?: string; model?: string } = {}) {
  const s = await startChatServer(handler, options.apiKey === undefined ? {} : { apiKey: KEY });
  servers.push(s);
  const waits: number[] = [];
  const provider = endpointProvider({ url: s.baseUrl, model: options.model ?? 'test-model', ...(options.apiKey ? { apiKey: options.apiKey } : {}) }, fetch);
  const run = (list: PageToDescribe[], opts: Partial<DescribeOptions> = {}) =>
    describePages(list, {
      provider,
      cache: memoryCache(),
      sleep: async (ms) => {
        waits.push(ms);
      },
      random: () => 0.5,
      ...opts,
    });
  const requestsFor = (page: PageToDescribe) => s.requests.filter((r) => pageUrlOf(r.body) === page.url);
  return { s, provider, run, waits, requestsFor };
}

const echoTitle: ChatHandler = (body) => answer(`Describes ${pageUrlOf(body)?.split('/').pop() ?? '?'}.`);

describe('describePages', () => {
  it('describes every page, cleaned, in order, and reports each result as it settles', async () => {
    const { s, run } = await setUp((body) => answer(`**Summary:** This page explains ${pageUrlOf(body)?.split('/').pop()}. More text.`));
    const seen: DescribeResult[] = [];
    const list = pages(5);
    const results = await run(list, { onResult: (r) => void seen.push(r) });
    expect(results.map((r) => r.key)).toEqual(list.map((p) => p.key));
    expect(results[2]).toEqual({ key: 'k2', description: 'Explains page-2.', source: 'ai', attempts: 1 });
    expect(results.every((r) => r.source === 'ai')).toBe(true);
    expect(seen.map((r) => r.key).sort()).toEqual(list.map((p) => p.key).sort());
    expect(s.requests).toHaveLength(5);
  });

  it('never has more than `concurrency` calls in flight (a pool, not all at once)', async () => {
    const { s, run } = await setUp((body) => answer(`Describes ${pageUrlOf(body)}.`, 50));
    const results = await run(pages(20), { concurrency: 3 });
    expect(results.every((r) => r.source === 'ai')).toBe(true);
    expect(s.requests).toHaveLength(20);
    expect(s.maxInFlight).toBe(3);
  });

  it('retries a failing server exactly maxRetries times per page, with growing jittered waits, then falls back', async () => {
    const { s, run, waits, requestsFor } = await setUp(() => serverError(500));
    const list = pages(3);
    const results = await run(list, { maxRetries: 2, baseDelayMs: 100, concurrency: 1 });
    for (const page of list) expect(requestsFor(page)).toHaveLength(3);
    expect(s.requests).toHaveLength(9);
    expect(results[0]).toEqual({
      key: 'k0',
      source: 'fallback',
      attempts: 3,
      reason: 'The endpoint answered HTTP 500 (server error): internal error — gave up after 2 retries',
    });
    // random() = 0.5: half of 100·2⁰, then half of 100·2¹, per page.
    expect(waits).toEqual([50, 100, 50, 100, 50, 100]);
  });

  it('says plainly when the endpoint kept rate-limiting, and caps waits at maxDelayMs', async () => {
    const { run, waits } = await setUp(() => rateLimited('120'));
    const [result] = await run(pages(1), { maxRetries: 3, maxDelayMs: 2000 });
    expect(result).toMatchObject({ source: 'fallback', attempts: 4, reason: 'The endpoint kept answering 429 (rate limited) — gave up after 3 retries' });
    expect(waits.length).toBeGreaterThanOrEqual(3);
    expect(waits.every((ms) => ms === 2000)).toBe(true);
  });

  it('honours Retry-After in real time, and other workers pause for it too', async () => {
    const { s, run } = await setUp((body, n) => (n === 1 ? rateLimited('1') : answer(`Describes ${pageUrlOf(body)}.`, 30)));
    // The real timer; random() = 0 so any gap comes from Retry-After, not from backoff.
    const results = await run(pages(3), { concurrency: 2, sleep: undefined, random: () => 0 });
    expect(results.map((r) => r.source)).toEqual(['ai', 'ai', 'ai']);
    const limited = s.requests[0];
    expect(limited).toBeDefined();
    const retry = s.requests.filter((r, i) => i > 0 && pageUrlOf(r.body) === pageUrlOf(limited?.body ?? {}));
    expect(retry).toHaveLength(1);
    expect((retry[0]?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(990);
    // Page 3 went to the worker that was not rate-limited, and still waited out the pause.
    const third = s.requests.find((r) => pageUrlOf(r.body) === 'https://docs.example.test/page-2');
    expect((third?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(results[0]?.attempts ?? 0).toBe(2);
  });

  it('stops the whole run on an auth failure instead of hammering the endpoint', async () => {
    const { s, run } = await setUp(() => unauthorized());
    const results = await run(pages(20), { concurrency: 2 });
    expect(s.requests.length).toBeLessThanOrEqual(2);
    expect(results.every((r) => r.source === 'fallback' && r.reason === 'The endpoint answered HTTP 401: it needs an API key')).toBe(true);
    expect(results.filter((r) => r.attempts === 0).length).toBeGreaterThanOrEqual(18);
  });

  it('never puts the key in a reason, even when the server echoes it', async () => {
    const wrong = 'sk-wrong-fedcba9876543210fedcba9876543210';
    const { s, run } = await setUp(echoTitle, { apiKey: wrong });
    const results = await run(pages(4));
    expect(s.requests[0]?.headers.authorization).toBe(`Bearer ${wrong}`);
    expect(results.every((r) => r.source === 'fallback' && r.reason === 'The endpoint answered HTTP 401: check the API key')).toBe(true);
    expect(JSON.stringify(results)).not.toContain('fedcba98');

    const { run: run500 } = await setUp(() => serverError(500, JSON.stringify({ error: { message: `upstream rejected ${KEY}` } })), { apiKey: KEY });
    const [failed] = await run500(pages(1), { maxRetries: 0 });
    expect(failed?.reason).toBe('The endpoint answered HTTP 500 (server error): upstream rejected [key hidden]');
  });

  it('retries a malformed answer once, then falls back', async () => {
    const { s, run } = await setUp(() => malformed());
    const [result] = await run(pages(1));
    expect(s.requests).toHaveLength(2);
    expect(result).toEqual({ key: 'k0', source: 'fallback', attempts: 2, reason: 'The endpoint answered, but not with JSON — gave up after 1 retry' });
  });

  it('does not retry a client error', async () => {
    const { s, run } = await setUp(() => serverError(400, '{"error":{"message":"Unsupported parameter: max_tokens"}}'));
    const [result] = await run(pages(1));
    expect(s.requests).toHaveLength(1);
    expect(result).toMatchObject({ source: 'fallback', attempts: 1, reason: 'The endpoint answered HTTP 400: Unsupported parameter: max_tokens' });
  });

  it('falls back on empty and useless answers, and skips pages without text', async () => {
    const { s, run } = await setUp((body) => answer(pageUrlOf(body)?.endsWith('0') ? '   ' : 'I cannot help with that.'));
    const list = [...pages(2), { ...pages(1, 2)[0], markdown: ' \n ' } as PageToDescribe];
    const results = await run(list);
    expect(results).toEqual([
      { key: 'k0', source: 'fallback', attempts: 1, reason: 'The answer was empty' },
      { key: 'k1', source: 'fallback', attempts: 1, reason: 'The answer was not a usable description: “I cannot help with that.”' },
      { key: 'k2', source: 'fallback', attempts: 0, reason: 'The page has no text to describe' },
    ]);
    expect(s.requests).toHaveLength(2);
  });

  it('uses the cache: a second run makes no requests', async () => {
    const { s, run, provider } = await setUp(echoTitle);
    const cache = memoryCache();
    const first = await run(pages(4), { cache });
    expect(s.requests).toHaveLength(4);
    expect(cache.entries.size).toBe(4);
    expect(cache.entries.get(cacheKey('hash-1', provider.id, PROMPT_VERSION))).toBe('Describes page-1.');
    const second = await run(pages(4), { cache });
    expect(s.requests).toHaveLength(4);
    expect(second.map((r) => r.source)).toEqual(['cache', 'cache', 'cache', 'cache']);
    expect(second.map((r) => r.description)).toEqual(first.map((r) => r.description));
    expect(second.every((r) => r.attempts === 0)).toBe(true);
  });

  it('misses the cache for another provider or another prompt version', async () => {
    expect(cacheKey('h', 'endpoint:a', 1)).not.toBe(cacheKey('h', 'endpoint:a', 2));
    expect(cacheKey('h', 'endpoint:a')).toBe(cacheKey('h', 'endpoint:a', PROMPT_VERSION));
    const { s, run, provider } = await setUp(echoTitle, { model: 'model-b' });
    const cache = memoryCache(
      new Map([
        [cacheKey('hash-0', endpointProviderId({ url: s.baseUrl, model: 'model-a' })), 'From model A.'],
        [cacheKey('hash-1', provider.id, PROMPT_VERSION + 1), 'From a newer prompt.'],
        [cacheKey('hash-1', provider.id, PROMPT_VERSION - 1), 'From an older prompt.'],
        [cacheKey('hash-2', provider.id), 'Already described.'],
      ]),
    );
    const results = await run(pages(3), { cache });
    expect(results.map((r) => r.source)).toEqual(['ai', 'ai', 'cache']);
    expect(results[2]?.description).toBe('Already described.');
    expect(s.requests).toHaveLength(2);
  });

  it('cancels: in-flight requests are aborted, nothing new starts, every page says Cancelled', async () => {
    const { s, run } = await setUp(() => hang());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();
    const results = await run(pages(10), { concurrency: 2, signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(results.every((r) => r.source === 'fallback' && r.reason === 'Cancelled')).toBe(true);
    expect(results.filter((r) => r.attempts === 1)).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(s.requests).toHaveLength(2);
    await expect.poll(() => s.requests.every((r) => r.abortedAt !== undefined)).toBe(true);
  });

  it('cancels during a retry wait without another request', async () => {
    const { s, run } = await setUp(() => serverError(503));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const [result] = await run(pages(1), { signal: controller.signal, sleep: undefined, baseDelayMs: 10_000, random: () => 0.9 });
    expect(result).toMatchObject({ source: 'fallback', reason: 'Cancelled', attempts: 1 });
    expect(s.requests).toHaveLength(1);
  });

  it('makes no calls for a run cancelled before it starts', async () => {
    const { s, run } = await setUp(echoTitle);
    const results = await run(pages(3), { signal: AbortSignal.abort() });
    expect(results.map((r) => r.reason)).toEqual(['Cancelled', 'Cancelled', 'Cancelled']);
    expect(s.requests).toHaveLength(0);
  });

  it('calls the provider for at most maxPages pages; cached pages do not count', async () => {
    const { s, run, provider } = await setUp(echoTitle);
    const cache = memoryCache(new Map([[cacheKey('hash-1', provider.id), 'Cached.']]));
    const results = await run(pages(10), { maxPages: 4, cache });
    expect(s.requests).toHaveLength(4);
    expect(results.map((r) => r.source)).toEqual(['ai', 'cache', 'ai', 'ai', 'ai', 'fallback', 'fallback', 'fallback', 'fallback', 'fallback']);
    expect(results[9]?.reason).toBe("Over this run's limit of 4 pages");
  });
});
