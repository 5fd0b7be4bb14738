/** A crawl's settings as stored on its job (lib/crawl/settings.ts clamps and defaults them and re-exports these). */

/** What the user can set for a crawl; stored on the job so a resumed crawl keeps them. */
export interface CrawlSettings {
  maxPages: number;
  /** Link hops from the seeds; 0 = only the seeds. */
  maxDepth: number;
  /**
   * docs = the documentation's boundary (lib/url/boundary.ts); site = registrable domain with
   * subdomains; host = exact host; path = under the start page's folder.
   */
  scope: 'docs' | 'site' | 'host' | 'path';
  include: string[];
  exclude: string[];
  respectRobots: boolean;
  /** Requests in flight per host. */
  perHostConcurrency: number;
  /** Seed from the site's llms.txt links and sitemaps as well as the start page. */
  useSeeds: boolean;
  /**
   * Client-rendered pages (see lib/render/): `auto` renders a page in a background tab when fetch
   * returned an empty shell; `always` renders every HTML page; `never` stores what fetch returned.
   * Absent on jobs made before rendering existed, which means `auto`.
   */
  render?: RenderMode;
  /**
   * Honour robots.txt's Crawl-delay however long (the user lifted the cap for this site); else it
   * is honoured up to DEFAULT_CRAWL_DELAY_CAP_S (host-gate.ts). Absent means capped.
   */
  liftCrawlDelayCap?: boolean;
  /**
   * How many of the site's crawls are kept when this one ends (lib/store/retention.ts): older ones
   * and their rows are deleted. Absent means DEFAULT_KEEP_CRAWLS (2).
   */
  keepCrawls?: number;
}

/** When pages are rendered in a tab of the user's browser. */
export type RenderMode = 'auto' | 'always' | 'never';
