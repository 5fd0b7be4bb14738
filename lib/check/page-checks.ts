/**
 * The checks on sampled pages: do they link their llms.txt (`rel=describedby`) and their Markdown
 * (`rel=alternate type=text/markdown`), as `<link>` elements or `Link:` headers; do they have a
 * `.md` twin (v1 `page.html.md` or v2 `page.md`); does the twin say what the page says; and does
 * the server answer `Accept: text/markdown` with Markdown.
 */
import type { CheckInputs, SampledPage } from './gather';
import { isShell, shapeOf } from './page-shape';
import { PARITY_THRESHOLD, twinParity } from './parity';
import { count, n, pathOf, resultOf } from './result';
import type { CheckFinding, CheckId, CheckResult } from './types';

const readable = (pages: SampledPage[]) => pages.filter((p) => !p.error && p.html);

/** One finding per page that lacks the relation (one for all past a few: see grouped). */
function relCheck(inputs: CheckInputs, id: CheckId, rel: 'describedby' | 'markdown'): CheckResult {
  const pages = readable(inputs.pages);
  const what = rel === 'describedby' ? 'rel="describedby"' : 'rel="alternate" type="text/markdown"';
  if (!pages.length) return resultOf(id, 'No page could be read.', [], true);
  const findings: CheckFinding[] = [];
  let viaHeader = 0;
  for (const page of pages) {
    const links = page.links.filter((l) => l.rel === rel);
    if (links.some((l) => l.from === 'header')) viaHeader++;
    if (links.length) continue;
    findings.push(rel === 'describedby'
      ? { check: id, severity: 'warning', code: 'missing-describedby', url: page.finalUrl, message: `${pathOf(page.finalUrl)} does not name its llms.txt (no ${what} link or Link header).`, fix: 'Add <link rel="describedby" href="/llms.txt"> to the page template or a Link header (see the kit’s snippets).' }
      : { check: id, severity: 'warning', code: 'missing-alternate', url: page.finalUrl, message: `${pathOf(page.finalUrl)} does not point to its Markdown (no ${what} link or Link header).`, fix: 'Add <link rel="alternate" type="text/markdown" href="…page.md"> to the page template or a Link header (see the kit’s snippets).' });
  }
  // A site with no twins at all has nothing to point to: one finding says so, not one per page.
  if (rel === 'markdown' && findings.length === pages.length && !pages.some((p) => p.twins.some((t) => t.found))) {
    return resultOf(id, `None of ${count(pages.length, 'sampled page')} declares Markdown; there are no twins to declare.`, [], true);
  }
  const how = viaHeader ? ` (${n(viaHeader)} by Link header)` : '';
  const summary = `${n(pages.length - findings.length)} of ${count(pages.length, 'sampled page')} ${pages.length === 1 ? 'declares' : 'declare'} ${what}${how}.`;
  return resultOf(id, summary, grouped(findings, pages.length, `${what} link or Link header`));
}

/** Past a few pages the problem is the site's template, not a page: one finding names the first pages. */
export function grouped(findings: CheckFinding[], sampled: number, missing: string): CheckFinding[] {
  const [first] = findings;
  if (!first || findings.length <= MAX_SINGLE) return findings;
  return [{
    ...first, more: findings.slice(1, 4).flatMap((f) => (f.url ? [f.url] : [])), figure: `${n(findings.length)} of ${count(sampled, 'sampled page')}`,
    message: `${n(findings.length)} of ${count(sampled, 'sampled page')} have no ${missing} (first: ${pathOf(first.url ?? '')}).`,
  }];
}

/** Pages that lack something listed one by one, up to this many. */
const MAX_SINGLE = 3;

export const checkDescribedby = (inputs: CheckInputs): CheckResult => relCheck(inputs, 'describedby', 'describedby');
export const checkAlternate = (inputs: CheckInputs): CheckResult => relCheck(inputs, 'alternate', 'markdown');

