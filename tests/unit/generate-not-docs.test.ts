import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { runGenerate } from '@/cli/generate';
import type { Io } from '@/cli/common';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';
import { DEFAULT_SETTINGS } from '@/lib/crawl/settings';
import { createDb, type CrawlJob, type PageRecord, type ScoutDb } from '@/lib/store/db';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { bringBack, toggleKey } from '@/lib/generate/curation';
import { buildZip, exportablePages } from '@/lib/generate/export';
import { generateOutputs } from '@/lib/generate/generate';
import { coveringName } from '@/lib/generate/llms-name';
import { docsOf, generateForSite, saveCuration } from '@/lib/generate/run-generate';
import type { DocsBoundary } from '@/lib/url/boundary';
import { loopbackFetch, startFixtureServer } from '../fixtures/server';

const DOCS = 'https://docs.acme.test';
const NOW = new Date('2026-11-25T12:00:00Z');

/** A page as the company's site serves it: its header names the company (og:site_name "Acme"). */
function html(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><title>${title}</title><meta property="og:site_name" content="Acme">${head}</head>
<body><header><a href="https://www.acme.test/">Acme</a> <a href="https://www.acme.test/pricing">Pricing</a> <a href="https://www.acme.test/blog/">Blog</a></header>
<main>${body}</main><footer>© Acme Inc.</footer></body></html>`;
}

/** A stored page record of a crawl, converted from its HTML by the crawl's own converter. */
function stored(url: string, source: string, over: Partial<PageRecord> = {}): PageRecord {
  const page = convertHtml(source, url, linkedomAdapter);
  return {
    jobId: 'crawl', key: url, url, finalUrl: url, state: 'stored', depth: 1, title: page.title, description: page.description, siteName: page.siteName,
    markdown: page.markdown, format: 'html', contentHash: url, bytes: source.length, fetchedAt: 1, ...over,
  };
}

const docsPages = [
  stored(`${DOCS}/en/stable/`, html('Acme 4.2 documentation', '<h1>Acme 4.2 documentation</h1><p>Acme is a job queue for Python services: define tasks, run workers, watch them retry.</p><ul><li><a href="install.html">Install</a></li><li><a href="tasks.html">Tasks</a></li></ul>'), { depth: 0 }),
  stored(`${DOCS}/en/stable/install.html`, html('Install — Acme 4.2 documentation', '<h1>Install</h1><p>Install the acme package with pip and start one worker per machine before you queue tasks.</p>')),
  stored(`${DOCS}/en/stable/tasks.html`, html('Tasks — Acme 4.2 documentation', '<h1>Tasks</h1><p>A task is a function the worker runs; its arguments must be serialisable, and it may be retried.</p>')),
];
// What a crawl of the whole site also stores: the company's front page and its blog, each told apart by evidence (lib/crawl/not-docs.ts).
const otherPages = [
  stored('https://www.acme.test/', html('Acme — Ship faster', '<h1>Ship faster with Acme</h1><p>The queue trusted by ten thousand teams, from startups to banks. Start your free trial today.</p>', '<meta name="description" content="Acme: the job queue trusted by ten thousand teams. Start your free trial today.">'), {
    depth: 1, notDocs: 'Has none of the documentation’s navigation',
  }),
  stored('https://www.acme.test/blog/launch', html('We launched 5.0 — Acme Blog', '<h1>We launched 5.0</h1><p>Today we are proud to announce the biggest release in the history of our company and our community.</p>'), { notDocs: 'A blog post (schema.org BlogPosting)' }),
  stored('https://www.acme.test/blog/hiring', html('We are hiring — Acme Blog', '<h1>We are hiring</h1><p>Join the team building the queue: engineers, writers and support people, remote or in our offices.</p>'), { notDocs: 'A blog post (schema.org BlogPosting)' }),
  stored('https://www.acme.test/blog/customers', html('Customer stories — Acme Blog', '<h1>Customer stories</h1><p>How the biggest teams run millions of tasks a day with Acme, in their own words and figures.</p>'), { notDocs: 'A blog post (schema.org BlogPosting)' }),
  stored('https://www.acme.test/blog/pricing', html('New pricing — Acme Blog', '<h1>New pricing</h1><p>From next month every plan includes unlimited workers, and the free plan keeps its generous limits.</p>'), { notDocs: 'A blog post (schema.org BlogPosting)' }),
];
const all = [...otherPages, ...docsPages];
const source = (p: PageRecord) => ({ ...p, empty: p.empty, notDocs: p.notDocs });
const links = (text: string) => parseLlmsTxt(text, `${DOCS}/llms.txt`).links.map((l) => l.url);

describe('pages that are not documentation, in the outputs', () => {
  it('are left out of llms.txt and llms-full.txt, and listed with why for the Review', () => {
    const out = generateOutputs({ startUrl: `${DOCS}/en/stable/`, pages: all.map(source), generatedAt: NOW });
    expect(links(out.llmsTxt).sort()).toEqual(docsPages.map((p) => p.url).sort());
    expect(out.llmsTxt).not.toMatch(/acme\.test\/blog|www\.acme\.test\//);
    expect(out.llmsFullTxt).not.toContain('proud to announce');
    expect(out.llmsFullTxt).not.toContain('free trial');
    expect(out.details).toContain('from 3 pages');
    expect(out.notDocs.map((e) => [e.url, e.reason, e.included])).toEqual([
      ['https://www.acme.test/', 'Has none of the documentation’s navigation', false],
      ['https://www.acme.test/blog/customers', 'A blog post (schema.org BlogPosting)', false],
      ['https://www.acme.test/blog/hiring', 'A blog post (schema.org BlogPosting)', false],
      ['https://www.acme.test/blog/launch', 'A blog post (schema.org BlogPosting)', false],
      ['https://www.acme.test/blog/pricing', 'A blog post (schema.org BlogPosting)', false],
    ]);
    expect(out.notDocs.find((e) => e.url.endsWith('/launch'))?.title).toBe('We launched 5.0 — Acme Blog');
  });

  it('name and summarise nothing: the H1 and blockquote come from the docs, not the blog or the front page', () => {
    const out = generateOutputs({ startUrl: `${DOCS}/en/stable/`, pages: all.map(source), generatedAt: NOW });
    expect(out.title).toBe('Acme 4.2 documentation');
    expect(out.summary).toMatch(/^Acme is a job queue for Python services/);
    // The same pages with no marks: four of the eight titles end "— Acme Blog", and the blog names the docs.
    const unmarked = generateOutputs({ startUrl: `${DOCS}/en/stable/`, pages: all.map((p) => ({ ...source(p), notDocs: undefined })), generatedAt: NOW });
    expect(unmarked.title).toBe('Acme Blog');
  });

  it('come back into the sections and llms-full.txt when the user brings them back, and go again on the next click', () => {
    const launch = 'https://www.acme.test/blog/launch';
    const curation = toggleKey({}, 'included', launch);
    expect(curation.included).toEqual([launch]);
    const out = generateOutputs({ startUrl: `${DOCS}/en/stable/`, pages: all.map(source), generatedAt: NOW, curation });
    expect(links(out.llmsTxt)).toContain(launch);
    expect(out.llmsFullTxt).toContain('proud to announce');
    expect(out.notDocs.filter((e) => e.included).map((e) => e.url)).toEqual([launch]);
    // Bringing a page back does not let it name the docs.
    expect(out.title).toBe('Acme 4.2 documentation');
    const again = generateOutputs({ startUrl: `${DOCS}/en/stable/`, pages: all.map(source), generatedAt: NOW, curation: toggleKey(curation, 'included', launch) });
    expect(links(again.llmsTxt)).not.toContain(launch);
    expect(again.notDocs.every((e) => !e.included)).toBe(true);
  });

  it('come back in one click even after the user left the page out', () => {
    const hiring = 'https://www.acme.test/blog/hiring';
    const run = (curation: Parameters<typeof bringBack>[0]) => generateOutputs({ startUrl: `${DOCS}/en/stable/`, pages: all.map(source), generatedAt: NOW, curation });
    const back = bringBack({ excluded: [`${DOCS}/en/stable/tasks.html`] }, hiring, true);
    expect(links(run(back).llmsTxt)).toContain(hiring);
    // Left out from its section afterwards: out of the files, and the group offers to bring it back again.
    const left = toggleKey(back, 'excluded', hiring);
    expect(links(run(left).llmsTxt)).not.toContain(hiring);
    expect(run(left).notDocs.find((e) => e.url === hiring)?.included).toBe(false);
    const again = bringBack(left, hiring, true);
    expect(again.excluded).toEqual([`${DOCS}/en/stable/tasks.html`]);
    expect(links(run(again).llmsTxt)).toContain(hiring);
    expect(bringBack(again, hiring, false).included).toEqual([]);
  });

  it('stay out of the zip and pages.json unless brought back', () => {
    const pick = (included: string[]) => exportablePages(all, { included }).map((p) => ({ url: p.finalUrl, title: p.title, markdown: p.markdown }));
    const names = (included: string[]) => {
      const files = unzipSync(buildZip({ host: 'docs.acme.test', llmsTxt: '# Acme\n', llmsFullTxt: '# Acme\n', pages: pick(included) }));
      const meta = JSON.parse(strFromU8(files['pages.json'] ?? new Uint8Array())) as Array<{ url: string }>;
      return { files: Object.keys(files).filter((f) => f.startsWith('pages/')).sort(), urls: meta.map((m) => m.url) };
    };
    const plain = names([]);
    expect(plain.files).toEqual(['pages/en/stable/index.md', 'pages/en/stable/install.md', 'pages/en/stable/tasks.md']);
    expect(plain.urls.some((u) => u.includes('www.acme.test'))).toBe(false);
    expect(names(['https://www.acme.test/blog/hiring']).urls).toContain('https://www.acme.test/blog/hiring');
    // Pages stored without text are no file either.
    expect(exportablePages([{ key: 'a', empty: 'No readable text' }, { key: 'b' }]).map((p) => p.key)).toEqual(['b']);
  });
});

describe('the H1 names the documentation', () => {
  it('is the boundary’s name when the crawl found one', () => {
    const out = generateOutputs({ startUrl: `${DOCS}/en/stable/`, pages: docsPages.map(source), generatedAt: NOW, docsName: 'Acme Queue docs' });
    expect(out.title).toBe('Acme Queue docs');
    expect(out.llmsTxt.split('\n')[0]).toBe('# Acme Queue docs');
    expect(out.llmsFullTxt.split('\n')[0]).toBe('# Acme Queue docs');
    // A boundary named only after the company (its og:site_name) gives way to what the docs' titles say.
    expect(generateOutputs({ startUrl: `${DOCS}/en/stable/`, pages: docsPages.map(source), generatedAt: NOW, docsName: 'Acme' }).title).toBe('Acme 4.2 documentation');
    // So does one that is the start page's whole title with a tagline, or the same name spelt otherwise.
    const named = (docsName: string) => generateOutputs({ startUrl: `${DOCS}/en/stable/`, pages: docsPages.map(source), generatedAt: NOW, docsName }).title;
    expect(named('the job queue for Python | Acme 4.2 documentation')).toBe('Acme 4.2 documentation');
    expect(named('Acme 4.2 Documentation')).toBe('Acme 4.2 documentation');
    expect(named('Acme Handbook | the job queue')).toBe('Acme Handbook | the job queue');
  });

  it('prefers the docs home’s own name to an og:site_name that is only the company’s', () => {
    // The converter took " — Acme" off every title (og:site_name says "Acme"), so no suffix is left to share.
    const pages = [
      stored(`${DOCS}/`, html('Acme', '<h1>Acme Reference Manual</h1><p>Everything the Acme command line and its server can do, option by option, with examples.</p>'), { depth: 0 }),
      stored(`${DOCS}/cli.html`, html('Command line — Acme', '<h1>Command line</h1><p>Every command of the acme tool with its options.</p>')),
      stored(`${DOCS}/server.html`, html('Server — Acme', '<h1>Server</h1><p>Running the server and what each setting changes.</p>')),
    ];
    expect(pages.map((p) => p.title)).toEqual(['Acme', 'Command line', 'Server']);
    expect(generateOutputs({ startUrl: `${DOCS}/`, pages: pages.map(source), generatedAt: NOW }).title).toBe('Acme Reference Manual');
    // A greeting is no name: the declared one stays.
    const welcome = [{ ...pages[0], markdown: '# Welcome to Acme\n\nText.' } as PageRecord, ...pages.slice(1)];
    expect(generateOutputs({ startUrl: `${DOCS}/`, pages: welcome.map(source), generatedAt: NOW }).title).toBe('Acme');
  });

  it('takes the H1 of the site’s own llms.txt covering the start page over og:site_name, after a shared title suffix', () => {
    const files = [
      { url: `${DOCS}/llms.txt`, title: 'Acme' },
      { url: `${DOCS}/en/stable/llms.txt`, title: 'Acme 4.2 docs' },
      { url: `${DOCS}/en/latest/llms.txt`, title: 'Acme dev docs' },
      { url: `${DOCS}/en/stable/api/llms.txt`, title: 'Acme API' },
    ];
    expect(coveringName(files, `${DOCS}/en/stable/install.html`)).toBe('Acme 4.2 docs');
    expect(coveringName(files, `${DOCS}/about/`)).toBe('Acme');
    expect(coveringName(files, 'https://www.acme.test/')).toBeUndefined();
    // og:site_name "Acme" took " — Acme" off every title: the published llms.txt names the docs.
    const pages = [
      stored(`${DOCS}/`, html('Acme', '<h1>Acme</h1><p>Everything the Acme command line and its server can do, option by option.</p>'), { depth: 0 }),
      stored(`${DOCS}/cli.html`, html('Command line — Acme', '<h1>Command line</h1><p>Every command of the acme tool.</p>')),
      stored(`${DOCS}/server.html`, html('Server — Acme', '<h1>Server</h1><p>Running the server.</p>')),
    ];
    expect(generateOutputs({ startUrl: `${DOCS}/`, pages: pages.map(source), generatedAt: NOW }).title).toBe('Acme');
    expect(generateOutputs({ startUrl: `${DOCS}/`, pages: pages.map(source), generatedAt: NOW, llmsName: 'Acme CLI and server' }).title).toBe('Acme CLI and server');
    // Titles that share a suffix already say it.
    expect(generateOutputs({ startUrl: `${DOCS}/en/stable/`, pages: docsPages.map(source), generatedAt: NOW, llmsName: 'Acme' }).title).toBe('Acme 4.2 documentation');
  });

  it('takes the summary from the docs’ home, the boundary’s root, over the company’s front page on the same host', () => {
    const front = stored(`${DOCS}/`, html('Acme', '<h1>Acme</h1><p>Start your free trial of the queue trusted by ten thousand teams, today and for free.</p>'), { depth: 0 });
    const pages = [front, ...docsPages].map(source);
    const withHome = generateOutputs({ startUrl: `${DOCS}/en/stable/install.html`, pages, generatedAt: NOW, docsHome: `${DOCS}/en/stable/` });
    expect(withHome.summary).toMatch(/^Acme is a job queue/);
    const without = generateOutputs({ startUrl: `${DOCS}/en/stable/install.html`, pages, generatedAt: NOW });
    expect(without.summary).toMatch(/free trial/);
  });
});

describe('generateForSite with a boundary and marked pages', () => {
  let db: ScoutDb;
  afterEach(() => db.delete());
  const boundary: DocsBoundary = {
    roots: [{ origin: 'https://api.acme.test', path: '/' }, { origin: DOCS, path: '/en/' }, { origin: DOCS, path: '/en/stable/' }],
    why: ['The docs’ sidebar links 3 pages, all under docs.acme.test/en/stable/'],
    name: 'Acme 4.2 docs',
    nav: docsPages.map((p) => p.url),
    listed: { inside: 3, outside: 5, fromSitemaps: true, fromLlms: false },
  };

  it('writes the boundary’s name, keeps marked pages out, stores them on the model, and brings one back through the curation', async () => {
    db = createDb(`t-${Math.random()}`);
    const origin = DOCS;
    await db.sites.add({ origin, host: 'docs.acme.test', site: 'acme.test', firstOpenedAt: 1, lastOpenedAt: 1, openCount: 1 });
    const job: CrawlJob = { id: 'crawl', origin, kind: 'crawl', state: 'done', createdAt: 1, startUrl: `${DOCS}/en/stable/install.html`, settings: { ...DEFAULT_SETTINGS, scope: 'site' }, counters: {}, boundary };
    await db.jobs.add(job);
    await db.pages.bulkAdd(all);

    const first = await generateForSite(db, origin, NOW);
    expect(first?.output.title).toBe('Acme 4.2 docs');
    expect(first?.output.summary).toMatch(/^Acme is a job queue/);
    expect(links(first?.output.llmsTxt ?? '').sort()).toEqual(docsPages.map((p) => p.url).sort());
    const model = (await db.artifacts.where('[origin+kind+version]').equals([origin, 'llms', 1]).first())?.model;
    expect(model?.notDocs?.length).toBe(5);
    expect(model?.notDocs?.[0]).toMatchObject({ url: 'https://www.acme.test/', reason: 'Has none of the documentation’s navigation', included: false });

    await saveCuration(db, origin, { included: ['https://www.acme.test/blog/customers'] });
    const second = await generateForSite(db, origin, NOW);
    expect(links(second?.output.llmsTxt ?? '')).toContain('https://www.acme.test/blog/customers');
    expect(second?.output.notDocs.filter((e) => e.included).length).toBe(1);
    expect(second?.output.title).toBe('Acme 4.2 docs');
  });

  it('reads the covering llms.txt’s H1 from the site’s discovery when the crawl has no boundary', async () => {
    db = createDb(`t-${Math.random()}`);
    const origin = DOCS;
    await db.sites.add({ origin, host: 'docs.acme.test', site: 'acme.test', firstOpenedAt: 1, lastOpenedAt: 1, openCount: 1 });
    await db.jobs.add({ id: 'disc', origin, kind: 'discovery', state: 'done', createdAt: 1, counters: {} });
    await db.discovered.bulkAdd([
      { origin, jobId: 'disc', fetchedAt: 1, url: `${DOCS}/llms.txt`, kind: 'llms', sources: ['probe'], status: 'found', depth: 0, title: 'Acme' },
      { origin, jobId: 'disc', fetchedAt: 1, url: `${DOCS}/guide/llms.txt`, kind: 'llms', sources: ['probe'], status: 'found', depth: 0, title: 'Acme User Guide' },
      { origin, jobId: 'disc', fetchedAt: 1, url: `${DOCS}/guide/llms-full.txt`, kind: 'llms-full', sources: ['probe'], status: 'found', depth: 0, title: 'Everything' },
    ]);
    await db.jobs.add({ id: 'crawl', origin, kind: 'crawl', state: 'done', createdAt: 2, startUrl: `${DOCS}/guide/`, settings: { ...DEFAULT_SETTINGS, scope: 'host' }, counters: {} });
    const pages = [
      stored(`${DOCS}/guide/`, html('Acme', '<h1>Welcome</h1><p>How to run Acme: install it, queue tasks and watch the workers.</p>'), { depth: 0 }),
      stored(`${DOCS}/guide/install.html`, html('Install — Acme', '<h1>Install</h1><p>Install the acme package with pip.</p>')),
    ];
    await db.pages.bulkAdd(pages);
    expect((await generateForSite(db, origin, NOW))?.output.title).toBe('Acme User Guide');
  });

  it('takes the name from the plan made for the start page when the crawl’s scope was wider than the docs', async () => {
    db = createDb(`t-${Math.random()}`);
    const origin = DOCS;
    const startUrl = `${DOCS}/en/stable/install.html`;
    await db.sites.add({ origin, host: 'docs.acme.test', site: 'acme.test', firstOpenedAt: 1, lastOpenedAt: 1, openCount: 1 });
    await db.jobs.add({ id: 'crawl', origin, kind: 'crawl', state: 'done', createdAt: 1, startUrl, settings: { ...DEFAULT_SETTINGS, scope: 'site' }, counters: {} });
    await db.pages.bulkAdd(all);
    await db.plans.add({ startUrl, origin, state: 'running', createdAt: 1 });
    // A plan still running knows nothing yet.
    expect((await generateForSite(db, origin, NOW))?.output.title).toBe('Acme 4.2 documentation');
    await db.plans.put({ startUrl, origin, state: 'done', createdAt: 1, boundary: { ...boundary, name: 'Acme Queue manual' } });
    expect((await generateForSite(db, origin, NOW))?.output.title).toBe('Acme Queue manual');
  });

  it('takes the docs’ home from the most specific root holding the start page', () => {
    expect(docsOf({ startUrl: `${DOCS}/en/stable/install.html`, boundary })).toEqual({ docsName: 'Acme 4.2 docs', docsHome: `${DOCS}/en/stable/` });
    expect(docsOf({ startUrl: 'https://elsewhere.test/', boundary: { ...boundary, name: '  ' } })).toEqual({ docsHome: 'https://api.acme.test/' });
    expect(docsOf({ startUrl: `${DOCS}/` })).toEqual({});
  });
});

/** A small docs site whose news post says what it is (schema.org BlogPosting), as blog engines write it. */
function newsSite() {
  const page = (title: string, body: string, head = '') => ({
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html><head><title>${title} — Acme docs</title>${head}</head><body><main><h1>${title}</h1>${body}</main></body></html>`,
  });
  const post = JSON.stringify({ '@context': 'https://schema.org', '@type': 'BlogPosting', headline: 'Acme 5.0 is out', datePublished: '2026-11-01' });
  return {
    'docs.acme.test': {
      routes: {
        '/': page('Acme docs', '<p>Acme is a job queue for Python services: define tasks, run workers, watch them retry.</p><ul><li><a href="/install.html">Install</a></li><li><a href="/tasks.html">Tasks</a></li><li><a href="/news/acme-5.html">Acme 5.0 is out</a></li></ul>'),
        '/install.html': page('Install', '<p>Install the acme package with pip and start one worker per machine before you queue tasks.</p>'),
        '/tasks.html': page('Tasks', '<p>A task is a function the worker runs; its arguments must be serialisable, and it may be retried.</p>'),
        '/news/acme-5.html': page('Acme 5.0 is out', '<p>Today we are proud to announce the biggest release in the history of our company and our community.</p>', `<script type="application/ld+json">${post}</script>`),
      },
    },
  };
}

