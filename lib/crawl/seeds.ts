import type { DiscoveredFileRecord, DiscoveryJob } from '../store/db';
import type { Store } from '../store/store';
import { parseLlmsTxt } from '../discovery/parse-llms-txt';
import { crawlSitemaps } from '../discovery/sitemap';
import { credentialsFor } from '../url/credentials';
import { createNetworkGuard } from '../url/private-network';
import { isSameSite } from '../url/site';
import { latestJob } from '../store/queries';
import { findingsOfRun, planFor } from '../store/plans';

export interface Seed {
  url: string;
  source: 'start' | 'llms' | 'sitemap';
  /** Pages an llms.txt lists get their Markdown twin tried first. */
  preferMarkdown: boolean;
}

/**
 * Depth-0 URLs for a crawl: the start page, every link in the llms files the
 * latest discovery found for the site, and the URLs its sitemaps list: the crawl's plan's list
 * when the plan (lib/crawl/plan.ts) read the same discovery and listed enough, else fetched here
 * (discovery keeps counts, not the lists). Seeds only add to BFS.
 * Every seed still goes through the crawl's scope (and its private-network guard)
 * when classified; the sitemaps fetched here are guarded before any request.
 */
export async function collectSeeds(db: Store, startUrl: string, fetchFn: typeof fetch, maxSitemapUrls: number, signal?: AbortSignal): Promise<Seed[]> {
  const origin = new URL(startUrl).origin;
  const seeds: Seed[] = [{ url: startUrl, source: 'start', preferMarkdown: false }];
  await discoveryEnded(db, origin, signal);
  const discovery = await latestJob(db, origin, 'discovery', 'done');
  if (!discovery) return seeds;
  const rows = await discoveredRows(db, discovery);
  for (const file of llmsFiles(rows)) for (const url of file.links) seeds.push({ url, source: 'llms', preferMarkdown: true });
  const planned = await planFor(db, startUrl);
  const fromPlan =
    planned?.state === 'done' && planned.discoveryJobId === discovery.id && planned.sitemapUrls !== undefined
    // A list the plan cut short of what this crawl wants is fetched again, whole enough.
    && (planned.sitemapUrls.length >= maxSitemapUrls || planned.sitemapUrls.length < (planned.sitemapLimit ?? Infinity));
  const urls = fromPlan ? (planned.sitemapUrls ?? []).slice(0, maxSitemapUrls) : await sitemapPageUrls(rows, startUrl, fetchFn, maxSitemapUrls);
  for (const url of urls) seeds.push({ url, source: 'sitemap', preferMarkdown: false });
  return seeds;
}

/** The rows a finished discovery wrote. */
export function discoveredRows(db: Store, discovery: DiscoveryJob): Promise<DiscoveredFileRecord[]> {
  return findingsOfRun(db, discovery.id);
}

/** The llms.txt-family files a discovery found, each with its H1 and every URL it links. */
export function llmsFiles(rows: DiscoveredFileRecord[]): Array<{ url: string; title?: string; links: string[] }> {
  const files = [];
  for (const row of rows) {
    if (row.status !== 'found' || !row.text || !(row.kind === 'llms' || row.kind === 'well-known')) continue;
    const parsed = parseLlmsTxt(row.text, row.url);
    const links = [...parsed.links, ...parsed.detailLinks].map((link) => link.url);
    // Where the file was served from (after a same-site redirect) is the folder it covers.
    files.push({ url: row.finalUrl ?? row.url, links, ...(parsed.title ? { title: parsed.title } : {}) });
  }
  return files;
}

/**
 * The page URLs the discovery's root sitemaps list, fetched with their indexes' children (same
 * site only, guarded, cookies only to the site), at most `maxUrls`.
 */
export async function sitemapPageUrls(rows: DiscoveredFileRecord[], startUrl: string, fetchFn: typeof fetch, maxUrls: number): Promise<string[]> {
  const roots = rows.filter((r) => r.kind === 'sitemap' && r.status === 'found' && r.depth === 0).map((r) => r.url);
  if (!roots.length) return [];
  const host = new URL(startUrl).hostname;
  const { urls } = await crawlSitemaps(roots, {
    fetch: fetchFn,
    maxUrls,
    allowHost: (h) => isSameSite(h, host),
    guard: createNetworkGuard(startUrl),
    credentials: (url) => credentialsFor(url, startUrl),
  });
  return urls;
}

/** How long a crawl waits for the site's discovery: it takes well under a second on most sites. */
const DISCOVERY_WAIT_MS = 15_000;
const DISCOVERY_POLL_MS = 100;

/**
 * Waits while the site's discovery is still running (the panel starts one when it opens, and a
 * quick Generate click can come before it ends): its llms.txt files and sitemaps are the seeds,
 * and a crawl that started without them found only what the start page links to. Bounded, and a
 * cancel stops the wait; a discovery that ends failed or never ends leaves just the start page.
 */
export async function discoveryEnded(db: Store, origin: string, signal?: AbortSignal): Promise<void> {
  const until = Date.now() + DISCOVERY_WAIT_MS;
  while (!signal?.aborted && Date.now() < until && (await latestJob(db, origin, 'discovery'))?.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, DISCOVERY_POLL_MS));
  }
}
