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
import type { CheckId, CheckReport, CheckResult, Grade } from './types';

export const CATEGORIES = [
  { id: 'content-discoverability', name: 'Content discoverability' },
  { id: 'markdown-availability', name: 'Markdown availability' },
  { id: 'page-size', name: 'Page size and truncation risk' },
  { id: 'content-structure', name: 'Content structure' },
  { id: 'url-stability', name: 'URL stability and redirects' },
  { id: 'observability', name: 'Observability and content health' },
  { id: 'authentication', name: 'Authentication and access' },
] as const;
export type CategoryId = (typeof CATEGORIES)[number]['id'];

type Tier = 'critical' | 'high' | 'medium' | 'low';
const TIER_WEIGHT: Record<Tier, number> = { critical: 10, high: 7, medium: 4, low: 2 };

/** Every AFDocs check (afdocs 0.22.2): its category, weight tier and the credit a warn earns. */
export const AFDOCS_CHECKS = {
  'llms-txt-exists': { category: 'content-discoverability', tier: 'critical', warn: 0.5 },
  'llms-txt-valid': { category: 'content-discoverability', tier: 'medium', warn: 0.75 },
  'llms-txt-size': { category: 'content-discoverability', tier: 'high', warn: 0.5 },
  'llms-txt-links-resolve': { category: 'content-discoverability', tier: 'high', warn: 0.75 },
  'llms-txt-links-markdown': { category: 'content-discoverability', tier: 'high', warn: 0.25 },
  'llms-txt-directive-html': { category: 'content-discoverability', tier: 'high', warn: 0.6 },
  'llms-txt-directive-md': { category: 'content-discoverability', tier: 'medium', warn: 0.6 },
  'markdown-url-support': { category: 'markdown-availability', tier: 'high', warn: 0.5 },
  'content-negotiation': { category: 'markdown-availability', tier: 'medium', warn: 0.75 },
  'rendering-strategy': { category: 'page-size', tier: 'critical', warn: 0.5 },
  'page-size-markdown': { category: 'page-size', tier: 'high', warn: 0.5 },
  'page-size-html': { category: 'page-size', tier: 'high', warn: 0.5 },
  'page-size-transfer': { category: 'page-size', tier: 'medium', warn: 0.5 },
  'single-fetch-completeness': { category: 'page-size', tier: 'medium', warn: 0.6 },
  'content-start-position': { category: 'page-size', tier: 'medium', warn: 0.5 },
  'tabbed-content-serialization': { category: 'content-structure', tier: 'medium', warn: 0.5 },
  'section-header-quality': { category: 'content-structure', tier: 'low', warn: 0.5 },
  'markdown-code-fence-validity': { category: 'content-structure', tier: 'medium', warn: 0.5 },
  'markdown-link-portability': { category: 'content-structure', tier: 'medium', warn: 0.6 },
  'embedded-data-serialization': { category: 'content-structure', tier: 'medium', warn: 0.5 },
  'http-status-codes': { category: 'url-stability', tier: 'high', warn: 0.5 },
  'redirect-behavior': { category: 'url-stability', tier: 'medium', warn: 0.6 },
  'llms-txt-coverage': { category: 'observability', tier: 'medium', warn: 0.75 },
  'markdown-content-parity': { category: 'observability', tier: 'medium', warn: 0.75 },
  'cache-header-hygiene': { category: 'observability', tier: 'low', warn: 0.5 },
  'auth-gate-detection': { category: 'authentication', tier: 'critical', warn: 0.5 },
  'auth-alternative-access': { category: 'authentication', tier: 'medium', warn: 0.5 },
  'bot-protection-interference': { category: 'authentication', tier: 'high', warn: 0.5 },
} as const satisfies Record<string, { category: CategoryId; tier: Tier; warn: number }>;
export type AfdocsId = keyof typeof AFDOCS_CHECKS;

/**
 * Scout check → the AFDocs checks it answers for (none: Scout's own), and its category. `llms-txt`
 * answers for two: that a file exists, and that it is valid.
 */
export const AFDOCS_MAP: Record<CheckId, { afdocs: AfdocsId[]; category: CategoryId }> = {
  'llms-txt': { afdocs: ['llms-txt-exists', 'llms-txt-valid'], category: 'content-discoverability' },
  size: { afdocs: ['llms-txt-size'], category: 'content-discoverability' },
  links: { afdocs: ['llms-txt-links-resolve'], category: 'content-discoverability' },
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
  'not-found': { afdocs: ['http-status-codes'], category: 'url-stability' },
  redirects: { afdocs: ['redirect-behavior'], category: 'url-stability' },
  cache: { afdocs: ['cache-header-hygiene'], category: 'observability' },
  'auth-gate': { afdocs: ['auth-gate-detection'], category: 'authentication' },
};

/** A site whose llms.txt is missing scores at most this (AFDocs' cap for its one critical single-resource check). */
export const NO_LLMS_CAP = 59;

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
