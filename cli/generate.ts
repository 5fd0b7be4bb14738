/**
 * `scout generate <url|folder> --out <dir>`: the extension's crawl and generator in Node
 * (lib/headless/crawl-site.ts), the files to publish written to a folder laid out as on the site.
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { PlanRecord } from '../lib/store/db';
import { MemoryStore } from '../lib/store/store';
import { BodySpill, type BodyRef } from '../lib/store/memory/body-spill';
import { queueRowsIn } from '../lib/store/crawl-report';
import { pageHeads } from '../lib/store/page-outputs';
import { fileFullText } from '../lib/generate/output-files';
import { planSummary } from '../lib/crawl/plan';
import { normalizeSettings, type CrawlSettings } from '../lib/crawl/settings';
import type { OutputSettings } from '../lib/generate/output-settings';
import { crawlSite } from '../lib/headless/crawl-site';
import { folderFetch } from '../lib/headless/folder-fetch';
import { lintLlmsTxt } from '../lib/headless/lint';
import { manifestText } from '../lib/agents/docs-folder';
import { docsFolderFromDb } from '../lib/agents/from-db';
import { SCOUT_VERSION } from './version';
import { publishLayout } from '../lib/headless/publish';
import { CRAWL_STATE_PATH, exportCrawlState } from '../lib/headless/crawl-state';
import { outFolderProblem, writeFilesInside } from '../lib/headless/write-out';
import { count, EXIT, isUrl, parseUrl, UsageError, type ExitCode, type Io } from './common';
import { commandFetch } from './fetch';

export interface GenerateOptions {
  input: string;
  out: string;
  baseUrl?: string;
  start?: string;
  cleanUrls: boolean;
  date?: Date;
  settings: Partial<CrawlSettings>;
  output: Partial<OutputSettings>;
  json: boolean;
  /** Also write the docs folder's pages and manifest.json (lib/agents/docs-folder.ts) for `scout mcp`. */
  forAgents?: boolean;
}

/** Where to start and how to fetch: the network (under the start's guard) for a URL, the folder for a folder. */
async function source(options: GenerateOptions, transport: typeof fetch | undefined): Promise<{ startUrl: string; fetch: typeof fetch; from: string }> {
  if (isUrl(options.input)) {
    if (options.baseUrl) throw new UsageError('--base-url is for a folder input; a URL is crawled where it is');
    const startUrl = parseUrl(options.input, 'The site to crawl').href;
    return { startUrl, fetch: commandFetch(startUrl, transport), from: startUrl };
  }
  const info = await stat(options.input).catch(() => null);
  if (!info?.isDirectory()) throw new UsageError(`${options.input} is neither an http(s) URL nor a folder`);
  if (!options.baseUrl) throw new UsageError('A folder needs --base-url: the URL the site is published at (e.g. https://docs.example.com/)');
  const base = parseUrl(options.baseUrl, '--base-url');
  const startUrl = new URL(options.start ?? '', base).href;
  if (new URL(startUrl).origin !== base.origin) throw new UsageError(`--start must be on ${base.origin}`);
  const root = resolve(options.input);
  return { startUrl, fetch: folderFetch({ root, baseUrl: base.href, cleanUrls: options.cleanUrls }), from: `${root} as ${base.href}` };
}

/** `transport` replaces Node's network under the guard (tests map host names to loopback with it). */
export async function runGenerate(options: GenerateOptions, io: Io, transport?: typeof fetch): Promise<ExitCode> {
  // The engine on the memory store: every store function a crawl, its outputs and the saved crawl
  // state reach has a memory body that answers as Dexie does (tests/unit/store-contract-*.test.ts).
  // Its pages' Markdown and its outputs' text wait on disk (body-spill.ts), not in the heap, until
  // the command ends, whatever way it ends.
  const spill = new BodySpill();
  const db = new MemoryStore({ spill });
  try {
    return await generateOn(db, spill, options, io, transport);
  } finally {
    db.close();
  }
}

