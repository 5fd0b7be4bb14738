import { fetchText, FetchFailure, type TextResponse } from '../fetch/fetch-text';
import { credentialsFor } from '../url/credentials';
import { createNetworkGuard } from '../url/private-network';
import { isSameSite } from '../url/site';
import { directoryChain, llmsKindOf, llmsProbeCandidates } from './candidates';
import { findPageLinks } from './page-links';
import { isLlmsFileUrl, parseLlmsTxt } from './parse-llms-txt';
import { parseRobots } from './robots';
import { crawlSitemaps } from './sitemap';
import { notFoundReason } from '../fetch/soft-404';
import type { DiscoveryResult, DiscoverySource, DiscoverySummary } from './types';
import { plural } from '../format';

export interface DiscoverOptions {
  pageUrl: string;
  fetch: typeof fetch;
  /** Link hops to follow from found llms files to other llms files (default 1; Infinity = all). */
  followDepth?: number;
  /** Most linked llms files fetched (default 50). */
  maxLinkedFiles?: number;
  /** Most locations reported (default MAX_RESULTS); the rest are only counted in `unlisted`. */
  maxResults?: number;
  timeoutMs?: number;
  /**
   * A visit to another page of a site already discovered: only the page itself, its folders'
   * llms locations and the files it declares are read, never robots.txt, sitemaps or
   * /.well-known/, and no location in `known` (looked at already) is asked again.
   */
  visit?: { known: ReadonlySet<string> };
  /** Called as each location settles, so the side panel can fill in live. */
  onResult?: (result: DiscoveryResult) => void;
  onProgress?: (message: string) => void;
}

const TEXT_ACCEPT = 'text/plain, text/markdown;q=0.9, */*;q=0.5';

/**
 * Locations one discovery reports (each a row the panel lists): ~41 probes, 50 linked files and
 * a sitemap tree fit many times over; a file listing 100,000 links to other sites does not.
 */
export const MAX_RESULTS = 1000;

/**
 * Finds every llms.txt-family file, robots.txt and sitemap a page's site
 * publishes, and the llms files those link to on the same site. All probes
 * start at once; the best llms.txt is chosen only once every llms location has
 * settled, so a slow sitemap never decides anything.
 */
