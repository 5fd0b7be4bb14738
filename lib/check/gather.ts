/**
 * What the checks look at, fetched once: discovery (as the Discovered tab runs it), the sitemaps'
 * page URLs, a sample of the site's pages with their HTML, Link headers and `.md` twins, and the
 * start page asked for with `Accept: text/markdown`. Every request has a timeout; a site's faults
 * become facts for the checks, never exceptions.
 */
import { convertHtml } from '../convert/convert-page';
import { linkedomAdapter } from '../convert/dom';
import { discover } from '../discovery/discover';
import { isLlmsFileUrl, parseLlmsTxt } from '../discovery/parse-llms-txt';
import { findPageLinks, type PageLink } from '../discovery/page-links';
import { crawlSitemaps } from '../discovery/sitemap';
import { notFoundReason } from '../fetch/soft-404';
import type { DiscoveryResult, DiscoverySummary } from '../discovery/types';
import { fetchText, FetchFailure, type TextResponse } from '../fetch/fetch-text';
import { markdownTwinCandidates } from '../fetch/page-fetcher';
import { comparableUrl } from '../generate/export';
import { credentialsFor } from '../url/credentials';
import { createNetworkGuard } from '../url/private-network';
import { isSameSite } from '../url/site';
import { pool } from './result';

/** Pages sampled for the per-page checks: the start page and up to this many others. */
export const SAMPLE_SIZE = 10;
const TIMEOUT_MS = 8000;
const PAGE_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.5';
const TWIN_ACCEPT = 'text/markdown, text/plain;q=0.9, */*;q=0.5';
// Paths that are files, not pages: never sampled, never counted as pages missing from an llms.txt.
const NOT_A_PAGE = /\.(?:txt|md|markdown|mdx|xml|json|pdf|zip|gz|tar|png|jpe?g|gif|svg|webp|ico|css|js|mjs|woff2?|ttf|mp4|webm|mp3)$/i;

/** One `.md` twin location of a page: the v1 form (`page.html.md`), the v2 form (`page.md`), or the one the page declares. */
export interface TwinProbe {
  url: string;
  form: 'v1' | 'v2' | 'v1+v2' | 'declared';
  found: boolean;
  reason?: string;
  text?: string;
}

export interface SampledPage {
  url: string;
  finalUrl: string;
  status?: number;
  /** Why the page could not be read, if it could not. */
  error?: string;
  /** The HTML ('' when the answer was not HTML). */
  html: string;
  links: PageLink[];
  twins: TwinProbe[];
  /** The caching headers the page came with (cache-header-hygiene), read off the answer already fetched. */
  cache?: CacheHeaders;
  /** Bytes of the answer after unpacking (page-size-transfer); past the read cap, the cap. */
  bytes?: number;
  /** True when the answer was longer than the read cap (10 MiB). */
  truncated?: boolean;
}

/** One request the check made, in order: bot-protection-interference reads how answers change as requests add up. */
export interface RequestRecord {
  url: string;
  status?: number;
  /** The request failed before any status (timeout, connection refused). */
  error?: boolean;
}

export interface CacheHeaders {
  cacheControl?: string;
  etag?: string;
  lastModified?: string;
  expires?: string;
}

/** A page that cannot exist, asked for once per site: does the server say 404, or 200 (a soft 404)? */
export interface NotFoundProbe {
  url: string;
  status?: number;
  finalUrl?: string;
  error?: string;
}

export interface AcceptProbe {
  url: string;
  status?: number;
  contentType?: string;
  vary?: string;
  error?: string;
}

export interface LlmsFileText {
  url: string;
  kind: DiscoveryResult['kind'];
  text: string;
}

export interface CheckInputs {
  pageUrl: string;
  origin: string;
  discovery: DiscoverySummary;
  /** llms.txt index files found (probed, declared or linked), with their text. */
  llmsFiles: LlmsFileText[];
  robots?: { url: string; text: string };
  /** Page URLs from the site's sitemaps (same origin). */
  sitemapUrls: string[];
  /** Page URLs a crawl stored (the panel's optional crawl). */
  crawledUrls: string[];
  pages: SampledPage[];
  accept: AcceptProbe;
  notFound?: NotFoundProbe;
  /** Every request made so far, in the order made; the checks that ask the site again add theirs. */
  requests: RequestRecord[];
  fetch: typeof fetch;
}

