import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { matrixSites, type MatrixSite } from '../fixtures/matrix';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

// The generator matrix (scripts/build-matrix.sh) is served as its hosts would serve it:
// each start page answers, and every page built from a known Markdown file is reachable
// at the path `sources` records for it.
const sites = matrixSites();
const fetchLoopback = loopbackFetch();

describe('the generator matrix', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer(Object.fromEntries(sites.map((s) => [s.host, s.site()])));
  });
  afterAll(() => server.close());

  it('has at least fourteen generator families besides Python and Node, each with a name and its top-level sections', () => {
    const others = sites.filter((s) => s.id !== 'python' && s.id !== 'node');
    expect(new Set(others.map((s) => s.family.replace(/ \(.*/, ''))).size).toBeGreaterThanOrEqual(14); // Sphinx counts once
    expect(others.filter((s) => s.family.startsWith('Sphinx')).length).toBeGreaterThanOrEqual(5); // themes other than Python's
    for (const s of sites) {
      expect(s.siteName, s.id).not.toBe('');
      if (s.id !== 'node') expect(s.topSections.length, s.id).toBeGreaterThanOrEqual(3);
    }
    expect(sites.filter((s) => s.sources).map((s) => s.id)).toEqual(expect.arrayContaining(['node', 'docusaurus', 'vitepress', 'starlight', 'mkdocs-material']));
  });

  it.each(sites.map((s) => [s.id, s] as [string, MatrixSite]))('%s: the start page is HTML and every source page answers', { timeout: 60_000 }, async (_id, s) => {
    const start = await fetchLoopback(server.url(s.host, s.startPath));
    expect(start.status).toBe(200);
    expect(start.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await start.text()).toMatch(/<html/i);
    for (const [path, file] of Object.entries(s.sources ?? {})) {
      expect(existsSync(file), file).toBe(true);
      const res = await fetchLoopback(server.url(s.host, path), { method: 'HEAD', redirect: 'manual' });
      expect(res.status, `${s.id} ${path}`).toBe(200);
    }
  });

  it('answers like a static host: folder redirects, clean URLs, the deployed origin and the site’s own 404 page', async () => {
    const get = (host: string, path: string) => fetchLoopback(server.url(host, path), { redirect: 'manual' });
    const host = (id: string) => sites.find((s) => s.id === id)!.host;
    const folder = await get(host('mkdocs-material'), '/commands/npm-install');
    expect(folder.status).toBe(301);
    expect(folder.headers.get('location')).toBe('/commands/npm-install/');
    expect((await get(host('vitepress'), '/commands/npm-install')).status).toBe(200);
    expect((await get(host('docusaurus'), '/docs/fs')).status).toBe(200);
    // URLs the build wrote for the deployed site (canonical links, sitemaps) point at this server.
    const page = await (await get(host('mkdocs-material'), '/commands/npm-install/')).text();
    expect(page).toContain(`href="${server.url(host('mkdocs-material'), '/commands/npm-install/')}"`);
    expect(page).not.toContain(`http://${host('mkdocs-material')}/`);
    const missing = await get(host('vitepress'), '/no/such/page');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toMatch(/<html/i);
  });
});
