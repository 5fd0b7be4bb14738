/**
 * The llms.txt directive (AFDocs' llms-txt-directive-html and -md): a line in the page itself,
 * "For the complete documentation index, see [llms.txt](/llms.txt)", that reaches every agent,
 * including those that read a page's text and never its `<head>` or headers. Where it sits counts:
 * agents' tools cut long pages, so a directive near the end may never be read.
 */
import { linkedomAdapter } from '../convert/dom';
import type { CheckInputs, SampledPage } from './gather';
import { grouped } from './page-checks';
import { count, n, pathOf, resultOf } from './result';
import type { CheckFinding, CheckId, CheckResult, Grade } from './types';

/** Within this share of the page's text the directive is "near the top". */
export const DIRECTIVE_TOP = 0.1;
/** Past this share it is buried: a tool that keeps the start of a page may cut it. */
export const DIRECTIVE_DEEP = 0.5;
/** Credit of a page whose directive is buried, against a full one for one near the top (AFDocs' warn coefficient). */
const BURIED_CREDIT = 0.6;

/** The sentence the kit puts in pages and twins, and the fixes quote. */
export const directiveSentence = (llmsPath = '/llms.txt') => `For the complete documentation index, see [llms.txt](${llmsPath}).`;

export interface DirectiveHit {
  found: boolean;
  /** Where it starts, as a share of the text (0 = first character). */
  position?: number;
  /** What matched: the link's text and address, or the text around "/llms.txt". */
  match?: string;
}

// Elements an agent's converter drops before reading, so a directive there reaches no one.
const NOT_READ = 'nav, script, style, noscript, template';
// A reference in text names an llms.txt by path, so prose about "an llms.txt file" is not a directive.
const PATH_IN_TEXT = /\/llms\.txt\b/i;
const LINK_TO_LLMS = /\/llms\.txt$/i;
const BLOCK = 'p, li, blockquote, dd, dt, td, th, h1, h2, h3, h4, h5, h6, pre, figcaption';
const MARKER = '\u0000scout-directive\u0000';

const isLlmsHref = (href: string, base: string): boolean => {
  try {
    return LINK_TO_LLMS.test(new URL(href, base).pathname);
  } catch {
    return false;
  }
};

/**
 * The directive in an HTML page: the first link to a file named llms.txt in the body, else the
 * first "/llms.txt" in its text, with navigation and scripts left out. The position is measured
 * in the body's text, as an agent reading the page top to bottom meets it.
 */
export function findHtmlDirective(html: string, pageUrl: string): DirectiveHit {
  const body = linkedomAdapter.parse(html).body;
  if (!body) return { found: false };
  for (const el of Array.from(body.querySelectorAll(NOT_READ))) el.remove();
  const link = Array.from(body.querySelectorAll('a[href]')).find((a) => isLlmsHref(a.getAttribute('href') ?? '', pageUrl));
  if (link) {
    // Measured from the start of the block that holds the link: the sentence is the directive.
    const start = link.closest(BLOCK) ?? link;
    const marker = body.ownerDocument.createTextNode(MARKER);
    start.parentNode?.insertBefore(marker, start);
    const text = body.textContent ?? '';
    const at = text.indexOf(MARKER);
    const length = Math.max(1, text.length - MARKER.length);
    marker.remove();
    return { found: true, position: Math.max(0, at) / length, match: `${(link.textContent ?? '').trim().slice(0, 80)} → ${link.getAttribute('href') ?? ''}` };
  }
  return findTextDirective(body.textContent ?? '');
}

/** The directive in Markdown (or any text): the first line with "/llms.txt", as a link target or in words. */
export function findTextDirective(text: string): DirectiveHit {
  const match = PATH_IN_TEXT.exec(text);
  if (!match) return { found: false };
  const lineStart = text.lastIndexOf('\n', match.index) + 1;
  const lineEnd = text.indexOf('\n', match.index);
  // Where the line that holds it starts: the directive is the line, not the path inside its link.
  return { found: true, position: lineStart / Math.max(1, text.length), match: text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd).trim().slice(0, 120) };
}

