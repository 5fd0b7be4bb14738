/**
 * What the crawl benchmarks share (bench/crawl.ts, bench/profile.ts, bench/trace.ts): the corpora they
 * crawl, their command line, a side panel opened on a corpus, ready to start a crawl, and the poll
 * that waits for the crawl to end.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';
import { generatedSite } from '../tests/fixtures/generated-site';
import { nodeDocsDir, nodeDocsSite, pythonDocsDir } from '../tests/fixtures/real-docs';
import type { FixtureSite, NetworkShape } from '../tests/fixtures/server';

/** Every .html file under a corpus folder (Sphinx's `_static`-style folders skipped), in directory order. */
export function htmlFilesOf(dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory() && !e.name.startsWith('_')) walk(`${d}/${e.name}`);
      else if (e.name.endsWith('.html')) files.push(`${d}/${e.name}`);
    }
  };
  walk(dir);
  return files;
}

/**
 * `--help`: the running script's opening comment, which says how to run it, printed before the
 * script starts anything (imports run first), for every bench script that takes its arguments here.
 */
if (process.argv.includes('--help') && process.argv[1]) {
  const source = readFileSync(process.argv[1], 'utf8');
  const start = source.indexOf('/**');
  const end = source.indexOf('*/', start);
  console.log(start < 0 || end < 0 ? 'No usage comment in this script.' : source.slice(start, end + 2));
  process.exit(0);
}

/** `--name value` from the command line, or the fallback. */
export const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};

export interface Corpus {
  host: string;
  site: () => FixtureSite;
  start: string;
  /** The files on disk, for the conversion-alone figure in Node. */
  dir?: () => string;
}

/**
 * Real docs from Debian packages, a generated site of `syntheticPages` pages, and `wide`: the
 * same site where page 1 also links `wideLinks` leaf pages (crawl both with the same
 * --max-pages: the difference in time is what the one huge page costs).
 */
export function corpora(syntheticPages = 5000, wideLinks = 100_000): Record<string, Corpus> {
  return {
    python: { host: 'docs.python.test', site: () => ({ dir: pythonDocsDir() }), start: '/index.html', dir: pythonDocsDir },
    node: { host: 'api.nodejs.test', site: nodeDocsSite, start: '/index.html', dir: nodeDocsDir },
    synthetic: { host: 'gen.example.test', site: () => generatedSite(syntheticPages), start: '/' },
    wide: { host: 'gen.example.test', site: () => generatedSite(syntheticPages, { wideLinks }), start: '/' },
  };
}

/**
 * The fixture server's network from the command line: --latency <ms> (mean time to first byte),
 * --jitter <ms> (± around it; a quarter of the latency unless given), --bandwidth <Mbit/s>
 * (one link shared by all responses). Undefined when none is given: loopback as it is.
 */
export function networkFromArgs(): NetworkShape | undefined {
  const latencyMs = Number(arg('latency', '0'));
  const mbit = Number(arg('bandwidth', '0'));
  if (!latencyMs && !mbit) return undefined;
  return { latencyMs, jitterMs: Number(arg('jitter', String(latencyMs / 4))), bandwidthBytesPerSecond: mbit ? (mbit * 1e6) / 8 : undefined, seed: 17 };
}

/**
 * The side panel as a tab on `startUrl`, on the Generate tab with the limits raised so the whole
 * corpus is crawled (or `maxPages` of it). `converters` sets where pages convert (see --converters,
 * lib/pipeline/converter-plan.ts); null keeps the build's default.
 */
export async function openCrawlPanel(context: BrowserContext, extensionId: string, startUrl: string, converters: string | null, maxPages = 10_000): Promise<Page> {
  const panel = await context.newPage();
  // tsx compiles the functions handed to evaluate() with esbuild's __name helper; give the page a no-op one.
  await panel.addInitScript('globalThis.__name = (f) => f');
  await panel.goto(`chrome-extension://${extensionId}/sidepanel.html?url=${encodeURIComponent(startUrl)}`);
  if (converters !== null) {
    await panel.evaluate((spec) => (globalThis as unknown as { chrome: { storage: { local: { set(v: object): Promise<void> } } } }).chrome.storage.local.set({ benchConverters: spec }), converters);
  }
  await panel.getByRole('tab', { name: 'Generate' }).click();
  await panel.getByTestId('max-pages').fill(String(maxPages));
  await panel.getByTestId('max-depth').fill('50');
  return panel;
}

/** A job row as the benchmarks read it. */
export interface JobRow { id: string; kind: string; state: string; createdAt: number; startedAt?: number; endedAt?: number; counters: Record<string, number>; settings?: { perHostConcurrency?: number } }

/**
 * The newest crawl job, for the poll that waits for the crawl to end: one IndexedDB connection kept
 * open in the page (re-opened after a navigation), the jobs store only. Opening the database for
 * every poll (readStore) cost about 5 ms of Chromium CPU each — ~3 in the browser process, ~2 in
 * the extension's main thread — about 4 ms per page of a crawl polled every 100 ms, all counted
 * as the crawl's own.
 */
export async function newestCrawlJob(panel: Page): Promise<JobRow | undefined> {
  const rows = await panel.evaluate(async () => {
    const g = globalThis as unknown as { scoutBenchDb?: Promise<IDBDatabase> };
    g.scoutBenchDb ??= new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('llms-txt-scout');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const db = await g.scoutBenchDb;
    return new Promise<unknown[]>((resolve, reject) => {
      const req = db.transaction('jobs').objectStore('jobs').getAll();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  });
  return (rows as JobRow[]).filter((j) => j.kind === 'crawl').sort((a, b) => b.createdAt - a.createdAt)[0];
}
