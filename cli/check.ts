/**
 * `scout check <url>`: discovery from a page, the linter on every llms.txt found, and the side
 * panel's agent-readiness checks (lib/check/), printed as the Check view lists them.
 */
import { reportLines, reportMarkdown } from '../lib/check/report';
import { scoreOf } from '../lib/check/score';
import { checkSite, type CheckedFile } from '../lib/headless/check';
import { count, EXIT, lintLines, parseUrl, UsageError, type ExitCode, type Io } from './common';
import { commandFetch } from './fetch';

export interface CheckOptions {
  url: string;
  strict: boolean;
  /** List the locations that were looked at and had nothing. */
  verbose: boolean;
  json: boolean;
  /** Print the Check view's Markdown export instead of the text report. */
  markdown?: boolean;
  /** The day the report carries (YYYY-MM-DD); default today. */
  date?: string;
  /** Crawl the site first (as `generate` does) and count its pages for coverage and sampling, as the panel's "Include the crawl". */
  crawl?: boolean;
  maxPages?: number;
  /** Exit 1 below this score (0–100), 0 at or above it, whatever else failed: a site's CI gate. */
  minScore?: number;
}

/** The page URLs a crawl from `pageUrl` stores: the panel's optional crawl, in Node (on the memory store). */
async function crawledUrls(pageUrl: string, fetcher: typeof fetch, maxPages: number | undefined, io: Io): Promise<string[]> {
  const [{ MemoryStore }, { BodySpill }, { crawlSite }, { crawledUrlsOf }] = await Promise.all([import('../lib/store/store'), import('../lib/store/memory/body-spill'), import('../lib/headless/crawl-site'), import('../lib/check/check-job')]);
  // The pages wait on disk, not in the heap, as in `scout generate`.
  const db = new MemoryStore({ spill: new BodySpill() });
  try {
    const result = await crawlSite({ db, startUrl: pageUrl, fetch: fetcher, rendering: true, settings: maxPages ? { maxPages } : {}, onProgress: io.progress });
    return await crawledUrlsOf(db, result.job.origin);
  } finally {
    db.close();
  }
}

const LABEL: Record<CheckedFile['kind'], string> = { llms: 'llms.txt', 'well-known': 'llms.txt (/.well-known, not in the spec)', 'llms-full': 'llms-full.txt', markdown: 'Markdown twin', robots: 'robots.txt', sitemap: 'sitemap' };

function describe(file: CheckedFile): string {
  const how = file.sources.join(', ');
  const facts = [how, ...(file.best ? ['covers the page'] : []), ...(file.parentUrl ? [`linked from ${file.parentUrl}`] : [])];
  if (file.status !== 'found') return `${file.url} (${facts.join('; ')}): ${file.reason ?? file.status}`;
  if (file.kind === 'sitemap') return `${file.url}: ${count(file.urlCount ?? 0, 'URL')}`;
  if (file.kind === 'robots') return `${file.url}: names ${count(file.urlCount ?? 0, 'sitemap')}`;
  return `${file.url} (${facts.join('; ')})${file.bytes !== undefined && !file.lint ? `: ${file.bytes.toLocaleString('en')} bytes` : ''}`;
}

/** Every request goes through the page's network guard (commandFetch); tests pass a loopback `transport` to go under it. */
export async function runCheck(options: CheckOptions, io: Io, transport?: typeof fetch): Promise<ExitCode> {
  const pageUrl = parseUrl(options.url, 'The page to check').href;
  const fetcher = commandFetch(pageUrl, transport);
  const now = options.date ? new Date(`${options.date}T12:00:00Z`) : undefined;
  if (now && Number.isNaN(now.getTime())) throw new UsageError(`--date must be a day as YYYY-MM-DD, got "${options.date}"`);
  io.progress(`Checking ${pageUrl}…`);
  const crawled = options.crawl ? await crawledUrls(pageUrl, fetcher, options.maxPages, io) : undefined;
  const result = await checkSite({ pageUrl, fetch: fetcher, onProgress: io.progress, ...(now ? { now } : {}), ...(crawled ? { crawledUrls: crawled } : {}) });
  const reached = result.files.some((f) => f.status !== 'error');
  if (!reached) {
    const reason = result.files[0]?.reason ?? 'no answer';
    throw new UsageError(`Could not reach ${new URL(pageUrl).origin}: ${reason}`);
  }
  const findings = result.report.findings;
  const score = scoreOf(result.report);
  const failed = options.minScore !== undefined
    ? score.overall < options.minScore
    : result.llmsFound === 0 || result.withErrors > 0 || findings.some((f) => f.severity === 'error')
      || (options.strict && (result.warnings > 0 || findings.some((f) => f.severity === 'warning')));
  if (options.markdown) {
    io.out(reportMarkdown(result.report));
    return failed ? EXIT.failed : EXIT.ok;
  }
  if (options.json) {
    io.out(JSON.stringify({ ok: !failed, strict: options.strict, ...(options.minScore !== undefined ? { minScore: options.minScore } : {}), score, ...result }, null, 2));
    return failed ? EXIT.failed : EXIT.ok;
  }
  const lines = [`Checked ${pageUrl}: ${count(result.files.length, 'location')} in ${result.ms.toLocaleString('en')} ms`];
  for (const file of result.files) {
    if (file.lint) lines.push(...lintLines(`${LABEL[file.kind]} ${describe(file)}`, file.lint, { strict: options.strict }));
    else if (file.status === 'found') lines.push(`     ${LABEL[file.kind]} ${describe(file)}`);
    else if (file.status !== 'missing' || options.verbose) lines.push(`     ${LABEL[file.kind]} ${file.status === 'missing' ? 'missing' : file.status}: ${describe(file)}`);
  }
  const missing = result.files.filter((f) => f.status === 'missing').length;
  if (missing && !options.verbose) lines.push(`     (${count(missing, 'other location')} looked at and not found; --verbose lists them)`);
  if (result.overCap) lines.push(`     ${count(result.overCap, 'more linked llms file')} not fetched (cap reached)`);
  const verdict =
    result.llmsFound === 0 ? 'FAIL: no llms.txt found for this page'
    : `${failed ? 'FAIL' : 'ok'}: ${count(result.llmsFound, 'llms.txt file')} found, ${result.withErrors} with errors (${count(result.errors, 'error')}, ${count(result.warnings, 'warning')})`;
  lines.push(verdict, '', 'Agent readiness (the side panel’s Check view):', ...reportLines(result.report));
  if (options.minScore !== undefined) lines.push(`${failed ? 'FAIL' : 'ok'}: score ${score.overall} ${failed ? 'below' : 'at or above'} --min-score ${options.minScore}`);
  io.out(lines.join('\n'));
  return failed ? EXIT.failed : EXIT.ok;
}
