/** `scout lint <file or URL>…`: the validator and the size budget on llms.txt files. */
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { llmsKindOf } from '../lib/discovery/candidates';
import { notFoundReason } from '../lib/fetch/soft-404';
import { fetchText, FetchFailure } from '../lib/fetch/fetch-text';
import { lintLlmsTxt, type LintReport } from '../lib/headless/lint';
import { createNetworkGuard } from '../lib/url/private-network';
import { count, EXIT, isUrl, lintLines, parseUrl, UsageError, type ExitCode, type Io } from './common';
import { commandFetch } from './fetch';

export interface LintOptions {
  inputs: string[];
  /** Where a local file is published, so its relative links resolve as on the site. */
  baseUrl?: string;
  strict: boolean;
  json: boolean;
}

interface Linted {
  input: string;
  url: string;
  /** Set for llms-full.txt files, which are page content: the index rules do not apply. */
  skipped?: string;
  report?: LintReport;
}

const TEXT_ACCEPT = 'text/plain, text/markdown;q=0.9, */*;q=0.5';

async function read(input: string, baseUrl: string | undefined, io: Io, transport: typeof fetch | undefined): Promise<{ text: string; url: string }> {
  if (isUrl(input)) {
    const url = parseUrl(input, 'The file to lint').href;
    io.progress(`Fetching ${url}…`);
    try {
      // The URL's own guard: from a public file, no redirect into the user's network is followed
      // (asked per hop as well, so the refusal names the hop).
      const guard = createNetworkGuard(url);
      const res = await fetchText(url, { fetch: commandFetch(url, transport), timeoutMs: 30_000, accept: TEXT_ACCEPT, credentials: 'omit', checkRedirect: guard });
      const missing = notFoundReason(res);
      if (missing) throw new UsageError(`${url}: ${missing}`);
      return { text: res.text, url: res.finalUrl };
    } catch (error) {
      if (error instanceof FetchFailure) throw new UsageError(`${url}: ${error.reason}`);
      throw error;
    }
  }
  let text: string;
  try {
    text = await readFile(input, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${input}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  // Relative links resolve against where the file is published; without --base-url, a placeholder
  // host (.invalid is reserved: it is never a real site) keeps them web links.
  const url = baseUrl ? new URL(basename(input), parseUrl(baseUrl, '--base-url')).href : `https://llms-txt.invalid/${encodeURIComponent(basename(resolve(input)))}`;
  return { text, url };
}

/** `transport` replaces Node's network under the guard (tests map host names to loopback with it). */
export async function runLint(options: LintOptions, io: Io, transport?: typeof fetch): Promise<ExitCode> {
  if (options.inputs.length === 0) throw new UsageError('lint needs at least one llms.txt file or URL');
  const results: Linted[] = [];
  for (const input of options.inputs) {
    const { text, url } = await read(input, options.baseUrl, io, transport);
    if (llmsKindOf(url) === 'llms-full') {
      results.push({ input, url, skipped: 'llms-full.txt is page content, not an index: the llms.txt rules do not apply' });
      continue;
    }
    results.push({ input, url, report: lintLlmsTxt(text, url) });
  }
  const reports = results.flatMap((r) => (r.report ? [r.report] : []));
  const errors = reports.reduce((sum, r) => sum + r.errors, 0);
  const warnings = reports.reduce((sum, r) => sum + r.warnings, 0);
  const failed = errors > 0 || (options.strict && warnings > 0);
  if (options.json) {
    io.out(JSON.stringify({ ok: !failed, errors, warnings, strict: options.strict, files: results }, null, 2));
  } else {
    for (const r of results) {
      if (r.report) io.out(lintLines(r.input, r.report, { strict: options.strict }).join('\n'));
      else io.out(`skip ${r.input}: ${r.skipped}`);
    }
    if (results.length > 1) io.out(`${failed ? 'FAIL' : 'ok'}: ${count(reports.length, 'file')} linted, ${count(errors, 'error')}, ${count(warnings, 'warning')}`);
  }
  return failed ? EXIT.failed : EXIT.ok;
}
