/**
 * The check's 0–100 score, overall and per category, weighted the way AFDocs (npm `afdocs`, the
 * Agent-Friendly Documentation Spec checker) weighs its checks, so a site owner can compare the two
 * numbers. Each Scout check maps to the AFDocs check that looks at the same thing (AFDOCS_MAP); a
 * check earns its weight times the share it passes (1 for pass, the check's warn coefficient for
 * warn, 0 for fail, or the share of pages that pass), times a coefficient where a check only
 * matters if another works (AFDocs' "discovery" and "index truncation" coefficients). A site with
 * no llms.txt is capped at 59. Scout's own checks (describedby, alternate, descriptions, robots)
 * are listed in their category but do not move the number: the score stays comparable with
 * AFDocs'. docs/check.md has the tables.
 */
import { HARD_LIMIT_CHARS } from './budget';
import type { CategoryScore, CheckId, CheckReport, CheckResult, Grade, ScoredItem, ScoreReport } from './types';

import { AFDOCS_CHECKS, type AfdocsId, CATEGORIES, type CategoryId, TIER_WEIGHT } from './afdocs';

export { AFDOCS_CHECKS, CATEGORIES };
export type { AfdocsId, CategoryId };

/**
 * Scout check → the AFDocs checks it answers for (none: Scout's own), and its category. `llms-txt`
 * answers for two: that a file exists, and that it is valid.
 */
export const AFDOCS_MAP: Record<CheckId, { afdocs: AfdocsId[]; category: CategoryId }> = {
  'llms-txt': { afdocs: ['llms-txt-exists', 'llms-txt-valid'], category: 'content-discoverability' },
  size: { afdocs: ['llms-txt-size'], category: 'content-discoverability' },
  links: { afdocs: ['llms-txt-links-resolve'], category: 'content-discoverability' },
  'links-markdown': { afdocs: ['llms-txt-links-markdown'], category: 'content-discoverability' },
  descriptions: { afdocs: [], category: 'content-discoverability' },
  coverage: { afdocs: ['llms-txt-coverage'], category: 'observability' },
  describedby: { afdocs: [], category: 'content-discoverability' },
  'directive-html': { afdocs: ['llms-txt-directive-html'], category: 'content-discoverability' },
  'directive-md': { afdocs: ['llms-txt-directive-md'], category: 'content-discoverability' },
  alternate: { afdocs: [], category: 'markdown-availability' },
  twins: { afdocs: ['markdown-url-support'], category: 'markdown-availability' },
  parity: { afdocs: ['markdown-content-parity'], category: 'observability' },
  accept: { afdocs: ['content-negotiation'], category: 'markdown-availability' },
  robots: { afdocs: [], category: 'authentication' },
  fences: { afdocs: ['markdown-code-fence-validity'], category: 'content-structure' },
  'page-size-md': { afdocs: ['page-size-markdown'], category: 'page-size' },
  'link-portability': { afdocs: ['markdown-link-portability'], category: 'content-structure' },
  'page-size-html': { afdocs: ['page-size-html'], category: 'page-size' },
  rendering: { afdocs: ['rendering-strategy'], category: 'page-size' },
  'page-size-transfer': { afdocs: ['page-size-transfer'], category: 'page-size' },
  'single-fetch': { afdocs: ['single-fetch-completeness'], category: 'page-size' },
  'content-start': { afdocs: ['content-start-position'], category: 'page-size' },
  tabs: { afdocs: ['tabbed-content-serialization'], category: 'content-structure' },
  'section-headers': { afdocs: ['section-header-quality'], category: 'content-structure' },
  'embedded-data': { afdocs: ['embedded-data-serialization'], category: 'content-structure' },
  'not-found': { afdocs: ['http-status-codes'], category: 'url-stability' },
  redirects: { afdocs: ['redirect-behavior'], category: 'url-stability' },
  cache: { afdocs: ['cache-header-hygiene'], category: 'observability' },
  'auth-gate': { afdocs: ['auth-gate-detection'], category: 'authentication' },
  'auth-alternative': { afdocs: ['auth-alternative-access'], category: 'authentication' },
  'bot-protection': { afdocs: ['bot-protection-interference'], category: 'authentication' },
};

/** A site whose llms.txt is missing scores at most this (AFDocs' cap for its one critical single-resource check). */
export const NO_LLMS_CAP = 59;

export type { CategoryScore, ScoreReport, ScoredItem } from './types';

export function gradeOf(score: number): string {
  return score >= 100 ? 'A+' : score >= 90 ? 'A' : score >= 80 ? 'B' : score >= 70 ? 'C' : score >= 60 ? 'D' : 'F';
}

