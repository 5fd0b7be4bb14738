/**
 * The command line (cli/scout.ts, #19) run as a child process, as CI runs it: `generate` on a built
 * site folder writes the same files, byte for byte, as the product's crawl of that site served over
 * HTTP by the fixture server; `lint` and `check` print the panel's validator findings and exit with
 * the documented codes.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, buildConnector } from 'undici';
import { createDb } from '@/lib/store/db';
import { validateLlmsTxt, type Finding } from '@/lib/generate/validate';
import type { SiteCheck } from '@/lib/headless/check';
import { crawlSite } from '@/lib/headless/crawl-site';
import { folderFetch } from '@/lib/headless/folder-fetch';
import type { LintReport } from '@/lib/headless/lint';
import { filesToPublish, type PublishedFile } from '@/lib/headless/publish';
import { matrixSites, servedSite } from '../fixtures/matrix';
import { docsifySite } from '../fixtures/spa-sites';
import { startFixtureServer, type FixtureServer, type FixtureSite } from '../fixtures/server';
import { scout } from './run-scout';

const FIXTURES = 'tests/fixtures/llms-txt';
const DEMO = 'tests/fixtures/sites/demo-docs';
const DATE = '2026-01-31';

/** The folder a matrix site is built in (.cache/matrix/matrix.json's `root`). */
function matrixFolder(id: string): string {
  const { sites } = JSON.parse(readFileSync('.cache/matrix/matrix.json', 'utf8')) as { sites: Array<{ id: string; root: string }> };
  const entry = sites.find((s) => s.id === id);
  if (!entry) throw new Error(`No matrix site ${id}: run bash scripts/build-matrix.sh`);
  return entry.root;
}



/**
 * Node's fetch with every connection made to the fixture server, whatever the URL's host and
 * port: `http://requests.matrix.test/` is requested as such (Host header, URLs in the answers)
 * and answered on loopback — what a browser's --host-resolver-rules "MAP * 127.0.0.1:<port>" does.
 */
function mappedFetch(port: number): typeof fetch {
  const connect = buildConnector({});
  const dispatcher = new Agent({ connect: (options, callback) => connect({ ...options, hostname: '127.0.0.1', port: String(port) }, callback) });
  return ((input: string | URL | Request, init?: RequestInit) => fetch(input, { ...init, dispatcher } as RequestInit)) as typeof fetch;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

/** The product's crawl and generate of a site over HTTP (the fixture server), as the files to publish; the extension's processor (with its rendering step, no tabs). */
async function crawlOverHttp(startUrl: string, fetchFn: typeof fetch, output: { budget?: number } = {}): Promise<PublishedFile[]> {
  const db = createDb(`cli-test-${crypto.randomUUID()}`);
  try {
    const { generated, job } = await crawlSite({ db, startUrl, fetch: fetchFn, rendering: true, now: new Date(`${DATE}T00:00:00Z`), ...(output.budget ? { output } : {}) });
    if (!generated) throw new Error(`nothing generated from ${startUrl}`);
    return filesToPublish(generated.files, generated.output.llmsFullTxt, job.origin);
  } finally {
    await db.delete();
  }
}

/** Every file the CLI wrote equals the one the HTTP crawl made, and no file is missing or extra. */
async function expectSameFiles(outDir: string, expected: PublishedFile[]): Promise<void> {
  expect(await filesUnder(outDir)).toEqual(expected.map((f) => f.relativePath).sort());
  for (const file of expected) {
    const written = await readFile(join(outDir, file.relativePath), 'utf8');
    // toBe on the whole text: a difference anywhere fails, and vitest shows where.
    expect(written, file.relativePath).toBe(file.text);
  }
}

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'scout-cli-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('usage', { timeout: 60_000 }, () => {
  it('--help lists the commands and the exit codes; a command has its own help', async () => {
    const main = await scout('--help');
    expect(main.code).toBe(0);
    for (const word of ['lint', 'generate', 'check', 'Exit codes', '--json']) expect(main.stdout).toContain(word);
    const lint = await scout('lint', '--help');
    expect(lint.code).toBe(0);
    // Which findings fail the build is part of the help.
    for (const code of ['missing-h1', 'non-link-line', 'over-hard-limit', 'over-budget', '--strict']) expect(lint.stdout).toContain(code);
    const generate = await scout('generate', '--help');
    for (const option of ['--base-url', '--out', '--date', '--clean-urls', '--max-pages']) expect(generate.stdout).toContain(option);
  });

  it('exits 2 on bad usage, with the reason on stderr', async () => {
    const cases: string[][] = [
      [],
      ['frobnicate'],
      ['lint', '--no-such-option', 'x'],
      ['check', '--out', 'x', 'http://example.test/'],
      ['generate', DEMO],
      ['generate', DEMO, '--out', join(tmp, 'x')],
      ['generate', DEMO, '--out', join(tmp, 'x'), '--base-url', 'not a url'],
      ['generate', 'http://example.test/', '--out', join(tmp, 'x'), '--base-url', 'http://example.test/'],
      ['generate', join(tmp, 'no-such-folder'), '--out', join(tmp, 'x'), '--base-url', 'http://example.test/'],
      ['generate', DEMO, '--out', join(tmp, 'x'), '--base-url', 'http://example.test/', '--max-pages', 'lots'],
      ['generate', DEMO, '--out', join(tmp, 'x'), '--base-url', 'http://example.test/', '--date', 'yesterday'],
      ['lint', join(tmp, 'no-such-file.txt')],
    ];
    for (const args of cases) {
      const run = await scout(...args);
      expect(run.code, args.join(' ')).toBe(2);
      if (args.length) expect(run.stderr, args.join(' ')).toMatch(/^scout: \S/m);
    }
  }, 120_000);
});

