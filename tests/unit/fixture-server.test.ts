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

  it('refuses paths that climb out of the site directory', async () => {
    const res = await get(server.url('docs.example.test', '/..%2f..%2fpackage.json'));
    expect(res.status).toBe(404);
  });

  it('does not resolve names outside the test domains', async () => {
    await expect(get('http://example.com/')).rejects.toThrow();
  });
});
