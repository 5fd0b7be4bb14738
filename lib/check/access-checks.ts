/**
 * AFDocs' checks on how agents reach the content, with its thresholds and grades (afdocs 0.22.2):
 * llms-txt-links-markdown (do the llms.txt links lead to Markdown), single-fetch-completeness (is
 * a twin whole, or does it say where the rest is, and does that work), auth-alternative-access (a
 * way around a login), bot-protection-interference (answers that turn to refusals as requests add
 * up). The first two ask the site again, politely: a few requests, each with a timeout.
 */
import { parseLlmsTxt } from '../discovery/parse-llms-txt';
import { fetchText, type TextResponse } from '../fetch/fetch-text';
import { markdownTwinCandidates } from '../fetch/page-fetcher';
import { createNetworkGuard } from '../url/private-network';
import type { CheckInputs, RequestRecord } from './gather';
import { count, n, pathOf, pool, resultOf } from './result';
import type { CheckFinding, CheckResult, Grade } from './types';

const TIMEOUT_MS = 8000;
/** Same-site llms.txt links looked at, at most (AFDocs' maxLinksToTest). */
export const MARKDOWN_LINK_LIMIT = 50;

const HTML_SIGNS = [/<!doctype\s/i, /<html[\s>]/i, /<head[\s>]/i, /<body[\s>]/i];

/** True when a line holds `[text](target)`: found by index, one pass, so no text makes it slow. */
function hasInlineLink(line: string): boolean {
  const open = line.indexOf('[');
  if (open < 0) return false;
  const mid = line.indexOf('](', open + 2);
  return mid > open + 1 && line.indexOf(')', mid + 3) > mid + 2;
}

/** True for text that reads as Markdown: a heading, a link or a fence, and no HTML document tags (AFDocs' looksLikeMarkdown). */
export function looksLikeMarkdown(text: string): boolean {
  const head = text.replace(/`[^`\n]+`/g, '``').slice(0, 5000);
  if (HTML_SIGNS.some((p) => p.test(head.slice(0, 2000)))) return false;
  return /^#{1,6}\s+\S/m.test(head) || head.split('\n').some(hasInlineLink) || /^```/m.test(head);
}

const isMarkdownType = (type: string) => type.toLowerCase().includes('text/markdown');

/**
 * llms-txt-links-markdown: the same-site links of the llms.txt files, up to 50. A link to a `.md`
 * file, to a page that answers `Accept: text/markdown` with Markdown, or to a text file that is
 * Markdown counts; nine in ten pass. Below that, pages with a `.md` twin the link could name warn,
 * and none fail.
 */
