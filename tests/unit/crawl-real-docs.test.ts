import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { relative, join } from 'node:path';
import { linkedomAdapter } from '@/lib/convert/dom';
import { createDb, type PageRecord, type ScoutDb } from '@/lib/db';
import { runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { createLocalProcessor } from '@/lib/crawl/processor';
import { CrawlRunner } from '@/lib/crawl/runner';
import { nodeDocsDir, nodeDocsSite, pythonDocsDir } from '../fixtures/real-docs';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

/** Every .html file under a folder, as site paths. */
function htmlPaths(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory() && !e.name.startsWith('_')) walk(join(d, e.name));
      else if (e.isFile() && e.name.endsWith('.html')) out.push(`/${relative(dir, join(d, e.name))}`);
    }
  };
  walk(dir);
  return out;
}

async function crawlAll(db: ScoutDb, startUrl: string, maxPages: number): Promise<PageRecord[]> {
  const job = await createCrawlJob(db, startUrl, { maxPages, maxDepth: 50 });
  expect(await new CrawlRunner({ db, fetch: loopbackFetch(), process: createLocalProcessor(loopbackFetch(), linkedomAdapter) }, job.id).run()).toBe('done');
  return db.pages.where('[jobId+state]').equals([job.id, 'stored']).toArray();
}

describe('crawling real documentation from Debian packages', () => {
  let server: FixtureServer;
  let db: ScoutDb;
  beforeAll(async () => {
    server = await startFixtureServer({ 'docs.python.test': { dir: pythonDocsDir() }, 'nodejs.test': nodeDocsSite() });
  });
  afterAll(async () => {
    await server.close();
    await db?.delete();
  });

  it('crawls the Python 3.11 docs completely, with sensible titles', { timeout: 180_000 }, async () => {
    db = createDb(`py-${Math.random()}`);
    const pages = await crawlAll(db, server.url('docs.python.test', '/index.html'), 2000);
    const crawled = new Set(pages.map((p) => new URL(p.finalUrl).pathname));
    const onDisk = htmlPaths(pythonDocsDir());
    const missing = onDisk.filter((p) => !crawled.has(p) && !crawled.has(p.replace(/index\.html$/, '')));
    // Every page a reader can reach is crawled; the few left are orphans no page links to.
    expect(onDisk.length).toBe(530);
    expect(missing.length, `not crawled: ${missing.join(', ')}`).toBeLessThanOrEqual(5);
    const title = (path: string) => pages.find((p) => new URL(p.finalUrl).pathname === path)?.title;
    expect(title('/library/functions.html')).toBe('Built-in Functions');
    expect(title('/tutorial/index.html')).toBe('The Python Tutorial');
    expect(title('/library/os.html')).toBe('os — Miscellaneous operating system interfaces');
    // No title is empty, a URL, or still carries the site-name suffix.
    expect(pages.filter((p) => !p.title || /^https?:|Python 3\.11\.\d+ documentation$/.test(p.title))).toEqual([]);
  });

  it('prefers the Node.js docs’ Markdown twins for pages an llms.txt lists', { timeout: 120_000 }, async () => {
    db = createDb(`node-${Math.random()}`);
    const listed = ['fs', 'http', 'path', 'events', 'stream'];
    const llms = `# Node.js\n\n> The Node.js API docs.\n\n## API\n${listed.map((n) => `- [${n}](/${n}.html)`).join('\n')}\n`;
    const site = nodeDocsSite();
    const local = await startFixtureServer({ 'api.nodejs.test': { ...site, routes: { '/llms.txt': { body: llms, headers: { 'content-type': 'text/plain' } } } } });
    try {
      const start = local.url('api.nodejs.test', '/index.html');
      await runDiscoveryJob(db, { jobId: 'd', pageUrl: start, fetch: loopbackFetch() });
      const pages = await crawlAll(db, start, 500);
      const byPath = new Map(pages.map((p) => [new URL(p.url).pathname, p]));
      for (const name of listed) {
        expect(byPath.get(`/${name}.html`), name).toMatchObject({ format: 'markdown', twinUrl: local.url('api.nodejs.test', `/${name}.md`) });
      }
      // Pages not listed are converted from HTML, and every shipped page is reached.
      expect(byPath.get('/crypto.html')).toMatchObject({ format: 'html' });
      const onDisk = readdirSync(nodeDocsDir()).filter((f) => f.endsWith('.html')).length;
      expect(pages.length).toBeGreaterThanOrEqual(onDisk - 2);
    } finally {
      await local.close();
    }
  });
});
