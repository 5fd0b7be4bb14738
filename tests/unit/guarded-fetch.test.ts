/**
 * guardedFetch (lib/fetch/guarded-fetch.ts), the network guard every Node fetch goes through:
 * refusals before anything is sent, redirects followed hop by hop with each hop judged, the hop
 * limit, credentials left behind on another origin — against real servers on loopback.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch, NetworkRefused } from '@/lib/fetch/guarded-fetch';
import { describeNetworkError } from '@/lib/fetch/errors';
import { RedirectError } from '@/lib/fetch/redirects';
import { checkLinks } from '@/lib/generate/check-links';
import { createNetworkGuard } from '@/lib/url/private-network';
import { loopbackFetch, startFixtureServer, type FixtureServer, type Route } from '../fixtures/server';

const moved = (location: string, status = 302): Route => ({ status, headers: { location } });
const ok: Route = { headers: { 'content-type': 'text/plain' }, body: 'ok' };

let server: FixtureServer;
let sink: FixtureServer;
beforeAll(async () => {
  let port = 0;
  let sinkPort = 0;
  const at = (host: string, path: string) => `http://${host}:${port}${path}`;
  server = await startFixtureServer({
    'docs.public.test': {
      routes: {
        '/ok': ok,
        '/to-loopback': () => moved(`http://127.0.0.1:${sinkPort}/x`),
        '/to-metadata': () => moved('http://169.254.169.254/latest/meta-data/'),
        '/to-mapped': () => moved(`http://[::ffff:127.0.0.1]:${sinkPort}/x`),
        '/to-other': () => moved(at('other.public.test', '/ok'), 307),
        '/see-other': () => moved('/ok', 303),
        '/loop': () => moved('/loop2'),
        '/loop2': () => moved('/loop'),
        ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/chain${i}`, () => moved(`/chain${i + 1}`)])),
      },
    },
    'other.public.test': { routes: { '/ok': ok } },
  });
  port = server.port;
  sink = await startFixtureServer({});
  sinkPort = sink.port;
});
afterAll(async () => {
  await server.close();
  await sink.close();
});
afterEach(() => {
  server.requests.length = 0;
  sink.requests.length = 0;
});

const publicFetch = () => guardedFetch(loopbackFetch(), createNetworkGuard('http://docs.public.test/'));

describe('guardedFetch', () => {
  it('refuses a private URL before anything is sent, with the guard’s reason in words', async () => {
    const fetcher = publicFetch();
    for (const url of [`http://127.0.0.1:${sink.port}/`, `http://localhost:${sink.port}/`, `http://[::1]:${sink.port}/`, 'http://10.0.0.1/', 'http://169.254.169.254/', 'http://metadata.google.internal/', 'http://[fd00:ec2::254]/']) {
      const error = await fetcher(url, { method: 'HEAD' }).catch((e: unknown) => e);
      expect(error, url).toBeInstanceOf(NetworkRefused);
      expect((error as Error).message, url).toMatch(/: Scout never fetches these from a public site$/);
      // Callers that turn errors into words keep the reason (not "Could not connect").
      expect(describeNetworkError(error)).toBe((error as Error).message);
    }
    expect(sink.requests).toEqual([]);
  });

  it('follows redirects hop by hop and refuses a hop into the user’s network, naming it', async () => {
    const fetcher = publicFetch();
    for (const path of ['/to-loopback', '/to-mapped', '/to-metadata']) {
      const error = await fetcher(server.url('docs.public.test', path)).catch((e: unknown) => e);
      expect(error, path).toBeInstanceOf(NetworkRefused);
      expect((error as Error).message, path).toMatch(/^Redirected to http:\/\/.*: Scout never fetches these from a public site$/);
    }
    // 'manual' passes through: the caller sees the hop (and asks this fetch again for it).
    const manual = await fetcher(server.url('docs.public.test', '/to-loopback'), { redirect: 'manual' });
    expect(manual.status).toBe(302);
    expect(sink.requests).toEqual([]);
  });

  it('answers as fetch does for public hops: final URL, redirected, 303 turns into GET', async () => {
    const fetcher = publicFetch();
    const res = await fetcher(server.url('docs.public.test', '/to-other'));
    expect(res.status).toBe(200);
    expect(res.url).toBe(server.url('other.public.test', '/ok'));
    expect(res.redirected).toBe(true);
    expect(await res.text()).toBe('ok');
    const seeOther = await fetcher(server.url('docs.public.test', '/see-other'), { method: 'POST', body: 'x' });
    expect(seeOther.status).toBe(200);
    expect(server.requests.map((r) => `${r.method} ${r.path}`).slice(-2)).toEqual(['POST /see-other', 'GET /ok']);
  });

  it('leaves cookies and Authorization behind on a hop to another origin', async () => {
    await publicFetch()(server.url('docs.public.test', '/to-other'), { headers: { cookie: 'session=1', authorization: 'Bearer t' } });
    const [first, second] = server.requests;
    expect(first?.headers.cookie).toBe('session=1');
    expect(first?.headers.authorization).toBe('Bearer t');
    expect(second?.host).toBe('other.public.test');
    expect(second?.headers.cookie).toBeUndefined();
    expect(second?.headers.authorization).toBeUndefined();
  });

  it('names a loop and stops after the hop limit', async () => {
    const fetcher = publicFetch();
    await expect(fetcher(server.url('docs.public.test', '/loop'))).rejects.toThrow(RedirectError);
    await expect(fetcher(server.url('docs.public.test', '/chain0'))).rejects.toThrow('More than 10 redirects');
    expect(server.requests.filter((r) => r.path.startsWith('/chain')).length).toBe(11);
  });

  it('from a private start, allows that host and no other private one', async () => {
    const fetcher = guardedFetch(loopbackFetch(), createNetworkGuard(`http://127.0.0.1:${sink.port}/`));
    expect((await fetcher(`http://127.0.0.1:${sink.port}/any`)).status).toBe(404);
    await expect(fetcher('http://10.0.0.1/')).rejects.toThrow(NetworkRefused);
    expect(sink.requests.map((r) => r.path)).toEqual(['/any']);
  });

  it('the link check (panel and CLI) lists guarded links as not checked, with the reason, and requests none', async () => {
    const guard = createNetworkGuard('http://docs.public.test/');
    const links = [`http://127.0.0.1:${sink.port}/a`, server.url('docs.public.test', '/ok'), server.url('docs.public.test', '/to-loopback')];
    const results = await checkLinks(links, { fetch: guardedFetch(loopbackFetch(), guard), guard });
    expect(results.map((r) => [r.ok, r.reason?.replace(String(sink.port), 'PORT')])).toEqual([
      [false, 'Not checked: A loopback address (this computer) (127.0.0.1): Scout never fetches these from a public site.'],
      [true, undefined],
      [false, 'Not checked: Redirected to http://127.0.0.1:PORT/x: A loopback address (this computer) (127.0.0.1): Scout never fetches these from a public site.'],
    ]);
    expect(sink.requests).toEqual([]);
  });
});
