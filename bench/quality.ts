/**
 * The output-quality scorecard (#14): every site of the generator matrix (tests/fixtures/matrix.ts,
 * the Python and Node.js docs included), crawled in Node exactly as the product crawls (discovery first, as
 * the side panel does when it opens, then the crawl runner with the linkedom processor, through
 * fake-indexeddb), generated with the product's own `generateForSite` (the site's navigation
 * included), and scored by the pure metrics in bench/quality/. The pipeline is lib/headless/crawl-site.ts, which
 * the command line's `scout generate` runs too. Prints a Markdown table, writes
 * bench/results/quality-<date>.json (every metric's offending examples) and .md (the table and the
 * top offenders per site).
 *
 * Run: npm run quality [-- --sites python,node --max-pages 3000 --out bench/results/x.json]
 *   --dir <folder> [--start /index.html] [--name "Site name"] [--sections "A|B|C"]: also score any
 *   static site on disk (id "dir"), e.g. a theme you are fixing the converter for.
 *   --dump <folder>: also write each site's generated llms.txt files and every stored page's
 *   Markdown under <folder>/<site id>/, to read what the figures are about.
 */
import 'fake-indexeddb/auto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { dirname, resolve } from 'node:path';
import { createDb } from '../lib/store/db';
import { crawlSite } from '../lib/headless/crawl-site';
import { matrixSites, type MatrixSite } from '../tests/fixtures/matrix';
import { loopbackFetch, startFixtureServer } from '../tests/fixtures/server';
import { arg } from './harness';
import { invariantOffenders, markdownTable, PLACE_LABEL, scoreSite, TABLE_HEADER, tableRow, type SiteScore } from './quality/scorecard';
import { chromeFor, servedMarkdown } from '../lib/output/served-page';
import { factsOfPages } from './quality/page-html';
import { pagesOf } from '../lib/store/queries';
import { measuredCommit } from './commit';
import { generatorHeadToHead, headToHeadTable, type HeadToHead } from './quality/head-to-head-run';

const MAX_PAGES = Number(arg('max-pages', '3000'));
const DATE = new Date().toISOString().slice(0, 10);
const OUT = arg('out', `bench/results/quality-${DATE}.json`);
const DUMP = arg('dump', '');

/** The matrix's sites (python and node included), or those ids; with --dir, an ad-hoc site too. */
function loadSites(ids: string[] | null): MatrixSite[] {
  const dir = arg('dir', '');
  const sections = arg('sections', '');
  const adHoc: MatrixSite | null = dir
    ? {
        id: 'dir',
        family: 'ad hoc',
        host: 'site.quality.test',
        startPath: arg('start', '/index.html'),
        siteName: arg('name', ''),
        topSections: sections ? sections.split('|') : [],
        site: () => ({ dir: resolve(dir) }),
      }
    : null;
  if (adHoc && (!ids || (ids.length === 1 && ids[0] === 'dir'))) return [adHoc];
  const matrix = matrixSites(ids?.filter((id) => id !== 'dir'));
  return adHoc && ids?.includes('dir') ? [...matrix, adHoc] : matrix;
}

interface SiteRun {
  id: string;
  family: string;
  host: string;
  siteName: string;
  h1: string;
  summary?: string;
  crawlState: string;
  seconds: { crawl: number; generate: number; score: number; total: number };
  score: SiteScore;
  /** Sites whose generator wrote its own llms.txt: both files' figures (bench/quality/head-to-head.ts). */
  headToHead?: HeadToHead;
}

function readSource(path: string): string {
  const data = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(data) : data).toString('utf8');
}

