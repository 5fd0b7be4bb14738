/**
 * Checks on how the site answers, from what the check fetched already (plus one request per site
 * for a page that cannot exist): AFDocs' http-status-codes (soft 404s), redirect-behavior and
 * cache-header-hygiene, and markdown-code-fence-validity on the twins.
 */
import type { CacheHeaders, CheckInputs, SampledPage } from './gather';
import { count, n, pathOf, resultOf } from './result';
import type { CheckFinding, CheckResult, Grade } from './types';

/** A page that does not exist answered 404 (or 410…), or a 200 that agents take for content. */
export function checkNotFound(inputs: CheckInputs): CheckResult {
  const probe = inputs.notFound;
  if (!probe) return resultOf('not-found', 'Not asked.', [], true);
  if (probe.error || probe.status === undefined) return resultOf('not-found', `${pathOf(probe.url)} could not be asked: ${probe.error ?? 'no answer'}.`, [], true);
  const status = probe.status;
  const redirected = probe.finalUrl && probe.finalUrl !== probe.url ? `, after a redirect to ${pathOf(probe.finalUrl)}` : '';
  if (status >= 400 && status < 500) return resultOf('not-found', `${pathOf(probe.url)}, a page that does not exist, answers HTTP ${status}${redirected}.`, []);
  // A 5xx or 202 says nothing about how the site answers for a missing page.
  if (status >= 500 || status === 202) return resultOf('not-found', `${pathOf(probe.url)} answers HTTP ${status}: how the site answers for a missing page is unknown.`, [], true);
  return resultOf('not-found', `${pathOf(probe.url)}, a page that does not exist, answers HTTP ${status}${redirected}.`, [{
    check: 'not-found', severity: 'warning', code: 'soft-404', url: probe.url, figure: `HTTP ${status}${redirected ? ` via ${pathOf(probe.finalUrl ?? '')}` : ''}`,
    message: `A page that does not exist answers HTTP ${status}: agents following a stale link read the “not found” page as if it were the page.`,
    fix: 'Answer missing pages with HTTP 404 (the not-found page can stay as the body).',
  }], false, 'fail', 0);
}

