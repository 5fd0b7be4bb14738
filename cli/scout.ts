#!/usr/bin/env -S npx tsx
/**
 * llms.txt Scout on the command line, for a site's CI: the extension's own discovery, crawler,
 * converter, generator and validator (lib/) in Node. Arguments in, lib/ called, results printed:
 * results on stdout, progress on stderr. Run: npx tsx cli/scout.ts --help
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SETTINGS, MAX_PAGES_LIMIT } from '../lib/crawl/settings';
import { DEFAULT_OUTPUT_SETTINGS, MAX_BUDGET, MIN_BUDGET } from '../lib/generate/output-settings';
import { HARD_LIMIT_CHARS, RECOMMENDED_CHARS } from '../lib/check/budget';
import { EXIT, intOption, UsageError, type ExitCode, type Io } from './common';
import { boundHeapGrowth, boundYoungGeneration } from './heap';

const n = (v: number) => v.toLocaleString('en');

/** Firecrawl's self-hosted API listens on 3002: a script's apiUrl for a local Firecrawl works unchanged. */
const DEFAULT_SERVE_PORT = 3002;

const EXIT_CODES = `Exit codes:
  0  clean
  1  errors found (lint, check), no llms.txt found (check), nothing generated (generate), or no
     page of the site answered (generate --refresh)
  2  bad usage, or an input that cannot be read (missing file, unreachable site, a folder that is
     not a docs folder Scout generated, for --refresh; a port serve cannot listen on)
  3  an unexpected failure (a bug in Scout)`;

const SEVERITIES = `Errors (exit 1):
  missing-h1, empty-file       no "# Title" line / nothing in the file
  non-link-line                a line in a "## " section that is not "- [name](url)": the reference parser fails
  over-hard-limit              over ${n(HARD_LIMIT_CHARS)} characters: agents' tools cut the file
Warnings (exit 1 only with --strict):
  over-budget                  over ${n(RECOMMENDED_CHARS)} characters, the size an agent should read whole
  the other spec and reference-parser rules: several H1s, multi-line summary, H3 in a section,
  duplicate or invalid links, notes without ": ", links outside sections, a misspelled Optional…
Notes never fail: a missing summary, long link names, a very large file.`;

