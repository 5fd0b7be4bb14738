import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { parseHTML } from 'linkedom';
import { afterEach, describe, expect, it } from 'vitest';
import { linkedomAdapter } from '@/lib/convert/dom';
import { createDb, type PageRecord, type ScoutDb } from '@/lib/store/db';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import type { CrawlSettings } from '@/lib/crawl/settings';
import { generateForSite } from '@/lib/generate/run-generate';
import { createRefreshJob } from '@/lib/refresh/jobs';
import { RefreshRunner } from '@/lib/refresh/runner';
import { recordSiteOpened } from '@/lib/sites';
import { crawlSite } from '@/lib/headless/crawl-site';
import { createPagePipeline } from '@/lib/pipeline/page-pipeline';
import type { Renderer } from '@/lib/render/tab-renderer';
import { plainTextLength } from '@/lib/shell/detect';
import { frontierOf, getJob } from '@/lib/store/queries';
import { generatedSite } from '../fixtures/generated-site';
import { scriptSite } from '../fixtures/security-sites';
import { loopbackFetch, startFixtureServer, type FixtureServer, type FixtureSite } from '../fixtures/server';
import { SPA_HOME, SPA_PAGES } from '../fixtures/spa-content';
import { docsifySite, inlineShellPaths, inlineShellSite } from '../fixtures/spa-sites';

// Issue #27 item 5: a client-rendered page whose whole app is one inline script is rendered in Auto,
// and a page that still has no text is stored marked empty, with the reason, and left out of the files.

const DEMO_DIR = new URL('../fixtures/sites/demo-docs/', import.meta.url).pathname;
const HOST = 'inline.lumen.test';

let db: ScoutDb;
let server: FixtureServer;
afterEach(async () => {
  await db?.delete();
  await server?.close();
});

/**
 * What a tab does with the page, in Node: fetch it, run its inline script against linkedom's DOM
 * (the fixture's own script, in a vm context with `document` and `location`), hand back the DOM.
 */
function scriptRunner(fetchFn: typeof fetch, seen: string[]): Renderer {
  return async (request) => {
    seen.push(request.url);
    const { document } = parseHTML(await (await fetchFn(request.url)).text());
    for (const script of document.querySelectorAll('script:not([src])')) runInNewContext(script.textContent ?? '', { document, location: new URL(request.url) });
    const html = document.toString();
    const links = [...document.querySelectorAll('a[href]')].map((a) => new URL(a.getAttribute('href') ?? '', request.url).href);
    return { ok: true, ms: 1, dom: { html, url: request.url, links, settled: true, textChars: (document.body?.textContent ?? '').length } };
  };
}

async function crawl(site: FixtureSite, settings: Partial<CrawlSettings>, renderer: Renderer | null | 'script') {
  db = createDb(`t-${Math.random()}`);
  server = await startFixtureServer({ [HOST]: site });
  const fetchFn = loopbackFetch();
  const seen: string[] = [];
  const tabs = renderer === 'script' ? scriptRunner(fetchFn, seen) : renderer;
  const process = createPagePipeline({ fetch: fetchFn, convert: { dom: linkedomAdapter }, rendering: { renderer: tabs, dom: linkedomAdapter } }).process;
  const job = await createCrawlJob(db, server.url(HOST, '/'), { useSeeds: false, maxDepth: 5, ...settings });
  const state = await new CrawlRunner({ db, fetch: fetchFn, process, timeoutMs: 2000 }, job.id).run();
  const pages = await db.pages.where('[jobId+state]').between([job.id, ''], [job.id, '\uffff']).toArray();
  const frontier = await frontierOf(db, job.id).toArray();
  const generated = await generateForSite(db, new URL(server.url(HOST, '/')).origin, new Date('2026-11-25T00:00:00Z'));
  return { state, pages, frontier, seen, generated, job: await getJob(db, job.id, 'crawl') };
}

const pathOf = (url: string) => new URL(url).pathname;

