import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

const demo = fileURLToPath(new URL('../fixtures/sites/demo-docs/', import.meta.url));
let server: FixtureServer;
const get = loopbackFetch();

beforeAll(async () => {
  server = await startFixtureServer({
    'docs.example.test': { dir: demo },
    'api.example.test': {
      routes: {
        '/slow': { body: 'late', delayMs: 150 },
        '/gone': { status: 410, body: 'gone' },
        '/echo': (req) => ({ body: `${req.host} ${req.headers.cookie ?? '-'}` }),
        '/moved': { status: 301, headers: { location: '/echo' } },
      },
    },
  });
});
afterAll(() => server.close());

describe('fixture server', () => {
  it('serves different sites by Host header on one port', async () => {
    const page = await get(server.url('docs.example.test', '/guide/'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('<title>');
    expect((await get(server.url('api.example.test', '/guide/'))).status).toBe(404);
    expect((await get(server.url('other.test', '/'))).status).toBe(404);
  });

  it('fills {{origin}} in text files, where absolute URLs are required', async () => {
    const robots = await (await get(server.url('docs.example.test', '/robots.txt'))).text();
    expect(robots).toContain(`Sitemap: ${server.origin('docs.example.test')}/sitemap.xml`);
    expect(robots).not.toContain('{{origin}}');
  });

  it('answers routes with status, delay, handlers and redirects, and logs every request', async () => {
    const started = Date.now();
    expect(await (await get(server.url('api.example.test', '/slow'))).text()).toBe('late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect((await get(server.url('api.example.test', '/gone'))).status).toBe(410);
    const echoed = await get(server.url('api.example.test', '/moved'), { headers: { cookie: 'a=1' } });
    expect(echoed.url).toBe(server.url('api.example.test', '/echo'));
    expect(await echoed.text()).toBe('api.example.test a=1');
    const paths = server.requests.filter((r) => r.host === 'api.example.test').map((r) => r.path);
    expect(paths).toEqual(expect.arrayContaining(['/slow', '/gone', '/moved', '/echo']));
  });

  it('sends validators with files and answers a matching conditional GET or HEAD with 304 and no body', async () => {
    const url = server.url('docs.example.test', '/guide/');
    const first = await get(url);
    const etag = first.headers.get('etag') ?? '';
    const lastModified = first.headers.get('last-modified') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(new Date(lastModified).toUTCString()).toBe(lastModified);
    const conditional = async (headers: Record<string, string>, method = 'GET') => {
      const res = await get(url, { method, headers });
      return [res.status, await res.text()];
    };
    expect(await conditional({ 'if-none-match': etag })).toEqual([304, '']);
    expect(await conditional({ 'if-none-match': `W/${etag}` }, 'HEAD')).toEqual([304, '']);
    expect(await conditional({ 'if-modified-since': lastModified })).toEqual([304, '']);
    expect(server.requests.at(-1)).toMatchObject({ status: 304, bytes: 0 });
    // An older date, or an ETag that does not match (it wins over a matching date), gets the page.
    expect((await conditional({ 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() }))[0]).toBe(200);
    expect((await conditional({ 'if-none-match': '"other"', 'if-modified-since': lastModified }))[0]).toBe(200);
  });

  it('refuses paths that climb out of the site directory', async () => {
    const res = await get(server.url('docs.example.test', '/..%2f..%2fpackage.json'));
    expect(res.status).toBe(404);
  });

  it('does not resolve names outside the test domains', async () => {
    await expect(get('http://example.com/')).rejects.toThrow();
  });
});
