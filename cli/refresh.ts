/**
 * `scout generate --refresh --out <dir>`: brings a docs folder that `scout generate --for-agents`
 * wrote up to date the way the extension refreshes a crawl (lib/refresh/): every page the crawl
 * stored is asked for again with its validators (If-None-Match / If-Modified-Since), so an
 * unchanged page costs a 304; a page whose text changed enough, or that is gone, makes a new
 * version of the outputs. Only the files whose text differs are written again, the page files of
 * pages that left are deleted, and the manifest carries the refresh time. The crawl's rows come
 * from `.scout/crawl.json.gz` (lib/headless/crawl-state.ts) and go back there with the new validators.
 */
import { lstat, readFile, realpath, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { PageChange } from '../lib/store/db';
import { MemoryStore } from '../lib/store/store';
import { BodySpill } from '../lib/store/memory/body-spill';
import { jobById } from '../lib/store/jobs';
import { versionsOfRefresh } from '../lib/store/page-versions';
import { docsFolderFromDb } from '../lib/agents/from-db';
import { DocsFolderError, readDocsFolder } from '../lib/agents/read-folder';
import { CRAWL_STATE_PATH, CrawlStateError, exportCrawlState, importCrawlState, parseCrawlState } from '../lib/headless/crawl-state';
import { folderFetch } from '../lib/headless/folder-fetch';
import { writeFilesInside } from '../lib/headless/write-out';
import { outputsAfterRefresh } from '../lib/refresh/after-refresh';
import { createRefreshJob } from '../lib/refresh/jobs';
import { RefreshRunner } from '../lib/refresh/runner';
import { nodePipeline } from '../lib/pipeline/node';
import { count, EXIT, isUrl, UsageError, type ExitCode, type Io } from './common';
import { commandFetch } from './fetch';
import { SCOUT_VERSION } from './version';

export interface RefreshOptions {
  /** The docs folder to refresh. */
  out: string;
  /** The site's URL (must be the crawl's site) or, for a crawl of a built folder, that folder again. */
  input?: string;
  date?: Date;
  json: boolean;
}

/** The reasons lib/refresh/decide.ts gives a 304 and a page that stays gone. */
const NOT_MODIFIED = 'Not modified (HTTP 304)';
const STILL_GONE = 'Still gone:';

/** What a refresh found, per page, in the order of the counts it prints. */
interface Found {
  checked: number;
  changed: number;
  removed: number;
  restored: number;
  minor: number;
  unchanged: number;
  notModified: number;
  /** Pages removed by an earlier refresh and still not there. */
  stillGone: number;
  failed: number;
}

/** "2 pages changed, 1 removed, 11 unchanged (10 not modified, HTTP 304)": what changed, first. */
export function refreshSummary(f: Found): string {
  const parts = [`${count(f.changed, 'page')} changed`, `${f.removed.toLocaleString('en')} removed`];
  if (f.restored) parts.push(`${f.restored.toLocaleString('en')} back online`);
  if (f.minor) parts.push(`${f.minor.toLocaleString('en')} with minor changes (kept as they were)`);
  parts.push(`${f.unchanged.toLocaleString('en')} unchanged (${f.notModified.toLocaleString('en')} not modified, HTTP 304)`);
  if (f.stillGone) parts.push(`${f.stillGone.toLocaleString('en')} still gone`);
  if (f.failed) parts.push(`${f.failed.toLocaleString('en')} could not be checked (kept as they were)`);
  return parts.join(', ');
}

export async function runRefresh(options: RefreshOptions, io: Io, transport?: typeof fetch): Promise<ExitCode> {
  const outDir = resolve(options.out);
  const folder = await readDocsFolder(outDir).catch((error: unknown) => {
    throw new UsageError(error instanceof DocsFolderError ? `--refresh: ${error.message}` : `--refresh: ${outDir} cannot be read (${(error as Error).message})`);
  });
  const saved = await readFile(join(outDir, CRAWL_STATE_PATH)).catch(() => null);
  if (!saved) throw new UsageError(`--refresh: ${outDir} has no ${CRAWL_STATE_PATH}, the crawl a refresh starts from (the extension's export has none, nor a folder written without --for-agents): run scout generate <site> --out ${options.out} --for-agents once`);
  let state: ReturnType<typeof parseCrawlState>;
  try {
    state = parseCrawlState(saved);
  } catch (error) {
    throw new UsageError(`--refresh: ${CRAWL_STATE_PATH} cannot be used: ${error instanceof CrawlStateError ? error.message : String(error)}`);
  }
  if (state.origin !== folder.manifest.site) throw new UsageError(`--refresh: ${CRAWL_STATE_PATH} is a crawl of ${state.origin}, but manifest.json is of ${folder.manifest.site}`);

  // The pages are fetched where the crawl fetched them: the network (under the start's guard), or the folder again.
  const startUrl = folder.manifest.startUrl;
  let fetchFn: typeof globalThis.fetch;
  if (state.source.kind === 'url') {
    if (options.input !== undefined && (!isUrl(options.input) || new URL(options.input).origin !== state.origin)) throw new UsageError(`--refresh: ${outDir} is a crawl of ${state.origin}; give that site or nothing, not ${options.input}`);
    fetchFn = commandFetch(startUrl, transport);
  } else {
    const info = options.input !== undefined && !isUrl(options.input) ? await stat(options.input).catch(() => null) : null;
    if (!info?.isDirectory()) throw new UsageError(`--refresh: ${outDir} was generated from a folder published at ${state.source.baseUrl}: give that folder again (scout generate <folder> --refresh --out ${options.out})`);
    fetchFn = folderFetch({ root: resolve(options.input ?? ''), baseUrl: state.source.baseUrl, cleanUrls: state.source.cleanUrls });
  }

  // The crawl's pages wait on disk, not in the heap, as in `scout generate` (body-spill.ts).
  const db = new MemoryStore({ spill: new BodySpill() });
  try {
    await importCrawlState(db, state);
    const job = await createRefreshJob(db, state.origin);
    if ('error' in job) throw new UsageError(`--refresh: ${job.error}`);
    io.progress(`Refreshing ${outDir}: ${count(folder.manifest.pages.length, 'page')} from ${startUrl}, each asked for with its validators`);
    // The crawl's processor (crawl-site.ts), so a page converts as it did and an unchanged one hashes the same.
    const { process } = nodePipeline({ fetch: fetchFn, rendering: true });
    const ended = await new RefreshRunner({ db, fetch: fetchFn, process, resumable: false }, job.id).run();
    if (ended !== 'done') {
      // The site stopped it (it refused the first pages): nothing in the folder is touched.
      const why = (await jobById(db, job.id))?.message ?? ended;
      if (options.json) io.out(JSON.stringify({ ok: false, out: outDir, site: state.origin, error: `The refresh stopped: ${why}` }, null, 2));
      else io.out(`The refresh stopped: ${why}\nThe folder is as it was.`);
      return EXIT.failed;
    }
    const now = options.date ?? new Date();
    const version = await outputsAfterRefresh(db, job.id, now);

    const versions = await versionsOfRefresh(db, job.id);
    const by = (change: PageChange) => versions.filter((v) => v.change === change).length;
    // A page an earlier refresh found gone is checked again (it may be back); still gone is not "unchanged" to a reader.
    const stillGone = versions.filter((v) => v.change === 'unchanged' && v.reason.startsWith(STILL_GONE)).length;
    const found: Found = { checked: versions.length, changed: by('changed'), removed: by('removed'), restored: by('restored'), minor: by('minor'), unchanged: by('unchanged') - stillGone, notModified: versions.filter((v) => v.reason === NOT_MODIFIED).length, stillGone, failed: by('failed') };
    const changes = versions.filter((v) => v.change === 'changed' || v.change === 'removed' || v.change === 'restored' || v.change === 'failed').map((v) => ({ url: v.url, change: v.change, reason: v.reason }));

    if (found.checked > 0 && found.failed === found.checked) {
      // Not one page answered (the site is down, the network is off): nothing was refreshed, so nothing is written.
      const first = changes[0];
      if (options.json) io.out(JSON.stringify({ ok: false, out: outDir, site: state.origin, ...found, version: null, written: [], deleted: [], leftOut: [], changes }, null, 2));
      else io.out([`Nothing could be checked: ${refreshSummary(found)}`, ...(first ? [`  e.g. ${first.url}: ${first.reason}`] : []), 'The folder is as it was.'].join('\n'));
      return EXIT.failed;
    }
    const next = await docsFolderFromDb(db, state.origin, { scoutVersion: SCOUT_VERSION, now });
    if (!next) throw new Error('The refreshed crawl has no generated version to write');
    // Only what differs is written again (the manifest always: its refresh time is new).
    const toWrite = [];
    for (const file of next.files) {
      const current = await readFile(join(outDir, file.relativePath), 'utf8').catch(() => null);
      if (current !== file.text) toWrite.push(file);
    }
    // The manifest last: a reader sees the new one only once the files it lists are there.
    toWrite.sort((a, b) => Number(a.kind === 'manifest') - Number(b.kind === 'manifest'));
    const wrote = await writeFilesInside(outDir, toWrite.filter((f) => f.kind !== 'manifest'));
    const manifest = toWrite.find((f) => f.kind === 'manifest');
    const wroteManifest = manifest ? await writeFilesInside(outDir, [manifest]) : { written: [], leftOut: [] };
    const leftOut = [...wrote.leftOut, ...wroteManifest.leftOut];
    // Files the folder no longer lists (a page that is gone, a nested llms.txt of a section that is):
    // only the old manifest's paths, checked when it was read, and only regular files.
    const kept = new Set([...next.manifest.pages.map((p) => p.path), ...next.manifest.files.map((f) => f.path)]);
    const deleted: string[] = [];
    const root = await realpath(outDir);
    for (const path of [...folder.manifest.pages.map((p) => p.path), ...folder.manifest.files.map((f) => f.path)]) {
      if (kept.has(path)) continue;
      const target = join(outDir, path);
      // Its folder's real place must be inside the docs folder: a folder linked elsewhere is not followed.
      const where = await realpath(dirname(target)).catch(() => null);
      const rel = where === null ? '..' : relative(root, where);
      if (rel.startsWith('..') || isAbsolute(rel)) continue;
      if ((await lstat(target).catch(() => null))?.isFile()) {
        await rm(target);
        deleted.push(path);
      }
    }
    const stateBytes = await exportCrawlState(db, state.origin, state.source);
    if (stateBytes) {
      const savedState = await writeFilesInside(outDir, [{ relativePath: CRAWL_STATE_PATH, text: stateBytes }]);
      leftOut.push(...savedState.leftOut);
    }

    const written = [...wrote.written, ...wroteManifest.written].map((w) => w.relativePath);
    const code = leftOut.length ? EXIT.failed : EXIT.ok;
    if (options.json) {
      io.out(JSON.stringify({ ok: code === EXIT.ok, out: outDir, site: state.origin, ...found, version: version?.version ?? null, written, deleted, leftOut, changes }, null, 2));
      return code;
    }
    const lines = [
      `Refreshed ${outDir}: ${refreshSummary(found)}`,
      ...changes.slice(0, 20).map((c) => `  ${c.change.padEnd(8)} ${c.url}: ${c.reason}`),
      ...(changes.length > 20 ? [`  … and ${changes.length - 20} more (--json lists all)`] : []),
      version
        ? `New version: wrote ${count(written.filter((w) => !w.startsWith('pages/') && w !== 'manifest.json').length, 'llms.txt-family file')} and ${count(written.filter((w) => w.startsWith('pages/')).length, 'page file')}, and manifest.json${deleted.length ? `; deleted ${count(deleted.length, 'file')} no longer listed` : ''}`
        : 'No page changed enough: the llms.txt files and pages are as they were; manifest.json has the refresh time',
    ];
    if (leftOut.length) lines.push(`${count(leftOut.length, 'file')} left out (not written):`, ...leftOut.map((l) => `  ${l.relativePath}: ${l.reason}`));
    io.out(lines.join('\n'));
    return code;
  } finally {
    db.close();
  }
}
