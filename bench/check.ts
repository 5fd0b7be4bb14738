/**
 * The check of a big site (#31's done-when: a 1,000-page site checked within 60 s on loopback).
 * A generated docs site of `--pages` pages in 20 folders, published as the kit publishes: an
 * llms.txt listing every page with a description, a sitemap, `.md` twins, the directive, Link
 * relations, Markdown for Accept: text/markdown, caching headers. `scout check`'s engine
 * (lib/check/run.ts) runs on it through loopback HTTP, `--runs` times; with `--crawl` the run
 * first crawls the whole site, as `scout check --crawl` and the panel's "Include the crawl" do.
 * Prints the figures and writes bench/results/check-<date>.json.
 *
 * Run: npx tsx bench/check.ts [--pages 1000] [--runs 3] [--crawl] [--out bench/results/x.json]
 */
import 'fake-indexeddb/auto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { runSiteCheck } from '../lib/check/run';
import { loopbackFetch, startFixtureServer, type FixtureRequest, type FixtureSite, type Route } from '../tests/fixtures/server';
import { arg } from './harness';

const PAGES = Number(arg('pages', '1000'));
const RUNS = Number(arg('runs', '3'));
const CRAWL = process.argv.includes('--crawl');
const DATE = new Date().toISOString().slice(0, 10);
const OUT = arg('out', `bench/results/check-${DATE}${CRAWL ? '-crawl' : ''}.json`);
const HOST = 'big.check.test';
const FOLDERS = 20;

const pathOf = (i: number) => (i === 0 ? '/' : `/s${i % FOLDERS}/p${i}.html`);
const twinOf = (path: string) => (path === '/' ? '/index.md' : path.replace(/\.html$/, '.md'));
const words = (i: number) => `Page ${i} explains topic ${(i * 7919) % 1000} of the generated reference, with item ${i * 31} and its options.`;

function bigSite(pages: number): FixtureSite {
  const byPath = new Map(Array.from({ length: pages }, (_, i) => [pathOf(i), i]));
  const twins = new Map([...byPath].map(([path, i]) => [twinOf(path), i]));
  const text = (body: string, type: string, headers: Record<string, string> = {}): Route => ({ status: 200, headers: { 'content-type': type, 'cache-control': 'max-age=600', ...headers }, body });
  const twin = (i: number, origin: string) => `# Page ${i}\n\n> For the complete documentation index, see [llms.txt](${origin}/llms.txt).\n\n${words(i)}\n\n${words(i + 1)}\n`;
  return {
    fallback: (req: FixtureRequest): Route | null => {
      const path = req.path.split('?')[0] ?? '/';
      const origin = `http://${String(req.headers.host)}`;
      if (path === '/llms.txt') {
        const sections = Array.from({ length: FOLDERS }, (_, f) => [`## Section ${f}`, '', ...[...byPath].filter(([, i]) => i > 0 && i % FOLDERS === f).map(([p, i]) => `- [Page ${i}](${origin}${p}): Topic ${(i * 7919) % 1000} of the reference`), '']).flat();
        return text(['# Big Docs', '', '> A generated reference of many pages.', '', '## Start', '', `- [Home](${origin}/): Where to begin`, '', ...sections].join('\n'), 'text/plain; charset=utf-8');
      }
      if (path === '/robots.txt') return text(`User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`, 'text/plain');
      if (path === '/sitemap.xml') return text(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[...byPath.keys()].map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`, 'application/xml');
      const t = twins.get(path);
      if (t !== undefined) return text(twin(t, origin), 'text/markdown; charset=utf-8');
      const i = byPath.get(path);
      if (i === undefined) return null;
      if (String(req.headers.accept ?? '').startsWith('text/markdown')) return text(twin(i, origin), 'text/markdown; charset=utf-8', { vary: 'Accept' });
      const children = [1, 2, 3].map((k) => i * 3 + k).filter((c) => c < pages).map((c) => `<li><a href="${pathOf(c)}">Page ${c}</a></li>`).join('');
      const html = `<!doctype html><html><head><title>Page ${i}</title><link rel="describedby" href="/llms.txt"><link rel="alternate" type="text/markdown" href="${twinOf(path)}"></head><body><nav><a href="/">Home</a></nav><main><h1>Page ${i}</h1><blockquote><p>For the complete documentation index, see <a href="/llms.txt">llms.txt</a>.</p></blockquote><p>${words(i)}</p><p>${words(i + 1)}</p><ul>${children}</ul></main></body></html>`;
      return text(html, 'text/html; charset=utf-8', { vary: 'Accept' });
    },
  };
}

async function crawledUrls(pageUrl: string, fetcher: typeof fetch): Promise<{ urls: string[]; ms: number }> {
  const started = Date.now();
  const [{ createDb }, { crawlSite }, { crawledUrlsOf }] = await Promise.all([import('../lib/store/db'), import('../lib/headless/crawl-site'), import('../lib/check/check-job')]);
  const db = createDb(`bench-check-${crypto.randomUUID()}`);
  try {
    const result = await crawlSite({ db, startUrl: pageUrl, fetch: fetcher, rendering: false, settings: { maxPages: PAGES + 10 }, onProgress: () => undefined });
    return { urls: await crawledUrlsOf(db, result.job.origin), ms: Date.now() - started };
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  let requests = 0;
  const site = bigSite(PAGES);
  const counted: FixtureSite = { fallback: (req) => { requests++; return site.fallback?.(req) ?? null; } };
  const server = await startFixtureServer({ [HOST]: counted });
  const fetcher = loopbackFetch();
  const pageUrl = server.url(HOST, '/');
  const runs: Array<{ ms: number; crawlMs?: number; requests: number; score?: number; known: number; sampled: number; linksChecked: string; notPassing: string[] }> = [];
  try {
    for (let r = 0; r < RUNS; r++) {
      requests = 0;
      const started = Date.now();
      const crawl = CRAWL ? await crawledUrls(pageUrl, fetcher) : undefined;
      const { report } = await runSiteCheck({ pageUrl, fetch: fetcher, ...(crawl ? { crawledUrls: crawl.urls } : {}) });
      const ms = Date.now() - started;
      runs.push({ ms, ...(crawl ? { crawlMs: crawl.ms } : {}), requests, score: report.score?.overall, known: report.known, sampled: report.sampled.length, linksChecked: report.checks.find((c) => c.id === 'links')?.summary ?? '', notPassing: report.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id} ${c.status}`) });
      console.log(`run ${r + 1}: ${(ms / 1000).toFixed(1)} s${crawl ? ` (crawl ${(crawl.ms / 1000).toFixed(1)} s)` : ''}, ${requests} requests, score ${report.score?.overall}, ${report.known} pages known, ${report.sampled.length} sampled; links: ${runs.at(-1)?.linksChecked}; not passing: ${runs.at(-1)?.notPassing.join(', ') || 'none'}`);
    }
  } finally {
    await server.close();
  }
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(`${PAGES} pages${CRAWL ? ', crawled first' : ''}: median ${(median / 1000).toFixed(1)} s over ${RUNS} runs (done-when: within 60 s)`);
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify({ date: DATE, pages: PAGES, crawl: CRAWL, command: `npx tsx bench/check.ts --pages ${PAGES} --runs ${RUNS}${CRAWL ? ' --crawl' : ''}`, doneWhen: 'a 1,000-page check within 60 s on loopback', medianMs: median, runs }, null, 2)}\n`);
  console.log(`wrote ${OUT}`);
}

await main();
