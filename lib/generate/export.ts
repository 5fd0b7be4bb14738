/**
 * What the user takes away: the two files, a zip with every page as Markdown, file names for
 * downloads, and how a site's published llms.txt compares with what the crawl found.
 */
import { strToU8, zipSync, type Zippable } from 'fflate';
import type { ParsedLlmsTxt } from '../discovery/parse-llms-txt';
import { chromeStripper, learnChrome, type ChromeModel } from './boilerplate';
import { decodeSegment, PathSet, relativeSitePath, safeName } from './safe-path';
import type { Curation } from './types';
import { pagePath, uniquePaths } from './zip-paths';

/** A page as it goes into the zip. */
export interface ExportPage {
  url: string;
  title: string;
  description?: string;
  markdown: string;
  tokens?: number;
}

/**
 * The stored pages the zip and pages.json hold: not those stored without text, nor those the
 * evidence says are not documentation (a blog post, a forum thread) unless the user brought them
 * back in the Review, as llms.txt and llms-full.txt leave them out too.
 */
export function exportablePages<T extends { key: string; empty?: string; notDocs?: string }>(pages: T[], curation?: Pick<Curation, 'included'>): T[] {
  const included = new Set(curation?.included ?? []);
  return pages.filter((page) => !page.empty && (!page.notDocs || included.has(page.key)));
}

/** One row of pages.json: where each page came from and where it is in the zip. */
export interface ExportPageMeta {
  url: string;
  title: string;
  description: string | null;
  tokens: number | null;
  path: string;
}

/**
 * A zip of `llms.txt`, `llms-full.txt`, `pages.json` (metadata) and `pages/<url path>.md`, one per
 * page, in the order given, without the chrome the site repeats on every page (see boilerplate.ts). `nested` adds the nested llms.txt and llms-full.txt files at their
 * paths on the site (`library/llms.txt`…), so the zip unpacks onto the site's root ready to
 * upload. Every name keeps to safe-path.ts: a page's copy is renamed when it must be (pages.json
 * says which page each file holds); a nested file whose path on the site cannot be a file
 * everywhere is left out, as a renamed one would not be where its links point, and
 * `left-out.txt` says which and why. Built in memory: the whole export is at most tens of megabytes.
 */
export function buildZip(input: ZipInput): Uint8Array {
  return buildZipWithNotes(input).data;
}

export interface ZipInput {
  host: string;
  llmsTxt: string;
  llmsFullTxt: string;
  pages: ExportPage[];
  nested?: Array<{ path: string; text: string }>;
  /** The chrome llms-full.txt left out of each page (the version's, `outputChrome`); without one it is learned from `pages`. */
  chrome?: ChromeModel;
}

/** `buildZip`, and the files it left out with why ("/a%5Cb/llms.txt: left out, its path has …"), for the panel to say. */
export function buildZipWithNotes(input: ZipInput): { data: Uint8Array; leftOut: string[] } {
  const paths = uniquePaths(input.pages.map((page) => pagePath(page.url)));
  const meta: ExportPageMeta[] = input.pages.map((page, index) => ({
    url: page.url,
    title: page.title,
    description: page.description ?? null,
    tokens: page.tokens ?? null,
    path: paths[index] ?? '',
  }));
  const files: Zippable = {
    'llms.txt': strToU8(input.llmsTxt),
    'llms-full.txt': strToU8(input.llmsFullTxt),
    'pages.json': strToU8(`${JSON.stringify(meta, null, 2)}\n`),
  };
  const taken = new PathSet();
  for (const name of Object.keys(files)) taken.claim(name);
  // A stored row without its text (damaged, half-migrated) would be an empty file in the zip: say
  // which page it is instead, so the export bar shows why and nothing is saved short.
  const textless = input.pages.find((page) => typeof page.markdown !== 'string');
  if (textless) throw new Error(`the stored page ${textless.url} has no text`);
  // Each page as llms-full.txt has it: without the site's repeated header, nav bars and footer.
  const stripChrome = chromeStripper(input.chrome ?? learnChrome(input.pages.map((page) => page.markdown)));
  input.pages.forEach((page, index) => {
    const path = paths[index];
    if (path && taken.claim(path) === null) files[path] = strToU8(stripChrome(page.markdown));
  });
  const leftOut: string[] = [];
  for (const file of input.nested ?? []) {
    const place = taken.placeSiteFile(file.path);
    // The root files are in already: the same path again is no news.
    if ('again' in place) continue;
    if ('path' in place) files[place.path] = strToU8(file.text);
    else leftOut.push(`${file.path}: left out, ${place.reason}`);
  }
  if (leftOut.length) files['left-out.txt'] = strToU8(`Files of the layout this zip does not hold, and why:\n\n${leftOut.join('\n')}\n`);
  return { data: zipSync(files, { level: 6 }), leftOut };
}

