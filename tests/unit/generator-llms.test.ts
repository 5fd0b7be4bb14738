import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLlmsTxt } from '../../lib/discovery/parse-llms-txt';
import { servedPages } from '../../bench/quality/head-to-head-run';
import { matrixSites, type MatrixSite } from '../fixtures/matrix';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

// The generators' own llms.txt (#32): scripts/build-matrix.sh builds each plugin into its site and
// moves the files out, so the head-to-head of `npm run quality` has them while the served site is
// the one Scout always crawled: no llms.txt, no Markdown twins, no page pointing at either.
const sites = matrixSites().filter((s) => s.generatorLlms);
const fetchLoopback = loopbackFetch();

describe("the generators' own llms.txt", () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer(Object.fromEntries(sites.map((s) => [s.host, s.site()])));
  });
  afterAll(() => server.close());

  it('is built for every family with an llms.txt plugin or built-in', () => {
    expect(sites.map((s) => s.id)).toEqual(expect.arrayContaining(['docusaurus', 'starlight', 'vitepress', 'rspress', 'typedoc-commander']));
  });

  it.each(sites.map((s) => [s.id, s] as [string, MatrixSite]))('%s: kept beside the site, not served by it', { timeout: 120_000 }, async (_id, s) => {
    const dir = s.generatorLlms ?? '';
    const llms = readFileSync(join(dir, 'llms.txt'), 'utf8');
    const parsed = parseLlmsTxt(llms, `http://${s.host}/llms.txt`);
    expect(parsed.title, 'the plugin wrote an llms.txt with a title').not.toBeNull();
    // Every file of the site's that it links to (llms-full.txt, a page's .md twin) was moved beside
    // it, not lost. A plugin that writes no llms-full.txt (TypeDoc's) links to none.
    const site = new URL(`http://${s.host}/`);
    for (const link of [...parsed.links, ...parsed.detailLinks]) {
      const url = new URL(link.url);
      if (url.host !== site.host || !/\.(?:txt|md)$/.test(url.pathname)) continue;
      expect(existsSync(join(dir, decodeURIComponent(url.pathname))), url.pathname).toBe(true);
    }
    expect(readFileSync(join(dir, '.by'), 'utf8')).toMatch(/^\S+@\d+\.\d+\.\d+/);

    const get = (path: string) => fetchLoopback(server.url(s.host, path), { redirect: 'manual' });
    for (const path of ['/llms.txt', '/llms-full.txt', '/llms-small.txt']) expect((await get(path)).status, path).toBe(404);
    for (const path of servedPages(s)) {
      const twin = path.endsWith('/') ? `${path}index.md` : `${path.replace(/\.html$/, '')}.md`;
      expect((await get(twin)).status, twin).toBe(404);
      const html = await (await get(path)).text();
      // No page points at the files that were moved away (a crawl would follow them).
      expect(html, path).not.toMatch(/type="text\/markdown"|\/llms(?:-full)?\.txt/);
    }
  });
});