// A page whose only job is to send the browser elsewhere: agents that do not run scripts stay put.
// Written so recheck can decide them by automaton (no lookahead, no span from `<meta` to
// `http-equiv` over any attribute text), whatever the machine's load: the meta refresh is looked
// for tag by tag, and "an assignment, not a comparison" is `=` followed by anything but `=`.
const SCRIPT_REDIRECT = /(?:window|document)\.location\s*=(?:[^=]|$)|location\.href\s*=(?:[^=]|$)|location\.(?:replace|assign)\s*\(/i;
const META_TAG = /<meta\b[^<>]*/gi;
const META_REFRESH = /\bhttp-equiv\s*=\s*["']?refresh/i;

const redirectsBySelf = (html: string) => SCRIPT_REDIRECT.test(html) || [...html.matchAll(META_TAG)].some(([tag]) => META_REFRESH.test(tag));

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
};

/** Sampled pages that redirect: to the same host passes, to another warns, by script or meta refresh fails. */
export function checkRedirects(inputs: CheckInputs): CheckResult {
  const pages = inputs.pages.filter((p) => !p.error);
  if (!pages.length) return resultOf('redirects', 'No page could be read.', [], true);
  const findings: CheckFinding[] = [];
  let moved = 0;
  let credit = 0;
  for (const page of pages) {
    const cross = page.finalUrl !== page.url && hostOf(page.finalUrl) !== hostOf(page.url);
    if (page.finalUrl !== page.url) moved++;
    if (page.html && redirectsBySelf(page.html.slice(0, 20_000))) {
      findings.push({
        check: 'redirects', severity: 'warning', code: 'script-redirect', url: page.finalUrl,
        message: `${pathOf(page.finalUrl)} sends readers on with a script or a meta refresh: agents that do not run scripts read the empty page.`,
        fix: 'Redirect with an HTTP 301 or 308 from the server instead.',
      });
    } else if (cross) {
      credit += 0.6;
      findings.push({
        check: 'redirects', severity: 'warning', code: 'cross-host-redirect', url: page.url, figure: `→ ${page.finalUrl}`,
        message: `${page.url} redirects to another host, ${hostOf(page.finalUrl)}: some agents do not follow redirects across hosts.`,
        fix: 'Link and list the final address, so no redirect is needed.',
      });
    } else credit += 1;
  }
  const grade: Grade = findings.some((f) => f.code === 'script-redirect') ? 'fail' : findings.length ? 'warn' : 'pass';
  return resultOf('redirects', `${n(moved)} of ${count(pages.length, 'sampled page')} redirected by HTTP; ${count(findings.filter((f) => f.code === 'script-redirect').length, 'script redirect')}.`, findings, false, grade, credit / pages.length);
}

/** Seconds a response may be served from a cache without asking the site again; null when no header says. */
function maxAgeOf(cache: CacheHeaders, now: number): number | null {
  const directives = (cache.cacheControl ?? '').toLowerCase().split(',').map((d) => d.trim());
  const value = (name: string) => {
    const d = directives.find((x) => x.startsWith(`${name}=`));
    const v = d ? Number.parseInt(d.slice(name.length + 1), 10) : Number.NaN;
    return Number.isNaN(v) ? null : v;
  };
  const shared = value('s-maxage') ?? value('max-age');
  if (shared !== null) return shared;
  const expires = cache.expires ? Date.parse(cache.expires) : Number.NaN;
  return Number.isNaN(expires) ? null : Math.max(0, Math.round((expires - now) / 1000));
}

/** An hour keeps a page fresh for agents; a day is long; past that a fix may take days to reach them. */
const FRESH_S = 3600;
const STALE_S = 86_400;

type CacheGrade = { grade: Grade; why: string };

function gradeCache(cache: CacheHeaders | undefined, now: number): CacheGrade {
  if (!cache) return { grade: 'fail', why: 'no Cache-Control, Expires, ETag or Last-Modified' };
  const directives = (cache.cacheControl ?? '').toLowerCase();
  const validator = Boolean(cache.etag || cache.lastModified);
  if (/\bno-(?:cache|store)\b/.test(directives)) return { grade: 'pass', why: cache.cacheControl ?? '' };
  if (/\bmust-revalidate\b/.test(directives) && validator) return { grade: 'pass', why: `${cache.cacheControl}, with a validator` };
  const age = maxAgeOf(cache, now);
  if (age === null) return validator ? { grade: 'pass', why: cache.etag ? 'ETag' : 'Last-Modified' } : { grade: 'fail', why: `no lifetime and no validator (${cache.cacheControl ?? cache.expires ?? ''})` };
  if (age <= FRESH_S) return { grade: 'pass', why: `max-age ${n(age)} s` };
  return { grade: age <= STALE_S ? 'warn' : 'fail', why: `cached for ${n(age)} s` };
}

/** The sampled pages' caching headers: fresh within an hour, or revalidated. */
export function checkCache(inputs: CheckInputs, now = Date.now()): CheckResult {
  const pages = inputs.pages.filter((p) => !p.error && p.status !== undefined);
  if (!pages.length) return resultOf('cache', 'No page could be read.', [], true);
  const graded = pages.map((p: SampledPage) => ({ page: p, ...gradeCache(p.cache, now) }));
  const single = (g: (typeof graded)[number]): CheckFinding => g.page.cache
    ? { check: 'cache', severity: 'warning', code: 'long-cache', url: g.page.finalUrl, figure: g.why, message: `${pathOf(g.page.finalUrl)} may be served from caches for longer than an hour: a fix reaches agents late.`, fix: 'Send “Cache-Control: max-age=3600” or less, or an ETag with must-revalidate.' }
    : { check: 'cache', severity: 'warning', code: 'no-cache-headers', url: g.page.finalUrl, figure: g.why, message: `${pathOf(g.page.finalUrl)} comes with no caching headers: caches and agents guess how long it stays fresh.`, fix: 'Send “Cache-Control: max-age=3600” (or less) and an ETag or Last-Modified with every page.' };
  const bad = graded.filter((g) => g.grade !== 'pass');
  // Past a few pages it is the server's setting: one finding, its first page's header as the figure.
  const template = (list: typeof bad, what: string): CheckFinding[] => {
    const [first] = list;
    if (!first || list.length <= 3) return list.map(single);
    const one = single(first);
    return [{ ...one, more: list.slice(1, 4).map((g) => g.page.finalUrl), figure: `${first.why}; ${n(list.length)} of ${count(pages.length, 'sampled page')}`, message: `${n(list.length)} of ${count(pages.length, 'sampled page')} ${what} (first: ${pathOf(first.page.finalUrl)}).` }];
  };
  const findings = [...template(bad.filter((g) => !g.page.cache), 'come with no caching headers: caches and agents guess how long they stay fresh'), ...template(bad.filter((g) => g.page.cache), 'may be served from caches for longer than an hour: a fix reaches agents late')];
  const grade: Grade = graded.some((g) => g.grade === 'fail') ? 'fail' : graded.some((g) => g.grade === 'warn') ? 'warn' : 'pass';
  const proportion = graded.reduce((sum, g) => sum + (g.grade === 'pass' ? 1 : g.grade === 'warn' ? 0.5 : 0), 0) / graded.length;
  return resultOf('cache', `${n(graded.length - bad.length)} of ${count(pages.length, 'sampled page')} fresh within an hour or revalidated.`, findings, false, grade, proportion);
}

// Lines come split, so the info string is the rest of the line; one class before the mark keeps it linear.
const FENCE = /^[ \t>]*(`{3,}|~{3,})(.*)/;

/** Line numbers (1-based) of code fences a twin opens and never closes: everything after reads as code. */
export function unclosedFences(markdown: string): number[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let fence: { mark: string; line: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE.exec(lines[i] ?? '');
    const mark = m?.[1];
    if (!mark) continue;
    const info = m[2] ?? '';
    if (!fence) {
      // A backtick fence's info string may not hold a backtick (CommonMark): "```a`b" is text.
      if (!(mark[0] === '`' && info.includes('`'))) fence = { mark, line: i + 1 };
    } else if (mark[0] === fence.mark[0] && mark.length >= fence.mark.length && !info.trim()) fence = null;
  }
  return fence ? [fence.line] : [];
}

/** The twins' code fences: one left open turns the rest of the page into code. */
export function checkFences(inputs: CheckInputs): CheckResult {
  const twins = inputs.pages.flatMap((p) => p.twins.filter((t) => t.found && t.text !== undefined).slice(0, 1));
  if (!twins.length) return resultOf('fences', 'No Markdown twin to read.', [], true);
  let fences = 0;
  const findings: CheckFinding[] = [];
  for (const twin of twins) {
    const text = twin.text ?? '';
    fences += text.split('\n').filter((l) => FENCE.test(l)).length;
    const open = unclosedFences(text);
    if (open[0] !== undefined) {
      findings.push({
        check: 'fences', severity: 'warning', code: 'unclosed-fence', url: twin.url, line: open[0],
        message: `${pathOf(twin.url)} opens a code block on line ${open[0]} and never closes it: everything after reads as code.`,
        fix: 'Close the code block with the same fence (``` or ~~~) it opened with.',
      });
    }
  }
  const proportion = (twins.length - findings.length) / twins.length;
  return resultOf('fences', `${count(twins.length, 'twin')} read, ${count(fences, 'fence line')}; ${n(findings.length)} with a block left open.`, findings, false, findings.length ? 'fail' : 'pass', proportion);
}

