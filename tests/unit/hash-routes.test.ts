import { describe, expect, it } from 'vitest';
import { classifyUrl } from '@/lib/crawl/links';
import { docsifyLink, docsifyLinks, markdownUrlFor, parseSidebar, routeOf, sidebarUrlFor } from '@/lib/render/docsify';
import { readDocsifyConfig } from '@/lib/shell/docsify-config';
import { routesByHash } from '@/lib/render/hash-routing';
import { dedupeKey, normalizeUrl } from '@/lib/url/normalize';

const norm = (raw: string, keepHashRoute?: boolean) => {
  const r = normalizeUrl(raw, undefined, { keepHashRoute });
  return 'url' in r ? r.url : r.skip;
};

describe('hash routes', () => {
  it('are dropped by default, like every fragment', () => {
    expect(norm('https://d.test/#/guide/intro')).toBe('https://d.test/');
    expect(norm('https://d.test/page#setup')).toBe('https://d.test/page');
  });

  it('are kept as pages for hash-routed sites; anchors, route queries and the home route are not', () => {
    expect(norm('https://d.test/#/guide/intro', true)).toBe('https://d.test/#/guide/intro');
    expect(norm('https://d.test/app/#!/api/client', true)).toBe('https://d.test/app/#!/api/client');
    expect(norm('https://d.test/#/guide/intro?id=setup', true)).toBe('https://d.test/#/guide/intro');
    expect(norm('https://d.test/#/', true)).toBe('https://d.test/');
    expect(norm('https://d.test/page#setup', true)).toBe('https://d.test/page');
  });

  it('give distinct dedupe keys only when kept', () => {
    expect(dedupeKey('https://d.test/#/a')).not.toBe(dedupeKey('https://d.test/#/b'));
    expect(dedupeKey('https://d.test/#/')).toBe(dedupeKey('https://d.test/'));
    expect(dedupeKey('https://d.test/docs/#intro')).toBe(dedupeKey('https://d.test/docs'));
  });

  it('reach the frontier as pages once the crawl knows the site routes by hash', () => {
    const ctx = { scope: () => null, robots: () => null };
    const meta = { depth: 1, source: 'link' as const };
    const queued = (c: ReturnType<typeof classifyUrl>) => (c && 'queue' in c ? c.queue.key : null);
    expect(queued(classifyUrl('https://d.test/#/guide', undefined, meta, ctx))).toBe('https://d.test/');
    expect(queued(classifyUrl('https://d.test/#/guide', undefined, meta, { ...ctx, hashRoutes: true }))).toBe('https://d.test/#/guide');
  });

  it('are recognised on a rendered page: two distinct #/ routes on its own document', () => {
    expect(routesByHash('https://d.test/', ['https://d.test/#/a', 'https://d.test/#/b', 'https://other.test/#/c'])).toBe(true);
    expect(routesByHash('https://d.test/', ['https://d.test/#/a', 'https://d.test/#/a?id=x', 'https://d.test/#top'])).toBe(false);
    expect(routesByHash('https://d.test/guide', ['https://d.test/other#/a', 'https://d.test/other#/b'])).toBe(false);
  });
});

describe('docsify', () => {
  const shell = 'https://d.test/';
  const config = { loadSidebar: true };

  it('maps routes to the Markdown files docsify fetches', () => {
    expect(routeOf('https://d.test/#/guide/intro?id=x')).toBe('/guide/intro');
    expect(routeOf('https://d.test/')).toBe('/');
    expect(markdownUrlFor(shell, '/', config)).toBe('https://d.test/README.md');
    expect(markdownUrlFor(shell, '/guide/', config)).toBe('https://d.test/guide/README.md');
    expect(markdownUrlFor(shell, '/guide/intro', config)).toBe('https://d.test/guide/intro.md');
    const custom = { basePath: '/docs', homepage: 'home.md' };
    expect(markdownUrlFor('https://d.test/site/', '/', custom)).toBe('https://d.test/docs/home.md');
    expect(markdownUrlFor('https://d.test/site/', '/a', { basePath: 'md/' })).toBe('https://d.test/site/md/a.md');
    expect(sidebarUrlFor(shell, config)).toBe('https://d.test/_sidebar.md');
    expect(sidebarUrlFor(shell, { loadSidebar: 'summary.md', basePath: '/docs/' })).toBe('https://d.test/docs/summary.md');
    expect(sidebarUrlFor(shell, {})).toBeUndefined();
  });

  it('turns Markdown links into routes as its router does', () => {
    expect(docsifyLink('guide/intro.md', '/api/client', shell, {})).toBe('https://d.test/#/guide/intro');
    expect(docsifyLink('intro.md', '/guide/setup', shell, { relativePath: true })).toBe('https://d.test/#/guide/intro');
    expect(docsifyLink('../api/', '/guide/setup', shell, { relativePath: true })).toBe('https://d.test/#/api/');
    expect(docsifyLink('/guide/README.md', '/', shell, {})).toBe('https://d.test/#/guide/');
    expect(docsifyLink('#/guide/intro', '/', shell, {})).toBe('https://d.test/#/guide/intro');
    expect(docsifyLink('/', '/guide', shell, {})).toBe(shell);
    expect(docsifyLink('#setup', '/', shell, {})).toBeNull();
    expect(docsifyLink('_media/diagram.png', '/', shell, {})).toBe('https://d.test/_media/diagram.png');
    expect(docsifyLink('https://github.test/x', '/', shell, {})).toBe('https://github.test/x');
    expect(docsifyLink('mailto:a@b.test', '/', shell, {})).toBeNull();
    expect(docsifyLinks('See [a](a.md), ![img](i.png) and\n```\n[not](code.md)\n```\n[b](/b)', '/', shell, {})).toEqual(['https://d.test/#/a', 'https://d.test/#/b']);
  });

  it('reads _sidebar.md as a navigation tree with group labels', () => {
    const nav = parseSidebar('- [Home](/)\n- Getting started\n  - [Intro](guide/intro.md)\n  - [Setup](guide/setup.md)\n    - [Linux](guide/linux.md)\n- **API**\n\t- [Client](api/client.md "The client")\n', shell, {});
    expect(nav).toEqual([
      { title: 'Home', url: 'https://d.test/', depth: 0 },
      { title: 'Getting started', url: '', depth: 0 },
      { title: 'Intro', url: 'https://d.test/#/guide/intro', depth: 1 },
      { title: 'Setup', url: 'https://d.test/#/guide/setup', depth: 1 },
      { title: 'Linux', url: 'https://d.test/#/guide/linux', depth: 2 },
      { title: 'API', url: '', depth: 0 },
      { title: 'Client', url: 'https://d.test/#/api/client', depth: 1 },
    ]);
  });

  it('reads the config from the shell script without running it', () => {
    expect(readDocsifyConfig(`window.$docsify = {\n  name: "Lumen",\n  'basePath': '/docs/',\n  loadSidebar: 'nav.md',\n  relativePath: !0,\n  plugins: [function (hook) { hook.init(() => {}) }],\n};`)).toEqual({ name: 'Lumen', basePath: '/docs/', loadSidebar: 'nav.md', relativePath: true });
    expect(readDocsifyConfig('window.$docsify = { loadSidebar: true }')).toEqual({ loadSidebar: true });
    expect(readDocsifyConfig('var x = 1')).toBeNull();
  });
});