/**
 * A file's path on the site as a path in the zip or a folder: decoded (the folder "my docs" for
 * /my%20docs/), without the leading slash; '' when it cannot be a file on every system (a `..`
 * or a backslash in it: see safe-path.ts, whose `relativeSitePath` also says why).
 */
export function sitePath(path: string): string {
  const relative = relativeSitePath(path);
  return 'path' in relative ? relative.path : '';
}

/** A host as a file-name prefix: lower-case letters, digits, dots and dashes only ("docs.example.com:8080" → "docs.example.com-8080"). */
function safeHost(host: string): string {
  const name = host.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/-{2,}/g, '-').replace(/^[-.]+|(?<![-.])[-.]+$/g, '');
  return name || 'site';
}

const SUFFIXES = { llms: 'llms.txt', 'llms-full': 'llms-full.txt', zip: 'llms-txt.zip', json: 'pages.json', kit: 'publishing-kit.zip', check: 'agent-check.md' } as const;

/** Download names that say which site they are for: `docs.example.com-llms.txt`, `…-llms-full.txt`, `…-llms-txt.zip`, `…-pages.json`, `…-publishing-kit.zip`, `…-agent-check.md`. */
export function exportFileName(host: string, kind: keyof typeof SUFFIXES): string {
  return safeName(`${safeHost(host)}-${SUFFIXES[kind]}`);
}

/** A download name for a file of the nested layout: `/library/llms-full.txt` → `docs.example.com-library-llms-full.txt`. */
export function siteFileName(host: string, path: string): string {
  const segments = path.split('/').map(decodeSegment).filter((segment) => segment.replace(/\./g, '') !== '');
  const flat = segments.join('-').replace(/[^\p{L}\p{N}._-]+/gu, '-');
  return safeName(`${safeHost(host)}-${flat || 'llms.txt'}`);
}

/** A download name for a context pack: `docs.example.com-library-context-128k.md`. */
export function packFileName(host: string, scope: string, budget: number): string {
  const label = budget >= 1_000_000 ? `${budget / 1_000_000}m` : `${Math.round(budget / 1000)}k`;
  const slug = scope.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|(?<!-)-+$/g, '').slice(0, 40);
  return safeName(`${safeHost(host)}-${slug ? `${slug}-` : ''}context-${label}.md`);
}

/**
 * A URL reduced to what names the page, for comparing listings: no scheme, fragment, trailing
 * slash, `index` file or documentation extension (`.md`, `.html.md`, `.html`), so /a.html,
 * /a.html.md, /a.md and /a match, and /guide/, /guide/index.html and /guide/index.md do too.
 */
export function comparableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    let path = parsed.pathname.replace(/(?:\.html?)?(?:\.md|\.mdx)?$/i, '').replace(/\/index$/i, '/');
    if (path.length > 1) path = path.replace(/(?<!\/)\/+$/, '');
    return `${parsed.host}${path || '/'}${parsed.search}`;
  } catch {
    return url.trim();
  }
}

/**
 * Compares a site's published llms.txt with the generated pages: `listed` and `missing` are the
 * generated URLs it does and does not list, `extra` the links it has that the crawl did not
 * store (pages outside the crawl, other sites, nested llms.txt files). Links before the first
 * section count too: many real files list everything straight under the title.
 */
export function coverage(published: ParsedLlmsTxt, generatedUrls: string[]): { listed: string[]; missing: string[]; extra: string[] } {
  return coverageOfUrls([...published.links, ...published.detailLinks].map((link) => link.url), generatedUrls);
}

/** `coverage` from the URLs the published file lists (all the panel keeps of it). */
export function coverageOfUrls(publishedUrls: string[], generatedUrls: string[]): { listed: string[]; missing: string[]; extra: string[] } {
  const publishedKeys = new Set(publishedUrls.map(comparableUrl));
  const generatedKeys = new Set(generatedUrls.map(comparableUrl));
  const listed = generatedUrls.filter((url) => publishedKeys.has(comparableUrl(url)));
  const missing = generatedUrls.filter((url) => !publishedKeys.has(comparableUrl(url)));
  const seen = new Set<string>();
  const extra = publishedUrls.filter((url) => {
    const key = comparableUrl(url);
    if (generatedKeys.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { listed, missing, extra };
}