export async function checkLinksMarkdown(inputs: CheckInputs): Promise<CheckResult> {
  const urls: string[] = [];
  let external = 0;
  for (const file of inputs.llmsFiles) {
    const parsed = parseLlmsTxt(file.text, file.url);
    for (const link of [...parsed.links, ...parsed.detailLinks]) {
      const url = link.url.split('#')[0] ?? link.url;
      let origin = '';
      try {
        const parsedUrl = new URL(url);
        if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') continue;
        origin = parsedUrl.origin;
      } catch {
        continue;
      }
      if (origin !== inputs.origin) external++;
      else if (!urls.includes(url)) urls.push(url);
    }
  }
  if (!urls.length) return resultOf('links-markdown', inputs.llmsFiles.length ? 'No same-site links in the llms.txt files.' : 'No llms.txt to read.', [], true);
  const guard = createNetworkGuard(inputs.pageUrl);
  const get = (url: string, accept: string): Promise<TextResponse | null> => fetchText(url, { fetch: inputs.fetch, timeoutMs: TIMEOUT_MS, accept, maxBytes: 2 << 20, checkRedirect: guard }).catch(() => null);
  const tested = urls.slice(0, MARKDOWN_LINK_LIMIT);
  const results = await pool(tested, 4, async (url): Promise<{ url: string; markdown: boolean; twin?: string }> => {
    const path = new URL(url).pathname;
    if (/\.mdx?$/i.test(path)) return { url, markdown: true };
    const res = await get(url, 'text/markdown');
    if (res && res.status < 400 && isMarkdownType(res.contentType)) return { url, markdown: true };
    if (res && res.status < 400 && path.endsWith('.txt') && looksLikeMarkdown(res.text)) return { url, markdown: true };
    for (const candidate of markdownTwinCandidates(url)) {
      const twin = await get(candidate, 'text/markdown, text/plain;q=0.9');
      if (twin && twin.status >= 200 && twin.status < 300 && !twin.contentType.includes('html')) return { url, markdown: false, twin: candidate };
    }
    return { url, markdown: false };
  });
  const markdown = results.filter((r) => r.markdown).length;
  const twins = results.filter((r) => r.twin);
  const rate = markdown / results.length;
  const grade: Grade = rate >= 0.9 ? 'pass' : twins.length ? 'warn' : 'fail';
  const html = results.filter((r) => !r.markdown);
  const first = twins[0] ?? html[0];
  const findings: CheckFinding[] = grade === 'pass' || !first ? [] : [{
    check: 'links-markdown', severity: grade === 'fail' ? 'error' : 'warning', code: twins.length ? 'links-to-html-with-twins' : 'links-to-html', url: first.url,
    figure: `${n(markdown)} of ${count(results.length, 'link')} to Markdown`, more: html.slice(1, 4).map((r) => r.url),
    message: twins.length
      ? `${n(html.length)} of ${count(results.length, 'llms.txt link')} lead to HTML though ${n(twins.length)} of those pages have a .md twin (first: ${pathOf(first.url)} → ${pathOf(first.twin ?? '')}).`
      : `${n(html.length)} of ${count(results.length, 'llms.txt link')} lead to HTML, and neither the pages nor Accept: text/markdown give Markdown (first: ${pathOf(first.url)}).`,
    fix: twins.length ? 'Link each entry to the page’s .md twin instead of its HTML (the kit’s llms.txt does).' : 'Publish a .md twin of each page and link the llms.txt entries to the twins.',
  }];
  const notes = [urls.length > MARKDOWN_LINK_LIMIT ? `${n(urls.length - MARKDOWN_LINK_LIMIT)} not checked (limit ${n(MARKDOWN_LINK_LIMIT)})` : '', external ? `${n(external)} to other sites not counted` : ''].filter(Boolean).join('; ');
  return resultOf('links-markdown', `${n(markdown)} of ${count(results.length, 'same-site link')} lead to Markdown${notes ? ` (${notes})` : ''}.`, findings, false, grade, grade === 'pass' ? 1 : grade === 'warn' ? 0.25 : 0);
}

// single-fetch-completeness: what says a Markdown answer is one window of something longer.
// Matched against the link text with its arrows and spaces taken off (labelOf): anchored, no nesting.
const EXPLICIT_NEXT = /^(?:next page|next \d+(?: \w+)?|more results|load more|show more)$/i;
const GENERIC_NEXT = /^(?:next|more|continue|see more|view more|older|newer)$/i;
const ARROWS = new Set(['»', '›', '→', '>']);