const HELP: Record<string, string> = {
  main: `llms.txt Scout, command line: the browser extension's engine for a site's CI.

Usage:
  scout lint <llms.txt file or URL>...        validate llms.txt files (spec v2, reference parser, size)
  scout generate <url|folder> --out <dir>     crawl a site (or a built site on disk) and write llms.txt files
  scout generate --refresh --out <dir>        re-check a docs folder's pages (304s for unchanged) and update it
  scout check <url>                           find a site's llms.txt files from a page and validate each
  scout mcp <folder>...                       serve docs folders to a coding agent (MCP over stdio)
  scout serve [--port N] [--host ADDR]        Firecrawl's llms.txt API on this machine, for scripts using its SDK

Options for every command:
  --json       machine-readable results on stdout
  --quiet      no progress on stderr
  -h, --help   this help; "scout <command> --help" for a command's options

${EXIT_CODES}

Run from a checkout: npx tsx cli/scout.ts <command> …  (or npm run scout -- <command> …)`,

  lint: `Usage: scout lint <llms.txt file or URL>... [--base-url <url>] [--strict] [--json]

Lints each llms.txt with the validator the extension's panel shows (lib/generate/validate.ts) and its
size against the agent budget. llms-full.txt files are listed and skipped (page content, not an index).

  --base-url <url>  where a local file is published (relative links resolve against it)
  --strict          warnings fail too (exit 1)

${SEVERITIES}

${EXIT_CODES}`,

  generate: `Usage: scout generate <url|folder> --out <dir> [options]
       scout generate [<url|folder>] --refresh --out <docs folder>

Crawls the site with the extension's crawler (discovery first, then the crawl seeded from the site's
llms.txt files and sitemaps), converts pages to Markdown and writes llms.txt and llms-full.txt — and
per-section nested llms.txt files when the flat file is over the budget — to <dir>, laid out by their
paths on the site (<dir> is the site's root). The extension's default settings unless changed below.
A folder is read from disk as the site published at --base-url, with no server.

  --out <dir>            where to write the files (required)
  --base-url <url>       folder input: the URL the folder is published at (required for a folder)
  --start <path|url>     folder input: the page to start from (default: --base-url itself)
  --clean-urls           folder input: answer /a from /a.html or /a/index.html, as Netlify/Vercel do
                         (default: a folder without its slash redirects to it, as nginx/GitHub Pages do)
  --date <YYYY-MM-DD>    the date the files say they were generated on (default: today; for
                         reproducible output)
  --max-pages <n>        default ${DEFAULT_SETTINGS.maxPages} (at most ${n(MAX_PAGES_LIMIT)})
  --max-depth <n>        link hops from the start page, default ${DEFAULT_SETTINGS.maxDepth}
  --scope <docs|host|path|site>  default ${DEFAULT_SETTINGS.scope}: the documentation, as Scout works it out
                         from the start page's sidebar, llms.txt files and versions (printed before
                         the crawl); host: this host only; path: under the start page's folder;
                         site: the registrable domain with its subdomains
  --include <glob>       only URLs matching (repeatable)
  --exclude <glob>       never URLs matching (repeatable)
  --ignore-robots        do not honour robots.txt (default: honoured)
  --budget <chars>       characters an llms.txt may have before it is nested, default ${n(DEFAULT_OUTPUT_SETTINGS.budget)}
  --flat                 always one flat llms.txt, however large
  --for-agents           also write each page as Markdown (pages/) and manifest.json: a docs folder
                         for coding agents ("scout mcp <dir>"; docs/docs-folder.md)
  --refresh              bring a docs folder that --for-agents wrote up to date instead of crawling
                         again: each page asked for with its ETag / Last-Modified (a 304 when it did
                         not change), the llms.txt files and the pages that changed written again,
                         pages that are gone deleted, the refresh time in manifest.json. Takes only
                         --out (and --date, --json); a folder-generated site needs its folder again:
                           scout generate --refresh --out ./python-docs
                           scout generate ./public --refresh --out ./docs-folder

Client-rendered pages (single-page apps) are stored as fetched, with the reason: rendering them in
tabs needs the extension. docsify sites are read from their Markdown, as the extension reads them.

${EXIT_CODES}`,

  check: `Usage: scout check <url> [--crawl [--max-pages N]] [--strict] [--verbose] [--min-score N] [--format text|json|markdown] [--date YYYY-MM-DD]

Discovery as the extension's Discovered tab runs it from <url>: llms.txt, llms-full.txt and llms.md
in the page's folder and every folder above it, rel=describedby links and Link: headers, the page's
Markdown twin, /.well-known/llms.txt, robots.txt and sitemaps, and the same-site llms files those
link to. Every llms.txt found is linted as "scout lint" does. Then the agent-readiness checks of
the extension's Check view, on the same findings: size budget, llms.txt links that fail, entries
without descriptions, sitemap pages in no llms.txt, rel=describedby and rel=alternate on sampled
pages, the llms.txt directive in pages and twins, .md twins (v1 and v2) and their parity with the
pages, Accept: text/markdown, robots.txt, code fences in twins, a missing page's status (one
request), redirects, caching headers, page sizes, twins' link forms, pages behind a login. A
0-100 score, overall and per category, weighs the checks as AFDocs (the Agent-Friendly
Documentation Spec checker) does.

  --strict    warnings fail too
  --min-score N  exit 1 when the score is below N (0-100), 0 at or above it, whatever else failed
  --verbose   also list the locations that were looked at and not found
  --crawl     crawl the site first (as generate does) and count its pages for coverage and
              sampling, as the panel's "Include the crawl" does; --max-pages bounds it
  --format    text (default), json, or markdown: the report as the Check view exports it
              (--json and --markdown say the same)
  --date      the day the Markdown report carries (default today)

Exit 1 when no llms.txt is found, one has errors, or a check finds an error; with --min-score,
when the score is below it.

${SEVERITIES}

${EXIT_CODES}`,

  mcp: `Usage: scout mcp <folder>...

An MCP server over stdio for coding agents (Claude Code, Cursor, VS Code…), serving one or more
docs folders: the Output tab's "Docs for agents" export unpacked, or what
"scout generate <site> --out <folder> --for-agents" writes. Offline: it reads only the folders,
and reads a folder again when its manifest.json changes. Search indexes are saved in
SCOUT_CACHE_DIR (default ~/.cache/llms-txt-scout/search-index) for the next start. Tools:

  list_docs      the documentation sets: name, site, pages, sections, crawl time
  search_docs    full-text search (BM25 over each page's sections; site and section filters):
                 each result with its source URL, page, heading and a snippet
  read_page      a page as Markdown, whole or one section by its heading
  get_llms_txt   a set's llms.txt (or a nested one by its path)

Claude Code:  claude mcp add scout-docs -- node /path/to/llms-txt-scout/cli/bin.mjs mcp /path/to/folder
The protocol is on stdout; messages go to stderr. Exit 1 when a folder cannot be served (why on stderr).`,

  serve: `Usage: scout serve [--port <n>] [--host <address>]

A local HTTP service with Firecrawl's llms.txt API shape, so a script using Firecrawl's SDK
(generateLLMsText, asyncGenerateLLMsText, checkGenerateLLMsTextStatus) switches to Scout by
pointing its API URL here:

  POST /v1/llmstxt        {"url": "...", "maxUrls": 10, "showFullText": false}  →  {"success": true, "id": "..."}
  GET  /v1/llmstxt/{id}   →  {"success", "status": "processing"|"completed"|"failed",
                               "data": {"llmstxt", "llmsfulltxt"}, "error", "expiresAt"}

Each job is "scout generate"'s crawl (Scout's default settings, maxUrls as --max-pages, the
flat llms.txt), one at a time, others waiting in order. Results are kept in
memory for 24 hours. Any API key is accepted and ignored. What differs from Firecrawl: docs/serve.md.

  --port <n>        default ${DEFAULT_SERVE_PORT} (Firecrawl's self-hosted port); 0 picks a free one
  --host <address>  default 127.0.0.1 (this machine only). Another address lets others on the
                    network start crawls from your machine: only on a network you trust.

Prints the URL it listens on (stdout), each job's start and end (stderr). Ctrl-C stops it.
Exit 0 when stopped, 2 when it cannot listen (port in use, bad address).`,
};

