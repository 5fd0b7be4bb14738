import { afterEach, describe, expect, it } from 'vitest';
import { linkedomAdapter } from '@/lib/convert/dom';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { CrawlRunner } from '@/lib/crawl/runner';
import type { CrawlSettings } from '@/lib/crawl/settings';
import { generateOutputs } from '@/lib/generate/generate';
import { createPagePipeline } from '@/lib/pipeline/page-pipeline';
import type { Renderer, RenderRequest } from '@/lib/render/tab-renderer';
import { loopbackFetch, startFixtureServer, type FixtureServer, type FixtureSite } from '../fixtures/server';
import { SPA_HOME, SPA_PAGES } from '../fixtures/spa-content';
import { docsifyRoutes, docsifySite } from '../fixtures/spa-sites';
import { frontierOf, getJob } from '@/lib/store/queries';

let db: ScoutDb;
let server: FixtureServer;
afterEach(async () => {
  await db?.delete();
  await server?.close();
});

async function crawl(site: FixtureSite, settings: Partial<CrawlSettings>, renderer: Renderer | null) {
  db = createDb(`t-${Math.random()}`);
  server = await startFixtureServer({ 'spa.example.test': site });
  const fetchFn = loopbackFetch();
  const process = createPagePipeline({ fetch: fetchFn, convert: { dom: linkedomAdapter }, rendering: { renderer, dom: linkedomAdapter } }).process;
  const job = await createCrawlJob(db, server.url('spa.example.test', '/'), { useSeeds: false, maxDepth: 5, ...settings });
  const state = await new CrawlRunner({ db, fetch: fetchFn, process, timeoutMs: 2000 }, job.id).run();
  const pages = await db.pages.where('[jobId+state]').between([job.id, ''], [job.id, '\uffff']).toArray();
  const frontier = await frontierOf(db, job.id).toArray();
  return { state, pages, frontier, job: await getJob(db, job.id, 'crawl') };
}

// A client-rendered app as fetch sees it: every path answers this shell.
const SHELL = `<!doctype html><html><head><title>Lumen Docs</title><script type="module" src="/assets/index.js"></script></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>`;
const spaShell: FixtureSite = { fallback: () => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body: SHELL }) };
const STATIC_PAGE = (title: string, links: string[]) => `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${SPA_HOME.marker} ${'A static page with plenty of text for a reader to get through. '.repeat(5)}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main></body></html>`;

/** What the React app renders for a path: the DOM the tab would hand back (no browser in Node). */
function fakeRenderer(seen: RenderRequest[], hash = false): Renderer {
  return async (request) => {
    seen.push(request);
    const url = new URL(request.url);
    const path = hash ? url.hash.slice(1) || '/' : url.pathname;
    const slug = /^\/docs\/([\w-]+)/.exec(path)?.[1];
    const page = SPA_PAGES.find((p) => p.slug === slug);
    const href = (s: string) => (hash ? `${url.origin}/#/docs/${s}` : `${url.origin}/docs/${s}`);
    const nav = SPA_PAGES.filter((p) => p.group).map((p) => `<li><a href="${href(p.slug)}">${p.title}</a></li>`).join('');
    const body = page ? `<h1>${page.title}</h1>${page.paragraphs.map((t) => `<p>${t}</p>`).join('')}${page.links.map((l) => `<a href="${href(l)}">${l}</a>`).join('')}` : `<h1>${SPA_HOME.title}</h1><p>${SPA_HOME.marker}</p>`;
    const html = `<!doctype html><html><head><title>${page?.title ?? 'Home'} — Lumen Docs</title></head><body><div id="root"><nav class="sidebar"><ul>${nav}</ul></nav><main><article>${body}</article></main></div></body></html>`;
    return { ok: true, ms: 5, dom: { html, url: request.url, links: [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1] ?? ''), settled: true, textChars: 500 } };
  };
}

