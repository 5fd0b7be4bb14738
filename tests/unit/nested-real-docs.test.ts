import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type PageRecord, type ScoutDb } from '@/lib/store/db';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { BodyCounts } from '@/lib/generate/body-counts';
import { buildContextPack } from '@/lib/generate/context-pack';
import { generateOutputs } from '@/lib/generate/generate';
import { buildOutputFiles, fileFullText } from '@/lib/generate/output-files';
import { countTokens } from '@/lib/tokens';
import type { GeneratedOutput } from '@/lib/generate/types';
import { validateLlmsTxt } from '@/lib/generate/validate';
import { matrixSites } from '../fixtures/matrix';
import { pythonDocsDir } from '../fixtures/real-docs';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';
import { textWords, walkNested } from './nested-helpers';
import { getJob, pagesOf } from '@/lib/store/queries';

async function crawl(db: ScoutDb, startUrl: string): Promise<{ pages: PageRecord[]; nav?: Array<{ title: string; url: string; depth: number }> }> {
  const job = await createCrawlJob(db, startUrl, { maxPages: 2000, maxDepth: 50 });
  expect(await new CrawlRunner({ db, fetch: loopbackFetch(), process: nodePipeline({ fetch: loopbackFetch() }).process }, job.id).run()).toBe('done');
  const pages = await pagesOf(db, job.id).toArray();
  return { pages, nav: (await getJob(db, job.id, 'crawl'))?.nav };
}

/** Tokens of the site's llms-full.txt with and without lean links, and whether every word stayed. */
function leanSaving(output: GeneratedOutput, origin: string): { plain: number; lean: number; saving: number; wordsKept: boolean } {
  const files = buildOutputFiles({ model: output, flatText: output.llmsTxt, fullText: output.llmsFullTxt, origin, settings: { budget: 50_000, layout: 'nested', leanLinks: true }, counts: new BodyCounts(), plainCounts: output.fullTokens });
  const root = files.files[0];
  if (!root) throw new Error('no root file');
  const lean = fileFullText(output.llmsFullTxt, files, root, origin);
  const plain = output.tokens.llmsFullTxt;
  return { plain, lean: root.full.tokens, saving: 1 - root.full.tokens / plain, wordsKept: JSON.stringify(textWords(lean)) === JSON.stringify(textWords(output.llmsFullTxt)) };
}