/** Pages with a twin in either form; the forms used, in the summary. */
export function checkTwins(inputs: CheckInputs): CheckResult {
  const pages = readable(inputs.pages);
  if (!pages.length) return resultOf('twins', 'No page could be read.', [], true);
  const withTwin = pages.filter((p) => p.twins.some((t) => t.found));
  const forms = new Set(withTwin.flatMap((p) => p.twins.filter((t) => t.found).map((t) => t.form)));
  if (!withTwin.length) {
    const first = pages[0];
    return resultOf('twins', `No .md twin for any of ${count(pages.length, 'sampled page')}.`, [{
      check: 'twins', severity: 'warning', code: 'no-twins', url: first?.twins[0]?.url ?? first?.finalUrl, more: first?.twins.slice(1).map((t) => t.url),
      figure: `0 of ${n(pages.length)}`, message: `None of the ${count(pages.length, 'sampled page')} has a Markdown twin (tried ${first?.twins.map((t) => pathOf(t.url)).join(', ') || 'none'}).`,
      fix: 'Publish a .md twin next to each page (the kit has one per page, in the layout you choose).',
    }], false, 'fail', 0);
  }
  const missing: CheckFinding[] = pages.filter((p) => !withTwin.includes(p)).map((p) => ({
    check: 'twins', severity: 'warning', code: 'missing-twin', url: p.twins[0]?.url ?? p.finalUrl, more: p.twins.slice(1).map((t) => t.url),
    message: `${pathOf(p.finalUrl)} has no .md twin while other pages do (${p.twins[0]?.reason ?? 'not found'}).`,
    fix: 'Publish its twin like the others (the kit has one per page).',
  }));
  const findings = grouped(missing, pages.length, '.md twin');
  const formWords = [...forms].map((f) => (f === 'v1' ? 'v1 page.html.md' : f === 'v2' ? 'v2 page.md' : f === 'v1+v2' ? 'page.md' : 'declared')).join(', ');
  // As AFDocs grades .md support: nine pages in ten is consistent enough to pass.
  const rate = withTwin.length / pages.length;
  return resultOf('twins', `${n(withTwin.length)} of ${count(pages.length, 'sampled page')} have a twin (${formWords}).`, findings, false, rate >= 0.9 ? 'pass' : 'warn', rate);
}

/** Each found twin against its page's main content, token-F1 below the threshold flagged. */
export function checkParity(inputs: CheckInputs): CheckResult {
  const findings: CheckFinding[] = [];
  const scores: number[] = [];
  for (const page of readable(inputs.pages)) {
    const twin = page.twins.find((t) => t.found && t.text !== undefined);
    // A page its scripts fill in has no text to compare: its twin is its only content (rendering-strategy has it).
    if (!twin?.text || isShell(shapeOf(page).render)) continue;
    const score = twinParity(page.html, page.finalUrl, twin.text);
    scores.push(score);
    if (score < PARITY_THRESHOLD) {
      findings.push({
        check: 'parity', severity: 'warning', code: 'twin-differs', url: twin.url, figure: `token-F1 ${score.toFixed(2)}`,
        message: `${pathOf(twin.url)} says something else than ${pathOf(page.finalUrl)}: token-F1 ${score.toFixed(2)}, below ${PARITY_THRESHOLD.toFixed(2)}.`,
        fix: 'Regenerate the twin from the page’s current source at every build.',
      });
    }
  }
  if (!scores.length) return resultOf('parity', 'No twin to compare.', [], true);
  const lowest = Math.min(...scores);
  const share = scores.filter((s) => s >= PARITY_THRESHOLD).length / scores.length;
  return resultOf('parity', `${count(scores.length, 'twin')} compared with their pages; lowest token-F1 ${lowest.toFixed(2)} (threshold ${PARITY_THRESHOLD.toFixed(2)}).`, findings, false, undefined, share);
}

const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown']);

/** The start page asked for with `Accept: text/markdown`: Markdown back, or HTML. */
export function checkAccept(inputs: CheckInputs): CheckResult {
  const probe = inputs.accept;
  if (probe.error) return resultOf('accept', `The request failed: ${probe.error}.`, [], true);
  const essence = (probe.contentType ?? '').split(';')[0]?.trim() ?? '';
  if (MARKDOWN_TYPES.has(essence)) {
    const vary = (probe.vary ?? '').toLowerCase().split(',').map((v) => v.trim());
    const findings: CheckFinding[] = vary.includes('accept') || vary.includes('*') ? [] : [{
      check: 'accept', severity: 'info', code: 'no-vary-accept', url: probe.url, figure: `Vary: ${probe.vary ?? '(none)'}`,
      message: 'Markdown is served for Accept: text/markdown, but without “Vary: Accept”, so a cache may hand it to browsers.',
      fix: 'Add “Vary: Accept” to responses that depend on the Accept header.',
    }];
    return resultOf('accept', `${pathOf(probe.url)} answers Accept: text/markdown with ${essence}.`, findings);
  }
  return resultOf('accept', `${pathOf(probe.url)} answers Accept: text/markdown with ${essence || 'no content type'}.`, [{
    check: 'accept', severity: 'warning', code: 'accept-ignored', url: probe.url, figure: `HTTP ${probe.status ?? '?'}, ${essence || 'no type'}`,
    message: `Asked for text/markdown, ${pathOf(probe.url)} answered ${essence || 'without a content type'}: agents that negotiate get HTML.`,
    fix: 'Serve the page’s .md twin when the request’s Accept header prefers text/markdown (with Vary: Accept).',
  }], false, 'fail', 0);
}
