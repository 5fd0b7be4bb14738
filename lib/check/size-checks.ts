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

// Inline Markdown links and images: [text](target "title") / ![alt](target).
const MD_LINK = /!?\[(?:[^[\]]|\[[^[\]]*\])*\]\(\s*<?([^\s()<>[\]]+)>?(?:\s+"[^"]*")?\s*\)/g;
const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:|#)/i;

/** How a twin's links are written: full addresses, root-relative (/x), or relative to the twin (x, ../x). */
export function linkForms(markdown: string): { absolute: number; root: number; relative: number; firstRelative?: string; firstRoot?: string } {
  const out: { absolute: number; root: number; relative: number; firstRelative?: string; firstRoot?: string } = { absolute: 0, root: 0, relative: 0 };
  // Code spans and blocks hold examples, not links.
  const text = markdown.replace(/```[\s\S]*?```|~~~[\s\S]*?~~~|`[^`\n]*`/g, ' ');
  for (const m of text.matchAll(MD_LINK)) {
    const target = m[1] ?? '';
    if (ABSOLUTE.test(target)) out.absolute++;
    else if (target.startsWith('/')) {
      out.root++;
      out.firstRoot ??= target;
    } else {
      out.relative++;
      out.firstRelative ??= target;
    }
  }
  return out;
}

/**
 * AFDocs' markdown-link-portability: a twin is read away from its address (pasted into a prompt,
 * stored by a tool), where a relative link has nothing to resolve against. A link relative to the
 * twin fails; a root-relative one warns (the host is still missing).
 */
export function checkLinkPortability(inputs: CheckInputs): CheckResult {
  const twins = inputs.pages.flatMap((p) => p.twins.filter((t) => t.found && t.text !== undefined).slice(0, 1));
  if (!twins.length) return resultOf('link-portability', 'No Markdown twin to read.', [], true);
  const findings: CheckFinding[] = [];
  let credit = 0;
  let links = 0;
  for (const twin of twins) {
    const forms = linkForms(twin.text ?? '');
    links += forms.absolute + forms.root + forms.relative;
    if (forms.relative) {
      findings.push({
        check: 'link-portability', severity: 'warning', code: 'relative-links', url: twin.url, figure: `${n(forms.relative)} relative, first “${forms.firstRelative}”`,
        message: `${pathOf(twin.url)} links ${count(forms.relative, 'page')} by a path relative to itself: read away from its address, the links lead nowhere.`,
        fix: `Write each link as its full address (${new URL(forms.firstRelative ?? '', twin.url).href} for the first).`,
      });
    } else if (forms.root) {
      credit += 0.6;
      findings.push({
        check: 'link-portability', severity: 'warning', code: 'root-relative-links', url: twin.url, figure: `${n(forms.root)} root-relative, first “${forms.firstRoot}”`,
        message: `${pathOf(twin.url)} links ${count(forms.root, 'page')} from the site's root (/…): read away from the site, the host is missing.`,
        fix: `Write each link as its full address (${new URL(forms.firstRoot ?? '', twin.url).href} for the first).`,
      });
    } else credit += 1;
  }
  const grade: Grade = findings.some((f) => f.code === 'relative-links') ? 'fail' : findings.length ? 'warn' : 'pass';
  const summary = `${count(twins.length, 'twin')} read, ${count(links, 'link')}; ${n(twins.length - findings.length)} with full addresses only.`;
  // Past a few twins it is how the site writes them: one finding names the first.
  const shown = findings.length > 3 ? [{ ...(findings[0] as CheckFinding), more: findings.slice(1, 4).flatMap((f) => (f.url ? [f.url] : [])), message: `${n(findings.length)} of ${count(twins.length, 'twin')} link by relative addresses (first: ${pathOf(findings[0]?.url ?? '')}, ${findings[0]?.figure}).` }] : findings;
  return resultOf('link-portability', summary, shown, false, grade, credit / twins.length);
}
