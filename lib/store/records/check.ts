/**
 * The stored shape of an agent-readiness report (lib/check/ makes it; a check job keeps it): in the
 * store so the schema depends on nothing above it. lib/check/types.ts re-exports every name.
 */

/** Every check, in the order the report lists them: by category, as the score groups them (score.ts). */
export const CHECK_IDS = ['llms-txt', 'size', 'links', 'links-markdown', 'descriptions', 'describedby', 'directive-html', 'directive-md', 'alternate', 'twins', 'accept', 'rendering', 'page-size-md', 'page-size-html', 'page-size-transfer', 'single-fetch', 'content-start', 'tabs', 'section-headers', 'fences', 'link-portability', 'embedded-data', 'not-found', 'redirects', 'coverage', 'parity', 'cache', 'auth-gate', 'auth-alternative', 'bot-protection', 'robots'] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** AFDocs' categories (afdocs 0.22.2); lib/check/afdocs.ts lists them with their names. */
export type CategoryId = 'content-discoverability' | 'markdown-availability' | 'page-size' | 'content-structure' | 'url-stability' | 'observability' | 'authentication';

/** Every AFDocs check (afdocs 0.22.2); lib/check/afdocs.ts weighs each, and its table must name exactly these. */
export type AfdocsId =
  | 'llms-txt-exists'
  | 'llms-txt-valid'
  | 'llms-txt-size'
  | 'llms-txt-links-resolve'
  | 'llms-txt-links-markdown'
  | 'llms-txt-directive-html'
  | 'llms-txt-directive-md'
  | 'markdown-url-support'
  | 'content-negotiation'
  | 'rendering-strategy'
  | 'page-size-markdown'
  | 'page-size-html'
  | 'page-size-transfer'
  | 'single-fetch-completeness'
  | 'content-start-position'
  | 'tabbed-content-serialization'
  | 'section-header-quality'
  | 'markdown-code-fence-validity'
  | 'markdown-link-portability'
  | 'embedded-data-serialization'
  | 'http-status-codes'
  | 'redirect-behavior'
  | 'llms-txt-coverage'
  | 'markdown-content-parity'
  | 'cache-header-hygiene'
  | 'auth-gate-detection'
  | 'auth-alternative-access'
  | 'bot-protection-interference';

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

/**
 * `pass`: nothing but advice. `warn`: something is lost (a warning). `fail`: agents miss or misread
 * the site (an error, or a check that finds nothing of what it looks for). `na`: nothing to look at
 * (no twins, so no parity). The same three grades AFDocs gives, so the two can be compared.
 */
export type CheckStatus = Grade | 'na';
export type Grade = 'pass' | 'warn' | 'fail';

export interface CheckResult {
  id: CheckId;
  title: string;
  status: CheckStatus;
  /** One line on what was looked at and what was seen ("8 pages sampled; 1 without"). */
  summary: string;
  findings: CheckFinding[];
  /**
   * The share of the check earned, 0 to 1, for the score (score.ts): pages that pass over pages
   * looked at, for the checks that look at several. Absent: from the status alone.
   */
  proportion?: number;
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
  /** The 0–100 score, overall and per category, weighted as AFDocs weighs its checks (score.ts); absent on reports stored before scores. */
  score?: ScoreReport;
  ms: number;
}

export interface ScoredItem {
  check: CheckId;
  afdocs: AfdocsId;
  grade: Grade;
  /** Share earned, 0 to 1. */
  proportion: number;
  weight: number;
  /** Weight multiplier from the checks this one depends on (1 when none applies). */
  coefficient: number;
}

export interface CategoryScore {
  id: CategoryId;
  name: string;
  /** 0–100; null when none of its checks applied. */
  score: number | null;
  /** Scout checks in the category, in report order. */
  checks: CheckId[];
}

export interface ScoreReport {
  overall: number;
  /** A+ (100), A (90+), B (80+), C (70+), D (60+), F. */
  grade: string;
  categories: CategoryScore[];
  items: ScoredItem[];
  /** Why the score is lower than its checks earn. */
  cap?: { cap: number; reason: string };
}
