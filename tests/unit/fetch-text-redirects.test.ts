import { afterEach, describe, expect, it } from 'vitest';
import { fetchText, FetchFailure } from '@/lib/fetch/fetch-text';
import { loopbackFetch, startFixtureServer, type FixtureServer, type FixtureSite, type Route } from '../fixtures/server';

// Small files (llms.txt, robots.txt, sitemaps) and pages follow redirects the same way: one
// loop (lib/fetch/redirects.ts) with one hop limit and loop detection for both.
const fetch = loopbackFetch();
const HOST = 'docs.example.test';
const to = (location: string): Route => ({ status: 302, headers: { location } });
const text = (body: string): Route => ({ body, headers: { 'content-type': 'text/plain; charset=utf-8' } });

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(routes: FixtureSite['routes']) {
  server = await startFixtureServer({ [HOST]: { routes }, 'other.test': { routes: { '/llms.txt': text('# Elsewhere\n') } } });
  return server;
}

const failureOf = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof FetchFailure ? error.reason : String(error)));

describe('fetchText redirects', () => {
  it('names a redirect loop, one request per hop', async () => {
    const s = await serve({ '/llms.txt': to('/b'), '/b': to('/llms.txt') });
    expect(await failureOf(fetchText(s.url(HOST, '/llms.txt'), { fetch }))).toBe('Redirect loop: /llms.txt → /b → /llms.txt');
    expect(s.requests.map((r) => r.path)).toEqual(['/llms.txt', '/b']);
  });

  it('follows the chains docs sites make (http→https, a slash, a new path, a new home): five hops', async () => {
    const s = await serve({ '/llms.txt': to('/r1'), '/r1': to('/r2'), '/r2': to('/r3'), '/r3': to('/r4'), '/r4': to('/static/llms.txt'), '/static/llms.txt': text('# Moved\n') });
    const res = await fetchText(s.url(HOST, '/llms.txt'), { fetch });
    expect(res).toMatchObject({ status: 200, text: '# Moved\n', finalUrl: s.url(HOST, '/static/llms.txt') });
  });

  it('gives up after the same 10 hops as pages', async () => {
    const routes: FixtureSite['routes'] = {};
    for (let i = 0; i < 30; i++) routes[`/r${i}`] = to(`/r${i + 1}`);
    const s = await serve(routes);
    expect(await failureOf(fetchText(s.url(HOST, '/r0'), { fetch }))).toBe('More than 10 redirects');
    expect(s.requests).toHaveLength(11);
  });

  it('asks for credentials per hop: a hop to another site goes without cookies', async () => {
    const s = await serve({ '/llms.txt': (req) => to(`http://other.test:${(req.headers.host ?? '').split(':')[1]}/llms.txt`) });
    const seen: Array<[string, RequestCredentials | undefined]> = [];
    const spy: typeof globalThis.fetch = (input, init) => {
      seen.push([String(input), init?.credentials]);
      return fetch(input, init);
    };
    const res = await fetchText(s.url(HOST, '/llms.txt'), { fetch: spy, credentials: (url) => (new URL(url).hostname === HOST ? 'include' : 'omit') });
    expect(res.text).toBe('# Elsewhere\n');
    expect(seen).toEqual([[s.url(HOST, '/llms.txt'), 'include'], [s.url('other.test', '/llms.txt'), 'omit']]);
  });
});