export interface GatherOptions {
  pageUrl: string;
  fetch: typeof fetch;
  crawledUrls?: string[];
  onProgress?: (message: string) => void;
}

const isIndex = (r: DiscoveryResult) => r.status === 'found' && (r.kind === 'llms' || r.kind === 'well-known') && r.text !== undefined;

/** True for a same-origin URL that names a page (not a file such as a .txt or an image). */
export function isPageUrl(url: string, origin: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.origin === origin && !NOT_A_PAGE.test(parsed.pathname) && !isLlmsFileUrl(url);
  } catch {
    return false;
  }
}

/**
 * The pages to sample: the start page, then evenly spaced picks from the pages the llms.txt files
 * list, the sitemaps and the crawl name (in that order, deduplicated), so a big site is sampled
 * across its sections, and the same inputs always give the same sample.
 */
export function samplePages(pageUrl: string, candidates: string[], size = SAMPLE_SIZE): string[] {
  const seen = new Set([comparableUrl(pageUrl)]);
  const rest: string[] = [];
  for (const url of candidates) {
    const key = comparableUrl(url);
    if (seen.has(key)) continue;
    seen.add(key);
    rest.push(url);
  }
  const picks = size - 1;
  if (rest.length <= picks) return [pageUrl, ...rest];
  const step = rest.length / picks;
  return [pageUrl, ...Array.from({ length: picks }, (_, i) => rest[Math.floor(i * step)] ?? '').filter(Boolean)];
}

const reasonOf = (error: unknown) => (error instanceof FetchFailure ? error.reason : `Unexpected error: ${String(error)}`);

/** The twin locations of a page with their form: one candidate is both forms (`page` → `page.md`), two are v1 then v2. */
function twinForms(pageUrl: string): Array<{ url: string; form: TwinProbe['form'] }> {
  const candidates = markdownTwinCandidates(pageUrl);
  return candidates.map((url, i) => ({ url, form: candidates.length === 1 ? 'v1+v2' : i === 0 ? 'v1' : 'v2' }));
}

/** The headers cache-header-hygiene reads, when the answer had any of them. */
function cacheHeadersOf(headers: Headers): CacheHeaders | undefined {
  const pick: CacheHeaders = {};
  for (const [key, name] of [['cacheControl', 'cache-control'], ['etag', 'etag'], ['lastModified', 'last-modified'], ['expires', 'expires']] as const) {
    const value = headers.get(name);
    if (value) pick[key] = value;
  }
  return Object.keys(pick).length ? pick : undefined;
}

const encoder = new TextEncoder();
/** UTF-8 bytes of a text, without copying a big one whole: ASCII is one byte a character. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 65_536) bytes += encoder.encode(text.slice(i, i + 65_536)).length;
  return bytes;
}

/** A page beside the start page that no site has: a name in its folder no page is called. */
export const notFoundUrlOf = (pageUrl: string): string => new URL('scout-check-no-such-page-7f3c', pageUrl).href;

const urlOf = (input: RequestInfo | URL): string => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

/** `fetch`, noting each request's status (or its failure) in `requests`. */
export function recordingFetch(base: typeof fetch, requests: RequestRecord[]): typeof fetch {
  return (input, init) => base(input, init).then(
    (res) => {
      requests.push({ url: urlOf(input), status: res.status });
      return res;
    },
    (error: unknown) => {
      requests.push({ url: urlOf(input), error: true });
      throw error;
    },
  );
}

