/**
 * Page sizes against what an agent's tools read whole (AFDocs' page-size-markdown and
 * page-size-html): a page over 50,000 characters risks being cut, over 100,000 it is. Measured on
 * what the check fetched already: each sampled page's twin, and each page as Markdown.
 */
import { convertHtml } from '../convert/convert-page';
import { linkedomAdapter } from '../convert/dom';
import { HARD_LIMIT_CHARS, RECOMMENDED_CHARS } from './budget';
import type { CheckInputs } from './gather';
import { count, n, pathOf, resultOf } from './result';
import type { CheckFinding, CheckId, CheckResult, Grade } from './types';

const gradeOf = (chars: number): Grade => (chars < RECOMMENDED_CHARS ? 'pass' : chars <= HARD_LIMIT_CHARS ? 'warn' : 'fail');

function sizeResult(id: CheckId, sized: Array<{ url: string; chars: number }>, what: string): CheckResult {
  const grades = sized.map((s) => ({ ...s, grade: gradeOf(s.chars) }));
  const findings: CheckFinding[] = grades.filter((g) => g.grade !== 'pass').map((g) => ({
    check: id, severity: 'warning', code: g.grade === 'fail' ? 'page-over-hard-limit' : 'page-over-budget', url: g.url, figure: `${n(g.chars)} characters`,
    message: g.grade === 'fail'
      ? `${pathOf(g.url)} is ${n(g.chars)} characters as Markdown: agents' tools cut near ${n(HARD_LIMIT_CHARS)}, so its end is lost.`
      : `${pathOf(g.url)} is ${n(g.chars)} characters as Markdown, over the ${n(RECOMMENDED_CHARS)} an agent reads whole.`,
    fix: 'Split the page into pages per topic, each under 50,000 characters.',
  }));
  const grade: Grade = grades.some((g) => g.grade === 'fail') ? 'fail' : grades.some((g) => g.grade === 'warn') ? 'warn' : 'pass';
  const proportion = grades.reduce((sum, g) => sum + (g.grade === 'pass' ? 1 : g.grade === 'warn' ? 0.5 : 0), 0) / grades.length;
  const largest = Math.max(...sized.map((s) => s.chars));
  return resultOf(id, `${count(sized.length, what)} measured; the largest is ${n(largest)} characters (budget ${n(RECOMMENDED_CHARS)}).`, findings, false, grade, proportion);
}

/** Each sampled page's twin, as an agent that reads Markdown gets it. */
export function checkPageSizeMd(inputs: CheckInputs): CheckResult {
  const sized = inputs.pages.flatMap((p) => p.twins.filter((t) => t.found && t.text !== undefined).slice(0, 1).map((t) => ({ url: t.url, chars: (t.text ?? '').length })));
  if (!sized.length) return resultOf('page-size-md', 'No Markdown twin to measure.', [], true);
  return sizeResult('page-size-md', sized, 'twin');
}

/** Each sampled HTML page as Markdown, as Scout's converter reads it (main content, without navigation). */
export function checkPageSizeHtml(inputs: CheckInputs): CheckResult {
  const sized = inputs.pages.filter((p) => !p.error && p.html).map((p) => ({ url: p.finalUrl, chars: convertHtml(p.html, p.finalUrl, linkedomAdapter).markdown.length }));
  if (!sized.length) return resultOf('page-size-html', 'No page could be read.', [], true);
  return sizeResult('page-size-html', sized, 'page');
}
