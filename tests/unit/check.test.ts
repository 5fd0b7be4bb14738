/**
 * The agent-readiness checks (#19, lib/check/) on a small real site served over loopback HTTP: a
 * clean site passes all eleven, and each fault the fixture can switch on gives its finding and
 * nothing else. The parity measure and the check job (Dexie) are tested here too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckJob, crawledUrlsOf, runCheckJob } from '@/lib/check/check-job';
import { failInterrupted, getJob } from '@/lib/store/queries';
import { samplePages } from '@/lib/check/gather';
import { PARITY_THRESHOLD, textTokens, tokenF1, twinParity } from '@/lib/check/parity';
import { reportLines, reportMarkdown } from '@/lib/check/report';
import { findingKey } from '../fixtures/finding-key';
import { runSiteCheck } from '@/lib/check/run';
import type { CheckReport } from '@/lib/check/types';
import { createDb } from '@/lib/store/db';
import { checkSite, E2E_FAULTS, type CheckSiteFaults } from '../fixtures/check-site';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

const FAULTS: Record<string, CheckSiteFaults> = {
  clean: {},
  e2e: E2E_FAULTS,
  broken: { brokenLink: true },
  robots: { robotsBlocks: 'gptbot' },
  robotsall: { robotsBlocks: 'all' },
  bare: { noDescriptions: true },
  accept: { acceptIgnored: true },
  notwins: { noTwins: true },
  v1: { v1Twins: true },
  headers: { linkHeaders: true },
  nollms: { noLlms: true },
  relative: { relativeLinks: true },
  soft: { soft404: true },
  longcache: { longCache: true },
  nocache: { noCacheHeaders: true },
  fence: { openFence: true },
  longpage: { longPage: true },
  twinroot: { twinLinks: 'root' },
  gated: { extrasGated: '401' },
  gatedform: { extrasGated: 'form' },
  twinrel: { twinLinks: 'relative' },
  nodirective: { noDirective: true },
  buried: { buriedDirective: true },
  plain: { bare: true },
};

let server: FixtureServer;
const fetcher = loopbackFetch();
const host = (name: string) => `${name}.check.test`;
const check = async (name: string, crawledUrls?: string[]): Promise<CheckReport> =>
  (await runSiteCheck({ pageUrl: server.url(host(name), '/'), fetch: fetcher, ...(crawledUrls ? { crawledUrls } : {}) })).report;
const keys = (report: CheckReport) => report.findings.map(findingKey);
const status = (report: CheckReport) => Object.fromEntries(report.checks.map((c) => [c.id, c.status]));

beforeAll(async () => {
  server = await startFixtureServer(Object.fromEntries(Object.entries(FAULTS).map(([name, faults]) => [host(name), checkSite(faults)])));
});
afterAll(() => server.close());

describe('the checks on a real site', { timeout: 30_000 }, () => {
  it('passes a site that does everything right: thirty-one checks, no findings', async () => {
    const report = await check('clean');
    expect(keys(report)).toEqual([]);
    expect(report.checks).toHaveLength(31);
    // Alternative access to gated pages: no page is gated, so nothing to look at.
    expect(report.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id} ${c.status}`)).toEqual(['auth-alternative na']);
    expect(report.verdict).toBe('Agents can use this site: 30 of 30 checks pass');
    expect(report.sampled).toHaveLength(9);
    expect(report.checks.find((c) => c.id === 'twins')?.summary).toContain('v2 page.md');
  });

  it('finds the four problems of the E2E site, each with its evidence and fix', async () => {
    const report = await check('e2e');
    expect(keys(report)).toEqual([
      'error size over-hard-limit /api/llms.txt',
      'warning describedby missing-describedby /guide/install.html',
      'warning coverage section-not-listed /extras/',
      'warning parity twin-differs /guide/usage.md',
    ]);
    const size = report.findings[0];
    expect(size?.figure).toBe('120,000 characters');
    expect(size?.fix).toMatch(/nested llms\.txt/);
    expect(report.findings[2]?.more?.map((u) => new URL(u).pathname)).toEqual(['/extras/plugins.html']);
    expect(report.findings[3]?.figure).toMatch(/^token-F1 0\.\d\d$/);
    expect(report.verdict).toBe('Agents can use this site, but miss parts of it: 26 of 30 checks pass');
    expect(status(report)).toMatchObject({ size: 'fail', coverage: 'fail', describedby: 'warn', parity: 'warn' });
  });

  it('root-relative links in an llms.txt are warnings, each with the full address to write', async () => {
    const report = await check('relative');
    const relative = report.findings.filter((f) => f.code === 'relative-link');
    const inFile = (path: string) => relative.filter((f) => f.url !== undefined && new URL(f.url).pathname === path);
    const root = inFile('/llms.txt');
    expect(root.map((f) => f.line)).toEqual([7, 11, 12, 13, 17]);
    expect(inFile('/api/llms.txt').length).toBeGreaterThan(0);
    expect(root[0]?.message).toContain(`Write it in full: ${server.url(host('relative'), '/')}`);
    expect(root[0]?.fix).toMatch(/full address/);
    expect(report.findings.filter((f) => f.check === 'llms-txt' && f.code !== 'relative-link' && f.code !== 'more-findings')).toEqual([]);
    expect(report.checks.find((c) => c.id === 'llms-txt')?.status).not.toBe('pass');
  });

  it('an llms.txt link that fails is an error with the file and line', async () => {
    const report = await check('broken');
    expect(keys(report)).toContain('error links link-fails /api/server.html');
    const finding = report.findings.find((f) => f.code === 'link-fails');
    expect(finding?.figure).toBe('HTTP 404');
    expect(finding?.message).toMatch(/^\/api\/llms\.txt line \d+ links \/api\/server\.html/);
  });

  it('robots.txt blocking the llms.txt for one agent is a warning, for every crawler an error', async () => {
    expect(keys(await check('robots'))).toEqual(['warning robots robots-blocks-agents /robots.txt']);
    expect((await check('robots')).findings[0]?.figure).toBe('GPTBot');
    expect(keys(await check('robotsall'))).toEqual(['error robots robots-blocks-all /robots.txt', 'error robots robots-blocks-all /robots.txt']);
  });

  it('entries without descriptions, and Accept: text/markdown answered with HTML, are warnings', async () => {
    expect(keys(await check('bare'))).toEqual(['warning descriptions entries-without-descriptions /llms.txt']);
    const accept = await check('accept');
    // The llms.txt links lead to HTML pages whose twins exist: a warning with the twin to link instead.
    expect(keys(accept)).toEqual(['warning links-markdown links-to-html-with-twins /api/', 'warning accept accept-ignored /']);
    expect(accept.findings[1]?.figure).toBe('HTTP 200, text/html');
  });

  it('a site without twins fails the twin check once; alternate and parity have nothing to look at', async () => {
    const report = await check('notwins');
    expect(keys(report)).toEqual(['error links-markdown links-to-html /api/', 'warning twins no-twins /index.html.md', 'warning accept accept-ignored /']);
    expect(status(report)).toMatchObject({ twins: 'fail', alternate: 'na', parity: 'na', 'directive-md': 'na', fences: 'na', 'page-size-md': 'na', accept: 'fail' });
    // n/a: alternate, parity, directive-md, fences, page-size-md, link-portability, single-fetch, auth-alternative.
    expect(report.verdict).toMatch(/: 20 of 23 checks pass$/);
  });

  it('twins in the v1 layout and relations sent as Link headers pass too', async () => {
    const v1 = await check('v1');
    expect(keys(v1)).toEqual([]);
    expect(v1.checks.find((c) => c.id === 'twins')?.summary).toContain('v1 page.html.md');
    const headers = await check('headers');
    expect(keys(headers)).toEqual([]);
    expect(headers.checks.find((c) => c.id === 'describedby')?.summary).toContain('(9 by Link header)');
  });

  it('no llms.txt at all: one error, and the verdict says agents find none', async () => {
    const report = await check('nollms');
    expect(keys(report)).toEqual(['error llms-txt no-llms-txt /llms.txt']);
    expect(report.verdict).toMatch(/^Agents find no llms\.txt on this site: /);
    expect(status(report)).toMatchObject({ size: 'na', links: 'na', descriptions: 'na', coverage: 'na' });
  });

  it('pages and twins that never say where the llms.txt is fail the directive checks, with the sentence to add', async () => {
    const report = await check('nodirective');
    expect(keys(report)).toEqual(['warning directive-html no-directive /', 'warning directive-md no-directive /index.md']);
    expect(status(report)).toMatchObject({ 'directive-html': 'fail', 'directive-md': 'fail' });
    const [html, md] = report.findings;
    expect(html?.figure).toBe('0 of 9');
    expect(html?.fix).toContain('For the complete documentation index, see [llms.txt](/llms.txt).');
    expect(html?.fix).toContain('snippets/directive.html');
    expect(md?.fix).toContain(`Start every twin with “> For the complete documentation index, see [llms.txt](${server.url(host('nodirective'), '/llms.txt')}).”`);
    expect(report.checks.find((c) => c.id === 'directive-html')?.summary).toBe('0 of 9 sampled pages name their llms.txt.');
  });

  it('a directive past the middle of a page warns with how deep it sits; the others near the top still count', async () => {
    const report = await check('buried');
    expect(keys(report)).toEqual(['warning directive-html directive-buried /guide/usage.html', 'warning directive-md directive-buried /guide/usage.md']);
    const html = report.findings[0];
    const depth = Number(/^at (\d+)% of the text$/.exec(html?.figure ?? '')?.[1]);
    expect(depth).toBeGreaterThan(50);
    expect(html?.fix).toMatch(/top of the main content/);
    const row = report.checks.find((c) => c.id === 'directive-html');
    expect(row?.status).toBe('pass');
    expect(row?.summary).toBe('9 of 9 sampled pages name their llms.txt (8 near the top).');
    // 8 pages earn full credit, the buried one 0.6.
    expect(row?.proportion).toBeCloseTo((8 + 0.6) / 9);
  });

  it('a bare static site: no llms.txt, no twins, no directive, no relations, HTML for Markdown', async () => {
    const report = await check('plain');
    expect(keys(report)).toEqual([
      'error llms-txt no-llms-txt /llms.txt', 'warning describedby missing-describedby /', 'warning directive-html no-directive /',
      'warning twins no-twins /index.html.md', 'warning accept accept-ignored /', 'warning content-start content-starts-late /',
    ]);
    expect(status(report)).toMatchObject({ 'content-start': 'fail', 'directive-html': 'fail', 'directive-md': 'na', twins: 'fail', accept: 'fail', robots: 'pass' });
  });

  it('a page that does not exist answering 200 is a soft 404, found with one request', async () => {
    const report = await check('soft');
    expect(keys(report)).toEqual(['warning not-found soft-404 /scout-check-no-such-page-7f3c']);
    expect(status(report)['not-found']).toBe('fail');
    expect(report.findings[0]?.figure).toBe('HTTP 200');
    expect(report.findings[0]?.fix).toMatch(/HTTP 404/);
    expect(report.checks.find((c) => c.id === 'not-found')?.summary).toBe('/scout-check-no-such-page-7f3c, a page that does not exist, answers HTTP 200.');
    expect((await check('clean')).checks.find((c) => c.id === 'not-found')?.summary).toMatch(/answers HTTP 404\.$/);
  });

  it('caching: a week-long max-age fails, no caching header at all fails, each with the header seen', async () => {
    const long = await check('longcache');
    expect(keys(long)).toEqual(['warning cache long-cache /']);
    expect(long.findings[0]?.figure).toBe('cached for 604,800 s; 9 of 9 sampled pages');
    expect(long.findings[0]?.message).toBe('9 of 9 sampled pages may be served from caches for longer than an hour: a fix reaches agents late (first: /).');
    const none = await check('nocache');
    expect(keys(none)).toEqual(['warning cache no-cache-headers /']);
    expect(none.findings[0]?.fix).toMatch(/Cache-Control: max-age=3600/);
    expect(status(none).cache).toBe('fail');
  });

  it('a code block a twin opens and never closes fails the fence check, with its line', async () => {
    const report = await check('fence');
    expect(keys(report)).toEqual(['warning fences unclosed-fence /guide/usage.md']);
    const finding = report.findings[0];
    const twin = await (await fetcher(server.url(host('fence'), '/guide/usage.md'))).text();
    expect(twin.split('\n')[(finding?.line ?? 0) - 1]).toBe('```sh');
    expect(report.checks.find((c) => c.id === 'fences')?.proportion).toBeCloseTo(8 / 9);
  });

  it('a page over 50,000 characters warns, as HTML and as its twin, with its size', async () => {
    const report = await check('longpage');
    expect(keys(report)).toEqual(['warning page-size-md page-over-budget /guide/usage.md', 'warning page-size-html page-over-budget /guide/usage.html']);
    const [md, html] = report.findings;
    expect(Number(md?.figure?.replace(/\D/g, ''))).toBeGreaterThan(50_000);
    expect(Number(html?.figure?.replace(/\D/g, ''))).toBeGreaterThan(50_000);
    expect(Number(html?.figure?.replace(/\D/g, ''))).toBeLessThan(100_000);
    expect(status(report)).toMatchObject({ 'page-size-md': 'warn', 'page-size-html': 'warn' });
    // Eight pages earn 1, the long one 0.5.
    expect(report.checks.find((c) => c.id === 'page-size-html')?.proportion).toBeCloseTo(8.5 / 9);
  });

  it('twin links relative to the twin fail portability, root-relative ones warn, each with the full address to write', async () => {
    const rel = await check('twinrel');
    expect(keys(rel)).toEqual(['warning link-portability relative-links /guide/index.md']);
    expect(rel.findings[0]?.figure).toBe('2 relative, first “install.html”');
    expect(rel.findings[0]?.fix).toBe(`Write each link as its full address (${server.url(host('twinrel'), '/guide/install.html')} for the first).`);
    expect(status(rel)['link-portability']).toBe('fail');
    const root = await check('twinroot');
    expect(keys(root)).toEqual(['warning link-portability root-relative-links /guide/index.md']);
    expect(status(root)['link-portability']).toBe('warn');
    expect(root.checks.find((c) => c.id === 'link-portability')?.proportion).toBeCloseTo((8 + 0.6) / 9);
  });

  it('pages behind a login are errors: 401 by status, a password form by its structure', async () => {
    const gated = await check('gated');
    const auth = (r: CheckReport) => r.findings.filter((f) => f.check === 'auth-gate');
    expect(auth(gated).map(findingKey)).toEqual(['error auth-gate login-required /extras/', 'error auth-gate login-required /extras/plugins.html']);
    expect(auth(gated)[0]?.figure).toBe('HTTP 401');
    expect(status(gated)['auth-gate']).toBe('warn');
    expect(gated.checks.find((c) => c.id === 'auth-gate')?.proportion).toBeCloseTo(7 / 9);
    const form = await check('gatedform');
    expect(auth(form).map(findingKey)).toEqual(['error auth-gate login-form /extras/', 'error auth-gate login-form /extras/plugins.html']);
    // A form where the content should be earns half, as AFDocs' soft gate does.
    expect(form.checks.find((c) => c.id === 'auth-gate')?.proportion).toBeCloseTo(8 / 9);
  });

  it("a crawl's pages count for coverage: a page the sitemap lacks and no llms.txt lists is advice", async () => {
    const extra = server.url(host('clean'), '/guide/faq.html');
    const report = await check('clean', [extra]);
    expect(keys(report)).toContain('info coverage pages-not-listed /guide/faq.html');
    expect(report.crawled).toBe(1);
    // 9 of 10 pages listed: under the 95 % AFDocs passes, over the 80 % it warns at; the finding itself is advice.
    expect(status(report).coverage).toBe('warn');
  });

  it('the Markdown and text reports carry the verdict, every check and every finding', async () => {
    const report = await check('e2e');
    const markdown = reportMarkdown(report);
    expect(markdown).toContain(`**${report.verdict}.**`);
    for (const c of report.checks) expect(markdown).toContain(`| ${c.title} |`);
    for (const f of report.findings) expect(markdown).toContain(f.fix);
    expect(reportLines(report).at(-1)).toBe(report.verdict);
  });
});

describe('parity and sampling', () => {
  it('token-F1 is 1 for the same words, 0 for none shared, and ignores link targets', () => {
    expect(tokenF1(['a', 'b'], ['b', 'a'])).toBe(1);
    expect(tokenF1(['a'], ['b'])).toBe(0);
    expect(textTokens('See [the guide](https://x.test/a/b.html) now')).toEqual(['see', 'the', 'guide', 'now']);
    expect(tokenF1(['a', 'b', 'c', 'd'], ['a', 'b'])).toBeCloseTo(2 / 3);
  });

  it("compares the twin with the page's main content, not its navigation", () => {
    const html = '<html><body><nav><a href="/">Home</a><a href="/x">Many other links here</a></nav><main><h1>Install</h1><p>Unpack the archive and run the program.</p></main></body></html>';
    expect(twinParity(html, 'http://s.test/install.html', '# Install\n\nUnpack the archive and run the program.\n')).toBeGreaterThan(0.95);
    expect(twinParity(html, 'http://s.test/install.html', '# Changelog\n\nVersion two removed flags.\n')).toBeLessThan(PARITY_THRESHOLD);
  });

  it('samples the start page and evenly spaced pages, the same ones every time', () => {
    const many = Array.from({ length: 100 }, (_, i) => `http://s.test/p${i}.html`);
    const sample = samplePages('http://s.test/', many);
    expect(sample).toHaveLength(10);
    expect(sample[0]).toBe('http://s.test/');
    expect(sample.slice(1, 3)).toEqual(['http://s.test/p0.html', 'http://s.test/p11.html']);
    expect(samplePages('http://s.test/', many)).toEqual(sample);
    expect(samplePages('http://s.test/', ['http://s.test/index.html', 'http://s.test/a.html'])).toEqual(['http://s.test/', 'http://s.test/a.html']);
  });
});

describe('check jobs', { timeout: 30_000 }, () => {
  it('stores the report on a done job, keeps the newest three, and marks an interrupted one failed', async () => {
    const db = createDb(`check-jobs-${Math.random()}`);
    const pageUrl = server.url(host('e2e'), '/');
    for (let i = 0; i < 4; i++) {
      await createCheckJob(db, { jobId: `j${i}`, pageUrl });
      await runCheckJob(db, { jobId: `j${i}`, pageUrl, fetch: fetcher, crawl: true });
    }
    const jobs = await db.jobs.where('origin').equals(new URL(pageUrl).origin).toArray();
    expect(jobs.map((j) => j.id).sort()).toEqual(['j1', 'j2', 'j3']);
    const done = await getJob(db, 'j3', 'check');
    expect(done?.state).toBe('done');
    expect(done?.report?.findings.map(findingKey)).toHaveLength(4);
    expect(done?.message).toBe(done?.report?.verdict);
    expect(await crawledUrlsOf(db, new URL(pageUrl).origin)).toEqual([]);

    await createCheckJob(db, { jobId: 'stopped', pageUrl });
    expect(await failInterrupted(db, 'check')).toBe(1);
    expect((await db.jobs.get('stopped'))?.state).toBe('failed');
    db.close();
  });
});

describe('scout check --crawl', { timeout: 60_000 }, () => {
  it("counts the crawl's pages as the panel's “Include the crawl” does: a page only links reach is found", async () => {
    const { runCheck } = await import('../../cli/check');
    const hidden = await startFixtureServer({ 'hidden.check.test': checkSite({ hiddenPage: true }) });
    try {
      const url = hidden.url('hidden.check.test', '/');
      const run = async (crawl: boolean) => {
        const out: string[] = [];
        const code = await runCheck({ url, strict: false, verbose: false, json: true, crawl }, { out: (l) => out.push(l), progress: () => undefined }, fetcher);
        return { code, report: (JSON.parse(out.join('\n')) as { report: CheckReport }).report };
      };
      const plain = await run(false);
      expect(keys(plain.report)).toEqual([]);
      const crawled = await run(true);
      expect(crawled.code).toBe(0);
      expect(crawled.report.crawled).toBeGreaterThanOrEqual(10);
      expect(keys(crawled.report)).toEqual(['info coverage pages-not-listed /guide/faq.html']);
    } finally {
      await hidden.close();
    }
  });
});
