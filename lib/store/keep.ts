/** How many crawls of a site are kept (lib/store/retention.ts). Imports nothing, so crawl settings can use it. */
export const DEFAULT_KEEP_CRAWLS = 2;
export const MAX_KEEP_CRAWLS = 50;

/** The number of crawls to keep, clamped to 1…MAX_KEEP_CRAWLS (at least 1: the outputs are built from one). */
export function normalizeKeep(keep: number | undefined): number {
  return keep !== undefined && Number.isFinite(keep) ? Math.min(MAX_KEEP_CRAWLS, Math.max(1, Math.round(keep))) : DEFAULT_KEEP_CRAWLS;
}
