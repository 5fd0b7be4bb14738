/**
 * What a site publishes for agents, checked from one page: discovery (lib/discovery/) finds every
 * llms.txt-family file, robots.txt and sitemap, as the Discovered tab lists them, and each llms.txt
 * found (probed, declared by the page, or linked from another) is linted as the file viewer does,
 * with its size against the agent budget (lint.ts). The agent-readiness report beside it is the
 * side panel's Check view, from the same engine (lib/check/run.ts) and the same discovery run.
 * The command line's `scout check`.
 */
import { runSiteCheck } from '../check/run';
import type { CheckReport } from '../check/types';
import type { DiscoveredKind } from '../discovery/types';
import type { DiscoveryResult, DiscoverySource, DiscoverySummary } from '../discovery/types';
import { guardedFetch } from '../fetch/guarded-fetch';
import { createNetworkGuard } from '../url/private-network';
import { lintLlmsTxt, type LintReport } from './lint';

export interface CheckedFile {
  url: string;
  kind: DiscoveredKind;
  status: DiscoveryResult['status'];
  sources: DiscoverySource[];
  reason?: string;
  httpStatus?: number;
  /** The llms.txt that covers the page (the one it declares, else the most specific above it). */
  best: boolean;
  parentUrl?: string;
  bytes?: number;
  /** llms.txt files found: the linter's report. */
  lint?: LintReport;
  /** Sitemaps: URLs listed; robots.txt: sitemaps it names. */
  urlCount?: number;
}

export interface SiteCheck {
  pageUrl: string;
  bestUrl?: string;
  /** Every location looked at, llms files first (found before missing), then robots.txt and sitemaps. */
  files: CheckedFile[];
  /** llms.txt (index) files found. */
  llmsFound: number;
  /** Of those, the ones with errors. */
  withErrors: number;
  errors: number;
  warnings: number;
  /** Linked llms files left unfetched because discovery's cap was reached. */
  overCap: number;
  ms: number;
  /** The Check view's report: every check, its findings, the verdict. */
  report: CheckReport;
}

const ORDER: Record<DiscoveredKind, number> = { llms: 0, 'well-known': 1, 'llms-full': 2, markdown: 3, robots: 4, sitemap: 5 };
const STATUS: Record<DiscoveryResult['status'], number> = { found: 0, error: 1, 'not-followed': 2, missing: 3 };

/** True for the files the llms.txt rules apply to (llms-full.txt is page content, not an index). */
export const isIndexKind = (kind: DiscoveredKind): boolean => kind === 'llms' || kind === 'well-known';

/**
 * Runs discovery from `pageUrl`, lints every llms.txt it finds and runs the agent-readiness checks
 * (with the pages a crawl stored, when given). Never throws for a site's faults.
 */
export async function checkSite(options: { pageUrl: string; fetch: typeof fetch; onProgress?: (message: string) => void; crawledUrls?: string[]; now?: Date }): Promise<SiteCheck> {
  // Whatever fetch the caller brings, nothing reaches the user's machine or network from a public page.
  const { report, inputs } = await runSiteCheck({ ...options, fetch: guardedFetch(options.fetch, createNetworkGuard(options.pageUrl)) });
  return { ...filesOf(options.pageUrl, inputs.discovery), report };
}

/** Every location discovery looked at, the llms.txt files linted. */
export function filesOf(pageUrl: string, summary: DiscoverySummary): Omit<SiteCheck, 'report'> {
  const files = summary.results
    .map((r): CheckedFile => ({
      url: r.url,
      kind: r.kind,
      status: r.status,
      sources: r.sources,
      best: r.url === summary.bestUrl,
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.httpStatus !== undefined ? { httpStatus: r.httpStatus } : {}),
      ...(r.parentUrl ? { parentUrl: r.parentUrl } : {}),
      ...(r.bytes !== undefined ? { bytes: r.bytes } : {}),
      ...(r.urlCount !== undefined ? { urlCount: r.urlCount } : {}),
      ...(r.status === 'found' && isIndexKind(r.kind) && r.text !== undefined ? { lint: lintLlmsTxt(r.text, r.url) } : {}),
    }))
    .sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || STATUS[a.status] - STATUS[b.status] || Number(b.best) - Number(a.best));
  const linted = files.flatMap((f) => (f.lint ? [f.lint] : []));
  return {
    pageUrl,
    ...(summary.bestUrl ? { bestUrl: summary.bestUrl } : {}),
    files,
    llmsFound: linted.length,
    withErrors: linted.filter((l) => l.errors > 0).length,
    errors: linted.reduce((sum, l) => sum + l.errors, 0),
    warnings: linted.reduce((sum, l) => sum + l.warnings, 0),
    overCap: summary.overCap,
    ms: summary.ms,
  };
}