export async function discover(options: DiscoverOptions): Promise<DiscoverySummary> {
  const started = Date.now();
  const { pageUrl, followDepth = 1, maxLinkedFiles = 50, timeoutMs = 5000, maxResults = MAX_RESULTS } = options;
  const page = new URL(pageUrl);
  const results = new Map<string, DiscoveryResult>();
  const inflight = new Map<string, Promise<DiscoveryResult>>();
  let linkedFetched = 0;
  let overCap = 0;
  let unlisted = 0;

  // Cookies only for the page's own site; nothing on the user's own network from a public page.
  const credentials = (url: string) => credentialsFor(url, pageUrl);
  const guard = createNetworkGuard(pageUrl);
  const get = (url: string, accept = TEXT_ACCEPT) =>
    fetchText(url, { fetch: options.fetch, timeoutMs, accept, credentials, checkRedirect: guard });
  const emit = (r: DiscoveryResult) => {
    if (!results.has(r.url) && results.size >= maxResults) {
      unlisted++;
      return r;
    }
    results.set(r.url, r);
    options.onResult?.(r);
    return r;
  };

  /** Fetches one llms-family or Markdown file once, however many ways it was reached. */
  const fetchFile = (url: string, kind: DiscoveryResult['kind'], source: DiscoverySource, depth: number, parentUrl?: string) => {
    const known = inflight.get(url);
    const refused = known ? null : guard(url);
    if (refused) {
      const result = Promise.resolve(emit({ url, kind, sources: [source], depth, parentUrl, status: 'not-followed', reason: `${refused}: listed, not fetched` }));
      inflight.set(url, result);
      return result;
    }
    if (known) {
      return known.then((r) => {
        if (!r.sources.includes(source)) emit({ ...r, sources: [...r.sources, source] });
        return results.get(url) ?? r;
      });
    }
    const task = get(url).then(
      (res) => emit(describeFile(url, kind, source, depth, parentUrl, res)),
      (error: unknown) => emit({ url, kind, sources: [source], depth, parentUrl, status: 'error', reason: reasonOf(error) }),
    );
    inflight.set(url, task);
    return task;
  };

  /** Follows llms links found in a file: same site fetched, other sites listed only. */
  const follow = async (file: DiscoveryResult): Promise<void> => {
    if (file.status !== 'found' || !file.text || file.kind === 'markdown' || file.depth >= followDepth) return;
    const parsed = parseLlmsTxt(file.text, file.url);
    const targets = [...parsed.links, ...parsed.detailLinks].map((l) => l.url.split('#')[0] ?? l.url).filter(isLlmsFileUrl);
    const next: Promise<void>[] = [];
    for (const target of new Set(targets)) {
      if (inflight.has(target) || results.has(target) || options.visit?.known.has(target)) continue;
      const host = new URL(target).hostname;
      const refused = guard(target);
      if (refused) {
        emit({ url: target, kind: llmsKindOf(target), sources: ['linked'], depth: file.depth + 1, parentUrl: file.url, status: 'not-followed', reason: `${refused}: listed, not fetched` });
        continue;
      }
      if (!isSameSite(host, page.hostname)) {
        emit({ url: target, kind: llmsKindOf(target), sources: ['linked'], depth: file.depth + 1, parentUrl: file.url, status: 'not-followed', reason: `On another site (${host}): listed, not fetched` });
        continue;
      }
      if (linkedFetched >= maxLinkedFiles) {
        overCap++;
        continue;
      }
      linkedFetched++;
      next.push(fetchFile(target, llmsKindOf(target), 'linked', file.depth + 1, file.url).then(follow));
    }
    if (next.length) options.onProgress?.(`Following ${plural(linkedFetched, 'linked llms file')}…`);
    await Promise.all(next);
  };

  const probes = llmsProbeCandidates(pageUrl);
  options.onProgress?.(`Checking ${probes.length + 3} locations…`);

  // Phase 1: llms locations (probes, and what the page itself declares), then their links.
  const pagePhase = get(pageUrl, 'text/html, */*;q=0.5').then(
    (res) => findPageLinks(res.finalUrl, res.contentType.includes('html') ? res.text : '', res.headers.get('link')),
    () => [],
  );
  const llmsPhase = (async () => {
    const direct = probes.filter((p) => !options.visit || (p.kind !== 'well-known' && !options.visit.known.has(p.url))).map((p) => fetchFile(p.url, p.kind, p.kind === 'well-known' ? 'well-known' : 'probe', 0));
    const declared = (await pagePhase)
      .filter((l) => l.rel !== 'sitemap' && !options.visit?.known.has(l.url))
      .map((l) => (l.rel === 'markdown' ? fetchFile(l.url, 'markdown', 'page-markdown', 0) : fetchFile(l.url, llmsKindOf(l.url), l.from === 'header' ? 'link-header' : 'describedby', 0)));
    const settled = await Promise.all([...direct, ...declared]);
    const found = settled.filter((r) => r.status === 'found').length;
    if (found) options.onProgress?.(`Found ${plural(found, 'llms file')}; following their links…`);
    await Promise.all(settled.map((r) => follow(results.get(r.url) ?? r)));
  })();

  // Phase 2, concurrently: robots.txt and sitemaps. They never decide which llms file is best.
  const sitemapPhase = options.visit ? Promise.resolve() : (async () => {
    const robotsUrl = `${page.origin}/robots.txt`;
    const roots = new Set<string>([`${page.origin}/sitemap.xml`]);
    try {
      const res = await get(robotsUrl);
      const missing = elsewhere(robotsUrl, res) ?? notFoundReason(res);
      if (missing) emit({ url: robotsUrl, kind: 'robots', sources: ['probe'], depth: 0, status: 'missing', reason: missing, httpStatus: res.status, ...cameFrom(robotsUrl, res) });
      else {
        const robots = parseRobots(robotsUrl, res.text);
        robots.sitemaps.forEach((s) => roots.add(s));
        emit({ ...facts(res), ...cameFrom(robotsUrl, res), url: robotsUrl, kind: 'robots', sources: ['probe'], depth: 0, status: 'found', text: res.text, urlCount: robots.sitemaps.length, linkCount: robots.ruleCount });
      }
    } catch (error) {
      emit({ url: robotsUrl, kind: 'robots', sources: ['probe'], depth: 0, status: 'error', reason: reasonOf(error) });
    }
    for (const l of await pagePhase) if (l.rel === 'sitemap') roots.add(l.url);
    await crawlSitemaps([...roots], {
      fetch: options.fetch,
      timeoutMs,
      allowHost: (host) => isSameSite(host, page.hostname),
      guard,
      credentials,
      onFile: (f) =>
        emit({
          url: f.url, kind: 'sitemap', sources: [f.parentUrl ? 'sitemap' : 'robots'], depth: f.depth, parentUrl: f.parentUrl,
          status: f.status, reason: f.reason ?? f.error, bytes: f.bytes, httpStatus: f.httpStatus,
          urlCount: f.kind === 'index' ? f.children.length : f.urls.length,
        }),
    });
  })();

  await llmsPhase;
  const bestUrl = pickBest([...results.values()], pageUrl);
  // The site's best file was chosen by its discovery; a visit only adds what it finds.
  if (bestUrl && !options.visit) {
    const best = results.get(bestUrl);
    if (best) emit({ ...best, best: true });
  }
  await sitemapPhase;
  return { results: [...results.values()], bestUrl, overCap, unlisted, ms: Date.now() - started };
}

