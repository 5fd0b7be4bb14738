/**
 * The agent-readiness check of a site (#19): what the side panel's Check view shows and what
 * `scout check` prints. Both run the same checks (run.ts) on the same inputs, so a site's CI and
 * its owner see the same findings.
 */

/** Every check, in the order the report lists them. */
export const CHECK_IDS = ['llms-txt', 'size', 'links', 'descriptions', 'coverage', 'describedby', 'alternate', 'twins', 'parity', 'accept', 'robots'] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** What each check looks at, in a few words (the report's row titles). */
export const CHECK_TITLES: Record<CheckId, string> = {
  'llms-txt': 'llms.txt published and valid',
  size: 'Size within what an agent reads whole',
  links: 'llms.txt links answer',
  descriptions: 'Entries have descriptions',
  coverage: 'Every page is in an llms.txt',
  describedby: 'Pages link their llms.txt (rel=describedby)',
  alternate: 'Pages link their Markdown (rel=alternate)',
  twins: 'Markdown twins (.md) published',
  parity: 'Twins match their pages',
  accept: 'Accept: text/markdown honoured',
  robots: 'robots.txt lets agents read the llms files',
};

/**
 * Errors make agents miss or misread the site; warnings lose something; infos are advice and
 * never fail a check.
 */
export type Severity = 'error' | 'warning' | 'info';

/** One problem, with what shows it and what to do about it. */
export interface CheckFinding {
  check: CheckId;
  severity: Severity;
  /** Stable, for tests and tools (`over-hard-limit`, `missing-describedby`…). */
  code: string;
  /** What is wrong, in plain words. */
  message: string;
  /** The evidence: the file or page, the line, the figure. */
  url?: string;
  line?: number;
  figure?: string;
  /** More URLs that show the same problem (a whole section's pages), at most a few. */
  more?: string[];
  /** What to change, in one sentence. */
  fix: string;
}

/** `pass`: nothing but advice. `fail`: an error or warning. `na`: nothing to look at (no twins, so no parity). */
export type CheckStatus = 'pass' | 'fail' | 'na';

export interface CheckResult {
  id: CheckId;
  title: string;
  status: CheckStatus;
  /** One line on what was looked at and what was seen ("8 pages sampled; 1 without"). */
  summary: string;
  findings: CheckFinding[];
}

export interface CheckReport {
  pageUrl: string;
  origin: string;
  /** ISO date (day) of the check: the Markdown export carries it. */
  date: string;
  /** Pages whose HTML, links and twins were checked. */
  sampled: string[];
  /** Pages known from the sitemap and the crawl, for coverage. */
  known: number;
  /** Whether a crawl's pages were included. */
  crawled: number;
  checks: CheckResult[];
  passed: number;
  /** Checks that apply (not `na`). */
  applicable: number;
  /** "Agents can use this site: 7 of 9 checks pass". */
  verdict: string;
  /** Findings of every check, in report order. */
  findings: CheckFinding[];
  ms: number;
}