async function generateOn(db: MemoryStore, spill: BodySpill, options: GenerateOptions, io: Io, transport: typeof fetch | undefined): Promise<ExitCode> {
  const { startUrl, fetch, from } = await source(options, transport);
  // A --out that cannot be written to is a usage error found before the crawl, with nothing written.
  const outProblem = await outFolderProblem(resolve(options.out));
  if (outProblem) throw new UsageError(`--out: ${outProblem}`);
  if (await stat(join(resolve(options.out), CRAWL_STATE_PATH)).catch(() => null)) io.progress(`${options.out} holds a docs folder Scout generated: crawling it again (scout generate --refresh --out ${options.out} re-checks its pages instead, with conditional requests)`);
  io.progress(`Crawling ${from}, starting at ${startUrl}`);
  const { maxPages } = normalizeSettings(options.settings);
  // What a `docs` crawl will cover, said before it starts (the Generate tab shows the same).
  const onPlan = (plan: PlanRecord) => {
    for (const line of planSummary(plan, maxPages)) io.progress(line);
  };
  // Each file's llms-full.txt waits in the store's spill from when generation counted it to when
  // it is written: made once, and only one of them in memory at a time.
  const fullTexts = new Map<number, BodyRef>();
  const keepFullText = (fileIndex: number, pieces: Iterable<string>) => fullTexts.set(fileIndex, spill.writeAll(pieces));
  const result = await crawlSite({ db, startUrl, fetch, rendering: true, settings: options.settings, output: options.output, ...(options.date ? { now: options.date } : {}), onProgress: io.progress, onPlan, fullTexts: keepFullText });
  const boundary = result.plan?.boundary;
  const { job, generated } = result;
  // Every file's llms-full.txt waits in the spill (fullTexts). The site's as generation returned
  // it is the pieces it was appended from, as much text as the site: let go before the files are
  // written, unless a file was not kept (then that file is cut from it).
  const siteFullText = generated?.files.files.some((_, i) => !fullTexts.has(i)) ? generated.output.llmsFullTxt : '';
  if (generated) generated.output.llmsFullTxt = '';
  const frontier = await queueRowsIn(db, job.id, ['failed', 'skipped']);
  const failed = frontier.filter((f) => f.state === 'failed').map((f) => ({ url: f.url, reason: f.reason ?? '' }));
  const skippedBy = new Map<string, number>();
  for (const f of frontier) if (f.state === 'skipped') skippedBy.set(f.reason ?? '', (skippedBy.get(f.reason ?? '') ?? 0) + 1);
  const skipped = [...skippedBy].map(([reason, n]) => ({ reason, count: n })).sort((a, b) => b.count - a.count);
  // Pages stored without any text (a client-rendered shell the CLI cannot render): not in the files, and said so.
  // Their rows only: the pages' Markdown stays on disk.
  const storedPages = await pageHeads(db, job.id);
  const empty = storedPages.filter((p) => p.empty).map((p) => ({ url: p.url, reason: p.empty ?? '' }));
  // Pages the evidence says are not documentation (a blog post, a forum thread): kept out of the files, and said so.
  const notDocs = (generated?.output.notDocs ?? []).filter((p) => !p.included).map((p) => ({ url: p.url, reason: p.reason }));
  const c = job.counters;
  const crawl = { state: result.crawlState, message: job.message ?? '', stored: c.stored ?? 0, failed: failed.length, skipped: frontier.length - failed.length, duplicates: c.duplicates ?? 0 };

  if (!generated) {
    const why = `Nothing generated: the crawl stored no page (${crawl.message || crawl.state})`;
    if (options.json) io.out(JSON.stringify({ ok: false, startUrl, error: why, crawl, failedUrls: failed, skippedReasons: skipped }, null, 2));
    else io.out([why, ...failed.slice(0, 10).map((f) => `  failed ${f.url}: ${f.reason}`)].join('\n'));
    // The start page itself could not be read: the input is unreadable (exit 2), not a site with errors.
    const startFailed = crawl.stored === 0 && failed.some((f) => f.url === startUrl);
    return startFailed ? EXIT.usage : EXIT.failed;
  }

  // Paths come from the site: each is held to safe-path.ts, and written only inside --out (write-out.ts).
  const layoutFiles = publishLayout(generated.files, (file, i) => {
    const kept = fullTexts.get(i);
    return kept ? spill.read(kept) : fileFullText(siteFullText, generated.files, file, job.origin);
  });
  // An llms-full.txt generation kept in the spill (the largest texts written, tens of MB) goes from
  // the spill's bytes to the file a slice at a time, never a string, never in memory whole.
  const keptByPath = new Map<string, BodyRef>();
  generated.files.files.forEach((file, i) => {
    const kept = fullTexts.get(i);
    // The same path twice is one file, the first (publishLayout).
    if (kept && !keptByPath.has(file.fullPath)) keptByPath.set(file.fullPath, kept);
  });
  // Each text is made as its file is written; its length and lint are taken then.
  const made = new Map<string, { chars: number; lint?: ReturnType<typeof lintLlmsTxt> }>();
  const toWrite = layoutFiles.files.map((file) => ({
    relativePath: file.relativePath,
    text: () => {
      const kept = file.kind === 'llms-full' ? keptByPath.get(file.path) : undefined;
      if (kept) {
        made.set(file.relativePath, { chars: kept.chars });
        return spill.utf8Chunks(kept);
      }
      const text = file.text();
      made.set(file.relativePath, { chars: text.length, ...(file.kind === 'llms' ? { lint: lintLlmsTxt(text, file.url) } : {}) });
      return text;
    },
  }));
  const outDir = resolve(options.out);
  const writing = await writeFilesInside(outDir, toWrite).catch((error: Error) => {
    // Only the output folder itself can fail here (each file's own failure is a reason in leftOut): nothing was written.
    throw new UsageError(`--out: ${error.message}`);
  });
  const byRelative = new Map(layoutFiles.files.map((file) => [file.relativePath, file]));
  const leftOut = [...layoutFiles.leftOut, ...writing.leftOut.map((l) => ({ path: byRelative.get(l.relativePath)?.path ?? l.relativePath, reason: l.reason }))];
  const written = [];
  for (const { relativePath, file: target } of writing.written) {
    const file = byRelative.get(relativePath);
    if (!file) continue;
    const { chars = 0, lint } = made.get(relativePath) ?? {};
    written.push({ path: file.path, url: file.url, file: target, kind: file.kind, chars, ...(file.pages !== undefined ? { pages: file.pages } : {}), ...(lint ? { errors: lint.errors, warnings: lint.warnings } : {}) });
  }
  const layout = generated.files.files.length > 1 ? 'nested' : 'flat';
  // The docs folder for agents: the llms.txt files above, and each listed page with the manifest.
  let agents: { pages: number; manifest: string } | undefined;
  if (options.forAgents) {
    const folder = await docsFolderFromDb(db, job.origin, { scoutVersion: SCOUT_VERSION, ...(options.date ? { now: options.date } : {}) });
    if (folder) {
      const pageFiles = folder.files.filter((f) => f.kind === 'page');
      const wrote = await writeFilesInside(outDir, pageFiles);
      const kept = new Set(wrote.written.map((w) => w.relativePath));
      const manifest = { ...folder.manifest, pages: folder.manifest.pages.filter((p) => kept.has(p.path)) };
      const manifestWrite = await writeFilesInside(outDir, [{ relativePath: 'manifest.json', text: manifestText(manifest) }]);
      for (const l of [...wrote.leftOut, ...manifestWrite.leftOut]) leftOut.push({ path: l.relativePath, reason: l.reason });
      for (const l of folder.leftOut) if (!leftOut.some((x) => l.startsWith(`${x.path}:`))) leftOut.push({ path: l.split(': ')[0] ?? l, reason: l.slice(l.indexOf(': ') + 2) });
      // The crawl itself, for `scout generate --refresh` to re-check its pages later (cli/refresh.ts).
      const state = await exportCrawlState(db, job.origin, isUrl(options.input) ? { kind: 'url' } : { kind: 'folder', baseUrl: new URL(options.baseUrl ?? startUrl).href, cleanUrls: options.cleanUrls });
      if (state) for (const l of (await writeFilesInside(outDir, [{ relativePath: CRAWL_STATE_PATH, text: state }])).leftOut) leftOut.push({ path: l.relativePath, reason: l.reason });
      agents = { pages: manifest.pages.length, manifest: manifestWrite.written[0]?.file ?? '' };
    }
  }
  // The run failed when a file of the layout was not written (its parent llms.txt links to nothing),
  // when the site stopped the crawl (it refused the first pages), or when every page stored was empty
  // (an llms.txt that lists nothing).
  const allEmpty = storedPages.length > 0 && empty.length === storedPages.length;
  const code = leftOut.length || crawl.state === 'paused' || allEmpty ? EXIT.failed : EXIT.ok;
  if (options.json) {
    io.out(JSON.stringify({ ok: code === EXIT.ok, startUrl, out: outDir, ...(boundary ? { boundary: { roots: boundary.roots, why: boundary.why, name: boundary.name, listed: boundary.listed } } : {}), layout, flatChars: generated.files.flatChars, settings: { crawl: job.settings, output: generated.files.settings }, crawl, files: written, ...(agents ? { agents } : {}), leftOut, failedUrls: failed, skippedReasons: skipped, emptyPages: empty, notDocsPages: notDocs }, null, 2));
    return code;
  }
  const width = Math.max(0, ...written.map((w) => w.path.length));
  const lines = [
    `${crawl.message}`,
    ...(boundary ? [`Kept to the documentation${boundary.name ? ` (${boundary.name})` : ''}: ${boundary.roots.map((r) => `${new URL(r.origin).host}${r.path}`).join(', ')}`] : []),
    `Wrote ${count(written.length, 'file')} to ${outDir} (${layout}${layout === 'nested' ? `: the flat llms.txt would have ${generated.files.flatChars.toLocaleString('en')} characters, over the ${generated.files.settings.budget.toLocaleString('en')} budget` : ''}):`,
    ...written.map((w) => `  ${w.path.padEnd(width)} ${w.chars.toLocaleString('en').padStart(11)} chars${w.pages !== undefined ? `, ${count(w.pages, 'page')}` : ''}${w.errors ? `, ${count(w.errors, 'lint error')}` : ''}`),
  ];
  if (agents) lines.push(`Docs folder for agents: ${count(agents.pages, 'page')} as Markdown under pages/ and manifest.json (serve it with: scout mcp ${outDir})`);
  if (leftOut.length) lines.push(`${count(leftOut.length, 'file')} left out (not written):`, ...leftOut.map((l) => `  ${l.path}: ${l.reason}`));
  if (failed.length) lines.push(`${count(failed.length, 'URL')} failed:`, ...failed.slice(0, 20).map((f) => `  ${f.url}: ${f.reason}`), ...(failed.length > 20 ? [`  … and ${failed.length - 20} more (--json lists all)`] : []));
  if (empty.length) lines.push(`${count(empty.length, 'page')} stored empty, left out of the files:`, ...empty.slice(0, 20).map((e) => `  ${e.url}: ${e.reason}`), ...(empty.length > 20 ? [`  … and ${empty.length - 20} more (--json lists all)`] : []));
  if (notDocs.length) lines.push(`${count(notDocs.length, 'page')} left out as not documentation:`, ...notDocs.slice(0, 20).map((p) => `  ${p.url}: ${p.reason}`), ...(notDocs.length > 20 ? [`  … and ${notDocs.length - 20} more (--json lists all)`] : []));
  if (skipped.length) lines.push(`${count(crawl.skipped, 'URL')} skipped:`, ...skipped.slice(0, 8).map((s) => `  ${String(s.count).padStart(5)} × ${s.reason}`));
  io.out(lines.join('\n'));
  return code;
}
