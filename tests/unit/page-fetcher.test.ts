import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_ACCEPT } from '@/lib/fetch/fetch-text';
import { fetchPage, fetchPageBody, markdownTwinCandidates, parseRetryAfter, type PageFetchOptions } from '@/lib/fetch/page-fetcher';
import { loopbackFetch, startFixtureServer, type FixtureServer, type FixtureSite, type Route } from '../fixtures/server';

const fetch = loopbackFetch();
const HOST = 'docs.example.test';
const html = (body: string, headers: Record<string, string> = {}): Route => ({ body, headers: { 'content-type': 'text/html; charset=utf-8', ...headers } });
const md = (body: string, type = 'text/markdown; charset=utf-8'): Route => ({ body, headers: { 'content-type': type } });
const PAGE = '<!doctype html><html><head><title>Page</title></head><body><h1>Page</h1></body></html>';

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(routes: FixtureSite['routes'], site: Partial<FixtureSite> = {}) {
  server = await startFixtureServer({ [HOST]: { routes, ...site }, 'other.test': { routes: { '/landing': html(PAGE) } } });
  const s = server;
  return {
    url: (path: string) => s.url(HOST, path),
    hits: (path: string) => s.requests.filter((r) => r.host === HOST && r.path === path),
    get: (path: string, options: Partial<PageFetchOptions> = {}) => fetchPage(s.url(HOST, path), { fetch, baseDelayMs: 5, ...options }),
  };
}

/** A route that answers `failures` times with `failure`, then with `success`. */
function flaky(failures: number, failure: Route | (() => Route), success: Route) {
  let calls = 0;
  return () => (++calls > failures ? success : typeof failure === 'function' ? failure() : failure);
}

describe('content negotiation', () => {
  it('sends the Markdown-first Accept header and returns HTML as html', async () => {
    const { get, hits } = await serve({ '/page': html(PAGE, { etag: '"v1"', 'last-modified': 'Tue, 01 Jul 2025 10:00:00 GMT' }) });
    const result = await get('/page');
    expect(hits('/page')[0]?.headers.accept).toBe(DEFAULT_ACCEPT);
    expect(DEFAULT_ACCEPT).toBe('text/markdown, text/html;q=0.9, */*;q=0.8');
    expect(result).toMatchObject({ kind: 'html', status: 200, html: PAGE, retries: 0, etag: '"v1"', lastModified: 'Tue, 01 Jul 2025 10:00:00 GMT', bytes: PAGE.length });
  });

  it('stores a text/markdown answer as-is', async () => {
    const body = '# Title\n\nSome *text* with <b>inline html</b>.\n';
    const { get } = await serve({ '/page': md(body) });
    expect(await get('/page')).toMatchObject({ kind: 'markdown', markdown: body, contentType: 'text/markdown; charset=utf-8' });
  });

  it('takes text/plain as Markdown only when it reads like Markdown and not like HTML', async () => {
    const { get } = await serve({
      '/heading.txt': md('## Setup\n\nRun it.\n', 'text/plain'),
      '/link': md('See [the guide](/guide) for more.\n', 'text/plain; charset=utf-8'),
      '/plain': md('Just some words, nothing else.\n', 'text/plain'),
      '/html-as-text': md(PAGE, 'text/plain'),
    });
    expect(await get('/heading.txt')).toMatchObject({ kind: 'markdown', markdown: '## Setup\n\nRun it.\n' });
    expect((await get('/link')).kind).toBe('markdown');
    expect(await get('/plain')).toMatchObject({ kind: 'skipped', reason: 'Not a web page (text/plain)' });
    expect(await get('/html-as-text')).toMatchObject({ kind: 'skipped', reason: 'Not a web page (text/plain)' });
  });

  it('sniffs a page that has no content type', async () => {
    const { get } = await serve({ '/untyped': { body: PAGE }, '/untyped-md': { body: '# Hello\n' } });
    expect((await get('/untyped')).kind).toBe('html');
    expect((await get('/untyped-md')).kind).toBe('markdown');
  });

  it('skips non-pages by content type and binaries by magic bytes, without retrying', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const { get, hits } = await serve({
      '/doc': { body: '%PDF-1.7 …', headers: { 'content-type': 'application/pdf' } },
      '/data': { body: '{}', headers: { 'content-type': 'application/json' } },
      '/fake-html': { body: Buffer.from('%PDF-1.4\n%âãÏÓ\n', 'latin1'), headers: { 'content-type': 'text/html' } },
      '/fake-png': { body: png, headers: { 'content-type': 'text/html; charset=utf-8' } },
      '/zip': { body: Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2]), headers: { 'content-type': 'text/plain' } },
    });
    expect(await get('/doc')).toMatchObject({ kind: 'skipped', status: 200, reason: 'Not a web page (application/pdf)' });
    expect(await get('/data')).toMatchObject({ kind: 'skipped', reason: 'Not a web page (application/json)' });
    expect(await get('/fake-html')).toMatchObject({ kind: 'skipped', reason: 'Binary content served as text/html' });
    expect(await get('/fake-png')).toMatchObject({ kind: 'skipped', reason: 'Binary content served as text/html' });
    expect(await get('/zip')).toMatchObject({ kind: 'skipped', reason: 'Binary content served as text/plain' });
    expect(hits('/doc')).toHaveLength(1);
  });

  it('reports where redirects ended', async () => {
    server = await startFixtureServer({
      [HOST]: { routes: { '/old': () => ({ status: 301, headers: { location: server?.url('other.test', '/landing') ?? '' } }) } },
      'other.test': { routes: { '/landing': html(PAGE) } },
    });
    const result = await fetchPage(server.url(HOST, '/old'), { fetch });
    expect(result).toMatchObject({ kind: 'html', url: server.url(HOST, '/old'), finalUrl: server.url('other.test', '/landing') });
  });
});

