/**
 * A check report as text: Markdown for the panel's export (and `scout check --markdown`), plain
 * lines for the terminal, and one line per finding that the panel and the CLI share (the E2E test
 * compares them).
 */
import { pathOf } from './result';
import { AFDOCS_MAP, scoreOf, type ScoreReport } from './score';
import type { CheckFinding, CheckReport, CheckResult } from './types';

const MARK: Record<CheckResult['status'], string> = { pass: 'pass', warn: 'warn', fail: 'FAIL', na: 'n/a' };

/** The evidence of a finding in one short phrase: the URL's path, the line, the figure. */
export function evidenceOf(f: CheckFinding): string {
  return [f.url ? pathOf(f.url) : '', f.line !== undefined ? `line ${f.line}` : '', f.figure ?? ''].filter(Boolean).join(' · ');
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** "Score 81/100 (B)", with the cap when one applies. */
export function scoreLine(score: ScoreReport): string {
  return `Score ${score.overall}/100 (${score.grade})${score.cap ? `, capped at ${score.cap.cap}: ${score.cap.reason}` : ''}`;
}

/** "Content discoverability 72 · Markdown availability 100 · …": the categories with a score. */
export function categoryLine(score: ScoreReport): string {
  return score.categories.filter((c) => c.score !== null).map((c) => `${c.name} ${c.score}`).join(' · ');
}

/** The AFDocs checks a Scout check answers for, or "Scout's own". */
const afdocsOf = (id: CheckReport['checks'][number]['id']) => AFDOCS_MAP[id].afdocs.join(', ') || 'Scout’s own';

/** The report as Markdown: verdict and score, a table of checks by category, then each finding with its fix. */
export function reportMarkdown(report: CheckReport): string {
  const score = scoreOf(report);
  const byId = new Map(report.checks.map((c) => [c.id, c]));
  const lines = [
    `# Agent readiness: ${new URL(report.origin).host}`,
    '',
    `**${report.verdict}.** ${scoreLine(score)}.`,
    '',
    `Checked from ${report.pageUrl} on ${report.date}: ${report.sampled.length} pages sampled, ${report.known} pages known from the sitemap${report.crawled ? ' and the crawl' : ''}.`,
    '',
    '| Check | Result | What was seen | AFDocs check |',
    '|---|---|---|---|',
  ];
  for (const category of score.categories) {
    const checks = category.checks.flatMap((id) => byId.get(id) ?? []);
    if (!checks.length) continue;
    lines.push(`| **${category.name}: ${category.score ?? '–'}** | | | |`);
    for (const c of checks) lines.push(`| ${escapeCell(c.title)} | ${MARK[c.status]} | ${escapeCell(c.summary)} | ${afdocsOf(c.id)} |`);
  }
  lines.push('');
  if (!report.findings.length) return [...lines, 'No findings.', ''].join('\n');
  lines.push('## Findings', '');
  for (const check of report.checks) {
    if (!check.findings.length) continue;
    lines.push(`### ${check.title}`, '');
    for (const f of check.findings) {
      lines.push(`- **${f.severity}** — ${f.message}`);
      const evidence = evidenceOf(f);
      if (evidence) lines.push(`  - Evidence: ${f.url ?? ''}${f.line !== undefined ? ` line ${f.line}` : ''}${f.figure ? ` (${f.figure})` : ''}`);
      for (const more of f.more ?? []) lines.push(`  - Also: ${more}`);
      lines.push(`  - Fix: ${f.fix}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** The report for a terminal: one line per check, its findings under it, the verdict last. */
export function reportLines(report: CheckReport): string[] {
  const score = scoreOf(report);
  const lines: string[] = [scoreLine(score), categoryLine(score)];
  for (const check of report.checks) {
    lines.push(`${MARK[check.status].padEnd(4)} ${check.title}: ${check.summary}`);
    for (const f of check.findings) {
      lines.push(`  ${f.severity.padEnd(7)} ${f.code}: ${f.message}`);
      const evidence = evidenceOf(f);
      if (evidence) lines.push(`          evidence: ${evidence}`);
      lines.push(`          fix: ${f.fix}`);
    }
  }
  lines.push(report.verdict);
  return lines;
}
