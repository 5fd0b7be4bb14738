/**
 * The checks on the llms.txt files themselves: found and valid (the validator the Output tab and
 * `scout lint` run), their size against what an agent reads whole, descriptions on entries, and
 * coverage (the site's pages that no llms.txt lists).
 */
import { parseLlmsTxt, type LlmsLink } from '../discovery/parse-llms-txt';
import { comparableUrl } from '../generate/export';
import { validateLlmsTxt } from '../generate/validate';
import { HARD_LIMIT_CHARS, RECOMMENDED_CHARS } from './budget';
import type { CheckInputs } from './gather';
import { isPageUrl } from './gather';
import { count, n, pathOf, resultOf } from './result';
import type { CheckFinding, CheckResult } from './types';

// The size check says this better, with the figure; the validator's generic note would repeat it.
const LEFT_TO_SIZE = new Set(['large-file']);
/** Validator findings shown per file; the rest are counted in one more finding. */
const MAX_PER_FILE = 10;

const entriesOf = (text: string, url: string): LlmsLink[] => {
  const parsed = parseLlmsTxt(text, url);
  return [...parsed.links, ...parsed.detailLinks];
};

/** llms.txt found (at the root or above the page) and free of the validator's errors and warnings. */
export function checkLlmsTxt(inputs: CheckInputs): CheckResult {
  const { llmsFiles, origin } = inputs;
  if (llmsFiles.length === 0) {
    return resultOf('llms-txt', 'No llms.txt found at the root, above the page, or declared by it.', [{
      check: 'llms-txt', severity: 'error', code: 'no-llms-txt', url: `${origin}/llms.txt`, figure: 'not found',
      message: 'The site publishes no llms.txt, so agents have no index of its pages.',
      fix: 'Publish /llms.txt (the publishing kit has one generated from a crawl).',
    }]);
  }
  const findings: CheckFinding[] = [];
  for (const file of llmsFiles) {
    const shown = validateLlmsTxt(file.text, file.url).filter((f) => !LEFT_TO_SIZE.has(f.code));
    for (const f of shown.slice(0, MAX_PER_FILE)) {
      findings.push({ check: 'llms-txt', severity: f.severity, code: f.code, url: file.url, line: f.line, message: f.message, fix: fixFor(f.code) });
    }
    if (shown.length > MAX_PER_FILE) {
      const rest = shown.slice(MAX_PER_FILE);
      const worst = rest.some((f) => f.severity === 'error') ? 'error' : rest.some((f) => f.severity === 'warning') ? 'warning' : 'info';
      findings.push({ check: 'llms-txt', severity: worst, code: 'more-findings', url: file.url, figure: count(rest.length, 'more finding'), message: `${count(rest.length, 'more finding')} in this file.`, fix: 'Run `scout lint` on the file for the full list.' });
    }
  }
  const root = llmsFiles.some((f) => pathOf(f.url) === '/llms.txt');
  return resultOf('llms-txt', `${count(llmsFiles.length, 'llms.txt file')} found${root ? ', one at the root' : ', none at the root'}.`, findings);
}

function fixFor(code: string): string {
  switch (code) {
    case 'missing-h1': return 'Start the file with “# Project name”.';
    case 'non-link-line': return 'Move prose above the first “## ” section or make the line a “- [name](url): notes” item.';
    case 'notes-without-colon': return 'Write the description as “- [name](url): description”.';
    case 'summary-missing': return 'Add a one-sentence “> summary” line under the title.';
    case 'links-outside-sections': return 'Put the links under “## ” sections.';
    case 'duplicate-link': return 'List each page once.';
    case 'relative-link': return 'Write every link as its full address (https://…); the message gives it for this one.';
    default: return 'Edit the line as the message says; `scout lint` checks the result.';
  }
}

/** Each llms.txt against the agent budget: 50,000 characters recommended, 100,000 hard. */
export function checkSize(inputs: CheckInputs): CheckResult {
  const findings: CheckFinding[] = [];
  let largest = 0;
  for (const file of inputs.llmsFiles) {
    const chars = file.text.replace(/^\uFEFF/, '').length;
    largest = Math.max(largest, chars);
    if (chars > HARD_LIMIT_CHARS) {
      findings.push({ check: 'size', severity: 'error', code: 'over-hard-limit', url: file.url, figure: `${n(chars)} characters`, message: `${pathOf(file.url)} has ${n(chars)} characters; agents' tools cut files near ${n(HARD_LIMIT_CHARS)}, so its end is lost.`, fix: `Split it into nested llms.txt files per section, each under ${n(RECOMMENDED_CHARS)} characters (the kit's nested layout does).` });
    } else if (chars > RECOMMENDED_CHARS) {
      findings.push({ check: 'size', severity: 'warning', code: 'over-budget', url: file.url, figure: `${n(chars)} characters`, message: `${pathOf(file.url)} has ${n(chars)} characters, over the ${n(RECOMMENDED_CHARS)} an agent should read whole.`, fix: 'Nest per-section llms.txt files at their paths, or shorten the descriptions.' });
    }
  }
  const none = inputs.llmsFiles.length === 0;
  // Each file earns its share: in budget 1, over it a half, past the hard limit nothing (AFDocs' llms-txt-size).
  const credits = inputs.llmsFiles.map((f): number => (f.text.length > HARD_LIMIT_CHARS ? 0 : f.text.length > RECOMMENDED_CHARS ? 0.5 : 1));
  const proportion = credits.length ? credits.reduce((a, b) => a + b, 0) / credits.length : undefined;
  return resultOf('size', none ? 'No llms.txt to measure.' : `The largest llms.txt has ${n(largest)} characters (budget ${n(RECOMMENDED_CHARS)}, hard limit ${n(HARD_LIMIT_CHARS)}).`, findings, none, undefined, proportion);
}