describe('redirects', () => {
  const to = (location: string): Route => ({ status: 302, headers: { location } });

  it('names a redirect loop and does not retry it', async () => {
    const { get, hits } = await serve({ '/a': to('/b'), '/b': to('/a') });
    expect(await get('/a')).toEqual({ kind: 'failed', url: expect.any(String), retries: 0, reason: 'Redirect loop: /a → /b → /a' });
    expect([hits('/a').length, hits('/b').length]).toEqual([1, 1]);
  });

  it('gives up after 10 hops', async () => {
    const routes: FixtureSite['routes'] = {};
    for (let i = 0; i < 30; i++) routes[`/r${i}`] = to(`/r${i + 1}`);
    const { get } = await serve(routes);
    expect(await get('/r0')).toMatchObject({ kind: 'failed', retries: 0, reason: 'More than 10 redirects' });
    expect(server?.requests).toHaveLength(11);
  });

  it('asks checkRedirect before each hop and never requests a refused target', async () => {
    const { get, url } = await serve({ '/old': to('/new'), '/new': (req) => to(`http://other.test:${(req.headers.host ?? '').split(':')[1]}/landing`) });
    const asked: string[] = [];
    const checkRedirect = (target: string) => {
      asked.push(target);
      return target.includes('other.test') ? 'Another site' : null;
    };
    const result = await get('/old', { checkRedirect });
    const target = server?.url('other.test', '/landing');
    expect(result).toEqual({ kind: 'skipped', url: url('/old'), finalUrl: target, status: 302, reason: 'Another site' });
    expect(asked).toEqual([url('/new'), target]);
    expect(server?.requests.filter((r) => r.host === 'other.test')).toEqual([]);
  });

  it('in a browser (hidden redirects) learns where a chain ends without cookies before sending them', async () => {
    const { url, hits } = await serve({
      '/old': to('/new'),
      '/new': html(PAGE),
      '/away': (req) => to(`http://other.test:${(req.headers.host ?? '').split(':')[1]}/landing`),
    });
    // Real requests with a browser's semantics: 'manual' gives an opaque answer (no status, no Location),
    // and the cookie jar adds the session cookie unless credentials are 'omit'.
    const browserLike = (async (input: string | URL | Request, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      if (init?.credentials !== 'omit') headers.set('cookie', 'session=secret');
      const res = await fetch(input, { ...init, headers });
      if (init?.redirect !== 'manual' || res.status < 300 || res.status >= 400) return res;
      await res.body?.cancel();
      return { type: 'opaqueredirect', status: 0, headers: new Headers(), body: null } as unknown as Response;
    }) as typeof fetch;
    const checkRedirect = (target: string) => (target.includes('other.test') ? 'Another site' : null);

    // Same site: followed, and the answer that counts is the one made with cookies.
    expect(await fetchPage(url('/old'), { fetch: browserLike, checkRedirect })).toMatchObject({ kind: 'html', finalUrl: url('/new') });
    const newHits = hits('/new');
    expect(newHits.map((r) => r.headers.cookie ?? null)).toEqual([null, 'session=secret']);

    // Another site: refused, and other.test never saw the cookie.
    expect(await fetchPage(url('/away'), { fetch: browserLike, checkRedirect })).toMatchObject({ kind: 'skipped', reason: 'Another site' });
    const other = server?.requests.filter((r) => r.host === 'other.test') ?? [];
    expect(other.length).toBeGreaterThan(0);
    expect(other.every((r) => r.headers.cookie === undefined)).toBe(true);
  });
});

