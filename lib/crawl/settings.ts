import { normalizeKeep } from '../store/keep';
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
export const RENDER_MODES: readonly RenderMode[] = ['auto', 'always', 'never'];

export const DEFAULT_SETTINGS: CrawlSettings = {
  maxPages: 500,
  maxDepth: 5,
  scope: 'docs',
  include: [],
  exclude: [],
  respectRobots: true,
  perHostConcurrency: 4,
  useSeeds: true,
  render: 'auto',
};

export const MAX_PAGES_LIMIT = 10_000;

/** Settings clamped to their allowed ranges, with anything missing filled from the defaults. */
export function normalizeSettings(input: Partial<CrawlSettings>): CrawlSettings {
  const s = { ...DEFAULT_SETTINGS, ...input };
  const int = (v: number, min: number, max: number, fallback: number) => (Number.isFinite(v) ? Math.min(max, Math.max(min, Math.round(v))) : fallback);
  return {
    ...s,
    maxPages: int(s.maxPages, 1, MAX_PAGES_LIMIT, DEFAULT_SETTINGS.maxPages),
    maxDepth: int(s.maxDepth, 0, 50, DEFAULT_SETTINGS.maxDepth),
    perHostConcurrency: int(s.perHostConcurrency, 1, 16, DEFAULT_SETTINGS.perHostConcurrency),
    render: RENDER_MODES.includes(s.render ?? 'auto') ? s.render : DEFAULT_SETTINGS.render,
    include: s.include.map((p) => p.trim()).filter(Boolean),
    exclude: s.exclude.map((p) => p.trim()).filter(Boolean),
    ...(s.keepCrawls !== undefined ? { keepCrawls: normalizeKeep(s.keepCrawls) } : {}),
  };
}
