import type { ScoutDb } from '../db';
import { parseLlmsTxt } from '../discovery/parse-llms-txt';
import { crawlSitemaps } from '../discovery/sitemap';
import { credentialsFor } from '../url/credentials';
import { createNetworkGuard } from '../url/private-network';
import { isSameSite } from '../url/site';
import { latestJob } from '../queries';

export interface Seed {
  url: string;
  source: 'start' | 'llms' | 'sitemap';
  /** Pages an llms.txt lists get their Markdown twin tried first. */
  preferMarkdown: boolean;
}

/**
 * Depth-0 URLs for a crawl: the start page, every link in the llms files the
 * latest discovery found for the site, and the URLs its sitemaps list (fetched
 * again here: discovery keeps counts, not the lists). Seeds only add to BFS.
 * Every seed still goes through the crawl's scope (and its private-network guard)
 * when classified; the sitemaps fetched here are guarded before any request.
 */
export async function collectSeeds(db: ScoutDb, startUrl: string, fetchFn: typeof fetch, maxSitemapUrls: number, signal?: AbortSignal): Promise<Seed[]> {
  const origin = new URL(startUrl).origin;
  const seeds: Seed[] = [{ url: startUrl, source: 'start', preferMarkdown: false }];
  await discoveryEnded(db, origin, signal);
  const discovery = await latestJob(db, origin, 'discovery', 'done');
  if (!discovery) return seeds;
  const rows = await db.discovered.where('jobId').equals(discovery.id).toArray();
  for (const row of rows) {
    if (row.status !== 'found' || !row.text || !(row.kind === 'llms' || row.kind === 'well-known')) continue;
    const parsed = parseLlmsTxt(row.text, row.url);
    for (const link of [...parsed.links, ...parsed.detailLinks]) seeds.push({ url: link.url, source: 'llms', preferMarkdown: true });
  }
  const roots = rows.filter((r) => r.kind === 'sitemap' && r.status === 'found' && r.depth === 0).map((r) => r.url);
  if (roots.length) {
    const host = new URL(startUrl).hostname;
    const guard = createNetworkGuard(startUrl);
    const { urls } = await crawlSitemaps(roots, {
      fetch: fetchFn,
      maxUrls: maxSitemapUrls,
      allowHost: (h) => isSameSite(h, host),
      guard,
      credentials: (url) => credentialsFor(url, startUrl),
    });
    for (const url of urls) seeds.push({ url, source: 'sitemap', preferMarkdown: false });
  }
  return seeds;
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
async function discoveryEnded(db: ScoutDb, origin: string, signal?: AbortSignal): Promise<void> {
  const until = Date.now() + DISCOVERY_WAIT_MS;
  while (!signal?.aborted && Date.now() < until && (await latestJob(db, origin, 'discovery'))?.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, DISCOVERY_POLL_MS));
  }
}