const OPTIONS = {
  json: { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  strict: { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
  markdown: { type: 'boolean', default: false },
  crawl: { type: 'boolean', default: false },
  'base-url': { type: 'string' },
  out: { type: 'string' },
  start: { type: 'string' },
  'clean-urls': { type: 'boolean', default: false },
  date: { type: 'string' },
  'max-pages': { type: 'string' },
  'max-depth': { type: 'string' },
  scope: { type: 'string' },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'ignore-robots': { type: 'boolean', default: false },
  budget: { type: 'string' },
  flat: { type: 'boolean', default: false },
  'for-agents': { type: 'boolean', default: false },
  refresh: { type: 'boolean', default: false },
  port: { type: 'string' },
  host: { type: 'string' },
  'min-score': { type: 'string' },
  format: { type: 'string' },
} as const;

/** Which options each command takes (the shared ones aside): any other is a usage error. */
const ALLOWED: Record<string, string[]> = {
  lint: ['base-url', 'strict'],
  check: ['strict', 'verbose', 'markdown', 'date', 'crawl', 'max-pages', 'min-score', 'format'],
  serve: ['port', 'host'],
  generate: ['base-url', 'out', 'start', 'clean-urls', 'date', 'max-pages', 'max-depth', 'scope', 'include', 'exclude', 'ignore-robots', 'budget', 'flat', 'for-agents', 'refresh'],
};
const SHARED = new Set(['json', 'quiet', 'help']);
/** What `generate --refresh` takes: the crawl's own settings are in the folder. */
const REFRESH_OPTIONS = new Set([...SHARED, 'refresh', 'out', 'date']);

/** `--format`, or the older `--json` / `--markdown` it stands for; two that disagree are a usage error. */
function checkFormat(format: string | undefined, json: boolean, markdown: boolean): 'text' | 'json' | 'markdown' {
  if (format !== undefined && format !== 'text' && format !== 'json' && format !== 'markdown') throw new UsageError(`--format must be text, json or markdown, got "${format}"`);
  const asked = [format, json ? 'json' : undefined, markdown ? 'markdown' : undefined].filter((f): f is 'text' | 'json' | 'markdown' => f !== undefined);
  if (new Set(asked).size > 1) throw new UsageError(`Choose one format: ${[...new Set(asked)].map((f) => `--format ${f}`).join(' or ')}`);
  return asked[0] ?? 'text';
}

function parseDate(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--date must be a date like 2026-01-31, got "${value}"`);
  return date;
}

async function main(argv: string[], io: Io & { quiet: (q: boolean) => void }): Promise<ExitCode> {
  const { values, positionals, tokens } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
  io.quiet(values.quiet);
  const [command, ...rest] = positionals;
  if (!command) {
    io.out(HELP.main ?? '');
    return values.help ? EXIT.ok : EXIT.usage;
  }
  const help = HELP[command];
  if (command === 'main' || help === undefined) throw new UsageError(`Unknown command "${command}". Commands: lint, generate, check, mcp, serve (scout --help)`);
  if (values.help) {
    io.out(help);
    return EXIT.ok;
  }
  const allowed = new Set([...(ALLOWED[command] ?? []), ...SHARED]);
  for (const token of tokens) {
    if (token.kind === 'option' && !allowed.has(token.name)) throw new UsageError(`${command} does not take --${token.name} (scout ${command} --help)`);
  }

  // Each command's modules load only when it runs: --help and usage errors answer at once.
  if (command === 'lint') return (await import('./lint')).runLint({ inputs: rest, ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}), strict: values.strict, json: values.json }, io);
  if (command === 'mcp') {
    if (!rest.length) throw new UsageError('mcp takes one or more docs folders: scout mcp ./python-docs');
    return (await import('./mcp')).runMcp(rest, io);
  }
  if (command === 'serve') {
    if (rest.length) throw new UsageError(`serve takes no arguments, got "${rest.join(' ')}" (the site to crawl comes with each request)`);
    const port = intOption(values.port, 'port', 0, 65_535) ?? DEFAULT_SERVE_PORT;
    const host = values.host ?? '127.0.0.1';
    if (!host.trim()) throw new UsageError('--host must be an address to listen on, e.g. 127.0.0.1');
    return (await import('./serve')).runServe({ port, host }, io);
  }
  if (command === 'check') {
    if (rest.length !== 1 || !rest[0]) throw new UsageError('check takes one URL: scout check https://docs.example.com/');
    const format = checkFormat(values.format, values.json, values.markdown);
    const minScore = intOption(values['min-score'], 'min-score', 0, 100);
    return (await import('./check')).runCheck({ url: rest[0], strict: values.strict, verbose: values.verbose, json: format === 'json', markdown: format === 'markdown', crawl: values.crawl, maxPages: intOption(values['max-pages'], 'max-pages', 1, MAX_PAGES_LIMIT), ...(values.date ? { date: values.date } : {}), ...(minScore !== undefined ? { minScore } : {}) }, io);
  }
  if (values.refresh) {
    if (!values.out) throw new UsageError('--refresh needs --out <dir>: the docs folder to refresh');
    const crawlOptions = tokens.filter((t) => t.kind === 'option' && !REFRESH_OPTIONS.has(t.name)).map((t) => (t.kind === 'option' ? `--${t.name}` : ''));
    if (crawlOptions.length) throw new UsageError(`--refresh re-checks the pages of the crawl that wrote the folder, with its settings: it does not take ${[...new Set(crawlOptions)].join(', ')}`);
    if (rest.length > 1) throw new UsageError('generate --refresh takes at most one URL or folder: the site (or the built folder) the docs folder was generated from');
    const date = parseDate(values.date);
    return (await import('./refresh')).runRefresh({ out: values.out, ...(rest[0] ? { input: rest[0] } : {}), ...(date ? { date } : {}), json: values.json }, io);
  }
  if (rest.length !== 1 || !rest[0]) throw new UsageError('generate takes one URL or folder: scout generate ./public --base-url https://docs.example.com/ --out ./public');
  if (!values.out) throw new UsageError('generate needs --out <dir>: where to write llms.txt and llms-full.txt');
  const scope = values.scope;
  if (scope !== undefined && scope !== 'docs' && scope !== 'site' && scope !== 'host' && scope !== 'path') throw new UsageError(`--scope must be docs, host, path or site, got "${scope}"`);
  const maxPages = intOption(values['max-pages'], 'max-pages', 1, MAX_PAGES_LIMIT);
  const maxDepth = intOption(values['max-depth'], 'max-depth', 0, 50);
  const budget = intOption(values.budget, 'budget', MIN_BUDGET, MAX_BUDGET);
  const date = parseDate(values.date);
  return (await import('./generate')).runGenerate({
    input: rest[0],
    out: values.out,
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    ...(values.start ? { start: values.start } : {}),
    cleanUrls: values['clean-urls'],
    ...(date ? { date } : {}),
    settings: {
      ...(maxPages !== undefined ? { maxPages } : {}),
      ...(maxDepth !== undefined ? { maxDepth } : {}),
      ...(scope ? { scope } : {}),
      ...(values.include ? { include: values.include } : {}),
      ...(values.exclude ? { exclude: values.exclude } : {}),
      ...(values['ignore-robots'] ? { respectRobots: false } : {}),
    },
    output: { ...(budget !== undefined ? { budget } : {}), ...(values.flat ? { layout: 'flat' as const } : {}) },
    json: values.json,
    forAgents: values['for-agents'],
  }, io);
}

let quiet = false;
const io = {
  out: (line: string) => void process.stdout.write(`${line}\n`),
  progress: (line: string) => void (quiet || process.stderr.write(`${line}\n`)),
  quiet: (q: boolean) => void (quiet = q),
};

/** Exits once stdout has taken everything (a pipe to a CI log may still be draining). */
const exit = (code: number) => void process.stdout.write('', () => process.exit(code));

boundHeapGrowth();
boundYoungGeneration();
main(process.argv.slice(2), io).then(exit, (error: unknown) => {
  // parseArgs throws TypeErrors with a code for unknown options and missing values: usage errors too.
  const usage = error instanceof UsageError || (error instanceof TypeError && String((error as { code?: unknown }).code ?? '').startsWith('ERR_PARSE_ARGS'));
  process.stderr.write(`scout: ${error instanceof Error && usage ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exit(usage ? EXIT.usage : EXIT.crashed);
});