describe('lint', { timeout: 60_000 }, () => {
  it('passes real, well-formed llms.txt files (exit 0)', async () => {
    const files = [`${FIXTURES}/llmstxt-org.llms.txt`, `${FIXTURES}/fasthtml.llms.txt`];
    const run = await scout('lint', '--strict', ...files);
    expect(run.code).toBe(0);
    for (const file of files) expect(run.stdout).toContain(`ok   ${file}:`);
  });

  it('fails a broken file (exit 1) with exactly the findings the panel shows, on their lines', async () => {
    const text = ['Acorn notes', '', '## Guide', '', 'Read the guide first.', '- [Install](/install.html) see here', '- [Install](/install.html)', ''].join('\n');
    const file = join(tmp, 'llms.txt');
    await writeFile(file, text);
    const run = await scout('lint', '--json', '--base-url', 'https://acorn.example/', file);
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout) as { ok: boolean; files: Array<{ report: LintReport }> };
    expect(json.ok).toBe(false);
    const report = json.files[0]?.report;
    // The panel's validator on the same text at the same URL: the CLI adds only the size rule.
    expect(report?.findings).toEqual(validateLlmsTxt(text, 'https://acorn.example/llms.txt'));
    const codes = report?.findings.map((f) => `${f.severity} ${f.code} ${f.line}`);
    expect(codes).toEqual(expect.arrayContaining(['error missing-h1 1', 'error non-link-line 5', 'warning notes-without-colon 6', 'warning duplicate-link 7']));

    const human = await scout('lint', '--base-url', 'https://acorn.example/', file);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^FAIL .*llms\.txt: \d+ characters, \d+ tokens; [1-9]\d* errors?/);
    for (const f of report?.findings ?? []) expect(human.stdout).toContain(f.message);
  });

  it('holds files to the agent budget: over 100,000 characters fails, over 50,000 warns (fails with --strict)', async () => {
    const huge = `${FIXTURES}/openai-root.llms.txt`; // 102,155 characters, real
    const large = `${FIXTURES}/langgraph.llms.txt`; // 69,578 characters, real
    expect((await readFile(huge, 'utf8')).length).toBeGreaterThan(100_000);
    const largeText = await readFile(large, 'utf8');
    expect(largeText.length).toBeGreaterThan(50_000);
    expect(largeText.length).toBeLessThan(100_000);

    const hard = await scout('lint', '--json', huge);
    expect(hard.code).toBe(1);
    const hardReport = (JSON.parse(hard.stdout) as { files: Array<{ report: LintReport }> }).files[0]?.report;
    expect(hardReport?.findings.filter((f) => f.severity === 'error').map((f) => f.code)).toContain('over-hard-limit');

    const soft = await scout('lint', '--json', large);
    const softReport = (JSON.parse(soft.stdout) as { files: Array<{ report: LintReport }> }).files[0]?.report;
    expect(softReport?.findings.map((f) => `${f.severity} ${f.code}`)).toContain('warning over-budget');
    // No errors in it otherwise, so it passes unless warnings count.
    expect(softReport?.errors).toBe(0);
    expect(soft.code).toBe(0);
    expect((await scout('lint', '--strict', large)).code).toBe(1);
  }, 30_000);

  describe('over HTTP', () => {
    let server: FixtureServer;
    beforeAll(async () => {
      server = await startFixtureServer({ '127.0.0.1': { dir: DEMO, routes: { '/gone/llms.txt': { status: 404, body: 'gone' } } } });
    });
    afterAll(() => server.close());

    it('lints a URL, skips llms-full.txt, and exits 2 when the file is not there', async () => {
      const url = `http://127.0.0.1:${server.port}/llms.txt`;
      const served = await (await fetch(url)).text();
      const run = await scout('lint', '--json', url, `http://127.0.0.1:${server.port}/llms-full.txt`);
      const json = JSON.parse(run.stdout) as { files: Array<{ url: string; skipped?: string; report?: LintReport }> };
      expect(json.files[0]?.report?.findings).toEqual(validateLlmsTxt(served, url));
      expect(json.files[1]?.skipped).toMatch(/page content/);
      expect(run.code).toBe(json.files[0]?.report?.errors ? 1 : 0);

      const missing = await scout('lint', `http://127.0.0.1:${server.port}/gone/llms.txt`);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('Not found (HTTP 404)');
    });
  });
});

