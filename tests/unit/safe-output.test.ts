/**
 * Issue #28 part 5, end to end in Node: a site whose folders are named to escape (`..%5C..%5Cevil`,
 * `C%3A%5CUsers`, `CON`, a NUL, 300 characters…) is crawled from a real server on loopback, and
 * what Scout makes of it — the Output zip, the publishing kit and `scout generate --out` (the CLI
 * as a child process, into a folder holding a link to elsewhere) — has no name that is unsafe on
 * any system and writes nothing outside its folder.
 */
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKit, zipKit } from '@/lib/check/kit';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { buildZipWithNotes } from '@/lib/generate/export';
import { fileFullText } from '@/lib/generate/output-files';
import { crawlSite, type CrawlSiteResult } from '@/lib/headless/crawl-site';
import { writeFilesInside } from '@/lib/headless/write-out';
import { pagesOf } from '@/lib/store/queries';
import { HOSTILE_FOLDERS, hostilePagePaths, hostilePathsSite, LINKED_FOLDER } from '../fixtures/hostile-paths-site';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { scout } from './run-scout';
import { unsafe } from './unsafe-path';

const unsafeNames = (paths: string[]) => paths.map((path) => ({ path, why: unsafe(path) })).filter((p) => p.why !== null);


async function allEntries(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

let server: FixtureServer;
let tmp: string;
let db: ScoutDb;
let crawl: CrawlSiteResult;
const BUDGET = 2_000;

beforeAll(async () => {
  server = await startFixtureServer({ '127.0.0.1': hostilePathsSite() });
  tmp = await mkdtemp(join(tmpdir(), 'scout-safe-output-'));
  db = createDb(`safe-output-${crypto.randomUUID()}`);
  crawl = await crawlSite({ db, startUrl: `http://127.0.0.1:${server.port}/`, fetch, output: { budget: BUDGET }, now: new Date('2026-01-31T00:00:00Z') });
}, 120_000);

afterAll(async () => {
  await db?.delete();
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('a crawl of a site with hostile folder names', { timeout: 120_000 }, () => {
  it('stores every page, and lays the nested files out in folders of safe names only', async () => {
    expect(crawl.generated).toBeTruthy();
    const stored = await pagesOf(db, crawl.job.id).toArray();
    expect(stored.length).toBe(hostilePagePaths().length);
    const files = crawl.generated?.files.files ?? [];
    expect(files.length).toBeGreaterThan(HOSTILE_FOLDERS.length);
    // Every nested file is at a path that can be written as is: hostile folders got named ones.
    const paths = files.flatMap((f) => [f.path, f.fullPath]).map((p) => decodeURIComponent(p).slice(1));
    expect(unsafeNames(paths)).toEqual([]);
    // The safe folder of the site is still used as the site has it.
    expect(files.map((f) => f.path)).toContain(`/${LINKED_FOLDER}/llms.txt`);
  });

  it('Output zip: every entry name is safe; the pages are all there, renamed, and pages.json says which is which', async () => {
    const generated = crawl.generated;
    if (!generated) throw new Error('nothing generated');
    const stored = await pagesOf(db, crawl.job.id).toArray();
    const published = generated.files.files;
    const nested = published.slice(1).flatMap((file) => [{ path: file.path, text: file.text }, { path: file.fullPath, text: fileFullText(generated.output.llmsFullTxt, generated.files, file, crawl.job.origin) }]);
    // Also a layout file at a hostile path, as an older generated version could hold: left out, with the reason.
    nested.push({ path: '/..%5C..%5Cevil/llms.txt', text: '# Evil\n' });
    const { data, leftOut } = buildZipWithNotes({ host: '127.0.0.1', llmsTxt: published[0]?.text ?? '', llmsFullTxt: generated.output.llmsFullTxt, pages: stored.map((p) => ({ url: p.finalUrl, title: p.title, markdown: p.markdown })), nested });
    const names = Object.keys(unzipSync(data));
    expect(unsafeNames(names)).toEqual([]);
    const pageFiles = names.filter((n) => n.startsWith('pages/'));
    expect(pageFiles.length).toBe(stored.length);
    expect(new Set(pageFiles.map((n) => n.toLowerCase())).size).toBe(pageFiles.length);
    expect(leftOut).toEqual(['/..%5C..%5Cevil/llms.txt: left out, its path has a slash, backslash, colon, control character or other character Windows does not allow in a name']);
    const notes = new TextDecoder().decode(unzipSync(data)['left-out.txt']);
    expect(notes).toContain('/..%5C..%5Cevil/llms.txt: left out');
    for (const file of published.slice(1)) expect(names).toContain(decodeURIComponent(file.path).slice(1));
  });

  it('publishing kit: every entry name is safe; each page under a hostile folder is without a twin, saying why', async () => {
    const generated = crawl.generated;
    if (!generated) throw new Error('nothing generated');
    const stored = await pagesOf(db, crawl.job.id).toArray();
    const files = generated.files.files.flatMap((f) => [{ path: f.path, text: f.text }, { path: f.fullPath, text: '' }]);
    files.push({ path: '/C%3A%5CUsers/llms.txt', text: '# Drive\n' });
    for (const layout of ['md', 'html.md'] as const) {
      const kit = buildKit({ origin: crawl.job.origin, files, pages: stored.map((p) => ({ url: p.finalUrl, markdown: p.markdown })), layout });
      const names = Object.keys(unzipSync(zipKit(kit)));
      expect(unsafeNames(names), layout).toEqual([]);
      const hostilePages = stored.filter((p) => !new URL(p.finalUrl).pathname.startsWith(`/${LINKED_FOLDER}/`) && new URL(p.finalUrl).pathname !== '/');
      expect(kit.skipped.map((s) => s.url).sort()).toEqual(hostilePages.map((p) => p.finalUrl).sort());
      for (const s of kit.skipped) expect(s.reason).toMatch(/^its twin cannot be a file on every system: its path has \S/);
      expect(kit.twins).toBe(1 + 4);
      expect(kit.leftOut).toEqual([{ path: '/C%3A%5CUsers/llms.txt', reason: 'its path has a slash, backslash, colon, control character or other character Windows does not allow in a name' }]);
      expect(kit.files.get('README.md')).toMatch(/1 llms file is left out, as a file published at another path would not be found: \/C%3A%5CUsers\/llms\.txt \(its path has/);
    }
  });

  it('scout generate --out: nothing written outside the folder, not through a link inside it, with the reason; exit 1, never 3', async () => {
    const out = join(tmp, 'out');
    const outside = join(tmp, 'outside');
    await mkdir(out);
    await mkdir(outside);
    // A link inside --out to a folder outside it, where the site's nested llms.txt for /linked/ goes.
    await symlink(outside, join(out, LINKED_FOLDER));
    const run = await scout('generate', `http://127.0.0.1:${server.port}/`, '--out', out, '--budget', String(BUDGET), '--date', '2026-01-31', '--json', '--quiet');
    expect(run.stderr).not.toMatch(/TypeError|ENAMETOOLONG|ERR_INVALID_ARG_VALUE/);
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as { ok: boolean; files: Array<{ file: string }>; leftOut: Array<{ path: string; reason: string }> };
    expect(report.ok).toBe(false);
    expect(report.leftOut).toEqual([
      { path: `/${LINKED_FOLDER}/llms.txt`, reason: `its folder ${LINKED_FOLDER} is a link to ${outside}, outside the output folder` },
      { path: `/${LINKED_FOLDER}/llms-full.txt`, reason: `its folder ${LINKED_FOLDER} is a link to ${outside}, outside the output folder` },
    ]);
    // Nothing went through the link, and every name written is safe.
    expect(await readdir(outside)).toEqual([]);
    expect((await lstat(join(out, LINKED_FOLDER))).isSymbolicLink()).toBe(true);
    const written = (await allEntries(out)).filter((p) => p !== LINKED_FOLDER);
    expect(unsafeNames(written)).toEqual([]);
    expect(written).toContain('llms.txt');
    expect(report.files.length).toBeGreaterThan(HOSTILE_FOLDERS.length * 2);
    for (const file of report.files) expect(relative(out, file.file)).not.toMatch(/^\.\./);
    // The root llms.txt written is the one the crawl made, whole.
    expect(await readFile(join(out, 'llms.txt'), 'utf8')).toMatch(/^# /);
    // No temporary file left behind.
    expect(written.filter((p) => p.includes('.scout-'))).toEqual([]);
  });

  it('scout generate --out at a file: a usage error (exit 2) before anything is crawled or written', async () => {
    const file = join(tmp, 'a-file');
    await writeFile(file, 'x');
    const before = server.requests.length;
    const run = await scout('generate', `http://127.0.0.1:${server.port}/`, '--out', file, '--quiet');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--out: .*exists and is not a folder/);
    expect(server.requests.length).toBe(before);
    expect(await readFile(file, 'utf8')).toBe('x');
  });
});

describe('writeFilesInside, whatever paths it is given', () => {
  it('writes the safe ones inside the folder and leaves out every other one with a reason, without throwing', async () => {
    const out = join(tmp, 'direct');
    const outside = join(tmp, 'direct-outside');
    await mkdir(out);
    await mkdir(outside);
    await writeFile(join(outside, 'secret.txt'), 'keep me');
    await symlink(outside, join(out, 'away'));
    await symlink(join(outside, 'secret.txt'), join(out, 'llms-full.txt'));
    await mkdir(join(out, 'inner'));
    await symlink(join(out, 'inner'), join(out, 'near'));
    const hostile = ['../escape.txt', '..\\..\\evil/llms.txt', 'C:\\Users/llms.txt', 'a\u0000b/llms.txt', `${'x'.repeat(300)}/llms.txt`, 'CON/llms.txt', 'aux.txt/llms.txt', '/abs/llms.txt', 'away/llms.txt', 'away/deeper/llms.txt', 'LLMS.txt'];
    const safe = ['llms.txt', 'llms-full.txt', 'guide/llms.txt', 'near/llms.txt'];
    const result = await writeFilesInside(out, [...safe, ...hostile].map((relativePath) => ({ relativePath, text: `# ${relativePath}\n` })));
    expect(result.written.map((w) => w.relativePath)).toEqual(safe);
    expect(result.leftOut.map((l) => l.relativePath)).toEqual(hostile);
    for (const l of result.leftOut) expect(l.reason, l.relativePath).toMatch(/^(?:its path has |its folder away is a link to |another file has the same path)/);
    // The link at llms-full.txt was replaced by the file, not written through; the file it pointed at is as it was.
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('keep me');
    expect((await lstat(join(out, 'llms-full.txt'))).isFile()).toBe(true);
    expect(await readdir(outside)).toEqual(['secret.txt']);
    // A link to a folder inside the output folder is followed: the file is there.
    expect(await readFile(join(out, 'inner', 'llms.txt'), 'utf8')).toBe('# near/llms.txt\n');
    expect(await readlink(join(out, 'near'))).toBe(join(out, 'inner'));
    expect(await readdir(tmp)).not.toContain('escape.txt');
  });
});