interface PageHit extends DirectiveHit {
  url: string;
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** Pass, warn or fail as AFDocs grades the directive: none found fails; some missing, or all buried, warns. */
function gradeOf(hits: PageHit[]): { grade: Grade; proportion: number } {
  const found = hits.filter((h) => h.found);
  const nearTop = found.filter((h) => (h.position ?? 1) <= DIRECTIVE_TOP);
  const buried = found.filter((h) => (h.position ?? 0) > DIRECTIVE_DEEP);
  const credit = hits.reduce((sum, h) => sum + (!h.found ? 0 : (h.position ?? 0) > DIRECTIVE_DEEP ? BURIED_CREDIT : 1), 0);
  const proportion = hits.length ? credit / hits.length : 0;
  const grade: Grade = !found.length ? 'fail' : (buried.length && !nearTop.length) || found.length < hits.length ? 'warn' : 'pass';
  return { grade, proportion };
}

function directiveResult(id: CheckId, hits: PageHit[], what: string, llmsPath: string): CheckResult {
  const found = hits.filter((h) => h.found);
  const { grade, proportion } = gradeOf(hits);
  const sentence = directiveSentence(llmsPath);
  const findings: CheckFinding[] = [];
  if (!found.length) {
    const first = hits[0];
    findings.push({
      check: id, severity: 'warning', code: 'no-directive', url: first?.url, more: hits.slice(1, 4).map((h) => h.url), figure: `0 of ${n(hits.length)}`,
      message: `None of the ${count(hits.length, what)} says where the llms.txt is: agents that read only the page never hear of it.`,
      fix: id === 'directive-md' ? `Start every twin with “> ${sentence}” (the kit's twins do).` : `Put “${sentence}” at the top of every page's main content (the kit's snippets/directive.html).`,
    });
  } else {
    const missing = hits.filter((h) => !h.found).map((h): CheckFinding => ({
      check: id, severity: 'warning', code: 'missing-directive', url: h.url,
      message: `${pathOf(h.url)} does not say where the llms.txt is, while other pages do.`,
      fix: 'Add the directive to the template this page uses, as on the others.',
    }));
    findings.push(...grouped(missing, hits.length, 'llms.txt directive'));
    for (const h of found.filter((x) => (x.position ?? 0) > DIRECTIVE_DEEP)) {
      findings.push({
        check: id, severity: 'warning', code: 'directive-buried', url: h.url, figure: `at ${percent(h.position ?? 0)} of the text`,
        message: `${pathOf(h.url)} names its llms.txt ${percent(h.position ?? 0)} of the way down, where a tool that cuts long pages may never reach it.`,
        fix: 'Move the directive to the top of the main content, before the first heading or right after it.',
      });
    }
  }
  const nearTop = found.filter((h) => (h.position ?? 1) <= DIRECTIVE_TOP).length;
  const summary = `${n(found.length)} of ${count(hits.length, what)} name their llms.txt${found.length ? ` (${n(nearTop)} near the top)` : ''}.`;
  return resultOf(id, summary, findings, false, grade, proportion);
}

const readable = (pages: SampledPage[]) => pages.filter((p) => !p.error && p.html);
/** The llms.txt the fixes point to: the root one when the site has it. */
const llmsPathOf = (inputs: CheckInputs) => (inputs.llmsFiles.some((f) => pathOf(f.url) === '/llms.txt') || !inputs.llmsFiles[0] ? '/llms.txt' : pathOf(inputs.llmsFiles[0].url));

/** The directive in the sampled pages' HTML. */
export function checkDirectiveHtml(inputs: CheckInputs): CheckResult {
  const pages = readable(inputs.pages);
  if (!pages.length) return resultOf('directive-html', 'No page could be read.', [], true);
  const hits = pages.map((p): PageHit => ({ url: p.finalUrl, ...findHtmlDirective(p.html, p.finalUrl) }));
  return directiveResult('directive-html', hits, 'sampled page', llmsPathOf(inputs));
}

/** The directive in the sampled pages' Markdown twins (`na` when there are none). */
export function checkDirectiveMd(inputs: CheckInputs): CheckResult {
  const hits = readable(inputs.pages).flatMap((p): PageHit[] => {
    const twin = p.twins.find((t) => t.found && t.text !== undefined);
    return twin?.text !== undefined ? [{ url: twin.url, ...findTextDirective(twin.text) }] : [];
  });
  if (!hits.length) return resultOf('directive-md', 'No Markdown twin to read.', [], true);
  // A twin is read away from the site: its directive names the llms.txt by full address.
  return directiveResult('directive-md', hits, 'twin', `${inputs.origin}${llmsPathOf(inputs)}`);
}