describe('check', { timeout: 60_000 }, () => {
  const broken = ['# Acorn API', '', '## Endpoints', '', 'Every endpoint, one per line.', '- [Get](/api/get.html) returns a value', ''].join('\n');
  let server: FixtureServer;
  let bare: FixtureServer;
  beforeAll(async () => {
    // The demo docs with a broken /api/llms.txt: the page /api/database.html declares it (rel=describedby).
    server = await startFixtureServer({ '127.0.0.1': { dir: DEMO, routes: { '/api/llms.txt': { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: broken } } } });
    // A site with no llms.txt at all (a real Sphinx build).
    const requests = matrixSites(['requests'])[0];
    if (!requests) throw new Error('no requests site in the matrix');
    bare = await startFixtureServer({ '127.0.0.1': requests.site() });
  });
  afterAll(async () => {
    await server.close();
    await bare.close();
  });

  it("prints every llms.txt found with the validator's findings, and fails on the broken one", async () => {
    const page = `http://127.0.0.1:${server.port}/api/database.html`;
    const run = await scout('check', '--json', page);
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as SiteCheck & { ok: boolean };
    const linted = result.files.filter((f) => f.lint);
    expect(linted.map((f) => new URL(f.url).pathname).sort()).toEqual(['/api/llms.txt', '/llms.txt']);
    expect(result.bestUrl).toBe(`http://127.0.0.1:${server.port}/api/llms.txt`);
    // Each file's findings are the panel's validator on the text the server sends.
    const sizeRules = new Set(['over-budget', 'over-hard-limit']);
    for (const file of linted) {
      const served = await (await fetch(file.url)).text();
      expect(file.lint?.findings.filter((f: Finding) => !sizeRules.has(f.code)), file.url).toEqual(validateLlmsTxt(served, file.url));
    }
    const api = linted.find((f) => f.url.endsWith('/api/llms.txt'));
    expect(api?.lint?.findings.map((f) => `${f.severity} ${f.code} ${f.line}`)).toEqual(expect.arrayContaining(['error non-link-line 5', 'warning notes-without-colon 6']));
    expect(result.files.some((f) => f.kind === 'sitemap' && f.status === 'found')).toBe(true);

    const human = await scout('check', page);
    expect(human.code).toBe(1);
    for (const f of api?.lint?.findings ?? []) expect(human.stdout).toContain(f.message);
    expect(human.stdout).toMatch(/^FAIL llms\.txt http:\/\/127\.0\.0\.1:\d+\/api\/llms\.txt \(probe, describedby; covers the page\)/m);
    expect(human.stdout).toMatch(/^FAIL: 2 llms\.txt files found, 1 with errors/m);
    expect(human.stderr).toContain('Checking');
  });

  it('passes a site whose llms.txt files have no errors (exit 0)', async () => {
    const clean = await startFixtureServer({ '127.0.0.1': { dir: DEMO } });
    try {
      const page = `http://127.0.0.1:${clean.port}/guide/index.html`;
      const json = JSON.parse((await scout('check', '--json', page)).stdout) as SiteCheck;
      const linted = json.files.filter((f) => f.lint);
      // /guide/ has no llms.txt of its own; the root's, and the API one it links to (followed), are linted.
      expect(linted.map((f) => new URL(f.url).pathname).sort()).toEqual(['/api/llms.txt', '/llms.txt']);
      expect(linted.find((f) => f.url.endsWith('/api/llms.txt'))?.sources).toEqual(['linked']);
      for (const file of linted) expect(validateLlmsTxt(await (await fetch(file.url)).text(), file.url).filter((f) => f.severity === 'error')).toEqual([]);
      const run = await scout('check', page);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^ok: 2 llms\.txt files found, 0 with errors/m);
    } finally {
      await clean.close();
    }
  });

  it('fails when the site has no llms.txt (exit 1) and cannot reach a closed port (exit 2)', async () => {
    const none = await scout('check', `http://127.0.0.1:${bare.port}/`);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('FAIL: no llms.txt found');
    const closed = await startFixtureServer({});
    const port = closed.port;
    await closed.close();
    const unreachable = await scout('check', `http://127.0.0.1:${port}/`);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/Could not reach/);
  });
});

