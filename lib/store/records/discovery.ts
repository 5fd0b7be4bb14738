/** What discovery found, as stored per location (lib/discovery/types.ts re-exports these). */

/** What a discovered location is: an llms.txt-family file, a sitemap, robots.txt or a .well-known file. */
export type DiscoveredKind = 'llms' | 'llms-full' | 'markdown' | 'sitemap' | 'robots' | 'well-known';

/** How discovery came to a file; a file reached several ways lists each. */
export type DiscoverySource =
  | 'probe'
  | 'well-known'
  | 'describedby'
  | 'link-header'
  | 'page-markdown'
  | 'robots'
  | 'sitemap'
  | 'linked';

/** One location discovery looked at, found or not, with the facts the side panel shows. */
export interface DiscoveryResult {
  url: string;
  kind: DiscoveredKind;
  sources: DiscoverySource[];
  status: 'found' | 'missing' | 'error' | 'not-followed';
  /** Why it is missing, failed or was not followed, in plain words; for a found file, what a limit cut. */
  reason?: string;
  /** The llms file or sitemap that linked here. */
  parentUrl?: string;
  /** Link hops from a directly probed file (0 for probes). */
  depth: number;
  /** Where the answer came from, when a redirect took the request elsewhere (absent otherwise). */
  finalUrl?: string;
  httpStatus?: number;
  contentType?: string;
  bytes?: number;
  truncated?: boolean;
  /** The cut was time, not size: the server stalled, or was still sending at the time limit. */
  cutByTime?: boolean;
  ms?: number;
  text?: string;
  title?: string;
  sectionCount?: number;
  linkCount?: number;
  warningCount?: number;
  /** Page URLs listed, for sitemaps. */
  urlCount?: number;
  /** The most specific llms.txt for the page. */
  best?: boolean;
}
