import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { directoryChain, llmsProbeCandidates } from '@/lib/discovery/candidates';
import { discover } from '@/lib/discovery/discover';
import type { DiscoveryResult } from '@/lib/discovery/types';
import { loopbackFetch, startFixtureServer, type FixtureServer, type FixtureSite } from '../fixtures/server';

const demoDir = fileURLToPath(new URL('../fixtures/sites/demo-docs/', import.meta.url));
const fetch = loopbackFetch();
const text = (body: string, headers: Record<string, string> = {}) => ({ body, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(sites: Record<string, FixtureSite>, host: string, path: string, extra: Partial<Parameters<typeof discover>[0]> = {}) {
  server = await startFixtureServer(sites);
  const summary = await discover({ pageUrl: server.url(host, path), fetch, timeoutMs: 2000, ...extra });
  const at = (h: string, p: string) => summary.results.find((r) => r.url === server?.url(h, p));
  return { summary, at, server };
}
const found = (rs: DiscoveryResult[]) => rs.filter((r) => r.status === 'found').map((r) => new URL(r.url).host.split(':')[0] + new URL(r.url).pathname).sort();

describe('probe candidates', () => {
  it('walks from the page’s folder up to the root', () => {
    expect(directoryChain('https://x.test/docs/a/b')).toEqual(['/docs/a/', '/docs/', '/']);
    expect(directoryChain('https://x.test/docs/a/b/')).toEqual(['/docs/a/b/', '/docs/a/', '/docs/', '/']);
    expect(directoryChain('https://x.test/')).toEqual(['/']);
  });
  it('probes every llms name at every level, most specific first, well-known last', () => {
    const urls = llmsProbeCandidates('https://x.test/docs/page.html').map((c) => c.url);
    expect(urls.slice(0, 5)).toEqual(['llms.txt', 'llms-full.txt', 'llms.md', 'llms.mdx', 'llms.markdown'].map((n) => `https://x.test/docs/${n}`));
    expect(urls[5]).toBe('https://x.test/llms.txt');
    expect(urls.at(-1)).toBe('https://x.test/.well-known/llms.txt');
    expect(urls).toHaveLength(11);
  });
  it('bounds very deep paths but always includes the root', () => {
    const dirs = directoryChain(`https://x.test/${'a/'.repeat(20)}page`);
    expect(dirs).toHaveLength(8);
    expect(dirs.at(-1)).toBe('/');
  });
});

describe('discover', () => {
  it('fires all probes at once rather than one after another', async () => {
    const slow = Object.fromEntries(['/llms.txt', '/docs/llms.txt', '/docs/llms-full.txt', '/robots.txt', '/sitemap.xml'].map((p) => [p, { ...text(`# ${p}\n`), delayMs: 300 }]));
    const { summary, server: s } = await run({ 'docs.example.test': { routes: slow } }, 'docs.example.test', '/docs/page');
    const probeTimes = s.requests.filter((r) => r.path.includes('llms')).map((r) => r.at);
    expect(probeTimes.length).toBeGreaterThanOrEqual(11);
    // Every llms probe arrived before the first (300 ms) answer could have gone out.
    expect(Math.max(...probeTimes) - Math.min(...probeTimes)).toBeLessThan(300);
    expect(found(summary.results)).toEqual(expect.arrayContaining(['docs.example.test/docs/llms.txt', 'docs.example.test/llms.txt']));
  });

  it('finds llms files in ancestor folders and marks the most specific as best', async () => {
    const { summary, at } = await run(
      { 'docs.example.test': { routes: { '/llms.txt': text('# Root\n'), '/docs/llms.txt': text('# Docs\n'), '/docs/llms-full.txt': text('# Docs full\n') } } },
      'docs.example.test',
      '/docs/a/b',
    );
    expect(found(summary.results)).toEqual(['docs.example.test/docs/llms-full.txt', 'docs.example.test/docs/llms.txt', 'docs.example.test/llms.txt']);
    expect(summary.bestUrl).toBe(at('docs.example.test', '/docs/llms.txt')?.url);
    expect(at('docs.example.test', '/docs/llms.txt')).toMatchObject({ best: true, title: 'Docs', kind: 'llms' });
    expect(at('docs.example.test', '/docs/llms-full.txt')).toMatchObject({ kind: 'llms-full' });
    expect(at('docs.example.test', '/docs/a/llms.txt')).toMatchObject({ status: 'missing', reason: 'Not found (HTTP 404)' });
  });

  it('rejects soft 404s with the reason kept', async () => {
    const { at } = await run(
      {
        'docs.example.test': {
          routes: {
            '/llms.txt': { body: '<!doctype html><h1>Page not found</h1>', headers: { 'content-type': 'text/html' } },
            '/llms-full.txt': text('<!DOCTYPE html>\n<html><body>Oops</body></html>'),
            '/llms.md': text('   \n'),
            '/.well-known/llms.txt': text('# Real one\n- [A](/a)\n'),
          },
        },
      },
      'docs.example.test',
      '/',
    );
    expect(at('docs.example.test', '/llms.txt')).toMatchObject({ status: 'missing', reason: expect.stringMatching(/HTML page/) });
    expect(at('docs.example.test', '/llms-full.txt')).toMatchObject({ status: 'missing', reason: expect.stringMatching(/HTML document served as text/) });
    expect(at('docs.example.test', '/llms.md')).toMatchObject({ status: 'missing', reason: 'The file is empty' });
    expect(at('docs.example.test', '/.well-known/llms.txt')).toMatchObject({ status: 'found', kind: 'well-known', linkCount: 1 });
  });

  it('follows redirects as pages do (the same hop limit) and names a loop', async () => {
    const hop = (to: string) => ({ status: 301, headers: { location: to } });
    const { at } = await run(
      {
        'docs.example.test': {
          routes: {
            '/llms.txt': hop('/r1'), '/r1': hop('/r2'), '/r2': hop('/static/llms.txt'), '/static/llms.txt': text('# Moved\n'),
            '/llms-full.txt': hop('/f1'), '/f1': hop('/f2'), '/f2': hop('/f3'), '/f3': hop('/f4'), '/f4': text('# Four hops away\n'),
            '/llms.md': hop('/m'), '/m': hop('/llms.md'),
          },
        },
      },
      'docs.example.test',
      '/',
    );
    expect(at('docs.example.test', '/llms.txt')).toMatchObject({ status: 'found', title: 'Moved', httpStatus: 200 });
    expect(at('docs.example.test', '/llms-full.txt')).toMatchObject({ status: 'found', title: 'Four hops away' });
    expect(at('docs.example.test', '/llms.md')).toMatchObject({ status: 'error', reason: 'Redirect loop: /llms.md → /m → /llms.md' });
  });

  it('reads describedby and Markdown links from the page and its Link header', async () => {
    const page = `<!doctype html><html><head><link rel="describedby" href="/meta/index.txt"><link rel="alternate" type="text/markdown" href="/guide.md"></head><body>Hi</body></html>`;
    const { at } = await run(
      {
        'docs.example.test': {
          routes: {
            '/guide': { body: page, headers: { 'content-type': 'text/html', link: '</hdr/llms.txt>; rel="describedby"' } },
            '/meta/index.txt': text('# Declared\n'),
            '/hdr/llms.txt': text('# From header\n'),
            '/guide.md': text('# Guide\n\nMarkdown twin', { 'content-type': 'text/markdown' }),
            '/llms.txt': text('# Root\n'),
          },
        },
      },
      'docs.example.test',
      '/guide',
    );
    expect(at('docs.example.test', '/meta/index.txt')).toMatchObject({ status: 'found', sources: ['describedby'], best: true });
    expect(at('docs.example.test', '/hdr/llms.txt')).toMatchObject({ status: 'found', sources: ['link-header'] });
    expect(at('docs.example.test', '/guide.md')).toMatchObject({ status: 'found', kind: 'markdown', sources: ['page-markdown'] });
    expect(at('docs.example.test', '/llms.txt')?.best).toBeUndefined();
  });

  it('reads robots.txt and walks the sitemap index of the demo site', async () => {
    const { at, summary } = await run({ 'docs.scout-demo.test': { dir: demoDir } }, 'docs.scout-demo.test', '/guide/quickstart.html');
    expect(at('docs.scout-demo.test', '/robots.txt')).toMatchObject({ status: 'found', kind: 'robots', urlCount: 1 });
    expect(at('docs.scout-demo.test', '/sitemap.xml')).toMatchObject({ status: 'found', kind: 'sitemap', urlCount: 2 });
    const children = summary.results.filter((r) => r.kind === 'sitemap' && r.depth === 1);
    expect(children.map((c) => c.urlCount).sort()).toEqual([11, 3]);
    expect(at('docs.scout-demo.test', '/llms.txt')).toMatchObject({ status: 'found', title: 'Acorn DB', best: true, sources: ['probe', 'describedby'] });
    // The root llms.txt links the nested API file, which is followed.
    expect(at('docs.scout-demo.test', '/api/llms.txt')).toMatchObject({ status: 'found', sources: ['linked'], parentUrl: at('docs.scout-demo.test', '/llms.txt')?.url });
    expect(at('docs.scout-demo.test', '/guide/quickstart.md')).toMatchObject({ status: 'found', kind: 'markdown' });
  });

  it('follows llms links on the same site, lists other sites without fetching them, and survives cycles', async () => {
    const { at, server: s, summary } = await run(
      {
        'example.test': {
          routes: {
            '/llms.txt': withPort(
              '# Hub\n\n## Products\n- [Docs](http://docs.example.test:PORT/llms.txt)\n- [API](http://api.example.test:PORT/llms/api.txt)\n- [Partner](http://other.test:PORT/llms.txt)\n- [Guide](/guide.html)\n',
            ),
          },
        },
        'docs.example.test': { routes: { '/llms.txt': withPort('# Docs\n\n## Back\n- [Hub](http://example.test:PORT/llms.txt)\n- [Deep](/deep/llms.txt)\n') } },
        'api.example.test': { routes: { '/llms/api.txt': text('# API\n') } },
        'other.test': { routes: { '/llms.txt': text('# Other\n') } },
      },
      'example.test',
      '/',
      { followDepth: 5 },
    );
    expect(at('docs.example.test', '/llms.txt')).toMatchObject({ status: 'found', sources: ['linked'], depth: 1, parentUrl: at('example.test', '/llms.txt')?.url });
    expect(at('api.example.test', '/llms/api.txt')).toMatchObject({ status: 'found', title: 'API', depth: 1 });
    expect(at('docs.example.test', '/deep/llms.txt')).toMatchObject({ status: 'missing', depth: 2 });
    expect(at('other.test', '/llms.txt')).toMatchObject({ status: 'not-followed', reason: expect.stringMatching(/another site \(other.test\)/) });
    // Nothing was ever requested from other.test, the hub was fetched once despite the cycle, and /guide.html is no llms file.
    expect(s.requests.filter((r) => r.host === 'other.test')).toEqual([]);
    expect(s.requests.filter((r) => r.host === 'example.test' && r.path === '/llms.txt')).toHaveLength(1);
    expect(s.requests.some((r) => r.path === '/guide.html')).toBe(false);
    expect(summary.overCap).toBe(0);
  });

  it('stops at the linked-file cap and says how many were left', async () => {
    const list = Array.from({ length: 60 }, (_, i) => `- [F${i}](/llms/f${i}.txt)`).join('\n');
    const routes: FixtureSite['routes'] = { '/llms.txt': text(`# Many\n\n## Files\n${list}\n`) };
    for (let i = 0; i < 60; i++) routes[`/llms/f${i}.txt`] = text(`# F${i}\n`);
    const { summary, server: s } = await run({ 'docs.example.test': { routes } }, 'docs.example.test', '/', { maxLinkedFiles: 50 });
    expect(summary.results.filter((r) => r.sources.includes('linked') && r.status === 'found')).toHaveLength(50);
    expect(summary.overCap).toBe(10);
    expect(s.requests.filter((r) => r.path.startsWith('/llms/f'))).toHaveLength(50);
  });

  it('links only one hop deep by default', async () => {
    const { at } = await run(
      { 'docs.example.test': { routes: { '/llms.txt': text('# A\n\n## L\n- [B](/b/llms.txt)\n'), '/b/llms.txt': text('# B\n\n## L\n- [C](/c/llms.txt)\n'), '/c/llms.txt': text('# C\n') } } },
      'docs.example.test',
      '/',
    );
    expect(at('docs.example.test', '/b/llms.txt')).toMatchObject({ status: 'found', depth: 1 });
    expect(at('docs.example.test', '/c/llms.txt')).toBeUndefined();
  });
});

/** A route whose body names PORT, filled from the Host header (the port is only known at run time). */
function withPort(body: string) {
  return (req: { headers: { host?: string } }) => text(body.replaceAll('PORT', (req.headers.host ?? '').split(':')[1] ?? ''));
}