function facts(res: TextResponse) {
  return { httpStatus: res.status, contentType: res.contentType, bytes: res.bytes, truncated: res.truncated, ...(res.cutByTime ? { cutByTime: true } : {}), ms: res.ms, ...(res.cut ? { reason: res.cut } : {}) };
}

/** Where the answer came from, when a redirect took it elsewhere: the row keeps the address asked for and says so. */
function cameFrom(url: string, res: TextResponse): { finalUrl?: string } {
  return res.finalUrl === url ? {} : { finalUrl: res.finalUrl };
}

/**
 * A file whose answer came from another site is that site's, not this one's: it is neither this
 * site's llms.txt nor its robots.txt, and its text is not kept under this site's address.
 */
function elsewhere(url: string, res: TextResponse): string | null {
  const from = new URL(res.finalUrl).hostname;
  return isSameSite(from, new URL(url).hostname) ? null : `Redirected to another site (${from}): that site’s file, not this one’s`;
}

function reasonOf(error: unknown): string {
  return error instanceof FetchFailure ? error.reason : `Unexpected error: ${String(error)}`;
}

function describeFile(url: string, kind: DiscoveryResult['kind'], source: DiscoverySource, depth: number, parentUrl: string | undefined, res: TextResponse): DiscoveryResult {
  const base = { url, kind, sources: [source], depth, parentUrl, ...facts(res), ...cameFrom(url, res) };
  const missing = elsewhere(url, res) ?? notFoundReason(res);
  if (missing) return { ...base, status: 'missing', reason: missing };
  if (kind === 'markdown') return { ...base, status: 'found', text: res.text };
  const parsed = parseLlmsTxt(res.text, res.finalUrl);
  return {
    ...base,
    status: 'found',
    text: res.text,
    title: parsed.title ?? undefined,
    sectionCount: parsed.sections.length,
    linkCount: parsed.links.length + parsed.detailLinks.length,
    // llms-full.txt is page content, not an index: the index rules would flag every paragraph.
    warningCount: kind === 'llms-full' ? 0 : parsed.warnings.length,
  };
}

/**
 * The llms.txt that covers the page: the one the page declares (rel=describedby),
 * else the one in the deepest directory above the page (spec: the most specific wins).
 */
export function pickBest(results: DiscoveryResult[], pageUrl: string): string | undefined {
  const found = results.filter((r) => r.status === 'found' && r.kind === 'llms' && r.depth === 0);
  const declared = found.find((r) => r.sources.includes('describedby') || r.sources.includes('link-header'));
  if (declared) return declared.url;
  const page = new URL(pageUrl);
  const dirs = directoryChain(pageUrl);
  const rank = (r: DiscoveryResult) => {
    const u = new URL(r.url);
    const dir = u.pathname.slice(0, u.pathname.lastIndexOf('/') + 1);
    const level = u.origin === page.origin ? dirs.indexOf(dir) : -1;
    return level < 0 ? Infinity : level * 10 + (u.pathname.endsWith('.txt') ? 0 : 1);
  };
  return found.filter((r) => rank(r) < Infinity).sort((a, b) => rank(a) - rank(b))[0]?.url;
}