async function runSite(site: MatrixSite): Promise<SiteRun> {
  const t0 = performance.now();
  const server = await startFixtureServer({ [site.host]: site.site() });
  const db = createDb(`quality-${site.id}-${Math.random()}`);
  try {
    const startUrl = server.url(site.host, site.startPath);
    // Discovery, the crawl and generateForSite, as the extension runs them (lib/headless/crawl-site.ts).
    const { job, crawlState, generated, ms } = await crawlSite({ db, startUrl, fetch: loopbackFetch(), settings: { maxPages: MAX_PAGES, maxDepth: 50 }, discoveryJobId: `discovery-${site.id}` });
    const t2 = performance.now();
    const t1 = t2 - ms.generate;
    if (!generated) throw new Error(`${site.id}: nothing generated (crawl ${crawlState})`);
    const { output } = generated;
    const pages = await pagesOf(db, job.id).toArray();
    // Each page as Scout serves it, with the chrome model the generated version kept (never learned again here).
    const chrome = await chromeFor(db, { jobId: job.id });
    if (!chrome) console.warn(`${site.id}: the generated version kept no chrome model: pages are scored as stored`);

    // Source Markdown by URL path as served (the page's final URL, else the one it was found under;
    // a folder URL also under its index.html and the other way round).
    const sources = site.sources ?? {};
    const variants = (path: string) => [path, path.endsWith('/') ? `${path}index.html` : path.replace(/\/index\.html$/, '/'), path.replace(/\/$/, ''), `${path.replace(/\/$/, '')}/`, `${path}.html`];
    const sourceOf = (urls: string[]): string | undefined => {
      const file = urls.flatMap((u) => variants(new URL(u).pathname)).map((p) => sources[p]).find((f) => f !== undefined);
      return file && existsSync(file) ? readSource(file) : undefined;
    };
    // Each converted page's own HTML, read again for the invariants (bench/quality/page-html.ts).
    const facts = await factsOfPages(pages, loopbackFetch());
    if (DUMP) dumpSite(resolve(DUMP, site.id), generated.files.files, pages.map((p) => ({ ...p, served: servedMarkdown(chrome, p) })));
    const score = scoreSite({
      facts,
      files: generated.files.files,
      siteName: site.siteName,
      topSections: site.topSections,
      pages: pages.map((p) => {
        const source = sourceOf([p.finalUrl, p.url]);
        return { key: p.key, finalUrl: p.finalUrl, title: p.title, markdown: p.markdown, served: servedMarkdown(chrome, p), format: p.format, ...(source === undefined ? {} : { source }) };
      }),
      output,
      homeUrls: [startUrl, `${job.origin}/`, `${job.origin}/index.html`],
      // Large sites: 1 shingle in 4 for the containment estimate (memory), every one on small sites.
      shingleSample: pages.length > 300 ? 4 : 1,
    });
    // The per-page "full" figures read llms-full.txt back page by page (## title / Source: url): if
    // its format changed, say so rather than report zeros.
    if (score.pagesListed > 0 && score.notInFull.length === score.pagesListed) {
      console.warn(`${site.id}: no page of llms-full.txt could be matched to a listed page — has its "## title / Source: url" format changed? (bench/quality/llms-full.ts)`);
    }
    const t3 = performance.now();
    const headToHead = site.generatorLlms ? generatorHeadToHead(site, output, [new URL(startUrl).host], readSource) : undefined;
    return {
      id: site.id,
      family: site.family,
      host: site.host,
      siteName: site.siteName,
      h1: output.title,
      ...(output.summary ? { summary: output.summary } : {}),
      crawlState,
      seconds: { crawl: (t1 - t0) / 1000, generate: (t2 - t1) / 1000, score: (t3 - t2) / 1000, total: (t3 - t0) / 1000 },
      score,
      ...(headToHead ? { headToHead } : {}),
    };
  } finally {
    await db.delete();
    await server.close();
  }
}

/** The generated files and each page's Markdown as stored (pages/) and as served (served/), as plain files to read. */
function dumpSite(dir: string, files: { path: string; text: string }[], pages: { finalUrl: string; markdown?: string; served: string }[]): void {
  for (const file of files) {
    const out = resolve(dir, `.${file.path}`);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, file.text);
  }
  for (const page of pages) {
    const name = new URL(page.finalUrl).pathname.replace(/\/$/, '/index').replace(/[^\w.-]+/g, '_');
    const out = resolve(dir, 'pages', `${name}.md`);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `<!-- ${page.finalUrl} -->\n${page.markdown ?? ''}`);
    const served = resolve(dir, 'served', `${name}.md`);
    mkdirSync(dirname(served), { recursive: true });
    writeFileSync(served, `<!-- ${page.finalUrl} -->\n${page.served}`);
  }
}

const short = (s: string, n = 140) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const path = (url: string) => {
  try {
    const u = new URL(url);
    return u.pathname + u.hash;
  } catch {
    return url;
  }
};

