/**
 * Sitemaps of a site: fetch the roots and, level by level, the indexes' children, within limits
 * (files, URLs, depth, bytes, hosts), each file with its status in words. Parsing one file is
 * sitemap-parse.ts.
 */
import { fetchText, FetchFailure, type TextResponse } from '../fetch/fetch-text';
import { isMissingStatus, statusReason } from '../fetch/status';
import { formatBytes, plural } from '../format';
import { absolute, MAX_SITEMAP_ENTRIES, SitemapScanner, type SitemapFile } from './sitemap-parse';

/** What `crawlSitemaps` needs and how far it may go. */
export interface SitemapCrawlOptions {
  fetch: typeof fetch;
  /** Deepest level fetched: roots are 0, their children 1… Default 3. */
  maxDepth?: number;
  /** Files fetched at most (roots included). Default 50. */
  maxFiles?: number;
  /** Page URLs kept at most. Default 50 000, the protocol's per-file limit. */
  maxUrls?: number;
  timeoutMs?: number;
  /** Bytes read per file. Default 50 MiB, the protocol's uncompressed limit. */
  maxBytes?: number;
  /** Files fetched at once. Default 4: browsers open ~6 connections per host anyway. */
  concurrency?: number;
  /** Only sitemaps on hosts for which this returns true are fetched (same registrable domain, decided by the caller). */
  allowHost?: (host: string) => boolean;
  /** The private-network guard: a sitemap (or a redirect hop) it refuses is listed as not followed with its reason, never fetched. */
  guard?: (url: string) => string | null;
  /** Credentials mode per request (see credentialsFor); default 'include'. */
  credentials?: (url: string) => RequestCredentials;
  /** Called as each file is settled (fetched or not), for live progress. */
  onFile?: (f: FetchedSitemap) => void;
}

/** A sitemap file as met during a crawl, with where it came from and what happened. */
export interface FetchedSitemap extends SitemapFile {
  /** The index that listed it; undefined for roots. */
  parentUrl?: string;
  depth: number;
  /** 'missing' covers 404/410 and HTML pages served in a sitemap's place (soft 404). */
  status: 'found' | 'missing' | 'error' | 'not-followed';
  /** Plain words for a person, set for every status but a clean 'found'. */
  reason?: string;
  bytes?: number;
  httpStatus?: number;
  /** Set when a size cap cut the file (see TextResponse.cut). */
  cut?: string;
}

/** The result of a crawl: files in tree order (each index followed by its children). */
export interface SitemapCrawl {
  files: FetchedSitemap[];
  /** Deduped page URLs, in tree order. */
  urls: string[];
  /** True when a limit (files, URLs, depth, bytes) left something out. */
  capped: boolean;
}

export const HTML_NOT_SITEMAP = 'The server answered with an HTML page, not a sitemap';
/**
 * Unfetched sitemaps (a limit, another site, a refused address) listed one by one per index; the
 * rest are only counted in the index's reason, so a million-child index is one row, not a million.
 */
export const UNFETCHED_LISTED = 10;
const SITEMAP_ACCEPT = 'application/xml, text/xml;q=0.9, */*;q=0.8';

interface TreeNode {
  url: string;
  parentUrl?: string;
  depth: number;
  file?: FetchedSitemap;
  kids: TreeNode[];
}

interface Skip {
  status: 'error' | 'not-followed';
  reason: string;
  /** True when a crawl limit (not the file itself) is the reason. */
  limit: boolean;
}

/**
 * Fetches `roots` and, level by level, the child sitemaps their indexes list: files of one level
 * in parallel, the next level decided in tree order, so results and limits do not depend on which
 * answer came first. Each sitemap URL is fetched once, which also ends index loops. Never throws.
 */