/** Fetches everything the checks need. Never throws for a site's faults. */
export async function gatherInputs(asked: GatherOptions): Promise<CheckInputs> {
  const requests: RequestRecord[] = [];
  const options = { ...asked, fetch: recordingFetch(asked.fetch, requests) };
  const { pageUrl } = options;
  const origin = new URL(pageUrl).origin;
  const guard = createNetworkGuard(pageUrl);
  const get = (url: string, accept: string): Promise<TextResponse> =>
    fetchText(url, { fetch: options.fetch, timeoutMs: TIMEOUT_MS, accept, credentials: (u) => credentialsFor(u, pageUrl), checkRedirect: guard });

  const discovery = await discover({ pageUrl, fetch: options.fetch, onProgress: options.onProgress });
  // In URL order, not the order answers came in: the same site gives the same report, run to run.
  const llmsFiles = discovery.results.filter(isIndex).map((r) => ({ url: r.url, kind: r.kind, text: r.text ?? '' })).sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  const robotsResult = discovery.results.find((r) => r.kind === 'robots' && r.status === 'found' && r.text !== undefined);
  const sitemapRoots = discovery.results.filter((r) => r.kind === 'sitemap' && r.status === 'found' && !r.parentUrl).map((r) => r.url);
  options.onProgress?.('Reading the sitemaps…');
  const sitemaps = sitemapRoots.length
    ? await crawlSitemaps(sitemapRoots, { fetch: options.fetch, timeoutMs: TIMEOUT_MS, maxUrls: 20_000, guard, allowHost: (host) => isSameSite(host, new URL(pageUrl).hostname), credentials: (u) => credentialsFor(u, pageUrl) })
    : { urls: [] as string[] };
  const sitemapUrls = sitemaps.urls.filter((u) => isPageUrl(u, origin));
  const crawledUrls = (options.crawledUrls ?? []).filter((u) => isPageUrl(u, origin));
  const listed = llmsFiles.flatMap((f) => {
    const parsed = parseLlmsTxt(f.text, f.url);
    return [...parsed.links, ...parsed.detailLinks].map((l) => l.url.split('#')[0] ?? l.url);
  });
  let candidates = [...listed, ...sitemapUrls, ...crawledUrls].filter((u) => isPageUrl(u, origin));
  // A site with no llms.txt, sitemap or crawl still has links: the start page's own name the sample.
  if (candidates.length < SAMPLE_SIZE) {
    const start = await get(pageUrl, PAGE_ACCEPT).catch(() => null);
    if (start?.contentType.includes('html')) candidates = [...candidates, ...convertHtml(start.text, start.finalUrl, linkedomAdapter).links.filter((u) => isPageUrl(u, origin))];
  }
  const sample = samplePages(pageUrl, candidates);
  options.onProgress?.(`Checking ${sample.length} pages and their Markdown twins…`);

  const pages = await pool(sample, 4, async (url): Promise<SampledPage> => {
    let res: TextResponse;
    try {
      res = await get(url, PAGE_ACCEPT);
    } catch (error) {
      return { url, finalUrl: url, error: reasonOf(error), html: '', links: [], twins: [] };
    }
    const html = res.contentType.includes('html') ? res.text : '';
    const links = findPageLinks(res.finalUrl, html, res.headers.get('link'));
    const candidates = twinForms(res.finalUrl);
    for (const l of links) if (l.rel === 'markdown' && !candidates.some((c) => c.url === l.url)) candidates.push({ url: l.url, form: 'declared' });
    const twins = await Promise.all(candidates.map(async ({ url: twinUrl, form }): Promise<TwinProbe> => {
      try {
        const twin = await get(twinUrl, TWIN_ACCEPT);
        const missing = notFoundReason(twin);
        return missing ? { url: twinUrl, form, found: false, reason: missing } : { url: twinUrl, form, found: true, text: twin.text };
      } catch (error) {
        return { url: twinUrl, form, found: false, reason: reasonOf(error) };
      }
    }));
    const cache = cacheHeadersOf(res.headers);
    const bytes = utf8Bytes(res.text);
    const base = { url, finalUrl: res.finalUrl, status: res.status, html, links, twins, bytes, ...(res.truncated && !res.cutByTime ? { truncated: true } : {}), ...(cache ? { cache } : {}) };
    return res.status >= 200 && res.status < 300 ? base : { ...base, error: `The server answered HTTP ${res.status}` };
  });

  let accept: AcceptProbe;
  try {
    const res = await get(pageUrl, 'text/markdown');
    accept = { url: pageUrl, status: res.status, contentType: res.contentType, vary: res.headers.get('vary') ?? undefined };
  } catch (error) {
    accept = { url: pageUrl, error: reasonOf(error) };
  }
  // One request per site, not per page: a good guest does not probe every page for its 404.
  const missingUrl = notFoundUrlOf(pageUrl);
  let notFound: NotFoundProbe;
  try {
    const res = await get(missingUrl, PAGE_ACCEPT);
    notFound = { url: missingUrl, status: res.status, finalUrl: res.finalUrl };
  } catch (error) {
    notFound = { url: missingUrl, error: reasonOf(error) };
  }
  return {
    pageUrl, origin, discovery, llmsFiles, sitemapUrls, crawledUrls, pages, accept, notFound, requests, fetch: options.fetch,
    ...(robotsResult ? { robots: { url: robotsResult.url, text: robotsResult.text ?? '' } } : {}),
  };
}