/** A sampled page behind a login: 401/403, or a page whose content is a password form. */
function gateOf(page: SampledPage): 'required' | 'form' | null {
  if (page.status === 401 || page.status === 403) return 'required';
  // A password field is the structure of a login form, in any language; words are not looked at.
  if (page.html && /<input\b[^<>]*\btype\s*=\s*["']?password\b/i.test(page.html.slice(0, 100_000))) return 'form';
  return null;
}

/**
 * AFDocs' auth-gate-detection, by structure only: pages that answer 401 or 403, and pages that
 * answer with a password form instead of their content (after a redirect or not). Agents carry no
 * login, so a gated page is a page they cannot read.
 */
export function checkAuthGate(inputs: CheckInputs): CheckResult {
  const pages = inputs.pages.filter((p) => p.status !== undefined);
  if (!pages.length) return resultOf('auth-gate', 'No page answered.', [], true);
  const gated = pages.map((p) => ({ page: p, gate: gateOf(p) })).filter((g) => g.gate);
  const findings: CheckFinding[] = gated.map(({ page, gate }) => ({
    check: 'auth-gate', severity: 'error', code: gate === 'required' ? 'login-required' : 'login-form', url: page.url,
    figure: gate === 'required' ? `HTTP ${page.status}` : `password form${page.finalUrl !== page.url ? ` at ${pathOf(page.finalUrl)}` : ''}`,
    message: gate === 'required' ? `${pathOf(page.url)} answers HTTP ${page.status}: agents, which carry no login, cannot read it.` : `${pathOf(page.url)} answers with a login form instead of its content: agents cannot read it.`,
    fix: 'Publish the documentation without a login, or publish its llms.txt and Markdown twins where agents can read them.',
  }));
  // Past a few pages it is the site's setting: one finding names the first.
  const shown = findings.length > 3 ? [{ ...(findings[0] as CheckFinding), more: findings.slice(1, 4).flatMap((f) => (f.url ? [f.url] : [])), message: `${n(findings.length)} of ${count(pages.length, 'sampled page')} need a login (first: ${pathOf(findings[0]?.url ?? '')}, ${findings[0]?.figure}).` }] : findings;
  const grade: Grade = !gated.length ? 'pass' : gated.length < pages.length ? 'warn' : 'fail';
  const proportion = gated.reduce((sum, g) => sum - (g.gate === 'form' && g.page.finalUrl === g.page.url ? 0.5 : 1), pages.length) / pages.length;
  return resultOf('auth-gate', `${n(pages.length - gated.length)} of ${count(pages.length, 'sampled page')} open without a login.`, shown, false, grade, proportion);
}
