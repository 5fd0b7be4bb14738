import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { relative, join } from 'node:path';
import { createDb, type PageRecord, type ScoutDb } from '@/lib/store/db';
import { runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { generateOutputs } from '@/lib/generate/generate';
import { countTokens } from '@/lib/tokens';
import { validateLlmsTxt } from '@/lib/generate/validate';
import { nodeDocsDir, nodeDocsSite, pythonDocsDir } from '../fixtures/real-docs';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';
import { getJob, pagesOf } from '@/lib/store/queries';

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
  expect(await new CrawlRunner({ db, fetch: loopbackFetch(), process: nodePipeline({ fetch: loopbackFetch() }).process }, job.id).run()).toBe('done');
  return pagesOf(db, job.id).toArray();
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

    // The llms.txt generated from this crawl lists the site the way its own index page does.
    const job = await getJob(db, pages[0]?.jobId ?? '', 'crawl');
    const started = performance.now();
    const out = generateOutputs({ startUrl: server.url('docs.python.test', '/index.html'), pages, nav: job?.nav, generatedAt: new Date() });
    const generateMs = performance.now() - started;
    const entries = out.sections.flatMap((s) => s.entries);
    const mainEntries = out.sections.filter((s) => !s.optional).flatMap((s) => s.entries);
    const listed = new Set(entries.map((e) => e.key));
    const listedShare = pages.filter((p) => listed.has(p.key)).length / pages.length;
    const described = entries.filter((e) => e.description).length / entries.length;
    const describedMain = mainEntries.filter((e) => e.description).length / mainEntries.length;
    console.log(
      `Python docs → llms.txt: ${entries.length}/${pages.length} pages listed (${(listedShare * 100).toFixed(1)}%), ` +
        `descriptions ${(described * 100).toFixed(1)}% of all entries, ${(describedMain * 100).toFixed(1)}% outside Optional; ` +
        `${out.sections.length} sections; llms.txt ${out.llmsTxt.length} chars / ${out.tokens.llmsTxt} tokens, ` +
        `llms-full.txt ${(out.llmsFullTxt.length / 1e6).toFixed(1)} M chars / ${out.tokens.llmsFullTxt} tokens; generated in ${generateMs.toFixed(0)} ms\n` +
        out.sections.map((s) => `  ${s.id} “${s.name}”: ${s.entries.length} pages, ${s.tokens} tokens`).join('\n'),
    );
    // Titles are stored without " — Python 3.11.x documentation"; the home page's H1 still names the site.
    expect(out.title).toMatch(/^Python 3\.11\.\d+ documentation$/);
    expect(out.summary).toMatch(/^Welcome! This is the official documentation for Python 3\.11\.\d+\.$/);
    expect(listedShare).toBeGreaterThanOrEqual(0.95);
    // Sphinx's 28 general-index pages (genindex-A…Z) and the module index have no prose to describe
    // them; they sit in Optional. Every other part of the site is described almost throughout.
    expect(describedMain).toBeGreaterThanOrEqual(0.9);
    expect(described).toBeGreaterThanOrEqual(0.85);
    expect(parseLlmsTxt(out.llmsTxt, server.url('docs.python.test', '/llms.txt')).warnings).toEqual([]);
    expect(validateLlmsTxt(out.llmsTxt, server.url('docs.python.test', '/llms.txt')).filter((f) => f.severity !== 'info')).toEqual([]);
    // The top-level areas of docs.python.org, in the order its index page lists them.
    const areas = ['/', '/whatsnew/', '/tutorial/', '/library/', '/reference/', '/using/', '/howto/', '/extending/', '/c-api/', '/faq/'];
    const sectionIds = out.sections.map((s) => s.id);
    expect(sectionIds.filter((id) => areas.includes(id.replace(/^path:/, '')))).toEqual(areas.map((a) => `path:${a}`));
    const nameOf = (id: string) => out.sections.find((s) => s.id === id)?.name;
    // Sections carry the names the start page's own table of contents gives them ("Tutorial" for
    // tutorial/index.html, titled "The Python Tutorial"); a folder the start page does not link to
    // by its index page keeps its index page's title ("What's New in Python").
    expect(nameOf('path:/tutorial/')).toBe('Tutorial');
    expect(nameOf('path:/library/')).toBe('Library Reference');
    expect(nameOf('path:/reference/')).toBe('Language Reference');
    expect(nameOf('path:/c-api/')).toBe('Python/C API');
    expect(nameOf('path:/howto/')).toBe('Python HOWTOs');
    expect(nameOf('path:/whatsnew/')).toBe('What’s New in Python');
    expect(out.sections.find((s) => s.id === 'path:/library/')?.entries.length).toBeGreaterThan(300);
    // installing/ and distributing/ hold one page each but the start page names them: they stay sections.
    expect(nameOf('path:/installing/')).toBe('Installing Python Modules');
    expect(nameOf('path:/distributing/')).toBe('Distributing Python Modules');
    expect(sectionIds).not.toContain('more');
    const optional = out.sections.at(-1);
    expect(optional?.id).toBe('optional');
    const optionalPaths = new Set(optional?.entries.map((e) => new URL(e.pageUrl).pathname));
    // …and the folders whose index calls them the legacy version (install/, distutils/). "Dealing with
    // Bugs" (/bugs.html) is documentation (how to report an issue): a file name alone is no evidence.
    for (const path of ['/genindex.html', '/genindex-A.html', '/py-modindex.html', '/search.html', '/about.html', '/copyright.html', '/license.html', '/install/index.html', '/distutils/index.html', '/distutils/setupscript.html']) {
      expect(optionalPaths.has(path), path).toBe(true);
    }
    // Every entry is in llms-full.txt but the general index's all-in-one page, which holds the
    // 27 per-letter pages again (an aggregate: listed in Optional, left out of llms-full).
    // (A code sample's "## comment" line counts too, hence at least.)
    expect(out.llmsFullTxt.match(/^## /gm)?.length).toBeGreaterThanOrEqual(entries.length - 1);
    expect(out.llmsFullTxt).not.toContain('/genindex-all.html\n');
    expect(optionalPaths.has('/genindex-all.html')).toBe(true);
    // The llms-full count is summed from pieces (no second pass over the file) and still exact on real docs.
    expect(out.tokens.llmsFullTxt).toBe(countTokens(out.llmsFullTxt));
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
