/**
 * `scout generate --refresh --out <docs folder>` (cli/refresh.ts, #29) run as a child process: a docs
 * folder written by `scout generate --for-agents` from a site on the fixture server (which answers
 * If-None-Match / If-Modified-Since with 304, as nginx does) is brought up to date with conditional
 * requests — the page that changed and the one that is gone are told apart from the ones that
 * answered 304, only the files that changed are written again, and the manifest says when.
 */
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocsManifest } from '@/lib/agents/docs-folder';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { scout } from './run-scout';

const DEMO = 'tests/fixtures/sites/demo-docs';
const DATE = '2026-01-31';


const manifestOf = async (dir: string) => JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as DocsManifest;
const mtime = async (file: string) => (await stat(file)).mtimeMs;

let tmp: string;
let site: string;
let server: FixtureServer;
let start: string;
let out: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'scout-refresh-'));
  // A copy of the demo site the test can edit, served as it changes.
  site = join(tmp, 'site');
  await cp(DEMO, site, { recursive: true });
  server = await startFixtureServer({ '127.0.0.1': { dir: site } });
  start = `http://127.0.0.1:${server.port}/`;
  out = join(tmp, 'docs');
  const first = await scout('generate', start, '--out', out, '--for-agents', '--date', DATE, '--quiet');
  if (first.code !== 0) throw new Error(`generate failed: ${first.stdout}${first.stderr}`);
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('scout generate --refresh', () => {
  it('re-checks every page with its validators: one changed, one gone, the rest 304, and writes only what changed', async () => {
    const before = await manifestOf(out);
    expect(before.refreshedAt).toBeUndefined();
    const pages = before.pages.length;
    expect(pages).toBeGreaterThanOrEqual(10);
    const guide = before.pages.find((p) => p.url === `${start}guide/index.html`);
    const gone = before.pages.find((p) => p.url === `${start}changelog.html`);
    const untouched = before.pages.find((p) => p.url === `${start}api/database.html`);
    if (!guide || !gone || !untouched) throw new Error(`pages not in the folder: ${before.pages.map((p) => p.url).join(', ')}`);
    const untouchedAt = await mtime(join(out, untouched.path));

    // The site changes: one page is rewritten, one is deleted.
    const guideFile = join(site, 'guide', 'index.html');
    await writeFile(guideFile, (await readFile(guideFile, 'utf8')).replace(/<main[\s\S]*<\/main>/, '<main><h1>Guide Overview</h1><p>Entirely new text about replication, backups and the write-ahead log, explained from the start for people new to Acorn DB.</p></main>'));
    await rm(join(site, 'changelog.html'));

    const asked = server.requests.length;
    const run = await scout('generate', '--refresh', '--out', out, '--json', '--quiet');
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { checked: number; changed: number; removed: number; unchanged: number; notModified: number; failed: number; written: string[]; deleted: string[]; version: number | null };
    expect(result).toMatchObject({ checked: pages, changed: 1, removed: 1, unchanged: pages - 2, notModified: pages - 2, failed: 0 });
    expect(result.version).toBe(2);

    // Every page was asked for with the validators it was stored with; only the changed one came whole.
    const pageRequests = server.requests.slice(asked).filter((r) => r.path !== '/robots.txt' && r.status !== 404);
    expect(pageRequests.every((r) => typeof r.headers['if-none-match'] === 'string' && typeof r.headers['if-modified-since'] === 'string')).toBe(true);
    expect(pageRequests.filter((r) => r.status === 304).length).toBe(pages - 2);
    expect(pageRequests.filter((r) => r.status === 200).map((r) => r.path)).toEqual(['/guide/index.html']);

    // The folder: the changed page and the llms.txt files written again, the gone page's file deleted, the rest untouched.
    expect(await readFile(join(out, guide.path), 'utf8')).toContain('write-ahead log');
    expect(result.written.sort()).toEqual([guide.path, 'llms-full.txt', 'llms.txt', 'manifest.json'].sort());
    expect(result.deleted).toEqual([gone.path]);
    await expect(stat(join(out, gone.path))).rejects.toThrow();
    expect(await mtime(join(out, untouched.path))).toBe(untouchedAt);
    const llms = await readFile(join(out, 'llms.txt'), 'utf8');
    expect(llms).not.toContain('changelog.html');
    expect(llms).toContain(`](${start}guide/index.html)`);
    const after = await manifestOf(out);
    expect(after.pages.map((p) => p.path)).toEqual(before.pages.filter((p) => p !== gone).map((p) => p.path));
    expect(Date.parse(after.refreshedAt ?? '')).toBeGreaterThan(Date.parse(before.crawledAt));
    expect(after.crawledAt).toBe(before.crawledAt);

    // Again, with nothing changed: all 304, nothing but the manifest written, said in words.
    const llmsAt = await mtime(join(out, 'llms.txt'));
    const again = await scout('generate', '--refresh', '--out', out);
    expect(again.code, again.stderr).toBe(0);
    // The page found gone is asked for again (it may come back): still gone, not "unchanged".
    expect(again.stdout).toContain(`0 pages changed, 0 removed, ${pages - 1} unchanged (${pages - 1} not modified, HTTP 304), 1 still gone`);
    expect(again.stdout).toMatch(/No page changed enough/);
    expect(again.stderr).toMatch(/^Refreshing /m);
    expect(await mtime(join(out, 'llms.txt'))).toBe(llmsAt);
  }, 180_000);

  it('refuses, in words and with exit 2, what it cannot refresh', async () => {
    const plain = join(tmp, 'plain');
    const noState = join(tmp, 'no-state');
    await cp(out, noState, { recursive: true });
    await rm(join(noState, '.scout'), { recursive: true });
    const broken = join(tmp, 'broken-state');
    await cp(out, broken, { recursive: true });
    await writeFile(join(broken, '.scout', 'crawl.json.gz'), 'not gzip');
    const cases: Array<[string[], RegExp]> = [
      [['generate', '--refresh'], /--refresh needs --out/],
      [['generate', '--refresh', '--out', out, '--max-pages', '5'], /--refresh re-checks the pages of the crawl .* it does not take --max-pages/],
      [['generate', '--refresh', '--out', plain], /there is no such folder/],
      [['generate', '--refresh', '--out', noState], /has no \.scout\/crawl\.json\.gz.*--for-agents once/],
      [['generate', '--refresh', '--out', broken], /\.scout\/crawl\.json\.gz cannot be used: it is not gzipped JSON/],
      [['generate', 'https://docs.example.com/', '--refresh', '--out', out], new RegExp(`is a crawl of http://127\\.0\\.0\\.1:${server.port}; give that site or nothing`)],
    ];
    for (const [args, reason] of cases) {
      const run = await scout(...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(reason);
    }
    const help = await scout('generate', '--help');
    expect(help.stdout).toContain('--refresh');
  }, 120_000);

  it('a site that does not answer leaves the folder as it was, and exits 1', async () => {
    const copy = join(tmp, 'down-site');
    await cp(DEMO, copy, { recursive: true });
    const down = await startFixtureServer({ '127.0.0.1': { dir: copy } });
    const docs = join(tmp, 'down-docs');
    const first = await scout('generate', `http://127.0.0.1:${down.port}/`, '--out', docs, '--for-agents', '--quiet');
    expect(first.code, first.stderr).toBe(0);
    const llms = await readFile(join(docs, 'llms.txt'), 'utf8');
    const manifest = await readFile(join(docs, 'manifest.json'), 'utf8');
    await down.close();
    const run = await scout('generate', '--refresh', '--out', docs);
    expect(run.code, run.stdout).toBe(1);
    const pages = (await manifestOf(docs)).pages.length;
    expect(run.stdout).toContain(`Nothing could be checked: 0 pages changed, 0 removed, 0 unchanged (0 not modified, HTTP 304), ${pages} could not be checked`);
    expect(run.stdout).toMatch(/Could not connect/);
    expect(run.stdout).toMatch(/The folder is as it was\.$/m);
    expect(await readFile(join(docs, 'llms.txt'), 'utf8')).toBe(llms);
    expect(await readFile(join(docs, 'manifest.json'), 'utf8')).toBe(manifest);
    expect(pages).toBeGreaterThanOrEqual(10);
  }, 180_000);

  it('a folder generated from a built site on disk is refreshed from that folder again', async () => {
    const built = join(tmp, 'built');
    await cp(DEMO, built, { recursive: true });
    const docs = join(tmp, 'built-docs');
    const base = 'http://acorn.example/';
    // Over a small budget: nested llms.txt files, which the refresh must write exactly as generate did.
    const first = await scout('generate', built, '--base-url', base, '--out', docs, '--for-agents', '--budget', '2000', '--quiet');
    expect(first.code, first.stderr).toBe(0);
    expect((await manifestOf(docs)).files.filter((f) => f.kind === 'llms').length).toBeGreaterThan(1);
    const without = await scout('generate', '--refresh', '--out', docs);
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(/generated from a folder published at http:\/\/acorn\.example\/: give that folder again/);
    // Nothing changed: every file the refresh would write is already there, byte for byte, but the manifest.
    const same = await scout('generate', built, '--refresh', '--out', docs, '--json');
    expect(same.code, same.stderr).toBe(0);
    expect((JSON.parse(same.stdout) as { written: string[] }).written).toEqual(['manifest.json']);
    await rm(join(built, 'changelog.html'));
    const run = await scout('generate', built, '--refresh', '--out', docs, '--json');
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { changed: number; removed: number; unchanged: number; deleted: string[] };
    expect(result.removed).toBe(1);
    expect(result.changed).toBe(0);
    expect(result.deleted).toEqual(['pages/changelog.md']);
  }, 180_000);
});