describe('generate', () => {
  const requests = matrixSites(['requests'])[0];
  if (!requests) throw new Error('no requests site in the matrix');
  const root = requests.site();
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer({ [requests.host]: root });
  });
  afterAll(() => server.close());
  const base = `http://${requests.host}/`;
  const folder = matrixFolder('requests');

  it('a built folder gives the same llms.txt and llms-full.txt as the crawl of the site over HTTP (default settings)', async () => {
    const out = join(tmp, 'requests-flat');
    const run = await scout('generate', folder, '--base-url', base, '--out', out, '--date', DATE);
    expect(run.code, run.stderr).toBe(0);
    const expected = await crawlOverHttp(base, mappedFetch(server.port));
    expect(expected.map((f) => f.relativePath)).toEqual(['llms.txt', 'llms-full.txt']);
    await expectSameFiles(out, expected);
    const llms = expected[0]?.text ?? '';
    expect(llms).toContain(`on ${DATE}.`);
    expect(llms.match(/^- \[/gm)?.length).toBeGreaterThanOrEqual(20);
    // Results on stdout, progress on stderr.
    expect(run.stdout).toMatch(/^Wrote 2 files to /m);
    expect(run.stderr).toMatch(/Discovering/);
    // Generation is said before it starts, after the crawl's last word.
    expect(run.stderr).toMatch(/Done: \d+ pages stored[\s\S]*\nGenerating llms\.txt and llms-full\.txt from \d+ pages…/);
  }, 120_000);

  it('nested files over a small budget are the same too, and --json describes them', async () => {
    const out = join(tmp, 'requests-nested');
    const run = await scout('generate', folder, '--base-url', base, '--out', out, '--date', DATE, '--budget', '2000', '--json', '--quiet');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const expected = await crawlOverHttp(base, mappedFetch(server.port), { budget: 2000 });
    expect(expected.filter((f) => f.kind === 'llms').length).toBeGreaterThanOrEqual(3);
    await expectSameFiles(out, expected);
    const json = JSON.parse(run.stdout) as { ok: boolean; layout: string; files: Array<{ path: string; chars: number }>; crawl: { stored: number } };
    expect(json.ok).toBe(true);
    expect(json.layout).toBe('nested');
    expect(json.files.map((f) => f.path)).toEqual(expected.map((f) => f.path));
    expect(json.files.map((f) => f.chars)).toEqual(expected.map((f) => f.text.length));
    expect(json.crawl.stored).toBeGreaterThan(20);
  }, 120_000);

  it('crawls a URL over the network the same way as in-process', async () => {
    const demo = await startFixtureServer({ '127.0.0.1': { dir: DEMO } });
    try {
      const start = `http://127.0.0.1:${demo.port}/`;
      const out = join(tmp, 'demo');
      const run = await scout('generate', start, '--out', out, '--date', DATE);
      expect(run.code, run.stderr).toBe(0);
      const expected = await crawlOverHttp(start, fetch);
      expect(expected[0]?.text).toMatch(/^# Acorn DB\n/);
      await expectSameFiles(out, expected);
    } finally {
      await demo.close();
    }
  }, 120_000);

  it('reads a docsify site from its Markdown, as the extension does, from a folder too', async () => {
    // The docsify fixture site written out as the folder its author would deploy.
    const site = docsifySite();
    const folder = await mkdtemp(join(tmp, 'docsify-'));
    for (const [path, route] of Object.entries(site.routes ?? {})) {
      if (path === '/' || typeof route === 'function' || route.body === undefined) continue;
      await mkdir(dirname(join(folder, path)), { recursive: true });
      await writeFile(join(folder, path), route.body);
    }
    const host = 'docs.docsify.test';
    const docsify = await startFixtureServer({ [host]: site });
    try {
      const out = join(tmp, 'docsify-out');
      const run = await scout('generate', folder, '--base-url', `http://${host}/`, '--out', out, '--date', DATE);
      expect(run.code, run.stderr).toBe(0);
      const expected = await crawlOverHttp(`http://${host}/`, mappedFetch(docsify.port));
      // Every route read from its Markdown file (not the empty shell), sections from _sidebar.md.
      const llms = expected[0]?.text ?? '';
      expect(llms.match(/^- \[/gm)?.length).toBe(26);
      expect(llms).toMatch(new RegExp(`## Getting started\\n\\n- \\[Lumen documentation\\]\\(http://${host.replaceAll('.', '\\.')}/README\\.md\\)[^\\n]*\\n- \\[Introduction\\]\\(http://${host.replaceAll('.', '\\.')}/guide/introduction\\.md\\)`));
      await expectSameFiles(out, expected);
    } finally {
      await docsify.close();
    }
  }, 120_000);

  it('exits 2 when the start page cannot be read, 1 when nothing could be stored', async () => {
    const empty = await mkdtemp(join(tmp, 'empty-'));
    const missing = await scout('generate', empty, '--base-url', 'http://empty.example/', '--out', join(tmp, 'empty-out'));
    expect(missing.code).toBe(2);
    expect(missing.stdout).toMatch(/Nothing generated/);
    expect(missing.stdout).toMatch(/Not found \(HTTP 404\)/);
    // A site whose robots.txt disallows everything: read, but no page may be stored.
    const closed = await mkdtemp(join(tmp, 'robots-'));
    await writeFile(join(closed, 'index.html'), '<!doctype html><title>Home</title><main><h1>Home</h1><p>Welcome to the docs of a project.</p></main>');
    await writeFile(join(closed, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
    const refused = await scout('generate', closed, '--base-url', 'http://closed.example/', '--out', join(tmp, 'closed-out'));
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/Nothing generated/);
    // With robots.txt ignored, the same folder gives an llms.txt.
    const ignored = await scout('generate', closed, '--base-url', 'http://closed.example/', '--out', join(tmp, 'closed-out'), '--ignore-robots');
    expect(ignored.code, ignored.stderr).toBe(0);
    expect(await readFile(join(tmp, 'closed-out', 'llms.txt'), 'utf8')).toMatch(/^# /);
  }, 60_000);
});

describe('folderFetch answers as the fixture server serves the same folder', () => {
  // The same answers (status, redirect, content type, body) for files, folders with and without
  // their slash, clean URLs, missing paths (the site's 404.html), escapes and paths outside the site.
  const cases: Array<{ id: string; cleanUrls: boolean; paths: string[] }> = [
    { id: 'requests', cleanUrls: false, paths: ['/', '/index.html', '/user', '/user/', '/_modules', '/_modules/', '/user/quickstart.html', '/_static/pygments.css', '/nope.html', '/user/../api.html', '/%2e%2e/etc/passwd', '/search.html?q=x', '/objects.inv'] },
    { id: 'docusaurus', cleanUrls: true, paths: ['/', '/docs', '/docs/', '/docs/fs', '/docs/fs/', '/docs/nope', '/sitemap.xml', '/404.html', '/docs/fs.md'] },
  ];
  for (const { id, cleanUrls, paths } of cases) {
    it(`${id}${cleanUrls ? ' (clean URLs)' : ''}`, async () => {
      const site = matrixSites([id])[0];
      if (!site) throw new Error(`no ${id}`);
      const served: FixtureSite = servedSite(matrixFolder(id), cleanUrls);
      const server = await startFixtureServer({ [site.host]: served });
      try {
        const overHttp = mappedFetch(server.port);
        const fromDisk = folderFetch({ root: matrixFolder(id), baseUrl: `http://${site.host}/`, cleanUrls });
        for (const path of paths) {
          const url = `http://${site.host}${path}`;
          const [a, b] = await Promise.all([overHttp(url, { redirect: 'manual' }), fromDisk(url, { redirect: 'manual' })]);
          const facts = async (r: Response) => ({ status: r.status, location: r.headers.get('location'), type: r.headers.get('content-type'), body: Buffer.from(await r.arrayBuffer()).toString('base64') });
          expect(await facts(b), path).toEqual(await facts(a));
        }
        // Another origin is not in the folder: a 404 at once, nothing fetched.
        expect((await fromDisk('http://elsewhere.example/', { redirect: 'manual' })).status).toBe(404);
        // Following a redirect ends where the server's does, with the URL set.
        const followed = await fromDisk(`http://${site.host}/docs`);
        if (cleanUrls) expect(followed.url).toBe(`http://${site.host}/docs`);
        if (!cleanUrls) {
          const modules = await fromDisk(`http://${site.host}/_modules`);
          expect(modules.status).toBe(200);
          expect(modules.url).toBe(`http://${site.host}/_modules/`);
          expect(modules.redirected).toBe(true);
        }
      } finally {
        await server.close();
      }
    });
  }
});
