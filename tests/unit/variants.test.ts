import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { createCrawlJob } from '@/lib/crawl/jobs';
import { nodePipeline } from '@/lib/pipeline/node';
import { CrawlRunner } from '@/lib/crawl/runner';
import { runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { generateForSite } from '@/lib/generate/run-generate';
import { createScope } from '@/lib/url/scope';
import { describeVariant, foundVariants, otherVariant, variantKind } from '@/lib/url/variants';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';
import { PAGES, versionedSite } from '../fixtures/versioned-site';
import { pagesOf } from '@/lib/store/queries';

describe('versions and languages in paths', () => {
  it('recognise version and language segments, and nothing else', () => {
    for (const v of ['3.2', 'v2', '2.x', 'latest', 'stable', 'dev', 'next', '3.11.4']) expect(variantKind(v), v).toBe('version');
    for (const l of ['en', 'ja', 'pt-br', 'zh-cn', 'zh_CN', 'de-DE']) expect(variantKind(l), l).toBe('language');
    for (const n of ['guide', 'api', 'js', 'go', 'ui', 'v', '2024-01-01', 'docs']) expect(variantKind(n), n).toBeNull();
  });

  it('tell another version or language only where the start page has one of that kind', () => {
    const start = 'https://docs.example.test/en/stable/guide/intro.html';
    expect(otherVariant(start, 'https://docs.example.test/en/latest/guide/intro.html')).toBe('Another version of the docs (latest; crawling stable)');
    expect(otherVariant(start, 'https://docs.example.test/ja/stable/')).toBe('Another language (ja; crawling en)');
    expect(otherVariant(start, 'https://docs.example.test/en/stable/api/x.html')).toBeNull();
    expect(otherVariant(start, 'https://docs.example.test/_static/x.css')).toBeNull();
    expect(otherVariant(start, 'https://docs.example.test/en/index.html')).toBeNull();
    // A dev/ folder on a site without versions is just a folder.
    expect(otherVariant('https://docs.example.test/guide/intro.html', 'https://docs.example.test/dev/notes.html')).toBeNull();
    expect(describeVariant(start)).toBe('version stable, language en');
    expect(describeVariant('https://docs.example.test/guide/')).toBe('');
    expect(createScope({ startUrl: start, mode: 'site' })('https://docs.example.test/pt-br/stable/')).toBe('Another language (pt-br; crawling en)');
    expect(createScope({ startUrl: start, mode: 'site', otherVariants: true })('https://docs.example.test/pt-br/stable/')).toBeNull();
  });

  it('count the other variants a crawl left alone, each with its start page', () => {
    const start = 'https://d.test/en/stable/install.html';
    const found = foundVariants(start, ['https://d.test/en/latest/a.html', 'https://d.test/en/latest/b.html', 'https://d.test/ja/stable/a.html', 'https://d.test/other/x.html']);
    expect(found).toEqual([
      { kind: 'language', value: 'ja', pages: 1, startUrl: 'https://d.test/ja/stable/install.html' },
      { kind: 'version', value: 'latest', pages: 2, startUrl: 'https://d.test/en/latest/install.html' },
    ]);
  });
});

describe('a crawl of a versioned, translated site', () => {
  let server: FixtureServer;
  let db: ScoutDb;
  beforeAll(async () => {
    server = await startFixtureServer({ 'docs.versioned.test': versionedSite() });
  });
  afterAll(async () => {
    await server.close();
    await db?.delete();
  });

  it('from /en/stable/ requests no page of another version or language, and finds the 2 other versions and 2 other languages', { timeout: 60_000 }, async () => {
    db = createDb(`variants-${Math.random()}`);
    const start = server.url('docs.versioned.test', '/en/stable/');
    await runDiscoveryJob(db, { jobId: 'd', pageUrl: start, fetch: loopbackFetch() });
    const job = await createCrawlJob(db, start, { maxPages: 200, maxDepth: 10 });
    expect(await new CrawlRunner({ db, fetch: loopbackFetch(), process: nodePipeline({ fetch: loopbackFetch() }).process }, job.id).run()).toBe('done');

    const pagesRequested = server.requests.map((r) => r.path).filter((p) => /^\/[a-z-]+\/[^/]+\//.test(p));
    expect(pagesRequested.filter((p) => !p.startsWith('/en/stable/'))).toEqual([]);
    const stored = await pagesOf(db, job.id).toArray();
    expect(stored.map((p) => new URL(p.finalUrl).pathname).sort()).toEqual(expect.arrayContaining(PAGES.filter((p) => p !== 'index.html').map((p) => `/en/stable/${p}`)));

    const skipped = await db.frontier.where('[jobId+state]').equals([job.id, 'skipped']).toArray();
    const found = foundVariants(start, skipped.map((s) => s.url));
    expect(found.filter((f) => f.kind === 'version').map((f) => f.value).sort()).toEqual(['3.2', 'latest']);
    expect(found.filter((f) => f.kind === 'language').map((f) => f.value).sort()).toEqual(['ja', 'pt-br']);
    // The sitemap lists all 6 pages of each; languages have all 3 versions of them.
    expect(found.find((f) => f.value === 'latest')?.pages).toBeGreaterThanOrEqual(PAGES.length);
    expect(found.find((f) => f.value === 'ja')?.startUrl).toBe(server.url('docs.versioned.test', '/ja/stable/'));

    // The files say which version and language they describe.
    const origin = new URL(start).origin;
    await db.sites.add({ origin, host: new URL(start).host, site: 'versioned.test', firstOpenedAt: 1, lastOpenedAt: 1, openCount: 1 });
    const generated = await generateForSite(db, origin);
    expect(generated?.files.files[0]?.text).toContain('Describes version stable, language en of the docs.');
  });
});