describe('scout generate', { timeout: 120_000 }, () => {
  it('says how many pages it left out as not documentation, and writes none of them', async () => {
    const server = await startFixtureServer(newsSite());
    const out = await mkdtemp(join(tmpdir(), 'scout-not-docs-'));
    const run = async (json: boolean) => {
      const lines: string[] = [];
      const io: Io = { out: (line) => lines.push(line), progress: () => undefined };
      const code = await runGenerate({ input: server.url('docs.acme.test', '/'), out, cleanUrls: false, date: NOW, settings: {}, output: {}, json }, io, loopbackFetch());
      return { code, text: lines.join('\n') };
    };
    try {
      const report = JSON.parse((await run(true)).text) as { notDocsPages: Array<{ url: string; reason: string }> };
      const post = server.url('docs.acme.test', '/news/acme-5.html');
      expect(report.notDocsPages.map((p) => p.url)).toEqual([post]);
      expect(report.notDocsPages[0]?.reason).toMatch(/blog post/i);
      const { code, text } = await run(false);
      expect(code, text).toBe(0);
      expect(text).toContain(`1 page left out as not documentation:\n  ${post}: ${report.notDocsPages[0]?.reason}`);
      const llms = await readFile(join(out, 'llms.txt'), 'utf8');
      expect(links(llms)).toHaveLength(3);
      expect(links(llms)).not.toContain(post);
      expect(await readFile(join(out, 'llms-full.txt'), 'utf8')).not.toContain('proud to announce');
    } finally {
      await server.close();
      await rm(out, { recursive: true, force: true });
    }
  });
});