/** The offenders per metric for one site, as Markdown bullet lines (for the .md and the console). */
function offenders(run: SiteRun): string[] {
  const s = run.score;
  const out: string[] = [
    `### ${run.id} (${run.family})`,
    `* H1 “${run.h1}” (the site calls itself “${run.siteName}”${s.h1.matches ? '' : ': the H1 is not that name'}); summary “${short(run.summary ?? '', 120)}”`,
  ];
  if (s.names.length > 2) out.push(`* names the titles were checked for: ${s.names.map((n) => `“${n}”`).join(', ')}`);
  const add = (label: string, lines: string[]) => {
    if (lines.length) out.push(`* ${label}`, ...lines.map((l) => `  * ${l}`));
  };
  add(`titles with the site name (${s.titles.count}: ${s.titles.sections} sections, ${s.titles.entries} entries):`, s.titles.examples.slice(0, 6).map((f) => `${f.where} “${short(f.title)}” (part “${f.part}”)`));
  for (const where of ['full', 'served', 'rawStored'] as const) {
    const c = s.chrome[where];
    add(`chrome on ${c.pages} pages in ${PLACE_LABEL[where]} (${Object.entries(c.byKind).map(([k, n]) => `${k} ${n}`).join(', ')}):`, c.top.slice(0, 8).map((l) => `${l.kind}, ${l.pages} pages: \`${short(l.line)}\` (e.g. ${path(l.example)})`));
  }
  for (const where of ['full', 'served', 'rawStored'] as const) {
    const p = s.permalinks[where];
    add(`permalink headings in ${PLACE_LABEL[where]} (${p.headings} on ${p.pages} pages):`, p.examples.slice(0, 4).map((e) => `${e.kind}: \`${short(e.heading)}\` (${path(e.url)})`));
  }
  add(`pages with >1 H1 (${s.multiH1.pages}, max ${s.multiH1.max}):`, s.multiH1.examples.slice(0, 4).map((e) => `${path(e.url)}: ${e.h1s.map((h) => `\`${short(h, 70)}\``).join(', ')}`));
  add(`non-doc pages outside Optional (${s.nonDoc.outsideOptional}: ${Object.entries(s.nonDoc.byClass).map(([k, n]) => `${k} ${n}`).join(', ')}):`, s.nonDoc.examples.slice(0, 8).map((e) => `${e.class}${e.optional ? ' (in Optional)' : ''}: “${short(e.title, 80)}” ${path(e.url)}${e.contains ? `, contains ${e.contains} pages` : ''}`));
  add(`listed but left out of llms-full.txt (${s.notInFull.length}):`, s.notInFull.length ? [s.notInFull.slice(0, 6).map(path).join(', ')] : []);
  add(`llms-full duplication ${(s.duplication.share * 100).toFixed(1)} % (${s.duplication.repeatedChars} of ${s.duplication.totalChars} chars${s.duplication.sources ? `; the sources of its ${s.duplication.sources.pages} pages repeat ${(s.duplication.sources.share * 100).toFixed(1)} % themselves` : ''}), most repeated blocks:`, s.duplication.top.slice(0, 4).map((b) => `×${b.repeats + 1}: \`${short(b.block.replace(/`/g, "'"), 120)}\``));
  if (s.sections.jaccard !== null && s.sections.jaccard < 1) add(`sections (Jaccard ${s.sections.jaccard.toFixed(2)}):`, [`generated, not the site's: ${s.sections.extra.map((n) => `“${n}”`).join(', ') || '—'}`, `the site's, missing: ${s.sections.missing.map((n) => `“${n}”`).join(', ') || '—'}`]);
  add(`weak descriptions (${s.descriptions.weak}: ${Object.entries(s.descriptions.byReason).map(([k, n]) => `${k} ${n}`).join(', ')}):`, s.descriptions.examples.slice(0, 8).map((e) => `${e.reason}: “${short(e.title, 60)}” → “${short(e.description, 120)}”`));
  if (s.descriptions.share !== null && s.descriptions.share < 0.9) add(`undescribed (${s.descriptions.entries - s.descriptions.described} of ${s.descriptions.entries} outside Optional), e.g.:`, [s.descriptions.undescribed.slice(0, 8).map((e) => `“${short(e.title, 50)}” ${path(e.url)}`).join(', ')]);
  if (s.summary.weak) out.push(`* weak summary (${s.summary.weak}): “${short(s.summary.summary ?? '', 160)}”`);
  out.push(...invariantOffenders(s, path));
  if (s.f1.pages) add(`source F1 over ${s.f1.pages} pages: median ${s.f1.median?.toFixed(3)} (uncleaned source ${s.f1.medianRaw?.toFixed(3)}), lowest:`, [s.f1.lowest.map((l) => `${path(l.url)} ${l.f1.toFixed(3)}`).join(', ')]);
  return out;
}

async function main() {
  const sitesArg = arg('sites', '');
  const sites = loadSites(sitesArg ? sitesArg.split(',').map((s) => s.trim()).filter(Boolean) : null);
  const runs: SiteRun[] = [];
  for (const site of sites) {
    process.stdout.write(`${site.id}: crawling ${site.host}${site.startPath}… `);
    const run = await runSite(site);
    runs.push(run);
    console.log(`${run.score.pagesStored} pages, crawl ${run.seconds.crawl.toFixed(1)} s, generate ${run.seconds.generate.toFixed(1)} s, score ${run.seconds.score.toFixed(1)} s (${run.crawlState})`);
  }
  const table = markdownTable(TABLE_HEADER, runs.map((r) => tableRow(r.id, r.family, r.seconds.total, r.score)));
  const details = runs.flatMap((r) => [...offenders(r), '']);
  console.log(`\n${table}\n\n${details.join('\n')}`);
  const h2h = headToHeadTable(runs);
  if (h2h) console.log(`\n## Head to head with the generators' own llms.txt\n\n${h2h}`);

  const commit = measuredCommit();
  const command = `npm run quality${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify({ date: DATE, commit, command, maxPages: MAX_PAGES, columns: TABLE_HEADER, sites: runs }, null, 2)}\n`);
  const md = OUT.replace(/\.json$/, '') + '.md';
  writeFileSync(md, `# Output quality scorecard, ${DATE}${commit ? ` (${commit})` : ''}\n\n\`${command}\`\n\n${table}\n\n${h2h ? `## Head to head with the generators' own llms.txt\n\n${h2h}\n\n` : ''}## Top offenders per site\n\n${details.join('\n')}`);
  console.log(`wrote ${OUT} and ${md}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