const credit = (grade: Grade, warn: number) => (grade === 'pass' ? 1 : grade === 'warn' ? warn : 0);

/** The AFDocs items a Scout check's result stands for (none when it had nothing to look at). */
function itemsOf(result: CheckResult): Array<Omit<ScoredItem, 'coefficient'>> {
  const status = result.status;
  if (status === 'na') return [];
  const item = (afdocs: AfdocsId, grade: Grade, proportion?: number) => {
    const def = AFDOCS_CHECKS[afdocs];
    return { check: result.id, afdocs, grade, proportion: proportion ?? credit(grade, def.warn), weight: TIER_WEIGHT[def.tier] };
  };
  if (result.id === 'llms-txt') {
    const missing = result.findings.some((f) => f.code === 'no-llms-txt');
    return missing ? [item('llms-txt-exists', 'fail')] : [item('llms-txt-exists', 'pass'), item('llms-txt-valid', status)];
  }
  return AFDOCS_MAP[result.id].afdocs.map((id) => item(id, status, result.proportion));
}

// The Markdown path matters only as far as agents can find it: negotiation, then the directive, then llms.txt links to .md.
const DISCOVERY: ReadonlySet<AfdocsId> = new Set(['page-size-markdown', 'markdown-code-fence-validity', 'markdown-content-parity', 'single-fetch-completeness', 'markdown-link-portability']);
// Past the size agents read, the rest of an llms.txt is not seen, and neither is its quality.
const TRUNCATION: ReadonlySet<AfdocsId> = new Set(['llms-txt-links-resolve', 'llms-txt-valid', 'llms-txt-coverage', 'llms-txt-links-markdown']);

function coefficientOf(afdocs: AfdocsId, grades: Map<AfdocsId, Grade>, largestLlms: number): number {
  if (DISCOVERY.has(afdocs)) {
    if (grades.get('content-negotiation') === 'pass') return 1;
    if (grades.get('llms-txt-directive-html') === 'pass' || grades.get('llms-txt-directive-md') === 'pass') return 0.8;
    if (grades.get('llms-txt-links-markdown') === 'pass') return 0.5;
    return 0;
  }
  if (TRUNCATION.has(afdocs)) {
    const size = grades.get('llms-txt-size');
    if (size === 'warn') return 0.8;
    if (size === 'fail') return largestLlms > 0 ? Math.min(1, HARD_LIMIT_CHARS / largestLlms) : 0.5;
  }
  return 1;
}

const percentOf = (items: ScoredItem[]): number | null => {
  const max = items.reduce((sum, i) => sum + i.weight * i.coefficient, 0);
  if (!items.length) return null;
  return max > 0 ? Math.round((items.reduce((sum, i) => sum + i.proportion * i.weight * i.coefficient, 0) / max) * 100) : 0;
};

/** The score of a report's checks. `largestLlms`: characters of the largest llms.txt, for the truncation coefficient. */
export function scoreChecks(checks: CheckResult[], largestLlms = 0): ScoreReport {
  const raw = checks.flatMap(itemsOf);
  const grades = new Map(raw.map((i) => [i.afdocs, i.grade]));
  const items = raw.map((i) => ({ ...i, coefficient: coefficientOf(i.afdocs, grades, largestLlms) }));
  const uncapped = percentOf(items) ?? 0;
  // AFDocs' caps, the lowest winning: no llms.txt; most pages behind a login.
  const gate = items.find((i) => i.afdocs === 'auth-gate-detection');
  const caps = [
    ...(grades.get('llms-txt-exists') === 'fail' ? [{ cap: NO_LLMS_CAP, reason: 'No llms.txt: agents lose their index of the site.' }] : []),
    ...(gate && gate.proportion <= 0.25 ? [{ cap: 39, reason: 'Three in four pages or more need a login agents do not have.' }] : gate && gate.proportion <= 0.5 ? [{ cap: 59, reason: 'Half the pages or more need a login agents do not have.' }] : []),
  ].sort((a, b) => a.cap - b.cap);
  const cap = caps[0];
  const overall = cap ? Math.min(uncapped, cap.cap) : uncapped;
  const categories = CATEGORIES.map((c): CategoryScore => ({
    id: c.id, name: c.name,
    score: percentOf(items.filter((i) => AFDOCS_CHECKS[i.afdocs].category === c.id)),
    checks: checks.filter((r) => AFDOCS_MAP[r.id].category === c.id).map((r) => r.id),
  }));
  return { overall, grade: gradeOf(overall), categories, items, ...(cap && cap.cap < uncapped ? { cap } : {}) };
}

/** The score of a stored report; reports made before scores were added are scored from their checks. */
export const scoreOf = (report: CheckReport): ScoreReport => report.score ?? scoreChecks(report.checks);