export async function crawlSitemaps(roots: string[], options: SitemapCrawlOptions): Promise<SitemapCrawl> {
  const { maxDepth = 3, maxFiles = 50, maxUrls = 50_000, concurrency = 4 } = options;
  const seen = new Set<string>();
  const pages = new Set<string>(); // all page URLs so far: stops fetching once maxUrls are known
  const top: TreeNode[] = [];
  let level: TreeNode[] = [];
  let fetched = 0;
  let capped = false;

  const skipReason = (node: TreeNode): Skip | null => {
    const host = hostOf(node.url);
    if (host === null) return { status: 'error', reason: 'Not a web address (http or https)', limit: false };
    const refused = options.guard?.(node.url);
    if (refused) return { status: 'not-followed', reason: `Not fetched: ${refused}`, limit: false };
    if (options.allowHost && !options.allowHost(host)) {
      return { status: 'not-followed', reason: `Not fetched: ${host} is another site`, limit: false };
    }
    const limit = (reason: string): Skip => ({ status: 'not-followed', reason: `Not fetched: ${reason}`, limit: true });
    if (node.depth > maxDepth) return limit(`sitemap indexes nest deeper than ${maxDepth} levels`);
    if (fetched >= maxFiles) return limit(`the limit of ${maxFiles} sitemap files was reached`);
    if (pages.size >= maxUrls) return limit(`the limit of ${maxUrls} page URLs was reached`);
    return null;
  };
  /**
   * What became of one listed sitemap: fetched, listed as not fetched, only counted (not fetched,
   * once its index has enough listed), or a duplicate.
   */
  const place = (url: string, parent: TreeNode | undefined, listUnfetched: boolean): 'fetch' | 'listed' | 'counted' | 'seen' => {
    const key = (absolute(url) ?? url).replace(/#[\s\S]*/, '');
    if (seen.has(key)) return 'seen'; // listed twice, or an index loop
    const node: TreeNode = { url, parentUrl: parent?.url, depth: parent ? parent.depth + 1 : 0, kids: [] };
    const skip = skipReason(node);
    capped ||= skip?.limit ?? false;
    if (skip && !listUnfetched) return 'counted';
    seen.add(key);
    (parent ? parent.kids : top).push(node);
    if (skip === null) {
      fetched++;
      level.push(node);
      return 'fetch';
    }
    node.file = { ...unread(node), status: skip.status, reason: skip.reason };
    options.onFile?.(node.file);
    return 'listed';
  };
  /** Places an index's children; when a limit left some out, its reason says how many were fetched. */
  const placeChildren = (parent: TreeNode | undefined, children: string[], more: number, cut: string | undefined) => {
    let unfetched = 0;
    let toFetch = 0;
    let counted = 0;
    for (const child of children) {
      const what = place(child, parent, unfetched < UNFETCHED_LISTED);
      if (what === 'fetch') toFetch++;
      else if (what === 'counted') counted++;
      if (what === 'counted' || what === 'listed') unfetched++;
    }
    if (!parent?.file || (counted === 0 && more === 0 && !cut)) return;
    const listed = children.length + more;
    const lists = cut ? `lists more than ${plural(listed, 'sitemap')} (${cut.charAt(0).toLowerCase()}${cut.slice(1)})` : `lists ${plural(listed, 'sitemap')}`;
    parent.file = { ...parent.file, reason: `Sitemap index ${lists}; Scout fetched the first ${toFetch.toLocaleString('en')}` };
    capped = true;
    options.onFile?.(parent.file);
  };

  for (const root of roots) place(root, undefined, true);
  while (level.length > 0) {
    const current = level;
    level = [];
    await inParallel(current, concurrency, async (node) => {
      // Files of one level start in tree order; once enough page URLs are known, the rest stay unfetched.
      const full = pages.size >= maxUrls;
      const { file, truncated } = full
        ? { file: { ...unread(node), status: 'not-followed' as const, reason: `Not fetched: the limit of ${maxUrls.toLocaleString('en')} page URLs was reached` }, truncated: true }
        : await fetchSitemap(node, options);
      node.file = file;
      capped ||= truncated;
      for (const u of file.urls) pages.add(u);
      options.onFile?.(file);
    });
    for (const node of current) if (node.file) placeChildren(node, node.file.children, node.file.more ?? 0, node.file.kind === 'index' ? node.file.cut : undefined);
  }

  const files: FetchedSitemap[] = [];
  const urls = new Set<string>();
  const walk = (nodes: TreeNode[]) => {
    for (const node of nodes) {
      if (node.file) files.push(node.file);
      for (const u of node.file?.urls ?? []) {
        if (urls.size < maxUrls) urls.add(u);
        else if (!urls.has(u)) capped = true;
      }
      walk(node.kids);
    }
  };
  walk(top);
  return { files, urls: [...urls], capped };
}

async function fetchSitemap(node: TreeNode, options: SitemapCrawlOptions): Promise<{ file: FetchedSitemap; truncated: boolean }> {
  const maxBytes = options.maxBytes ?? 50 * 1024 * 1024;
  let res: TextResponse;
  // Read as it arrives: a sitemap may be 50 MB, and only its entries are kept.
  const scanner = new SitemapScanner(node.url, MAX_SITEMAP_ENTRIES);
  try {
    res = await fetchText(node.url, { fetch: options.fetch, timeoutMs: options.timeoutMs, maxBytes, accept: SITEMAP_ACCEPT, credentials: options.credentials, checkRedirect: options.guard, onText: (piece) => scanner.feed(piece) });
  } catch (error) {
    const reason = error instanceof FetchFailure ? error.reason : `Could not fetch: ${String(error)}`;
    return { file: { ...unread(node), status: 'error', reason }, truncated: false };
  }
  const http = { bytes: res.bytes, httpStatus: res.status };
  const fail = (status: 'missing' | 'error', reason: string) => ({ file: { ...unread(node), ...http, status, reason }, truncated: false });
  const refused = statusReason(res.status);
  if (refused) return fail(isMissingStatus(res.status) ? 'missing' : 'error', refused);
  const { file, root } = scanner.end();
  const overlong = scanner.overlong ? 'A tag, comment or <loc> in it runs over 1 MB: Scout stopped reading there' : undefined;
  const sitemap = { ...file, parentUrl: node.parentUrl, depth: node.depth, ...http };
  if (file.kind !== 'invalid') {
    const more = file.kind === 'urlset' && file.more ? `${file.more.toLocaleString('en')} more page URLs than the ${file.urls.length.toLocaleString('en')} kept` : undefined;
    const reason = [res.cut, overlong, more].filter(Boolean).join('; ') || undefined;
    return { file: { ...sitemap, status: 'found', reason, cut: res.cut ?? overlong }, truncated: res.truncated || more !== undefined || overlong !== undefined };
  }
  // A soft 404: many sites answer any unknown path with 200 and their HTML "not found" page.
  // The content type alone is not enough (some servers label real sitemaps text/html), so it
  // only counts when the body is not a sitemap either.
  if (res.contentType.includes('html') || root?.toLowerCase() === 'html' || /^\uFEFF?\s*<(!doctype\s+html|html)[\s>]/i.test(res.text)) {
    return { file: { ...sitemap, status: 'missing', reason: HTML_NOT_SITEMAP }, truncated: false };
  }
  if (res.truncated) return fail('error', `${res.cut ?? `Larger than ${formatBytes(maxBytes)}`}, and what was read is not a sitemap`);
  return { file: { ...sitemap, status: 'error', reason: file.error }, truncated: false };
}

function unread(node: TreeNode): FetchedSitemap {
  return { url: node.url, parentUrl: node.parentUrl, depth: node.depth, kind: 'invalid', urls: [], children: [], skipped: 0, status: 'not-followed' };
}

function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.hostname : null;
  } catch {
    return null;
  }
}


/** Runs `work` over `items` with at most `limit` at once. */
async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