describe('Markdown twins', () => {
  it('lists v1 then v2 candidates', () => {
    expect(markdownTwinCandidates('https://d.test/guide/page.html?x=1#y')).toEqual(['https://d.test/guide/page.html.md', 'https://d.test/guide/page.md']);
    expect(markdownTwinCandidates('https://d.test/guide/')).toEqual(['https://d.test/guide/index.html.md', 'https://d.test/guide/index.md']);
    expect(markdownTwinCandidates('https://d.test/guide/page')).toEqual(['https://d.test/guide/page.md']);
    expect(markdownTwinCandidates('https://d.test/guide/page.md')).toEqual([]);
    expect(markdownTwinCandidates('https://d.test/v1.2/page.php')).toEqual(['https://d.test/v1.2/page.php.md', 'https://d.test/v1.2/page.md']);
  });

  it('prefers the first twin that exists and does not fetch the page', async () => {
    const { get, url, hits } = await serve({ '/g/page.html': html(PAGE), '/g/page.html.md': md('# Page v1\n'), '/g/page.md': md('# Page v2\n') });
    expect(await get('/g/page.html', { tryMarkdownTwin: true })).toMatchObject({
      kind: 'markdown', url: url('/g/page.html'), markdown: '# Page v1\n', twinUrl: url('/g/page.html.md'),
    });
    expect(hits('/g/page.html')).toHaveLength(0);
    expect(hits('/g/page.md')).toHaveLength(0);
  });

  it('falls through a 404 twin to the next one, and to index twins for directories', async () => {
    const { get, url } = await serve({ '/g/page.html': html(PAGE), '/g/page.md': md('# v2\n', 'text/plain; charset=utf-8'), '/g/index.md': md('# Index\n') });
    expect(await get('/g/page.html', { tryMarkdownTwin: true })).toMatchObject({ kind: 'markdown', markdown: '# v2\n', twinUrl: url('/g/page.md') });
    expect(await get('/g/', { tryMarkdownTwin: true })).toMatchObject({ kind: 'markdown', markdown: '# Index\n', twinUrl: url('/g/index.md') });
  });

  it('rejects a soft-404 twin (200 HTML) and falls back to the page', async () => {
    const { get, hits } = await serve({
      '/a.html': html(PAGE),
      '/a.html.md': html('<!doctype html><h1>Not found</h1>'),
      '/a.md': md('<!DOCTYPE html><html><body>Not found</body></html>', 'text/plain'),
    });
    const result = await get('/a.html', { tryMarkdownTwin: true });
    expect(result).toMatchObject({ kind: 'html', html: PAGE });
    expect(result).not.toHaveProperty('twinUrl');
    expect(hits('/a.html.md')).toHaveLength(1);
    expect(hits('/a.md')).toHaveLength(1);
  });

  it('does not retry twins: a 503 twin means "use the page"', async () => {
    const { get, hits } = await serve({ '/b': html(PAGE), '/b.md': { status: 503, body: 'busy' } });
    expect((await get('/b', { tryMarkdownTwin: true })).kind).toBe('html');
    expect(hits('/b.md')).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries 503 with backoff and then succeeds', async () => {
    const retries: number[] = [];
    const { get, hits } = await serve({ '/p': flaky(2, { status: 503, body: 'busy' }, html(PAGE)) });
    const result = await get('/p', { onRetry: (info) => retries.push(info.attempt) });
    expect(result).toMatchObject({ kind: 'html', retries: 2 });
    expect(hits('/p')).toHaveLength(3);
    expect(retries).toEqual([1, 2]);
  });

  it('retries 500, 502 and 504 too', async () => {
    const { get, hits } = await serve({
      '/500': flaky(1, { status: 500 }, html(PAGE)),
      '/502': flaky(1, { status: 502 }, html(PAGE)),
      '/504': flaky(1, { status: 504 }, html(PAGE)),
    });
    for (const path of ['/500', '/502', '/504']) {
      expect(await get(path)).toMatchObject({ kind: 'html', retries: 1 });
      expect(hits(path)).toHaveLength(2);
    }
  });

  it('honours Retry-After in seconds', async () => {
    const waits: number[] = [];
    const { get, hits } = await serve({ '/p': flaky(1, { status: 503, headers: { 'retry-after': '1' } }, html(PAGE)) });
    const result = await get('/p', { onRetry: (info) => waits.push(info.waitMs) });
    expect(result.kind).toBe('html');
    const [first, second] = hits('/p');
    expect(second && first ? second.at - first.at : 0).toBeGreaterThanOrEqual(990);
    expect(waits).toEqual([1000]);
  });

  it('honours Retry-After as an HTTP-date on 429', async () => {
    const waits: number[] = [];
    const { get, hits } = await serve({
      '/p': flaky(1, () => ({ status: 429, headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() } }), html(PAGE)),
    });
    const result = await get('/p', { onRetry: (info) => waits.push(info.waitMs) });
    expect(result).toMatchObject({ kind: 'html', retries: 1 });
    const [first, second] = hits('/p');
    // HTTP-dates have whole seconds, so "now + 2 s" means a wait of 1–2 s.
    expect(second && first ? second.at - first.at : 0).toBeGreaterThanOrEqual(950);
    expect(waits[0]).toBeGreaterThan(900);
    expect(waits[0]).toBeLessThanOrEqual(2000);
  });

  it('fails at once when Retry-After is longer than allowed', async () => {
    const { get, hits } = await serve({ '/p': { status: 429, headers: { 'retry-after': '120' } } });
    expect(await get('/p')).toMatchObject({ kind: 'failed', status: 429, retries: 0, reason: 'Too many requests (HTTP 429): the server asked to wait 120 s' });
    expect(hits('/p')).toHaveLength(1);
  });

  it('does not retry 404, 410, 401 or 403', async () => {
    const { get, hits } = await serve({
      '/gone': { status: 410, body: 'gone' },
      '/private': { status: 403, body: 'no' },
      '/login': { status: 401, body: 'no' },
    });
    expect(await get('/missing')).toMatchObject({ kind: 'failed', status: 404, reason: 'Not found (HTTP 404)', retries: 0 });
    expect(await get('/gone')).toMatchObject({ kind: 'failed', status: 410, reason: 'Gone (HTTP 410)' });
    expect(await get('/private')).toMatchObject({ kind: 'failed', status: 403, reason: 'Access denied (HTTP 403) — are you logged in?' });
    expect(await get('/login')).toMatchObject({ kind: 'failed', status: 401, reason: 'Access denied (HTTP 401) — are you logged in?' });
    for (const path of ['/missing', '/gone', '/private', '/login']) expect(hits(path)).toHaveLength(1);
  });

  it('gives up after maxRetries with a reason', async () => {
    const { get, hits } = await serve({ '/p': { status: 503, body: 'down' } });
    const result = await get('/p', { maxRetries: 2 });
    expect(result).toEqual({ kind: 'failed', url: expect.any(String), status: 503, retries: 2, reason: 'Server error (HTTP 503) — gave up after 2 retries' });
    expect(hits('/p')).toHaveLength(3);
  });

  it('times out a slow server and retries the timeout', async () => {
    const { get, hits } = await serve({ '/slow': { ...html(PAGE), delayMs: 1000 } });
    const started = Date.now();
    const result = await get('/slow', { timeoutMs: 100, maxRetries: 1 });
    expect(result).toMatchObject({ kind: 'failed', retries: 1, reason: 'No answer within 0.1 s — gave up after 1 retry' });
    expect(result).not.toHaveProperty('status');
    expect(hits('/slow')).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('retries a refused connection and says it could not connect', async () => {
    const closed = await startFixtureServer({});
    const url = closed.url(HOST, '/p');
    await closed.close();
    const result = await fetchPage(url, { fetch, maxRetries: 1, baseDelayMs: 5 });
    expect(result).toMatchObject({ kind: 'failed', retries: 1 });
    expect(result.kind === 'failed' && result.reason).toMatch(/^Could not connect: .*ECONNREFUSED.* — gave up after 1 retry$/);
  });

  it('stops a Retry-After wait promptly when cancelled', async () => {
    const { get, hits } = await serve({ '/p': { status: 503, headers: { 'retry-after': '30' } } });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 150);
    const result = await get('/p', { signal: controller.signal });
    expect(result).toMatchObject({ kind: 'failed', reason: 'Cancelled', retries: 0 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(hits('/p')).toHaveLength(1);
  });

  it('cancels a request in flight', async () => {
    const { get } = await serve({ '/slow': { ...html(PAGE), delayMs: 5000 } });
    const started = Date.now();
    const result = await get('/slow', { signal: AbortSignal.timeout(100) });
    expect(result).toMatchObject({ kind: 'failed', reason: 'Cancelled' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('parses Retry-After forms', () => {
    const now = Date.parse('Tue, 01 Jul 2025 10:00:00 GMT');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Tue, 01 Jul 2025 10:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Tue, 01 Jul 2025 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe('size limit', () => {
  it('skips a body larger than maxBytes', async () => {
    const big = `<!doctype html><p>${'x'.repeat(3 * 1024 * 1024)}</p>`;
    const { get } = await serve({ '/big': html(big) });
    expect(await get('/big', { maxBytes: 1024 * 1024 })).toMatchObject({ kind: 'skipped', status: 200, reason: 'Larger than 1 MB' });
  });

  it('stops reading a body without Content-Length at the limit', async () => {
    let sent = 0;
    let closed: () => void = () => undefined;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const raw = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }); // chunked: no Content-Length to go by
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      // 64 MB, then the end: a reader that ignores the cap gets a whole page and the test fails.
      const pump = () => {
        while (!res.destroyed && sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return;
        }
        if (!res.destroyed) res.end();
      };
      res.on('drain', pump);
      res.on('close', closed);
      pump();
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const { port } = raw.address() as AddressInfo;
    try {
      const result = await fetchPage(`http://127.0.0.1:${port}/endless`, { fetch, maxBytes: 1024 * 1024 });
      expect(result).toMatchObject({ kind: 'skipped', reason: 'Larger than 1 MB' });
      await connectionClosed;
      // The server saw the reader leave long before its 64 MB were sent.
      expect(sent).toBeLessThan(16 * 1024 * 1024);
    } finally {
      raw.closeAllConnections();
      raw.close();
    }
  });
});

describe('charsets', () => {
  const cp1252 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94, 0x20, 0x80]); // café “q” €
  const sjis = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]); // 日本語
  const wrap = (head: string, text: Buffer) => Buffer.concat([Buffer.from(`<!doctype html><html><head>${head}</head><body><p>`), text, Buffer.from('</p></body></html>')]);

  it('decodes by the Content-Type charset', async () => {
    const { get } = await serve({
      '/w': { body: wrap('', cp1252), headers: { 'content-type': 'text/html; charset=windows-1252' } },
      '/s': { body: Buffer.concat([Buffer.from('# '), sjis, Buffer.from('\n')]), headers: { 'content-type': 'text/markdown; charset="Shift_JIS"' } },
    });
    const w = await get('/w');
    expect(w.kind === 'html' && w.html).toContain('<p>café “q” €</p>');
    expect(await get('/s')).toMatchObject({ kind: 'markdown', markdown: '# 日本語\n' });
  });

  it('decodes by <meta charset> and <meta http-equiv> when the header has none', async () => {
    const { get } = await serve({
      '/w': { body: wrap('<meta charset="windows-1252">', cp1252), headers: { 'content-type': 'text/html' } },
      '/s': { body: wrap('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">', sjis), headers: { 'content-type': 'text/html' } },
    });
    const w = await get('/w');
    const s = await get('/s');
    expect(w.kind === 'html' && w.html).toContain('<p>café “q” €</p>');
    expect(s.kind === 'html' && s.html).toContain('<p>日本語</p>');
  });

  it('leaves an HTML page undecoded for the converter, and judges it as the decoded text would be', async () => {
    const nbsp = Buffer.from([0x20, 0xa0, 0x0a]); // whitespace only, once decoded as windows-1252
    const { url } = await serve({
      '/w': { body: wrap('<meta charset="windows-1252">', cp1252), headers: { 'content-type': 'text/html' } },
      '/blank': { body: nbsp, headers: { 'content-type': 'text/html; charset=windows-1252' } },
      '/untyped': { body: Buffer.concat([Buffer.from(' '.repeat(900)), wrap('', cp1252)]), headers: {} },
      '/untyped-text': { body: Buffer.from(`${' '.repeat(1100)}<html>`), headers: {} },
    });
    const body = await fetchPageBody(url('/w'), { fetch });
    expect(body.kind === 'html' && [...body.body]).toEqual([...wrap('<meta charset="windows-1252">', cp1252)]);
    expect(body).not.toHaveProperty('html');
    expect(await fetchPageBody(url('/blank'), { fetch })).toMatchObject({ kind: 'skipped', reason: 'The page is empty' });
    expect(await fetchPage(url('/blank'), { fetch })).toMatchObject({ kind: 'skipped', reason: 'The page is empty' });
    // No Content-Type: HTML when its first 1024 characters begin like HTML, as before.
    expect((await fetchPageBody(url('/untyped'), { fetch })).kind).toBe('html');
    expect(await fetchPageBody(url('/untyped-text'), { fetch })).toMatchObject({ kind: 'skipped', reason: 'Not a web page (no content type)' });
  });

  it('falls back to UTF-8 for unknown labels and without any declaration', async () => {
    const { get } = await serve({
      '/bad': { body: wrap('', Buffer.from('naïve ✓')), headers: { 'content-type': 'text/html; charset=no-such-charset' } },
      '/none': { body: wrap('', Buffer.from('naïve ✓')), headers: { 'content-type': 'text/html' } },
    });
    for (const path of ['/bad', '/none']) {
      const result = await get(path);
      expect(result.kind === 'html' && result.html).toContain('<p>naïve ✓</p>');
    }
  });
});

describe('conditional requests', () => {
  it('sends the validators and reports 304 as not-modified', async () => {
    const lastModified = 'Tue, 01 Jul 2025 10:00:00 GMT';
    const { get, hits } = await serve({
      '/etag': (req) => (req.headers['if-none-match'] === '"v1"' ? { status: 304, headers: { etag: '"v1"' } } : html(PAGE, { etag: '"v2"' })),
      '/date': (req) => (req.headers['if-modified-since'] === lastModified ? { status: 304 } : html(PAGE, { 'last-modified': lastModified })),
    });
    expect(await get('/etag', { conditional: { etag: '"v1"' } })).toEqual({ kind: 'not-modified', url: expect.any(String), status: 304, retries: 0 });
    expect(await get('/etag', { conditional: { etag: '"v0"' } })).toMatchObject({ kind: 'html', etag: '"v2"' });
    expect(await get('/date', { conditional: { lastModified } })).toMatchObject({ kind: 'not-modified', status: 304 });
    expect(hits('/date')[0]?.headers['if-modified-since']).toBe(lastModified);
    const fresh = await get('/date');
    expect(fresh).toMatchObject({ kind: 'html', lastModified });
    expect(hits('/date')[1]?.headers['if-modified-since']).toBeUndefined();
  });
});
