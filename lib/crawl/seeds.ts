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
export async function collectSeeds(db: ScoutDb, startUrl: string, fetchFn: typeof fetch, maxSitemapUrls: number): Promise<Seed[]> {
  const origin = new URL(startUrl).origin;
  const seeds: Seed[] = [{ url: startUrl, source: 'start', preferMarkdown: false }];
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