describe('nested output and context packs on real documentation', () => {
  let server: FixtureServer;
  const dbs: ScoutDb[] = [];
  const javadoc = matrixSites(['javadoc-jsoup'])[0];
  beforeAll(async () => {
    server = await startFixtureServer({ 'docs.python.test': { dir: pythonDocsDir() }, ...(javadoc ? { [javadoc.host]: javadoc.site() } : {}) });
  });
  afterAll(async () => {
    await server.close();
    for (const db of dbs) await db.delete();
  });

  it('the Python 3.11 docs: every file under 50,000 characters, valid, all pages reachable; a 128k pack that fits', { timeout: 240_000 }, async () => {
    const db = createDb(`nested-py-${Math.random()}`);
    dbs.push(db);
    const startUrl = server.url('docs.python.test', '/index.html');
    const origin = new URL(startUrl).origin;
    const { pages, nav } = await crawl(db, startUrl);
    const output = generateOutputs({ startUrl, pages, nav, generatedAt: new Date('2026-11-23T00:00:00Z') });
    const started = performance.now();
    const files = buildOutputFiles({ model: output, flatText: output.llmsTxt, fullText: output.llmsFullTxt, origin, settings: { budget: 50_000, layout: 'nested', leanLinks: true }, counts: new BodyCounts(), plainCounts: output.fullTokens });
    const layoutMs = performance.now() - started;
    console.log(
      `Python docs: flat llms.txt ${output.llmsTxt.length} chars; nested: ${files.files.length} files in ${layoutMs.toFixed(0)} ms\n` +
        files.files.map((f) => `${'  '.repeat(f.depth)}${f.path} ${f.chars} chars, ${f.tokens} tokens, ${f.keys.length} pages; llms-full ${f.full.chars} chars, ${f.full.tokens} tokens`).join('\n'),
    );
    expect(output.llmsTxt.length).toBeGreaterThan(100_000);
    expect(files.files.length).toBeGreaterThan(1);
    for (const file of files.files) {
      expect(file.text.length, file.path).toBeLessThanOrEqual(50_000);
      expect(parseLlmsTxt(file.text, file.url).warnings, file.path).toEqual([]);
      expect(validateLlmsTxt(file.text, file.url).filter((f) => f.severity !== 'info'), file.path).toEqual([]);
    }
    // Walking the files from the root reaches every stored page.
    const reached = walkNested(files.files).pages;
    const entryUrl = new Map(output.sections.flatMap((s) => s.entries.map((e) => [e.key, e.url] as const)));
    expect(pages.length).toBe(526);
    expect(pages.filter((p) => !reached.has(entryUrl.get(p.key) ?? p.finalUrl)).map((p) => p.finalUrl)).toEqual([]);
    expect(files.files.map((f) => f.path)).toEqual(expect.arrayContaining(['/llms.txt', '/library/llms.txt']));
    // A section file's llms-full.txt count is exact.
    const library = files.files.find((f) => f.path === '/library/llms.txt');
    if (!library) throw new Error('no /library/llms.txt');
    expect(countTokens(fileFullText(output.llmsFullTxt, files, library, origin))).toBe(library.full.tokens);

    // A 128k-token pack of the whole site: within the budget by its exact count, and its contents
    // and left-out list together name every page.
    const sectionOf = new Map(output.sections.flatMap((s) => s.entries.map((e) => [e.key, s.name] as const)));
    const titleOf = new Map(output.sections.flatMap((s) => s.entries.map((e) => [e.key, e.title] as const)));
    const root = files.files[0];
    if (!root) throw new Error('no root');
    const pack = buildContextPack({ fullText: output.llmsFullTxt, files, scope: root, origin, budget: 128_000, lean: true, sectionOf: (k) => sectionOf.get(k) ?? '', titleOf: (k) => titleOf.get(k) ?? k });
    console.log(`Python docs, 128k pack: ${pack.tokens} tokens, ${pack.included.length} pages in, ${pack.leftOut.length} left out`);
    expect(pack.tokens).toBeLessThanOrEqual(128_000);
    expect(countTokens(pack.text)).toBe(pack.tokens);
    expect(pack.included.length + pack.leftOut.length).toBe(526);
    const [lists = ''] = pack.text.split('\n## ');
    for (const key of [...pack.included, ...pack.leftOut]) expect(lists, key).toContain(titleOf.get(key) ?? key);

    // Token-lean links: fewer tokens, not one word of text lost.
    const lean = leanSaving(output, origin);
    console.log(`Python docs, lean llms-full.txt: ${lean.plain} → ${lean.lean} tokens (${(lean.saving * 100).toFixed(1)} % fewer)`);
    expect(lean.wordsKept).toBe(true);
    expect(lean.saving).toBeGreaterThan(0.2);
  });

  it('an API-heavy site (jsoup’s Javadoc): lean links save at least 20 % of llms-full.txt with no word lost', { timeout: 120_000 }, async () => {
    if (!javadoc) throw new Error('no javadoc site');
    const db = createDb(`nested-javadoc-${Math.random()}`);
    dbs.push(db);
    const startUrl = server.url(javadoc.host, javadoc.startPath);
    const { pages, nav } = await crawl(db, startUrl);
    const output = generateOutputs({ startUrl, pages, nav, generatedAt: new Date('2026-11-23T00:00:00Z') });
    const lean = leanSaving(output, new URL(startUrl).origin);
    console.log(`jsoup Javadoc (${pages.length} pages), lean llms-full.txt: ${lean.plain} → ${lean.lean} tokens (${(lean.saving * 100).toFixed(1)} % fewer)`);
    expect(lean.wordsKept).toBe(true);
    expect(lean.saving).toBeGreaterThanOrEqual(0.2);
  });
});
