/**
 * AFDocs' checks on the shape of each sampled page, with its thresholds and grades (afdocs 0.22.2):
 * rendering-strategy (content in the HTML, or a client-rendered shell), page-size-transfer (bytes
 * served), content-start-position (how much navigation comes before the content),
 * tabbed-content-serialization and section-header-quality (tab panels read one after another), and
 * embedded-data-serialization (bulk tables, JSON and base64 that make a page too long). They read
 * what the check fetched already; page-shape.ts parses each page once.
 */
import { convertHtml } from '../convert/convert-page';
import { linkedomAdapter } from '../convert/dom';
import { HARD_LIMIT_CHARS, RECOMMENDED_CHARS } from './budget';
import type { CheckInputs, SampledPage } from './gather';
import { hasSubstantiveContent, isShell, markdownTabs, shapeOf, type TabGroup } from './page-shape';
import { count, n, pathOf, resultOf } from './result';
import type { CheckFinding, CheckResult, Grade } from './types';

const readable = (pages: SampledPage[]) => pages.filter((p) => !p.error && p.html);
const worst = (grades: Grade[]): Grade => (grades.includes('fail') ? 'fail' : grades.includes('warn') ? 'warn' : 'pass');
const shareOf = (grades: Grade[], warn = 0.5) => grades.reduce((sum, g) => sum + (g === 'pass' ? 1 : g === 'warn' ? warn : 0), 0) / Math.max(1, grades.length);

/** Past a few pages it is the site's template: one finding names the first, the rest in `more`. */
function templateFindings(findings: CheckFinding[], sampled: number, what: string): CheckFinding[] {
  const [first] = findings;
  if (!first || findings.length <= 3) return findings;
  return [{ ...first, more: findings.slice(1, 4).flatMap((f) => (f.url ? [f.url] : [])), message: `${n(findings.length)} of ${count(sampled, 'sampled page')} ${what} (first: ${pathOf(first.url ?? '')}, ${first.figure}).` }];
}

/**
 * rendering-strategy: an agent fetches HTML and runs no scripts. A page that runs scripts and has
 * no content of its own (AFDocs' content signals: headings, paragraphs, code, a filled main) is a
 * shell: fail; with a little content, warn. AFDocs picks shell candidates by four frameworks'
 * mount-point ids; Scout by structure: any page that runs scripts (docs/check.md).
 */
export function checkRendering(inputs: CheckInputs): CheckResult {
  const pages = readable(inputs.pages);
  if (!pages.length) return resultOf('rendering', 'No page could be read.', [], true);
  const graded = pages.map((page) => {
    const s = shapeOf(page).render;
    const grade: Grade = !s.scripts || hasSubstantiveContent(s) ? 'pass' : isShell(s) ? 'fail' : 'warn';
    return { page, s, grade };
  });
  const findings = graded.filter((g) => g.grade !== 'pass').map((g): CheckFinding => ({
    check: 'rendering', severity: g.grade === 'fail' ? 'error' : 'warning', code: g.grade === 'fail' ? 'client-rendered-shell' : 'sparse-content', url: g.page.finalUrl,
    figure: `${count(g.s.scripts, 'script')}, ${n(g.s.textLength)} characters of text`,
    message: g.grade === 'fail'
      ? `${pathOf(g.page.finalUrl)} is an empty shell its scripts fill in: agents, which run no scripts, see no content.`
      : `${pathOf(g.page.finalUrl)} has headings but little text without its scripts: agents see the outline, not the documentation.`,
    fix: 'Render the documentation on the server or at build time (static export), so the HTML carries the text.',
  }));
  const shells = graded.filter((g) => g.grade === 'fail').length;
  return resultOf('rendering', `${n(graded.length - findings.length)} of ${count(pages.length, 'sampled page')} carry their content in the HTML${shells ? `; ${n(shells)} empty without scripts` : ''}.`, templateFindings(findings, pages.length, 'are empty without their scripts'), false, worst(graded.map((g) => g.grade)), shareOf(graded.map((g) => g.grade)));
}

