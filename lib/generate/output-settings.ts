/**
 * The user's choices for the files Scout writes: how many characters an llms.txt may have before
 * it is nested, whether to nest at all, and whether full-text files get token-lean links.
 */

import type { OutputSettings } from '../store/records/generate';

/** Stored in a site's curation, so the store holds its shape (lib/store/records/generate.ts). */
export type { OutputSettings };

export const DEFAULT_OUTPUT_SETTINGS: OutputSettings = { budget: 50_000, layout: 'nested', leanLinks: true };

/** Below this a file cannot hold its own head and a few links. */
export const MIN_BUDGET = 2_000;
export const MAX_BUDGET = 10_000_000;

/** Settings with anything missing or out of range replaced by the defaults. */
export function normalizeOutputSettings(input: Partial<OutputSettings> | undefined): OutputSettings {
  const budget = Number(input?.budget);
  return {
    budget: Number.isFinite(budget) ? Math.min(MAX_BUDGET, Math.max(MIN_BUDGET, Math.round(budget))) : DEFAULT_OUTPUT_SETTINGS.budget,
    layout: input?.layout === 'flat' ? 'flat' : 'nested',
    leanLinks: input?.leanLinks ?? DEFAULT_OUTPUT_SETTINGS.leanLinks,
  };
}
