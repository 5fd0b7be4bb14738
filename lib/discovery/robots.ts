/**
 * robots.txt for discovery and crawling: Sitemap lines, Allow/Disallow and Crawl-delay.
 *
 * Matching is done by `robots-parser` (Google's longest-match algorithm, RFC 9309: `*` and `$`
 * wildcards, the longest matching rule wins, Allow wins a tie). This module only adds what that
 * package leaves out: relative Sitemap lines resolved, non-web sitemap URLs dropped, a boolean
 * answer for every URL, and a rule count for display.
 */
import robotsParser from 'robots-parser';

/** Our product token in robots.txt `User-agent:` lines (matched case-insensitively). */
export const SCOUT_USER_AGENT = 'llms-txt-scout';

/** What a robots.txt file says, in the shape discovery and the crawler ask for it. */
export interface RobotsInfo {
  /** Absolute http(s) URLs from `Sitemap:` lines, resolved against the robots URL, deduped, in file order. */
  sitemaps: string[];
  /**
   * Whether `url` may be crawled by `userAgent` (default {@link SCOUT_USER_AGENT}). The group for
   * that token wins; the `*` group applies only when no group names it. A relative `url` is taken
   * against the robots URL. URLs on another origin (and unparsable ones) are not governed by this
   * file, so they are allowed: ask that origin's robots.txt instead.
   */
  isAllowed(url: string, userAgent?: string): boolean;
  /** `Crawl-delay` of the group that applies to `userAgent`, in seconds; undefined when absent or not a number ≥ 0. */
  crawlDelaySeconds(userAgent?: string): number | undefined;
  /** Allow/Disallow lines with a path, inside a group: for display ("12 rules"). */
  ruleCount: number;
  /** User-agent groups (consecutive `User-agent:` lines open one), for display. */
  groupCount: number;
}

/**
 * Parses robots.txt `text` fetched from `robotsUrl`. Never throws: a BOM, CRLF or CR line ends,
 * comments and unknown lines are fine, and garbage (or an HTML page) yields no sitemaps and
 * allows everything, which is what RFC 9309 asks of an unparsable file.
 */
export function parseRobots(robotsUrl: string, text: string): RobotsInfo {
  // String.trim() would drop a BOM on the first line anyway; stripping it here says so explicitly.
  const body = typeof text === 'string' ? text.replace(/^\uFEFF/, '') : '';
  const base = toUrl(robotsUrl);
  const robot = robotsParser(robotsUrl, body);
  const { ruleCount, groupCount } = countRules(body);
  return {
    sitemaps: resolveSitemaps(robotsUrl, robot.getSitemaps()),
    isAllowed: (url, userAgent = SCOUT_USER_AGENT) => {
      // robots-parser resolves relative URLs against a made-up host of its own; resolve them
      // against this file instead, and let a file with no usable URL govern nothing.
      const target = base && toUrl(url, base.href);
      // It answers undefined for another origin: not this file's to refuse.
      return target ? (robot.isAllowed(target.href, userAgent) ?? true) : true;
    },
    crawlDelaySeconds: (userAgent = SCOUT_USER_AGENT) => {
      const delay = robot.getCrawlDelay(userAgent);
      return typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 ? delay : undefined;
    },
    ruleCount,
    groupCount,
  };
}

function resolveSitemaps(robotsUrl: string, raw: string[]): string[] {
  const out = new Set<string>();
  for (const value of raw) {
    // The protocol asks for absolute URLs, but relative ones are common enough to honour.
    // Absolute first, so such a line survives even an unusable robots URL.
    const url = toUrl(value) ?? toUrl(value, robotsUrl);
    if (url && (url.protocol === 'http:' || url.protocol === 'https:')) out.add(url.href);
  }
  return [...out];
}

/** `new URL` without the throw (URL.parse is too new for Node 20.0–20.17). */
function toUrl(value: string, base?: string): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

function countRules(text: string): { ruleCount: number; groupCount: number } {
  let ruleCount = 0;
  let groupCount = 0;
  let inGroup = false;
  let lastWasAgent = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const match = /^\s*([A-Za-z-]+)\s*:\s*([^#]*)/.exec(raw);
    const key = match?.[1]?.toLowerCase();
    if (!key) continue;
    if (key === 'user-agent') {
      if (!lastWasAgent) groupCount++;
      inGroup = true;
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (inGroup && (key === 'allow' || key === 'disallow') && match?.[2]?.trim()) ruleCount++;
  }
  return { ruleCount, groupCount };
}