/** AFDocs' served-size thresholds (decoded bytes): under 1 MB passes, over 10 MB fails. */
export const TRANSFER_PASS_BYTES = 1_000_000;
export const TRANSFER_FAIL_BYTES = 10_000_000;

// Small pages in kB: "0.0 MB" says nothing.
const mb = (bytes: number) => (bytes < 100_000 ? `${n(Math.max(1, Math.round(bytes / 1000)))} kB` : `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0)} MB`);

/** page-size-transfer: the bytes each page's HTML takes, whatever part of it is content. */
export function checkTransfer(inputs: CheckInputs): CheckResult {
  const pages = inputs.pages.filter((p) => !p.error && p.bytes !== undefined);
  if (!pages.length) return resultOf('page-size-transfer', 'No page could be read.', [], true);
  const graded = pages.map((page) => {
    const bytes = page.bytes ?? 0;
    const grade: Grade = page.truncated || bytes > TRANSFER_FAIL_BYTES ? 'fail' : bytes < TRANSFER_PASS_BYTES ? 'pass' : 'warn';
    return { page, bytes, grade };
  });
  const findings = graded.filter((g) => g.grade !== 'pass').map((g): CheckFinding => {
    const content = g.page.html ? convertHtml(g.page.html, g.page.finalUrl, linkedomAdapter).markdown.length : 0;
    const ratio = content > 0 ? Math.round(g.bytes / content) : 0;
    return {
      check: 'page-size-transfer', severity: 'warning', code: g.grade === 'fail' ? 'transfer-over-hard-limit' : 'transfer-over-budget', url: g.page.finalUrl,
      figure: `${g.page.truncated ? 'over ' : ''}${mb(g.bytes)} served${ratio ? `, ${n(ratio)}:1 to its content` : ''}`,
      message: `${pathOf(g.page.finalUrl)} serves ${g.page.truncated ? 'over ' : ''}${mb(g.bytes)} of HTML: ${g.grade === 'fail' ? 'agents’ fetch tools give up past 10 MB' : 'agents fetch and convert far more than the page says'}.`,
      fix: ratio >= 20 ? 'Most of the bytes are not content: stop inlining hydration data and duplicate source into the HTML.' : 'Split the page, or serve its data from separate files the page links to.',
    };
  });
  const largest = Math.max(...graded.map((g) => g.bytes));
  return resultOf('page-size-transfer', `${count(pages.length, 'page')} measured; the largest serves ${mb(largest)} (budget ${mb(TRANSFER_PASS_BYTES)}).`, templateFindings(findings, pages.length, 'serve over 1 MB'), false, worst(graded.map((g) => g.grade)), shareOf(graded.map((g) => g.grade)));
}