describe('a client-rendered app in one inline script', () => {
  it('is rendered in Auto: every page stored with its own text, the reason on each', async () => {
    const { state, pages, frontier, seen } = await crawl(inlineShellSite(), {}, 'script');
    expect(state).toBe('done');
    expect(pages.map((p) => pathOf(p.url)).sort()).toEqual(inlineShellPaths());
    expect(seen).toHaveLength(SPA_PAGES.length + 1);
    for (const p of SPA_PAGES) expect(pages.find((s) => pathOf(s.url) === `/docs/${p.slug}`)?.markdown).toContain(p.marker);
    expect(pages.find((p) => pathOf(p.url) === '/')?.markdown).toContain(SPA_HOME.marker);
    expect(pages.every((p) => p.rendered && !p.empty)).toBe(true);
    expect(frontier.find((f) => pathOf(f.url) === '/docs/forms')?.reason).toBe('Rendered in a tab: Client-rendered shell: 0 characters of text · empty #docs · <noscript> asks for JavaScript · 1 inline script');
  });

  it('a page still empty once rendered is stored marked empty, with the reason, and left out of llms.txt and llms-full.txt', async () => {
    const { pages, frontier, generated, job } = await crawl(inlineShellSite({ emptyPaths: ['/docs/glossary'] }), {}, 'script');
    expect(job?.message).toBe(`Done: ${SPA_PAGES.length + 1} pages stored · ${SPA_PAGES.length + 1} rendered in a tab · 1 empty (no text, left out of the files)`);
    const glossary = pages.find((p) => pathOf(p.url) === '/docs/glossary');
    expect(glossary?.markdown).toBe('');
    expect(glossary?.empty).toBe('Empty page: no text even once rendered in a tab — left out of llms.txt and llms-full.txt');
    expect(frontier.find((f) => pathOf(f.url) === '/docs/glossary')?.reason).toMatch(/^Empty page: no text even once rendered in a tab — left out of llms\.txt and llms-full\.txt · Rendered in a tab: Client-rendered shell: /);
    expect(pages.filter((p) => p.empty)).toHaveLength(1);
    // Other pages' text still links to it; its own entry and its `Source:` section are gone.
    const llms = generated?.output.llmsTxt ?? '';
    expect(llms).toContain(`](${server.url(HOST, '/docs/forms')})`);
    expect(llms).not.toContain(`](${server.url(HOST, '/docs/glossary')})`);
    expect(generated?.output.llmsFullTxt).toContain(`Source: ${server.url(HOST, '/docs/forms')}\n`);
    expect(generated?.output.llmsFullTxt).not.toContain(`Source: ${server.url(HOST, '/docs/glossary')}\n`);
  });

  it('kept as fetched (Never, or no way to render) it is stored marked empty and generates nothing', async () => {
    for (const [settings, renderer] of [[{ render: 'never' }, 'script'], [{}, null]] as const) {
      const { pages, frontier, generated } = await crawl(inlineShellSite(), settings, renderer);
      expect(pages).toHaveLength(1);
      expect(pages[0]?.empty).toBe('Empty page: no text without running its scripts — left out of llms.txt and llms-full.txt');
      expect(frontier[0]?.reason).toMatch(/^Empty page: no text without running its scripts — .* · Client-rendered shell: 0 characters of text · empty #docs · <noscript> asks for JavaScript · 1 inline script — kept as fetched/);
      expect(generated?.output.llmsTxt ?? '').not.toContain(`](${server.url(HOST, '/')})`);
      await db.delete();
      await server.close();
    }
  });
});

/** Stored pages whose Markdown has no readable text but no mark. */
const unmarked = (pages: PageRecord[]) => pages.filter((p) => p.state === 'stored' && plainTextLength(p.markdown) === 0 && !p.empty).map((p) => p.url);

describe('no stored page has empty Markdown without its mark', () => {
  it('across the crawl fixtures, crawled as the command line does (no tabs)', async () => {
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({
      'docs.scout-demo.test': { dir: DEMO_DIR },
      'gen.example.test': generatedSite(40),
      'docsify.lumen.test': docsifySite(),
      [HOST]: inlineShellSite(),
      ...scriptSite(),
    });
    const fetchFn = loopbackFetch();
    const marked: string[] = [];
    for (const host of ['docs.scout-demo.test', 'gen.example.test', 'docsify.lumen.test', HOST, 'docs.scripts.test']) {
      const result = await crawlSite({ db, startUrl: server.url(host, '/'), fetch: fetchFn, rendering: true, now: new Date('2026-11-25T00:00:00Z') });
      const pages = await db.pages.where('[jobId+state]').between([result.job.id, ''], [result.job.id, '\uffff']).toArray();
      expect(pages.length, host).toBeGreaterThan(0);
      expect(unmarked(pages), host).toEqual([]);
      for (const p of pages.filter((q) => q.empty)) {
        marked.push(p.url);
        expect(result.generated?.output.llmsTxt ?? '', host).not.toContain(`](${p.url})`);
      }
    }
    // The inline-script shell cannot be rendered here: its one page is the empty one.
    expect(marked).toEqual([server.url(HOST, '/')]);
  });
});

describe('the command line', () => {
  it('lists a page it stored empty with the reason, writes no entry for it, and exits 1 when every page is empty', async () => {
    server = await startFixtureServer({ '127.0.0.1': inlineShellSite() });
    const start = `http://127.0.0.1:${server.port}/`;
    const out = await mkdtemp(join(tmpdir(), 'scout-empty-'));
    try {
      const run = (...args: string[]) =>
        new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
          execFile(process.execPath, ['--import', 'tsx', 'cli/scout.ts', 'generate', start, '--out', out, '--date', '2026-11-25', ...args], { cwd: process.cwd() }, (error, stdout, stderr) => resolve({ stdout, stderr, code: typeof error?.code === 'number' ? error.code : 0 }));
        });
      const text = await run();
      // The site's one page is the empty shell: an llms.txt listing nothing is not a clean run.
      expect(text.code, text.stderr).toBe(1);
      expect(text.stdout, text.stderr).toContain(`1 page stored empty, left out of the files:\n  ${start}: Empty page: no text without running its scripts — left out of llms.txt and llms-full.txt`);
      const json = JSON.parse((await run('--json', '--quiet')).stdout) as { emptyPages: Array<{ url: string; reason: string }> };
      expect(json.emptyPages).toEqual([{ url: start, reason: 'Empty page: no text without running its scripts — left out of llms.txt and llms-full.txt' }]);
      expect(await readFile(join(out, 'llms.txt'), 'utf8')).not.toContain(`](${start})`);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a refresh', () => {
  it('marks a page that lost its text, and clears the mark when the text is back', async () => {
    let text = '';
    const html = (body: string) => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body: `<!doctype html><html><head><title>Page</title></head><body>${body}</body></html>` });
    const prose = 'A page of the guide with enough sentences to be read as one. '.repeat(5);
    db = createDb(`t-${Math.random()}`);
    server = await startFixtureServer({ [HOST]: { routes: { '/': html(`<main><h1>Home</h1><p>${prose}</p><a href="/a">A</a></main>`) }, fallback: (req) => (req.path === '/a' ? html(text) : null) } });
    const fetchFn = loopbackFetch();
    const process = nodePipeline({ fetch: fetchFn }).process;
    const origin = new URL(server.url(HOST, '/')).origin;
    await recordSiteOpened(db, server.url(HOST, '/'));
    const crawlJob = await createCrawlJob(db, server.url(HOST, '/'), { useSeeds: false });
    expect(await new CrawlRunner({ db, fetch: fetchFn, process, timeoutMs: 2000 }, crawlJob.id).run()).toBe('done');
    const pageA = () => db.pages.get([crawlJob.id, server.url(HOST, '/a')]);
    expect((await pageA())?.empty).toBe('Empty page: no readable text in the page — left out of llms.txt and llms-full.txt');
    expect((await generateForSite(db, origin))?.output.llmsTxt).not.toContain(`](${server.url(HOST, '/a')})`);

    text = `<main><h1>A</h1><p>${prose}</p></main>`;
    const job = await createRefreshJob(db, origin);
    if ('error' in job) throw new Error(job.error);
    expect(await new RefreshRunner({ db, fetch: fetchFn, process, timeoutMs: 2000 }, job.id).run()).toBe('done');
    expect((await pageA())?.empty).toBeUndefined();
    expect((await generateForSite(db, origin))?.output.llmsTxt).toContain(`](${server.url(HOST, '/a')})`);
  });
});