describe('client-rendered sites in a crawl', () => {
  it('reads a docsify site from its Markdown: every route a page, sections from _sidebar.md, no rendering', async () => {
    const seen: RenderRequest[] = [];
    const { state, pages, frontier, job } = await crawl(docsifySite(), {}, fakeRenderer(seen));
    expect(state).toBe('done');
    expect(seen).toHaveLength(0);
    const origin = server.origin('spa.example.test');
    expect(pages.map((p) => p.url).sort()).toEqual(docsifyRoutes(origin));
    const intro = pages.find((p) => p.url.endsWith('#/guide/introduction'));
    expect(intro).toMatchObject({ format: 'markdown', title: 'Introduction', twinUrl: `${origin}/guide/introduction.md` });
    expect(intro?.markdown).toContain(SPA_PAGES[0]?.marker);
    // The page only linked from another page's text was found through that link.
    expect(pages.some((p) => p.url.endsWith('#/guides/deep-dive'))).toBe(true);
    expect(job?.hashRoutes).toBe(true);
    expect(frontier.find((f) => f.url.endsWith('#/guide/installation'))?.reason).toBe('docsify: /guide/installation.md read directly, no tab');
    // The generated llms.txt takes its sections from the sidebar and links the Markdown files.
    const out = generateOutputs({ pages: pages.map((p) => ({ ...p })), startUrl: `${origin}/`, nav: job?.nav, generatedAt: new Date(0) });
    // The home page leads the first section (the root group would hold it alone: "Deep dive", only
    // linked from a guide's text, now goes with that guide), then the sidebar's pages in order.
    expect(out.llmsTxt).toMatch(/## Getting started\n\n- \[Lumen documentation\]\(http:\/\/spa\.example\.test:\d+\/README\.md\)[^\n]*\n- \[Introduction\]\(http:\/\/spa\.example\.test:\d+\/guide\/introduction\.md\)/);
    expect(out.llmsTxt).toMatch(/## Guides\n\n(?:- [^\n]*\n)*- \[Deep dive\]/);
    expect(out.llmsTxt).toContain('## API reference');
  });

  it('renders shells (Auto): every page with its text, the reason on each, links from the rendered DOM', async () => {
    const seen: RenderRequest[] = [];
    const { state, pages, frontier, job } = await crawl(spaShell, {}, fakeRenderer(seen));
    expect(state).toBe('done');
    expect(pages).toHaveLength(SPA_PAGES.length + 1);
    expect(pages.every((p) => p.rendered && p.shell?.startsWith('Client-rendered shell: '))).toBe(true);
    expect(pages.find((p) => p.url.endsWith('/docs/forms'))?.markdown).toContain(SPA_PAGES.find((p) => p.slug === 'forms')?.marker);
    expect(frontier.find((f) => f.url.endsWith('/docs/forms'))?.reason).toMatch(/^Rendered in a tab: Client-rendered shell: 0 characters of text · empty #root · <noscript> asks for JavaScript · 1 script bundle/);
    expect(job?.counters.rendered).toBe(SPA_PAGES.length + 1);
    expect(job?.message).toMatch(/ · 26 rendered in a tab/);
    expect(seen.every((r) => r.site === 'example.test' && r.jobId === job?.id)).toBe(true);
  });

  it('judges per site too: a thin page without its own evidence is a shell on a site of shells', async () => {
    const thin = `<!doctype html><html><head><title>Lumen</title><script src="/assets/index.js"></script></head><body><div class="splash">Lumen docs are loading. This takes a moment on slow connections, please wait a little.</div></body></html>`;
    const site: FixtureSite = { fallback: (req) => ({ headers: { 'content-type': 'text/html' }, body: req.path === '/later' ? thin : SHELL }) };
    // The home page (rendered) links /later last: breadth-first, shells come before it.
    const app = fakeRenderer([]);
    const renderer: Renderer = async (r) => {
      const result = await app(r);
      return result.ok && new URL(r.url).pathname === '/' ? { ...result, dom: { ...result.dom, links: [...result.dom.links, new URL('/later', r.url).href] } } : result;
    };
    const { frontier } = await crawl(site, { perHostConcurrency: 1 }, renderer);
    expect(frontier.find((f) => f.url.endsWith('/later'))?.reason).toMatch(/^Rendered in a tab: Not a shell: \d+ characters of text · 1 script bundle · the site's other pages are client-rendered shells$/);
  });

  it('keeps hash routes of a rendered hash-routed app as distinct pages', async () => {
    const { pages, job } = await crawl(spaShell, {}, fakeRenderer([], true));
    expect(job?.hashRoutes).toBe(true);
    expect(pages).toHaveLength(SPA_PAGES.length + 1);
    expect(pages.some((p) => p.url.endsWith('/#/docs/deep-dive'))).toBe(true);
  });

  it('Never keeps the shell and says why; Always renders static pages too; Auto leaves static pages alone', async () => {
    const never = await crawl(spaShell, { render: 'never' }, fakeRenderer([]));
    expect(never.pages).toHaveLength(1);
    expect(never.frontier[0]?.reason).toMatch(/— kept as fetched \(rendering is set to Never\)$/);
    await db.delete();
    await server.close();

    const site: FixtureSite = { routes: { '/': { headers: { 'content-type': 'text/html' }, body: STATIC_PAGE('Home', ['/a']) }, '/a': { headers: { 'content-type': 'text/html' }, body: STATIC_PAGE('A', []) } } };
    const auto: RenderRequest[] = [];
    expect((await crawl(site, {}, fakeRenderer(auto))).pages).toHaveLength(2);
    expect(auto).toHaveLength(0);
    await db.delete();
    await server.close();

    const always: RenderRequest[] = [];
    // The static pages as a tab shows them: the same HTML.
    const asServed: Renderer = async (r) => {
      always.push(r);
      const html = STATIC_PAGE(r.url.endsWith('/a') ? 'A' : 'Home', r.url.endsWith('/a') ? [] : [new URL('/a', r.url).href]);
      return { ok: true, ms: 1, dom: { html, url: r.url, links: r.url.endsWith('/a') ? [] : [new URL('/a', r.url).href], settled: true, textChars: 400 } };
    };
    const all = await crawl(site, { render: 'always' }, asServed);
    expect(always).toHaveLength(2);
    expect(all.frontier.find((f) => f.url.endsWith('/a'))?.reason).toBe('Rendered in a tab: rendering is set to Always');
  });

  it('fails a page whose render failed, with the reason, and skips one whose script left the scope', async () => {
    const failing: Renderer = async (r) => (r.url.endsWith('/') ? fakeRenderer([])(r) : { ok: false, reason: 'Not rendered within 30 s: the page did not finish loading in its tab' });
    const { frontier } = await crawl(spaShell, {}, failing);
    expect(frontier.find((f) => f.url.endsWith('/docs/introduction'))).toMatchObject({ state: 'failed', reason: expect.stringMatching(/^Not rendered within 30 s: .* \(Client-rendered shell: /) });
    await db.delete();
    await server.close();

    const away: Renderer = async () => ({ ok: true, ms: 1, dom: { html: '<html><body><p>elsewhere</p></body></html>', url: 'http://other.test/landing', links: [], settled: true, textChars: 9 } });
    const moved = await crawl(spaShell, {}, away);
    expect(moved.frontier[0]).toMatchObject({ state: 'skipped', reason: 'The rendered page moved out of scope to http://other.test/landing (Outside the site (other.test))' });
  });
  describe('a slow render among static pages', () => {
    // "/" links a shell first, then static pages two levels deep; the shell renders to a page that
    // links one more static page.
    const html = { 'content-type': 'text/html; charset=utf-8' };
    const mixed: FixtureSite = {
      routes: {
        '/': { headers: html, body: STATIC_PAGE('Home', ['/shell', '/a', '/b']) },
        '/shell': { headers: html, body: SHELL },
        '/a': { headers: html, body: STATIC_PAGE('A', ['/a1', '/a2']) },
        '/b': { headers: html, body: STATIC_PAGE('B', ['/b1']) },
        '/a1': { headers: html, body: STATIC_PAGE('A1', []) },
        '/a2': { headers: html, body: STATIC_PAGE('A2', []) },
        '/b1': { headers: html, body: STATIC_PAGE('B1', []) },
        '/r1': { headers: html, body: STATIC_PAGE('R1', []) },
      },
    };
    // Renders for delayMs; with `waitFor`, until that many pages are stored too (at most 3 s):
    // pages written while the tab renders, not after it.
    const slowShell = (delayMs: number, storedAtRender: number[], waitFor = 0): Renderer => async (r) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      for (const t0 = Date.now(); (await db.pages.count()) < waitFor && Date.now() - t0 < 3000; ) await new Promise((resolve) => setTimeout(resolve, 20));
      storedAtRender.push(await db.pages.count());
      const rendered = STATIC_PAGE('Rendered', [new URL('/r1', r.url).href]);
      return { ok: true, ms: delayMs, dom: { html: rendered, url: r.url, links: [new URL('/r1', r.url).href], settled: true, textChars: 400 } };
    };

    it('does not hold the other pages while it renders, and queues its links after theirs', async () => {
      const storedAtRender: number[] = [];
      const { state, pages, frontier } = await crawl(mixed, {}, slowShell(50, storedAtRender, 6));
      expect(state).toBe('done');
      // Every static page the crawl could reach without the render was stored while it rendered.
      expect(storedAtRender).toEqual([6]);
      expect(pages.map((p) => new URL(p.url).pathname).sort()).toEqual(['/', '/a', '/a1', '/a2', '/b', '/b1', '/r1', '/shell']);
      expect(pages.find((p) => p.url.endsWith('/shell'))).toMatchObject({ rendered: true });
      const r1 = frontier.find((f) => f.url.endsWith('/r1'));
      expect(r1?.seq).toBeGreaterThan(Math.max(...frontier.filter((f) => !f.url.endsWith('/r1')).map((f) => f.seq)));
    });

    it('writes the rendered page when the page limit, not an empty queue, leaves nothing else to start', async () => {
      // At 4 pages: "/", "/a", "/b" stored, the shell rendering, "/a1", "/a2", "/b1" queued: no room.
      const ended = crawl(mixed, { maxPages: 4 }, slowShell(50, []));
      const hang = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 8000));
      const result = await Promise.race([ended, hang]);
      expect(result).not.toBe('hung');
      if (result === 'hung') return;
      expect(result.state).toBe('done');
      expect(result.pages.map((p) => new URL(p.url).pathname).sort()).toEqual(['/', '/a', '/b', '/shell']);
    });

    it('queues the same links in the same order however long the render takes', async () => {
      const order = async (delayMs: number) => {
        const { frontier } = await crawl(mixed, {}, slowShell(delayMs, []));
        const seen = frontier.map((f) => `${new URL(f.url).pathname}@${f.depth}#${f.seq}`).sort();
        await db.delete();
        await server.close();
        return seen;
      };
      const quick = await order(0);
      expect(await order(400)).toEqual(quick);
    });

    it('a pause while the render waits sends the page back to the queue, and resuming renders it', async () => {
      db = createDb(`t-${Math.random()}`);
      server = await startFixtureServer({ 'spa.example.test': mixed });
      const fetchFn = loopbackFetch();
      let runner: CrawlRunner | undefined;
      const seen: string[] = [];
      // Pauses the crawl at the moment the page "/b1" is fetched: the shell is rendered, not written.
      const pausing: typeof fetch = async (input, init) => {
        if (String(input instanceof Request ? input.url : input).endsWith('/b1')) runner?.pause();
        return fetchFn(input, init);
      };
      const renderer: Renderer = async (r) => {
        seen.push(r.url);
        return slowShell(0, [])(r);
      };
      const process = createPagePipeline({ fetch: pausing, convert: { dom: linkedomAdapter }, rendering: { renderer, dom: linkedomAdapter } }).process;
      const job = await createCrawlJob(db, server.url('spa.example.test', '/'), { useSeeds: false, maxDepth: 5 });
      runner = new CrawlRunner({ db, fetch: pausing, process, timeoutMs: 2000 }, job.id);
      expect(await runner.run()).toBe('paused');
      const shell = (await frontierOf(db, job.id).toArray()).find((f) => f.url.endsWith('/shell'));
      expect(shell?.state).toBe('pending');
      await db.jobs.update(job.id, { state: 'running' });
      const resumed = createPagePipeline({ fetch: fetchFn, convert: { dom: linkedomAdapter }, rendering: { renderer, dom: linkedomAdapter } }).process;
      expect(await new CrawlRunner({ db, fetch: fetchFn, process: resumed, timeoutMs: 2000 }, job.id).run()).toBe('done');
      // Rendered again on resume: the first render's result was never written.
      expect(seen).toHaveLength(2);
      const pages = await db.pages.where('[jobId+state]').between([job.id, ''], [job.id, '\uffff']).toArray();
      expect(pages.find((p) => p.url.endsWith('/shell'))).toMatchObject({ rendered: true });
      expect(pages.some((p) => p.url.endsWith('/r1'))).toBe(true);
    });
  });
});
