/**
 * Search over a crawl's stored pages, for the side panel: the same index as `scout mcp`
 * (`DocsIndex`: BM25+ over heading-level chunks, title and headings weighted, one result a page),
 * fed from the database instead of a docs folder. The panel runs it in a Web Worker
 * (entrypoints/search-worker.ts), so indexing 10,000 pages never holds up typing.
 */
import type { PageRecord } from '../store/db';
import type { Store } from '../store/store';
import { pagesAfter } from '../store/page-outputs';
import { countPages } from '../store/queries';
import { chromeFor, servedMarkdown, type ChromeModel } from '../output/served-page';
import { DocsIndex, queryTerms, type IndexPage, type SearchHit } from './search-index';

/** Pages read and indexed at a time: small enough that a search waiting behind a batch waits well under 100 ms. */
export const INDEX_BATCH = 100;

/** A stored page as the index needs it; its key (the frontier key) is its path, which opens its preview. */
export function indexPageOf(page: PageRecord): IndexPage {
  return servedIndexPage(undefined)(page);
}

/**
 * `indexPageOf` with the page's text as served, without the site chrome `chrome` learned: a
 * search for a word of the site's footer finds no page for it.
 */
export function servedIndexPage(chrome: ChromeModel | undefined): (page: PageRecord) => IndexPage {
  return (page) => ({ site: page.jobId, path: page.key, url: page.url, title: page.title.trim() || page.url, section: '', markdown: servedMarkdown(chrome, page) });
}

export interface BuildProgress {
  indexed: number;
  total: number;
}

export interface BuildOptions {
  batch?: number;
  /** Called after each batch, and once before the first. */
  onProgress?: (progress: BuildProgress) => void;
  /** Checked between batches: true stops the build (it answers null). */
  cancelled?: () => boolean;
}

/**
 * The index of the crawl `jobId`'s stored pages, read a batch at a time by primary key (each batch
 * its own short read, so the crawl's writes never wait behind the whole build).
 */
export async function buildPageIndex(db: Store, jobId: string, options: BuildOptions = {}): Promise<DocsIndex | null> {
  const batch = options.batch ?? INDEX_BATCH;
  const index = new DocsIndex();
  // Pages stored while the index is built are counted as they come: the total only grows.
  let total = await countPages(db, jobId);
  const served = servedIndexPage(await chromeFor(db, { jobId }));
  let indexed = 0;
  options.onProgress?.({ indexed, total });
  let after: string | undefined;
  for (;;) {
    if (options.cancelled?.()) return null;
    const rows = await pagesAfter(db, jobId, after, batch);
    const last = rows.at(-1);
    if (!last) break;
    after = last.key;
    const stored = rows.filter((page) => page.state === 'stored');
    index.addPages(jobId, stored.map(served));
    indexed += stored.length;
    total = Math.max(total, indexed);
    options.onProgress?.({ indexed, total });
  }
  index.finish(jobId);
  return index;
}

/** Markdown marks that read as noise in a one-line snippet: code ticks, bold, link brackets. */
const SNIPPET_MARKS = /`+|\*\*|[[\]]/g;

/** Characters of context kept before the first word searched: the panel shows three lines of a snippet. */
const LEAD_CHARS = 40;

/**
 * A snippet in plain words for three lines of the panel: Markdown marks out, a table's cells (two
 * or more pipes) joined by dots, and started at a word shortly before the first word searched.
 */
function plainSnippet(snippet: string, words: string[]): string {
  let text = snippet.replace(SNIPPET_MARKS, '');
  const cells = text.split('|');
  if (cells.length > 2) text = cells.map((cell) => cell.trim()).filter(Boolean).join(' · ');
  const lower = text.toLowerCase();
  const first = Math.min(...words.map((word) => lower.indexOf(word)).filter((at) => at >= 0));
  if (!Number.isFinite(first) || first <= LEAD_CHARS + 1) return text;
  const space = text.indexOf(' ', first - LEAD_CHARS);
  const start = space >= 0 && space < first ? space + 1 : first;
  return `…${text.slice(start).replace(/^…/, '')}`;
}

/** A result as the panel shows it: plain text only (the page's content is untrusted and never rendered as HTML). */
export interface PageHit {
  key: string;
  url: string;
  title: string;
  heading: string;
  snippet: string;
}

/** The best pages for `query`, best first; none for a blank query. */
export function searchPages(index: DocsIndex, query: string, limit = 10): PageHit[] {
  if (query.trim() === '') return [];
  const words = queryTerms(query);
  return index.query(query, { limit }).map((hit: SearchHit) => ({ key: hit.path, url: hit.url, title: hit.title, heading: hit.heading, snippet: plainSnippet(hit.snippet, words) }));
}

/** The query's words as the index matched them (stop words out), to mark in the results. */
export const searchedWords = queryTerms;

/** What the panel asks its search worker (entrypoints/search-worker.ts). */
export type SearchWorkerRequest = { type: 'build'; build: number; jobId: string } | { type: 'search'; id: number; query: string; limit?: number };

/** What the search worker answers: a build's progress and end, or a search's results (for the index it had then). */
export type SearchWorkerReply =
  | { type: 'progress'; build: number; indexed: number; total: number }
  | { type: 'ready'; build: number; jobId: string; pages: number }
  | { type: 'failed'; build: number; message: string }
  | { type: 'results'; id: number; query: string; words: string[]; jobId: string | null; hits: PageHit[] };

/**
 * The search worker's side: builds on request (a newer build stops an older one at its next
 * batch) and answers searches from the last index it finished, so typing is answered while a
 * newer one is built. `post` sends a reply to the panel.
 */
export function serveSearch(db: Store, post: (reply: SearchWorkerReply) => void): (request: SearchWorkerRequest) => void {
  let ready: { jobId: string; index: DocsIndex } | null = null;
  let current = 0;
  async function build(request: Extract<SearchWorkerRequest, { type: 'build' }>): Promise<void> {
    current = request.build;
    let pages = 0;
    try {
      const built = await buildPageIndex(db, request.jobId, {
        onProgress: ({ indexed, total }) => {
          pages = indexed;
          post({ type: 'progress', build: request.build, indexed, total });
        },
        cancelled: () => current !== request.build,
      });
      if (!built) return;
      ready = { jobId: request.jobId, index: built };
      post({ type: 'ready', build: request.build, jobId: request.jobId, pages });
    } catch (error) {
      post({ type: 'failed', build: request.build, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return (request) => {
    if (request.type === 'build') void build(request);
    else post({ type: 'results', id: request.id, query: request.query, words: searchedWords(request.query), jobId: ready?.jobId ?? null, hits: ready ? searchPages(ready.index, request.query, request.limit) : [] });
  };
}
