/**
 * A check report as text: Markdown for the panel's export (and `scout check --markdown`), plain
 * lines for the terminal, and one line per finding that the panel and the CLI share (the E2E test
 * compares them).
 */
import { pathOf } from './result';
import type { CheckFinding, CheckReport, CheckResult } from './types';

const MARK: Record<CheckResult['status'], string> = { pass: 'pass', warn: 'warn', fail: 'FAIL', na: 'n/a' };

/** The evidence of a finding in one short phrase: the URL's path, the line, the figure. */
export function evidenceOf(f: CheckFinding): string {
  return [f.url ? pathOf(f.url) : '', f.line !== undefined ? `line ${f.line}` : '', f.figure ?? ''].filter(Boolean).join(' · ');
}

/** "warning describedby missing-describedby /guide/install.html": a finding's identity, for comparing runs. */
export function findingKey(f: CheckFinding): string {
  return `${f.severity} ${f.check} ${f.code} ${f.url ? pathOf(f.url) : '-'}`;
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The report as Markdown: verdict, a table of checks, then each finding with its fix. */
export function reportMarkdown(report: CheckReport): string {
  const lines = [
    `# Agent readiness: ${new URL(report.origin).host}`,
    '',
    `**${report.verdict}.**`,
    '',
    `Checked from ${report.pageUrl} on ${report.date}: ${report.sampled.length} pages sampled, ${report.known} pages known from the sitemap${report.crawled ? ' and the crawl' : ''}.`,
    '',
    '| Check | Result | What was seen |',
    '|---|---|---|',
    ...report.checks.map((c) => `| ${escapeCell(c.title)} | ${MARK[c.status]} | ${escapeCell(c.summary)} |`),
    '',
  ];
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
  const lines: string[] = [];
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