// content-start-position's line classes, as AFDocs writes them (content-start-position.js).
const JS_LINES = [/^(?:function|var|const|let|import|export)\b/, /^\/\//, /[{};]$/];
const SCRIPT_TOKENS = /function\s*\(|=>\s*\{|document\.|window\.|localStorage|\.addEventListener|\.getElementById|\.querySelector|\.setAttribute/;
const ATX_HEADING = /^#{1,4}\s+\S/;
const UNDERLINE = /^[=-]+$/;
const NAME_CHAR = /[a-z0-9_-]/;

/** A CSS declaration somewhere in the line (`name: value;`), found by index. */
function hasCssDeclaration(line: string): boolean {
  for (let colon = line.indexOf(':'); colon >= 0; colon = line.indexOf(':', colon + 1)) {
    let at = colon - 1;
    while (at >= 0 && (line[at] === ' ' || line[at] === '\t')) at--;
    if (at < 0 || !NAME_CHAR.test(line[at] ?? '')) continue;
    const semi = line.indexOf(';', colon + 1);
    if (semi >= colon + 2) return true;
  }
  return false;
}

/** Characters of a line inside `[text](target)` links, over its length (AFDocs' link density), found by index. */
function linkDensity(line: string): number {
  let linked = 0;
  let from = 0;
  for (let open = line.indexOf('[', from); open >= 0; open = line.indexOf('[', from)) {
    const close = line.indexOf(']', open + 1);
    if (close < 0) break;
    from = close + 1;
    if (close === open + 1 || line[close + 1] !== '(') continue;
    const end = line.indexOf(')', close + 2);
    if (end < 0) break;
    if (end === close + 2) continue;
    linked += end - open + 1;
    from = end + 1;
  }
  return line.length ? linked / line.length : 0;
}

// Lines come trimmed.
const isBoilerplate = (line: string) => hasCssDeclaration(line) || JS_LINES.some((p) => p.test(line)) || (line.length >= 200 && SCRIPT_TOKENS.test(line));

/** A heading with prose under it (a section), not a list of links (a menu's heading). */
function headingFollowedByProse(lines: string[], at: number): boolean {
  let start = at + 1;
  if (UNDERLINE.test((lines[start] ?? '').trim())) start++;
  let seen = 0;
  for (let i = start; i < lines.length && seen < 6; i++) {
    const t = (lines[i] ?? '').trim();
    if (!t || isBoilerplate(t)) continue;
    seen++;
    if (linkDensity(t) > 0.5 || /^[*+-]\s+\[/.test(t) || t.startsWith('](')) continue;
    if (/^#{1,6}\s/.test(t)) return false;
    const next = (lines[i + 1] ?? '').trim();
    if (UNDERLINE.test(next) && next.length >= 2) return false;
    if (/^\|.+\|/.test(t) || /^<t(?:able|r)[\s>]/i.test(t)) return true;
    if (t.length > 40 && linkDensity(t) < 0.5) return true;
    if (/[.!?]$/.test(t) && t.length >= 10 && linkDensity(t) < 0.5) return true;
  }
  return false;
}

/** Where a page's content starts in its Markdown: the first section heading with prose, or the first paragraph of prose. */
export function contentStart(markdown: string): number {
  const lines = markdown.split('\n');
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const t = line.trim();
    const next = (lines[i + 1] ?? '').trim();
    if (t && (ATX_HEADING.test(t) || (UNDERLINE.test(next) && next.length >= 2))) {
      if (headingFollowedByProse(lines, i)) return at;
    } else if (t && !isBoilerplate(t) && linkDensity(t) <= 0.5 && !t.startsWith('](')) {
      if (t.length >= 80 || (/[.!?]$/.test(t) && t.length >= 40)) return at;
    }
    at += line.length + 1;
  }
  return at;
}

/** content-start-position: by 10 % in, pass; by half, warn; later, fail (AFDocs' bands). */
export function checkContentStart(inputs: CheckInputs): CheckResult {
  const pages = readable(inputs.pages);
  if (!pages.length) return resultOf('content-start', 'No page could be read.', [], true);
  const graded = pages.map((page) => {
    const markdown = shapeOf(page).markdown;
    const percent = markdown.length ? Math.round((contentStart(markdown) / markdown.length) * 100) : 0;
    const grade: Grade = percent <= 10 ? 'pass' : percent <= 50 ? 'warn' : 'fail';
    return { page, percent, grade };
  });
  const findings = graded.filter((g) => g.grade !== 'pass').map((g): CheckFinding => ({
    check: 'content-start', severity: 'warning', code: g.grade === 'fail' ? 'content-starts-late' : 'content-starts-after-menu', url: g.page.finalUrl, figure: `content starts at ${g.percent} %`,
    message: `Converted whole, ${pathOf(g.page.finalUrl)} is ${g.percent} % navigation before its content: an agent that reads the start, or is cut short, reads the menu.`,
    fix: 'Put the content first in the HTML (menus after it, or in <nav> that converters drop), or give agents the page’s .md twin.',
  }));
  const median = [...graded.map((g) => g.percent)].sort((a, b) => a - b)[Math.floor(graded.length / 2)] ?? 0;
  return resultOf('content-start', `${count(pages.length, 'page')} converted whole; content starts at ${n(median)} % (median).`, templateFindings(findings, pages.length, 'start with navigation'), false, worst(graded.map((g) => g.grade)), shareOf(graded.map((g) => g.grade)));
}

/** Tab groups of a sampled page: in its HTML, else in its twin (a client-rendered page's only text). */
function tabsOf(page: SampledPage): TabGroup[] {
  const html = page.html ? shapeOf(page).tabs : [];
  if (html.length) return html;
  const twin = page.twins.find((t) => t.found && t.text !== undefined);
  return twin?.text ? markdownTabs(twin.text) : [];
}

/** tabbed-content-serialization: every panel read one after another must stay within what an agent reads whole. */
export function checkTabs(inputs: CheckInputs): CheckResult {
  const pages = inputs.pages.filter((p) => !p.error);
  if (!pages.length) return resultOf('tabs', 'No page could be read.', [], true);
  const graded = pages.map((page) => {
    const groups = tabsOf(page);
    const chars = groups.reduce((sum, g) => sum + g.chars, 0);
    const grade: Grade = chars <= RECOMMENDED_CHARS ? 'pass' : chars <= HARD_LIMIT_CHARS ? 'warn' : 'fail';
    return { page, groups, chars, grade };
  });
  const tabbed = graded.filter((g) => g.groups.length);
  const findings = graded.filter((g) => g.grade !== 'pass').map((g): CheckFinding => ({
    check: 'tabs', severity: 'warning', code: g.grade === 'fail' ? 'tabs-over-hard-limit' : 'tabs-over-budget', url: g.page.finalUrl,
    figure: `${count(g.groups.length, 'tab group')}, ${n(g.chars)} characters`,
    message: `${pathOf(g.page.finalUrl)}'s tabs read one after another run to ${n(g.chars)} characters: agents see every panel at once, and lose the end.`,
    fix: 'Move long variants (one per language or platform) to pages of their own, and keep tabs for short alternatives.',
  }));
  const summary = tabbed.length ? `${n(tabbed.length)} of ${count(pages.length, 'sampled page')} have tabs; the largest serializes to ${n(Math.max(...tabbed.map((g) => g.chars)))} characters.` : `No tabs on ${count(pages.length, 'sampled page')}.`;
  return resultOf('tabs', summary, findings, false, worst(graded.map((g) => g.grade)), shareOf(graded.map((g) => g.grade)));
}

/**
 * section-header-quality: in tab panels read one after another, a heading that every panel repeats
 * ("Install", "Configure") no longer says which variant it belongs to. Fails when more than half of
 * the groups have a majority of such headings (or of headings repeated across groups without a tab
 * label in them), warns past a quarter, as AFDocs grades it.
 */
export function checkSectionHeaders(inputs: CheckInputs): CheckResult {
  const pages = inputs.pages.filter((p) => !p.error).map((page) => ({ page, groups: tabsOf(page).filter((g) => g.panels.length >= 2) }));
  const tabbed = pages.filter((p) => p.groups.length);
  if (!tabbed.length) return resultOf('section-headers', 'No tab panels to read.', []);
  let withHeaders = 0;
  let genericGroups = 0;
  let crossTotal = 0;
  let crossGeneric = 0;
  const examples: Array<{ url: string; header: string }> = [];
  for (const { page, groups } of tabbed) {
    for (const group of groups) {
      const counts = new Map<string, number>();
      for (const panel of group.panels) for (const h of panel.headers) counts.set(h.toLowerCase(), (counts.get(h.toLowerCase()) ?? 0) + 1);
      const total = group.panels.reduce((sum, p) => sum + p.headers.length, 0);
      if (!total) continue;
      withHeaders++;
      let generic = 0;
      for (const panel of group.panels) {
        for (const h of panel.headers) {
          const lower = h.toLowerCase();
          const labelled = panel.label !== null && lower.includes(panel.label.toLowerCase());
          if (!labelled && (counts.get(lower) ?? 0) >= 2) {
            generic++;
            if (examples.length < 3) examples.push({ url: page.finalUrl, header: h });
          }
        }
      }
      if (generic > total / 2) genericGroups++;
    }
    if (groups.length >= 2) {
      const labels = groups.flatMap((g) => g.panels.flatMap((p) => (p.label ? [p.label.toLowerCase()] : [])));
      const perGroup = groups.map((g) => new Set(g.panels.flatMap((p) => p.headers.map((h) => h.toLowerCase()))));
      const groupsOf = new Map<string, number>();
      for (const set of perGroup) for (const h of set) groupsOf.set(h, (groupsOf.get(h) ?? 0) + 1);
      const repeated = new Set([...groupsOf].filter(([h, c]) => c >= 2 && !labels.some((l) => h.includes(l))).map(([h]) => h));
      for (const set of perGroup) {
        if (!set.size) continue;
        crossTotal++;
        if ([...set].some((h) => repeated.has(h))) crossGeneric++;
      }
    }
  }
  if (!withHeaders && !crossTotal) return resultOf('section-headers', `${count(tabbed.length, 'page')} with tabs; no headings inside their panels.`, [], true);
  const band = (ratio: number): Grade => (ratio > 0.5 ? 'fail' : ratio > 0.25 ? 'warn' : 'pass');
  const within = withHeaders ? band(genericGroups / withHeaders) : 'pass';
  const cross = crossTotal ? band(crossGeneric / crossTotal) : 'pass';
  const grade = worst([within, cross]);
  const first = examples[0];
  const findings: CheckFinding[] = grade === 'pass' || !first ? [] : [{
    check: 'section-headers', severity: 'warning', code: 'generic-tab-headings', url: first.url, figure: `${n(genericGroups)} of ${count(withHeaders, 'tab group')} mostly generic`,
    message: `Tab panels on ${pathOf(first.url)} repeat headings such as “${first.header}”: read one after another, an agent cannot tell which variant a section is for.`,
    fix: 'Name the variant in each panel’s headings (“Install on Linux”, not “Install”).',
  }];
  return resultOf('section-headers', `${count(withHeaders, 'tab group')} with headings on ${count(tabbed.length, 'page')}; ${n(genericGroups)} mostly generic.`, findings, false, grade, grade === 'pass' ? 1 : 1 - genericGroups / Math.max(1, withHeaders));
}

// embedded-data-serialization's bulk elements (afdocs 0.22.2 constants): long uniform tables, JSON and base64 runs.
export const BULK_TABLE_ROWS = 20;
export const BULK_BLOB_CHARS = 2_000;
const DOMINANT_SHARE = 0.5;
const DELIMITER_CELL = /^:?-+:?$/;

/** A pipe table's delimiter row (`|---|:--:|`): every cell dashes, with colons at most at its ends. */
function isDelimiterRow(line: string): boolean {
  let t = line.trim();
  if (t.startsWith('|')) t = t.slice(1);
  if (t.endsWith('|')) t = t.slice(0, -1);
  return t.length > 0 && t.split('|').every((cell) => DELIMITER_CELL.test(cell.trim()));
}
const JSON_LANGS = new Set(['json', 'jsonc', 'json5', 'jsonl', 'ndjson', 'geojson', 'json-ld']);

/** Characters of bulk data in Markdown: pipe tables of 20 rows or more with uniform rows, JSON blocks and base64 runs of 2,000 characters or more. */
export function bulkChars(markdown: string): { chars: number; largest: string } {
  const lines = markdown.split('\n');
  let chars = 0;
  let largest = '';
  let largestChars = 0;
  const note = (what: string, size: number) => {
    chars += size;
    if (size > largestChars) {
      largestChars = size;
      largest = what;
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = /^\s*(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (fence) {
      const close = lines.findIndex((l, j) => j > i && l.trim().startsWith(fence[1] ?? '```'));
      const end = close < 0 ? lines.length : close;
      const body = lines.slice(i + 1, end).join('\n');
      const trimmed = body.trim();
      const json = JSON_LANGS.has((fence[2] ?? '').toLowerCase()) || (/^[[{]/.test(trimmed) && /[\]}]$/.test(trimmed) && (() => {
        try {
          JSON.parse(trimmed);
          return true;
        } catch {
          return false;
        }
      })());
      if (json && body.length >= BULK_BLOB_CHARS) note(`a ${n(body.length)}-character JSON block`, body.length);
      i = end;
      continue;
    }
    if (isDelimiterRow(line) && (lines[i - 1] ?? '').includes('|')) {
      let end = i + 1;
      while (end < lines.length && (lines[end] ?? '').includes('|')) end++;
      const rows = lines.slice(i + 1, end);
      const cells = rows.map((r) => r.split('|').length);
      const modal = Math.max(0, ...[...new Set(cells)].map((c) => cells.filter((x) => x === c).length));
      if (rows.length >= BULK_TABLE_ROWS && modal / rows.length >= 0.8) note(`a ${n(rows.length)}-row table`, rows.join('\n').length + (lines[i - 1] ?? '').length);
      i = end - 1;
    }
  }
  // Base64 runs, scanned by hand: one pass, however long the text.
  let run = 0;
  for (let i = 0; i <= markdown.length; i++) {
    const c = i < markdown.length ? markdown.charCodeAt(i) : 0;
    const inRun = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47;
    if (inRun) run++;
    else {
      if (run >= BULK_BLOB_CHARS) note(`a ${n(run)}-character base64 run`, run);
      run = 0;
    }
  }
  return { chars, largest };
}

/**
 * embedded-data-serialization: a page past the size agents read whole because of bulk data (more
 * than half of it tables, JSON or base64) warns or fails as its size does; pages under the budget,
 * and long pages that are mostly prose, pass (page-size-html carries those).
 */
export function checkEmbeddedData(inputs: CheckInputs): CheckResult {
  const pages = readable(inputs.pages);
  if (!pages.length) return resultOf('embedded-data', 'No page could be read.', [], true);
  const graded = pages.map((page) => {
    const markdown = shapeOf(page).markdown;
    const size = convertHtml(page.html, page.finalUrl, linkedomAdapter).markdown.length;
    const bucket: Grade = size < RECOMMENDED_CHARS ? 'pass' : size <= HARD_LIMIT_CHARS ? 'warn' : 'fail';
    if (bucket === 'pass') return { page, grade: 'pass' as Grade, share: 0, largest: '' };
    const bulk = bulkChars(markdown);
    const share = markdown.length ? bulk.chars / markdown.length : 0;
    return { page, grade: share >= DOMINANT_SHARE ? bucket : ('pass' as Grade), share, largest: bulk.largest };
  });
  const findings = graded.filter((g) => g.grade !== 'pass').map((g): CheckFinding => ({
    check: 'embedded-data', severity: 'warning', code: 'bulk-data', url: g.page.finalUrl, figure: `${Math.round(g.share * 100)} % bulk data, largest ${g.largest}`,
    message: `${pathOf(g.page.finalUrl)} is too long for an agent mostly because of generated data (${g.largest}).`,
    fix: 'Serve the data as a file of its own (JSON, CSV) that the page links to, and keep the page to prose and examples.',
  }));
  return resultOf('embedded-data', `${count(pages.length, 'page')} read; ${n(findings.length)} made too long by bulk data.`, findings, false, worst(graded.map((g) => g.grade)), shareOf(graded.map((g) => g.grade)));
}

