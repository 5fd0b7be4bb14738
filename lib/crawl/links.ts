import type { FrontierSource } from '../db';
import { isLlmsFileUrl } from '../discovery/parse-llms-txt';
import type { RobotsInfo } from '../discovery/robots';
import { binaryExtensionReason, keyOfNormalized, normalizeUrl } from '../url/normalize';
import type { NewEntry } from './frontier';

/** Where a found URL came from. */
export interface EntryMeta {
  depth: number;
  source: FrontierSource;
  parentUrl?: string;
  preferMarkdown?: boolean;
}

/** A found URL sorted into "queue it" or "record it as skipped, with why". */
export type Classified = { queue: NewEntry } | { skip: NewEntry & { reason: string } } | null;

export interface ClassifyContext {
  /**
   * null when in scope, else why not. Built by createScope, which puts the private-network
   * guard first: a link from a public site into the user's network is skipped with that reason.
   */
  scope: (url: string) => string | null;
  /** Robots rules per host, when loaded and respected. */
  robots: (host: string) => RobotsInfo | null | undefined;
  /**
   * The site routes by hash (`#/path`, see lib/render/hash-routing.ts): such routes are pages and
   * keep their fragment. Set once a page shows it (the writer persists it on the job).
   */
  hashRoutes?: boolean;
}

/**
 * Decides what happens to one found URL. Non-web links (mailto:, javascript:…)
 * return null: they are never crawl targets, so not even stored as skipped.
 */
export function classifyUrl(raw: string, base: string | undefined, meta: EntryMeta, ctx: ClassifyContext): Classified {
  const normalized = normalizeUrl(raw, base, { keepHashRoute: ctx.hashRoutes });
  if ('skip' in normalized) return null;
  const url = normalized.url;
  const entry: NewEntry = { url, key: keyOfNormalized(url), ...meta };
  const reason =
    ctx.scope(url) ??
    binaryExtensionReason(url) ??
    (isLlmsFileUrl(url) ? 'An llms file: listed by discovery, not stored as a page' : null) ??
    (ctx.robots(new URL(url).hostname)?.isAllowed(url) === false ? 'Disallowed by robots.txt' : null);
  return reason ? { skip: { ...entry, reason } } : { queue: entry };
}

/**
 * Many found URLs at once: entries to queue, and skipped ones marked with their reason. A URL
 * spelled the same as an earlier one is classified once (the frontier keeps the first sighting
 * anyway): a page repeats its sidebar and header links, and classifying costs a few URL parses.
 */
export function toEntries(items: Array<{ url: string } & EntryMeta>, ctx: ClassifyContext): NewEntry[] {
  const out: NewEntry[] = [];
  const seen = new Set<string>();
  for (const { url, ...meta } of items) {
    if (seen.has(url)) continue;
    seen.add(url);
    const c = classifyUrl(url, undefined, meta, ctx);
    if (c && 'queue' in c) out.push(c.queue);
    else if (c) out.push({ ...c.skip, state: 'skipped' });
  }
  return out;
}
