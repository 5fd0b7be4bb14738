import { normalizeKeep } from '../store/keep';
import type { CrawlSettings, RenderMode } from '../store/records/crawl-settings';

/** Stored on the job, so the store holds their shape (lib/store/records/crawl-settings.ts). */
export type { CrawlSettings, RenderMode };

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
