import type { FrontierSource } from '../store/db';
import { isLlmsFileUrl } from '../discovery/parse-llms-txt';
import type { RobotsInfo } from '../discovery/robots';
import { binaryExtensionReason, keyOfNormalized, normalizeParsed } from '../url/normalize';
import type { Scope } from '../url/scope';
import type { NewEntry } from '../store/db';

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
  scope: Scope;
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
 * The link is parsed once: a page with 100,000 links spent ~0.7 s here (Node) when each link was
 * parsed five times over (normalize, scope, binary extension, llms file, robots host), then
 * ~0.4 s with three parses a link and two more per host name in the private-network guard.
 */
export function classifyUrl(raw: string, base: string | undefined, meta: EntryMeta, ctx: ClassifyContext): Classified {
  const normalized = normalizeParsed(raw, base, { keepHashRoute: ctx.hashRoutes });
  if ('skip' in normalized) return null;
  // The parsed URL goes to the checks below: no check parses it again.
  const { parsed } = normalized;
  const url = parsed.href;
  const entry: NewEntry = { url, key: keyOfNormalized(url), depth: meta.depth, source: meta.source };
  if (meta.parentUrl !== undefined) entry.parentUrl = meta.parentUrl;
  if (meta.preferMarkdown !== undefined) entry.preferMarkdown = meta.preferMarkdown;
  const reason =
    ctx.scope(parsed) ??
    binaryExtensionReason(parsed) ??
    // Only a URL that says "llms" somewhere can be an llms file: skip the parse for the rest.
    (LLMS.test(url) && isLlmsFileUrl(url) ? 'An llms file: listed by discovery, not stored as a page' : null) ??
    (ctx.robots(parsed.hostname)?.isAllowed(url) === false ? 'Disallowed by robots.txt' : null);
  if (!reason) return { queue: entry };
  entry.state = 'skipped';
  entry.reason = reason;
  return { skip: entry as NewEntry & { reason: string } };
}

const LLMS = /llms/i;

/**
 * Many found URLs at once: entries to queue, and skipped ones marked with their reason. A URL
 * spelled the same as an earlier one is classified once (the frontier keeps the first sighting
 * anyway): a page repeats its sidebar and header links, and classifying costs a few URL parses.
 */
export function toEntries(items: Array<{ url: string } & EntryMeta>, ctx: ClassifyContext): NewEntry[] {
  const out: NewEntry[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.url)) continue;
    seen.add(item.url);
    const c = classifyUrl(item.url, undefined, item, ctx);
    if (c) out.push('queue' in c ? c.queue : c.skip);
  }
  return out;
}