/** A link's text without the arrows around it, its spaces made single. */
function labelOf(text: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  while (words.length && [...(words[0] ?? '')].every((c) => ARROWS.has(c))) words.shift();
  while (words.length && [...(words[words.length - 1] ?? '')].every((c) => ARROWS.has(c))) words.pop();
  if (words.length) {
    const first = [...(words[0] ?? '')];
    while (first.length && ARROWS.has(first[0] ?? '')) first.shift();
    words[0] = first.join('');
    const last = [...(words[words.length - 1] ?? '')];
    while (last.length && ARROWS.has(last[last.length - 1] ?? '')) last.pop();
    words[words.length - 1] = last.join('');
  }
  return words.filter(Boolean).join(' ');
}
const PAGING_PARAM = /[?&](page|offset|cursor|page_token|pageToken)=([^&#\s]*)/i;
const PAGING_PATH = /\/page\/(\d+)(?=[/?#]|$)/i;
// "Showing 100 of 102", "Page 1 of 5", "25 of 80 results": matched on a line with its marks and label taken off (nOfM).
const SHOWING_N_OF_M = /^(?:showing|displaying|listing|page) (?:the first )?(\d[\d,]*) (?:of|out of) (\d[\d,]*)(?![\w])/i;
const N_OF_M_THINGS = /^(\d[\d,]*) (?:of|out of) (\d[\d,]*) (?:results?|items?|entries|records|rows|pages|shown|displayed|listed|total)(?![\w])/i;
const NOTE_LABEL = /^[A-Za-z][\w ]{0,24}:/;
const LEAD_MARKS = new Set([' ', '\t', '>', '*', '_', '+', '|', '#', '-']);

/** An "N of M" note that opens its line (after list or quote marks and at most a short label), shown below total. */
function nOfM(line: string): boolean {
  let at = 0;
  while (at < line.length && LEAD_MARKS.has(line[at] ?? '')) at++;
  let rest = line.slice(at).split(/\s+/).filter(Boolean).join(' ');
  const label = NOTE_LABEL.exec(rest);
  if (label) rest = rest.slice(label[0].length).trim();
  rest = rest.replace(/^(?:\*\*|__)/, '').trim();
  const m = SHOWING_N_OF_M.exec(rest) ?? N_OF_M_THINGS.exec(rest);
  if (!m) return false;
  const shown = Number((m[1] ?? '').replace(/,/g, ''));
  const total = Number((m[2] ?? '').replace(/,/g, ''));
  return Number.isFinite(shown) && Number.isFinite(total) && shown < total;
}

/**
 * The inline links of a text, `[text](target "title")`, found by index rather than one pattern:
 * linear however the brackets fall. A label runs at most 200 characters on one line.
 */
export function inlineLinks(text: string): Array<{ label: string; url: string; offset: number; image: boolean }> {
  const out: Array<{ label: string; url: string; offset: number; image: boolean }> = [];
  let from = 0;
  for (let mid = text.indexOf('](', from); mid >= 0; mid = text.indexOf('](', from)) {
    from = mid + 2;
    const open = text.lastIndexOf('[', mid);
    if (open < 0 || mid - open > 201) continue;
    const label = text.slice(open + 1, mid);
    if (label.includes(']') || label.includes('\n')) continue;
    const close = text.indexOf(')', mid + 2);
    if (close < 0) continue;
    const inside = text.slice(mid + 2, close).trim();
    const url = (inside.split(/\s/)[0] ?? '').replace(/^<|>$/g, '');
    if (!url || inside.includes('\n')) continue;
    out.push({ label, url, offset: open, image: text[open - 1] === '!' });
    from = close + 1;
  }
  return out;
}

/** How near the top a continuation must be declared: 10 % of the text, between 1,000 and 5,000 characters. */
export const topLimit = (length: number): number => Math.min(5000, Math.max(1000, Math.floor(length / 10)));

function laterWindow(url: string): boolean {
  const param = PAGING_PARAM.exec(url);
  if (param) {
    const name = (param[1] ?? '').toLowerCase();
    const value = param[2] ?? '';
    return name === 'page' ? Number(value) >= 2 : name === 'offset' ? Number(value) > 0 : value.length > 0;
  }
  const path = PAGING_PATH.exec(url);
  return path ? Number(path[1]) >= 2 : false;
}

export interface Pagination {
  signals: number;
  continuation?: { url: string; resolved: string | null; absolute: boolean; offset: number };
}

/** The pagination signals of a Markdown text and the continuation an agent would follow (the earliest). */
export function detectPagination(markdown: string, baseUrl: string): Pagination {
  // Code holds examples, not declarations: blank it, keeping offsets.
  const text = markdown.replace(/```[\s\S]*?```|~~~[\s\S]*?~~~|`[^`\n]*`/g, (m) => m.replace(/[^\n]/g, ' '));
  const host = new URL(baseUrl).host;
  const stripExt = (path: string) => path.replace(/\/$/, '').replace(/\.(?:mdx?|html?)$/i, '');
  let signals = 0;
  const candidates: NonNullable<Pagination['continuation']>[] = [];
  for (const link of inlineLinks(text)) {
    if (link.image) continue;
    const label = labelOf(link.label);
    const { url } = link;
    let resolved: URL | null = null;
    try {
      resolved = new URL(url, baseUrl);
    } catch {
      resolved = null;
    }
    const absolute = /^https?:\/\//i.test(url);
    const onSite = !absolute || resolved?.host === host;
    if (!onSite) continue;
    const paged = PAGING_PARAM.test(url) || PAGING_PATH.test(url);
    const base = new URL(baseUrl);
    const sameDocOtherQuery = resolved !== null && resolved.host === base.host && stripExt(resolved.pathname) === stripExt(base.pathname) && resolved.search !== base.search;
    if (EXPLICIT_NEXT.test(label) || (GENERIC_NEXT.test(label) && (paged || sameDocOtherQuery)) || (paged && laterWindow(url))) {
      signals++;
      candidates.push({ url, resolved: resolved?.href ?? null, absolute, offset: link.offset });
    }
  }
  for (const line of text.split('\n')) if (nOfM(line)) signals++;
  const continuation = candidates.sort((a, b) => a.offset - b.offset)[0];
  return { signals, ...(continuation ? { continuation } : {}) };
}

/**
 * single-fetch-completeness: each twin (the Markdown the check fetched) either is whole, or says
 * where the rest is with a link that works. A partial twin without a working continuation fails; a
 * working one declared late or by a relative address warns.
 */
export async function checkSingleFetch(inputs: CheckInputs): Promise<CheckResult> {
  const twins = inputs.pages.flatMap((p) => p.twins.filter((t) => t.found && t.text !== undefined).slice(0, 1));
  if (!twins.length) return resultOf('single-fetch', 'No Markdown twin to read.', [], true);
  const guard = createNetworkGuard(inputs.pageUrl);
  const graded = await pool(twins, 4, async (twin): Promise<{ url: string; grade: Grade; why?: string; figure?: string }> => {
    const text = twin.text ?? '';
    const found = detectPagination(text, twin.url);
    if (!found.signals) return { url: twin.url, grade: 'pass' };
    const next = found.continuation;
    if (!next) return { url: twin.url, grade: 'fail', why: 'says it is partial but links no continuation', figure: `${count(found.signals, 'pagination sign')}` };
    if (!next.resolved) return { url: twin.url, grade: 'fail', why: `links a continuation that is no address (“${next.url}”)` };
    const res = await fetchText(next.resolved, { fetch: inputs.fetch, timeoutMs: TIMEOUT_MS, accept: /\.mdx?$/i.test(new URL(next.resolved).pathname) ? '*/*' : 'text/markdown', maxBytes: 2 << 20, checkRedirect: guard }).catch(() => null);
    const broken = !res ? 'no answer' : res.status >= 400 ? `HTTP ${res.status}` : !res.text.trim() ? 'an empty answer' : res.contentType.includes('html') || HTML_SIGNS.some((p) => p.test(res.text.slice(0, 2000))) ? 'HTML, not Markdown' : res.text.trim() === text.trim() ? 'the same text again' : '';
    if (broken) return { url: twin.url, grade: 'fail', why: `links a continuation that answers ${broken} (${pathOf(next.resolved)})` };
    const late = next.offset > topLimit(text.length);
    if (late || !next.absolute) return { url: twin.url, grade: 'warn', why: `declares its continuation ${[late ? `only at ${Math.round((next.offset / text.length) * 100)} % of the text` : '', !next.absolute ? 'by a relative address' : ''].filter(Boolean).join(' and ')}`, figure: pathOf(next.resolved) };
    return { url: twin.url, grade: 'pass' };
  });
  const findings = graded.filter((g) => g.grade !== 'pass').map((g): CheckFinding => ({
    check: 'single-fetch', severity: g.grade === 'fail' ? 'error' : 'warning', code: g.grade === 'fail' ? 'partial-twin' : 'fragile-continuation', url: g.url, ...(g.figure ? { figure: g.figure } : {}),
    message: `${pathOf(g.url)} ${g.why}: ${g.grade === 'fail' ? 'an agent takes part of the page for all of it' : 'an agent that reads only the start, or the text without its address, misses the rest'}.`,
    fix: g.grade === 'fail' ? 'Serve the whole page in one answer, or link the next part by its full address near the top.' : 'Link the next part by its full address in the first lines of the text.',
  }));
  const grade: Grade = graded.some((g) => g.grade === 'fail') ? 'fail' : graded.some((g) => g.grade === 'warn') ? 'warn' : 'pass';
  const partial = graded.filter((g) => g.grade !== 'pass' || g.why).length;
  return resultOf('single-fetch', `${count(twins.length, 'twin')} read; ${partial ? `${n(partial)} in parts` : 'each whole in one answer'}.`, findings, false, grade, graded.reduce((sum, g) => sum + (g.grade === 'pass' ? 1 : g.grade === 'warn' ? 0.6 : 0), 0) / graded.length);
}

/**
 * auth-alternative-access: when pages need a login, is there a way around it? A public llms.txt
 * is an index only (warn); public Markdown (twins or negotiation), or most pages open, pass; nothing
 * fails. Not applicable when no page needs a login.
 */
export function checkAuthAlternative(inputs: CheckInputs, results: CheckResult[]): CheckResult {
  const gate = results.find((r) => r.id === 'auth-gate');
  if (!gate || gate.status === 'pass' || gate.status === 'na') return resultOf('auth-alternative', 'No page needs a login.', [], true);
  const answered = inputs.pages.filter((p) => p.status !== undefined).length;
  const open = Math.round((gate.proportion ?? 0) * answered);
  const status = (id: string) => results.find((r) => r.id === id)?.status;
  const paths: string[] = [];
  if (inputs.llmsFiles.length) paths.push('a public llms.txt');
  const markdown = status('twins') === 'pass' || status('twins') === 'warn' || status('accept') === 'pass' || status('accept') === 'warn';
  if (markdown) paths.push('public Markdown');
  if (open > 0) paths.push(`${n(open)} of ${count(answered, 'page')} open`);
  const grade: Grade = !paths.length ? 'fail' : markdown || (answered > 0 && open / answered >= 0.5) ? 'pass' : 'warn';
  const findings: CheckFinding[] = grade === 'pass' ? [] : [{
    check: 'auth-alternative', severity: grade === 'fail' ? 'error' : 'warning', code: grade === 'fail' ? 'no-alternative-access' : 'index-only-access', url: inputs.pageUrl,
    figure: paths.join(', ') || 'none found',
    message: grade === 'fail' ? 'Pages need a login and nothing public stands in for them: agents read none of the documentation.' : 'Pages need a login; agents find the public index but not the content.',
    fix: 'Publish .md twins (or an llms-full.txt) of the documentation where no login is needed, or open the pages themselves.',
  }];
  return resultOf('auth-alternative', paths.length ? `Behind the login, agents still have ${paths.join(', ')}.` : 'No way around the login found.', findings, false, grade);
}

/** Answers that refuse a client (rate limits, denials, an overloaded or guarded server), or no answer at all. */
const refused = (r: RequestRecord) => r.error === true || r.status === 429 || r.status === 403 || r.status === 503;

/**
 * bot-protection-interference, from the check's own requests in the order made. As AFDocs reads its
 * ledger: refusals (429, 403, 503, no answer) are interference when they grow with the requests —
 * the last third refused at least one time in five and three times as often as the first third,
 * twice or more. Then half the requests refused, or half of those from the first refusal past the
 * first third on (ten or more), fails; less warns; and so does a site that refuses only with 429,
 * which an agent can see and wait out. Refusals from the first request on are a gate, not
 * interference (auth-gate-detection has them). AFDocs also recognizes challenge pages and stalled
 * bodies by their vendors' words and timings; Scout reads no site's words (docs/check.md).
 */
export function checkBotProtection(inputs: CheckInputs): CheckResult {
  const records = inputs.requests;
  if (!records.length) return resultOf('bot-protection', 'No request was made.', [], true);
  const failed = records.filter(refused).length;
  const summary = `${count(records.length, 'request')} made; ${n(failed)} refused or unanswered.`;
  const third = Math.floor(records.length / 3);
  if (records.length < 6 || !third) return resultOf('bot-protection', summary, []);
  const earlyRate = records.slice(0, third).filter(refused).length / third;
  const lateFailures = records.slice(records.length - third).filter(refused).length;
  const lateRate = lateFailures / third;
  if (!(lateFailures >= 2 && lateRate >= 0.2 && lateRate >= earlyRate * 3)) return resultOf('bot-protection', summary, []);
  const onset = records.findIndex((r, i) => i >= third && refused(r));
  const after = records.slice(Math.max(0, onset));
  const afterFailures = after.filter(refused).length;
  const visibleOnly = records.filter(refused).every((r) => r.status === 429);
  const sustained = !visibleOnly && ((failed >= 5 && failed / records.length >= 0.5) || (after.length >= 10 && afterFailures >= 5 && afterFailures / after.length >= 0.5));
  const first = after.find(refused);
  const grade: Grade = sustained ? 'fail' : 'warn';
  return resultOf('bot-protection', summary, [{
    check: 'bot-protection', severity: sustained ? 'error' : 'warning', code: sustained ? 'blocked-after-onset' : visibleOnly ? 'rate-limited' : 'refusals-grow', url: first?.url,
    figure: `${Math.round(earlyRate * 100)} % refused in the first third, ${Math.round(lateRate * 100)} % in the last${first?.status ? `; first HTTP ${first.status}` : ''}`,
    message: sustained
      ? `After ${n(onset)} requests the site refused most of the rest: an agent reading several pages is shut out.`
      : visibleOnly ? `After ${n(onset)} requests the site answered 429 (too many requests): agents that read several pages must wait.` : 'The site refused more requests as the check went on: agents that read several pages run into the same.',
    fix: visibleOnly ? 'Send Retry-After with each 429, and allow documentation pages a reading agent’s pace.' : 'Let documentation pages through bot protection for reading agents (allow their user agents, or rate-limit with 429 and Retry-After instead of blocking).',
  }], false, grade);
}