/** Entries without a description: agents choose pages by their descriptions. */
export function checkDescriptions(inputs: CheckInputs): CheckResult {
  const findings: CheckFinding[] = [];
  let total = 0;
  let bare = 0;
  for (const file of inputs.llmsFiles) {
    const entries = entriesOf(file.text, file.url);
    const without = entries.filter((l) => !l.notes?.trim());
    total += entries.length;
    bare += without.length;
    if (!without.length) continue;
    const share = without.length / entries.length;
    findings.push({
      check: 'descriptions', severity: share >= 0.25 ? 'warning' : 'info', code: 'entries-without-descriptions', url: file.url, line: without[0]?.line,
      figure: `${n(without.length)} of ${n(entries.length)}`,
      message: `${count(without.length, 'entry', 'entries')} of ${n(entries.length)} in ${pathOf(file.url)} ${without.length === 1 ? 'has' : 'have'} no description (first: “${without[0]?.name ?? ''}”).`,
      fix: 'Add “: what the page is for” after each link (Scout writes descriptions from the pages).',
    });
  }
  return resultOf('descriptions', total ? `${n(total - bare)} of ${count(total, 'entry', 'entries')} described.` : 'No entries to read.', findings, total === 0);
}

/** The first path segment: the section of the site a page belongs to ('/' for top-level pages). */
function folderOf(url: string): string {
  const segments = new URL(url).pathname.split('/').filter(Boolean);
  return segments.length > 1 || new URL(url).pathname.endsWith('/') ? `/${segments[0] ?? ''}/`.replace('//', '/') : '/';
}

/**
 * Pages the sitemaps or the crawl know that no llms.txt lists, by folder: a whole folder missing
 * is a section agents never hear of (a warning); a few pages of a listed folder are advice.
 */
export function checkCoverage(inputs: CheckInputs): CheckResult {
  const known = [...new Set([...inputs.sitemapUrls, ...inputs.crawledUrls])].filter((u) => isPageUrl(u, inputs.origin));
  if (inputs.llmsFiles.length === 0 || known.length === 0) {
    return resultOf('coverage', known.length ? 'No llms.txt to compare the pages with.' : 'No sitemap or crawl names the site’s pages; crawl the site to compare.', [], true);
  }
  const listed = new Set(inputs.llmsFiles.flatMap((f) => entriesOf(f.text, f.url).map((l) => comparableUrl(l.url))));
  const byFolder = new Map<string, { all: string[]; missing: string[] }>();
  for (const url of known) {
    const folder = folderOf(url);
    const group = byFolder.get(folder) ?? { all: [], missing: [] };
    group.all.push(url);
    if (!listed.has(comparableUrl(url))) group.missing.push(url);
    byFolder.set(folder, group);
  }
  const findings: CheckFinding[] = [];
  let missing = 0;
  for (const [folder, group] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) {
    if (!group.missing.length) continue;
    missing += group.missing.length;
    const whole = group.missing.length === group.all.length && folder !== '/';
    findings.push({
      check: 'coverage', severity: whole ? 'warning' : 'info', code: whole ? 'section-not-listed' : 'pages-not-listed',
      url: group.missing[0], more: group.missing.slice(1, 4), figure: `${n(group.missing.length)} of ${n(group.all.length)} pages`,
      message: whole ? `No llms.txt lists any of the ${count(group.all.length, 'page')} under ${folder}: agents never hear of that section.` : `${count(group.missing.length, 'page')} of ${n(group.all.length)} under ${folder} ${group.missing.length === 1 ? 'is' : 'are'} in no llms.txt.`,
      fix: whole ? `Add a “## ” section for ${folder} to the llms.txt (or a nested ${folder}llms.txt linked from it).` : 'List the pages in the llms.txt, or leave them out on purpose (## Optional for secondary ones).',
    });
  }
  const sources = [inputs.sitemapUrls.length ? 'sitemap' : '', inputs.crawledUrls.length ? 'crawl' : ''].filter(Boolean).join(' and ');
  // Graded by the share listed, as AFDocs grades llms-txt-coverage: 95 % passes, 80 % warns.
  const rate = (known.length - missing) / known.length;
  return resultOf('coverage', `${n(known.length - missing)} of ${count(known.length, 'page')} from the ${sources} listed.`, findings, false, rate >= 0.95 ? 'pass' : rate >= 0.8 ? 'warn' : 'fail', rate);
}
