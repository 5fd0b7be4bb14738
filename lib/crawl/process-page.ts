import type { FrontierRecord, PageRecord } from '../db';
import { convertHtml, type ConvertedPage, type NavLink } from '../convert/convert-page';
import type { DomAdapter } from '../convert/dom';
import { titleFromUrl } from '../convert/page-text';
import { fetchPage, type PageFetchResult } from '../fetch/page-fetcher';
import { contentFingerprint } from '../hash';
import { credentialsFor } from '../url/credentials';
import { normalizeUrl } from '../url/normalize';
import { createNetworkGuard } from '../url/private-network';
import { shellOf, type ShellVerdict } from '../render/shell-detect';
import { markdownDescription, markdownLinks, markdownTitle } from './markdown-meta';

export interface ProcessContext {
  fetch: typeof fetch;
  dom: DomAdapter;
  /** null when in scope, else why not. */
  scope: (url: string) => string | null;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Time spent per step, for the benchmark's time split. */
  timings?: Record<'fetch' | 'convert', number>;
}

/** A page ready to store (its state — stored or duplicate — is decided at write time). */
export type FetchedPage = Pick<PageRecord, 'url' | 'finalUrl' | 'title' | 'description' | 'siteName' | 'markdown' | 'format' | 'twinUrl' | 'contentHash' | 'bytes' | 'etag' | 'lastModified' | 'rendered' | 'shell'>;

/** What lib/render/ adds to a stored page's outcome: the shell verdict, a note for the page list, the site's routing. */
export interface RenderNotes {
  /** Set when fetch returned a thin page: whether it is a client-rendered shell, and why. */
  shell?: ShellVerdict;
  /** Shown next to the page in the crawl's list (frontier reason): "Rendered in a tab: …". */
  reason?: string;
  /** The page shows the site routes by hash (`#/path`): such routes are pages from now on. */
  routing?: 'hash';
}

export type PageOutcome =
  | ({ state: 'done'; page: FetchedPage; links: string[]; nav: NavLink[]; retries: number } & RenderNotes)
  | { state: 'failed' | 'skipped'; reason: string; retries: number; status?: number }
  /** Only when the entry carried validators (a refresh): the stored page is current. */
  | { state: 'not-modified'; retries: number };

/** The frontier state an outcome leaves its entry in. */
export function frontierStateOf(outcome: PageOutcome): 'done' | 'failed' | 'skipped' {
  return outcome.state === 'not-modified' ? 'done' : outcome.state;
}

/**
 * One frontier entry through the pipeline: fetch (Markdown twin first for
 * llms-listed pages) → scope check on the final URL → convert HTML to Markdown →
 * title, description, links. No storage here: the runner writes atomically.
 */
export async function processPage(entry: FrontierRecord, ctx: ProcessContext): Promise<PageOutcome> {
  const t0 = Date.now();
  // Each redirect hop is scope-checked before it is requested (where the runtime shows hops),
  // so a page that redirects to another site never sends that site a request.
  // The scope (createScope) includes the private-network guard, so a hop into the user's network is refused here too.
  const checkRedirect = (target: string) => redirectScopeReason(entry.url, target, ctx.scope);
  // Cookies go to the crawled site only; the entry is in scope, so its site is the crawl's.
  const credentials = credentialsFor(entry.url, entry.url);
  const res = await fetchPage(entry.url, { fetch: ctx.fetch, tryMarkdownTwin: entry.preferMarkdown, signal: ctx.signal, timeoutMs: ctx.timeoutMs, checkRedirect, credentials, conditional: entry.conditional });
  if (ctx.timings) ctx.timings.fetch += Date.now() - t0;
  const retries = 'retries' in res ? res.retries : 0;
  if (res.kind === 'failed') return { state: 'failed', reason: res.reason, retries, status: res.status };
  if (res.kind === 'skipped') return { state: 'skipped', reason: res.reason, retries, status: res.status };
  if (res.kind === 'not-modified') return { state: 'not-modified', retries };

  // Still needed: browsers follow redirects without showing the hops.
  const outOfScope = redirectScopeReason(entry.url, res.finalUrl, ctx.scope);
  if (outOfScope) return { state: 'skipped', reason: outOfScope, retries };

  if (res.kind === 'markdown') return { state: 'done', page: await fromMarkdown(res, res.markdown, entry.url), links: markdownLinks(res.markdown, res.finalUrl), nav: [], retries };

  const t1 = Date.now();
  // The start page's own contents may be the site's table of contents (read only there).
  const converted = convertHtml(res.html, res.finalUrl, ctx.dom, { startPage: entry.depth === 0 });
  if (ctx.timings) ctx.timings.convert += Date.now() - t1;

  // A page that names its own Markdown twin (rel=alternate) gets it used when the llms.txt listed it.
  // The twin may live on another site (it is not scope-checked, only guarded): that site gets
  // no cookies, and an address on the user's own network gets no request at all.
  const twinUrl = converted.markdownAlternates[0];
  if (entry.preferMarkdown && twinUrl && createNetworkGuard(entry.url)(twinUrl) === null) {
    const twinCredentials = credentialsFor(twinUrl, entry.url);
    const twin = await fetchPage(twinUrl, { fetch: ctx.fetch, signal: ctx.signal, timeoutMs: ctx.timeoutMs, checkRedirect, credentials: twinCredentials });
    if (twin.kind === 'markdown') {
      const page = await fromMarkdown({ ...res, etag: twin.etag, lastModified: twin.lastModified }, twin.markdown, entry.url);
      return { state: 'done', page: { ...page, title: converted.title || page.title, twinUrl: twin.finalUrl }, links: converted.links, nav: converted.navLinks, retries };
    }
  }
  // A thin page may be an empty client-rendered shell; lib/render/ decides what to do with it.
  const shell = shellOf(res.html, converted.markdown, ctx.dom);
  const page: FetchedPage = { ...(await htmlPage(entry.url, res.finalUrl, converted, res.bytes)), etag: res.etag, lastModified: res.lastModified };
  return { state: 'done', page, links: converted.links, nav: converted.navLinks, retries, ...(shell ? { shell } : {}) };
}

/** The stored form of a converted HTML page; the caller adds what it knows of the response (validators, rendering). */
export async function htmlPage(url: string, finalUrl: string, converted: ConvertedPage, bytes: number): Promise<FetchedPage> {
  return {
    url,
    finalUrl,
    title: converted.title,
    description: converted.description,
    siteName: converted.siteName,
    markdown: converted.markdown,
    format: 'html',
    contentHash: await contentFingerprint(converted.markdown),
    bytes,
  };
}

async function fromMarkdown(res: Extract<PageFetchResult, { kind: 'markdown' | 'html' }>, markdown: string, url: string): Promise<FetchedPage> {
  const twinUrl = res.kind === 'markdown' ? res.twinUrl : undefined;
  return {
    url,
    finalUrl: res.finalUrl,
    title: markdownTitle(markdown) ?? titleFromUrl(url),
    description: markdownDescription(markdown),
    markdown,
    format: 'markdown',
    twinUrl,
    contentHash: await contentFingerprint(markdown),
    bytes: res.bytes,
    etag: res.etag,
    lastModified: res.lastModified,
  };
}

function redirectScopeReason(url: string, finalUrl: string, scope: (u: string) => string | null): string | null {
  if (finalUrl === url) return null;
  const normalized = normalizeUrl(finalUrl);
  if ('skip' in normalized) return `Redirected to ${finalUrl}: ${normalized.skip}`;
  const reason = scope(normalized.url);
  return reason ? `Redirected out of scope to ${finalUrl} (${reason})` : null;
}
