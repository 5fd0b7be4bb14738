/**
 * Which pages belong in llms.txt's `## Optional` section: the spec's place for links a reader can
 * skip when context is short. These are pages that matter to people browsing a site but rarely
 * to someone asking how to use it: history, legal text, generated indexes, old versions.
 */

// Directory names that name secondary material wherever they appear below the start. Like the
// titles below, they are words, not evidence: they count only for a page the site's own navigation
// does not list as documentation (a chapter "News Feeds" in the contents stays in its part).
const SECONDARY_ANYWHERE = new Set([
  'changelog', 'changelogs', 'change-log', 'release-notes', 'releasenotes', 'releases', 'news', 'blog', 'blogs',
  'legal', 'licenses', 'licences', 'privacy', 'privacy-policy', 'terms-of-service', 'terms-of-use',
  'cookie-policy', 'imprint', 'archive', 'archived', 'archives',
]);
// Sphinx splits its general index into genindex-A.html … genindex-all.html: generated, whatever lists it.
const GENERATED_STEM = /^genindex(?:-.+)?$/;
// Version directories: /v1/, /v2.3/, /1.2/, /2024.1/ — an older copy of the docs; and /old/.
const VERSION_SEGMENT = /^(?:v?\d+(?:\.\d+)+|v\d+|old)$/;
// Titles that say what a page is about when the URL does not (/docs/updates.html titled "Release
// notes"): words again, so only for pages the navigation does not list. Whole titles only where
// the word alone is ambiguous ("Search" the page vs "Search API" the topic).
const SECONDARY_TITLE_START = /^(?:change ?log|release notes|privacy (?:policy|notice)|terms of (?:service|use)|software licen[cs]e)\b/i;
const SECONDARY_TITLE = /^(?:changes|what's changed|news|blog|licen[cs]e|history and license|privacy|terms|legal(?: notice)?|copyright|about these documents|about this (?:site|documentation))$/i;
// Titles a generator gives the pages it makes itself (Javadoc's use pages and hierarchy, Sphinx's
// indexes and search page, a 404): they say what the page is, wherever it is listed.
const GENERATED_TITLE_START = /^(?:uses of (?:class|interface|package|enum|annotation)|no usage of)\b/i;
const GENERATED_TITLE =
  /^(?:index|general index|module index|python module index|search|search results|search page|page not found|404(?: .*)?|all (?:classes|packages|modules)|class hierarchy|hierarchy for all packages|deprecated (?:api|list)|constant field values|serialized form|api help|how this api document is organized)$/i;

/** What the Optional rules read of a page. */
export interface PageFacts {
  finalUrl: string;
  title: string;
  markdown: string;
}

const HEADING = /^(#{1,6})[ \t]+(\S.*)$/;
// A heading's own number ("3.1. Lexical rules", "A.2. Release 3.2") is a position, not a version.
const SECTION_LABEL = /^(?:[A-Z]|\d+)(?:\.\d+)*\.\s+/;
const VERSION = /(?:^|[\s(])v?\d+\.\d+(?:\.\d+)*(?:[-+.]?[a-z]+\d*)?(?=$|[\s),:;])/i;
const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
const DATE = new RegExp(`\\b(?:(?:19|20)\\d\\d-\\d\\d-\\d\\d|${MONTH} \\d{1,2},? (?:19|20)\\d\\d|\\d{1,2} ${MONTH} (?:19|20)\\d\\d)\\b`, 'gi');
// A changelog has at least this many version headings at one level.
const MIN_VERSIONS = 3;

/** The page's headings outside code blocks, with their level. */
function headingsOf(markdown: string): Array<{ level: number; text: string }> {
  const out: Array<{ level: number; text: string }> = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const match = HEADING.exec(line);
    if (!match) continue;
    // A closing run of #s is no part of the text (trimmed by hand: a pattern for it backtracks on long runs).
    let text = (match[2] ?? '').trimEnd();
    while (text.endsWith('#')) text = text.slice(0, -1).trimEnd();
    out.push({ level: (match[1] ?? '#').length, text: text.replace(SECTION_LABEL, '') });
  }
  return out;
}

/**
 * A changelog by its structure: one heading level where most headings name a version ("Release
 * 3.2", "Python 3.11.2 final", "v2.0.1 (2024-03-01)"), at least three of them, and dates in the page.
 * A migration guide has version headings but no release dates; a chapter's numbered headings are
 * positions, not versions.
 */
export function isChangelog(markdown: string): boolean {
  const headings = headingsOf(markdown);
  for (let level = 1; level <= 6; level++) {
    const here = headings.filter((heading) => heading.level === level);
    const versions = here.filter((heading) => VERSION.test(heading.text)).length;
    if (versions >= MIN_VERSIONS && versions * 2 >= here.length) return (markdown.match(DATE)?.length ?? 0) >= 2;
  }
  return false;
}

// The clauses licence texts are made of (MIT, BSD, Apache, the GPL family, PSF): a page holding two
// different ones is a licence, whatever it is called.
// "… is provided [by the copyright holders] "as is"": read by a scan, since a pattern with the
// optional "by …" part before "as is" backtracks polynomially on repeats of its own prefix.
const PROVIDED_AS_IS = {
  test(text: string): boolean {
    const lower = text.toLowerCase();
    for (let at = lower.indexOf(' provided '); at >= 0; at = lower.indexOf(' provided ', at + 1)) {
      if (!/(?:^|\W)(?:is|are)$/.test(lower.slice(Math.max(0, at - 4), at))) continue;
      const rest = lower.slice(at + 10, at + 100);
      if (rest.startsWith('"as is') || rest.startsWith('as is')) return true;
      if (rest.startsWith('by ')) {
        const stop = rest.indexOf('.');
        const clause = stop < 0 ? rest : rest.slice(0, stop);
        if (clause.includes(' as is') || clause.includes('"as is')) return true;
      }
    }
    return false;
  },
};
const LICENSE_CLAUSES = [
  /permission (?:is hereby granted|to use, copy, modify)/i,
  PROVIDED_AS_IS,
  /without (?:any )?warranty|warranties of merchantability/i,
  /in no event shall/i,
  /redistribution and use in source and binary forms/i,
  /licensed under the apache license|gnu (?:lesser |library |affero )?general public license|gnu free documentation license/i,
  /this license agreement|licensee/i,
];

/** A licence text by its clauses (see LICENSE_CLAUSES). */
export function isLicenseText(markdown: string): boolean {
  return LICENSE_CLAUSES.filter((clause) => clause.test(markdown)).length >= 2;
}

/** The path segments of `pathname` below `baseDir` (all of them when it is elsewhere), decoded and lower-cased. */
export function segmentsBelow(pathname: string, baseDir: string): string[] {
  const rest = pathname.startsWith(baseDir) ? pathname.slice(baseDir.length) : pathname;
  return rest.split('/').filter(Boolean).map((segment) => {
    try {
      return decodeURIComponent(segment).toLowerCase();
    } catch {
      return segment.toLowerCase();
    }
  });
}

const DOC_EXTENSION = /^(?:html?|md|mdx|markdown|php|aspx?|txt)$/i;

/**
 * A file name without its documentation extensions: "intro.html.md" → "intro". Read from the end,
 * one extension at a time: as one anchored pattern, a path of many `.md` parts makes it backtrack
 * quadratically.
 */
export function fileStem(segment: string): string {
  let end = segment.length;
  for (;;) {
    const dot = segment.lastIndexOf('.', end - 1);
    if (dot < 0 || !DOC_EXTENSION.test(segment.slice(dot + 1, end))) return segment.slice(0, end);
    end = dot;
  }
}

/**
 * True when the evidence says the page is secondary. What the page is counts wherever it is listed:
 * a changelog or a licence by its structure, a page a generator makes itself (an index, a search
 * page) by its fixed title, a copy of the docs in a version folder below `baseDir` (the directory
 * the site's docs live in, so docs that live under /v2/ as a whole are not all pushed to Optional).
 * Words in the page's folder names or title ("news", "changes", "license") count only when the
 * site's navigation does not list the page (`inNav`): a documentation page the site's own table of
 * contents lists stays in its section, whatever it is called. A file name alone never counts
 * (cookies.html on HTTP cookies, sitemap.html on publishing sitemaps).
 */
export function isSecondaryPage(page: PageFacts, baseDir: string, inNav = false): boolean {
  let pathname: string;
  try {
    pathname = new URL(page.finalUrl).pathname;
  } catch {
    return false;
  }
  const segments = segmentsBelow(pathname, baseDir);
  const stems = segments.map((segment, index) => (index === segments.length - 1 ? fileStem(segment) : segment));
  if (stems.some((stem) => GENERATED_STEM.test(stem))) return true;
  // Only directories count as versions ("/1.2/" yes, "1.2.html" no); a trailing slash makes one.
  const dirs = pathname.endsWith('/') ? segments : segments.slice(0, -1);
  if (dirs.some((segment) => VERSION_SEGMENT.test(segment))) return true;
  const plain = page.title.trim().replace(/[’‘]/g, "'").replace(/(?<![.:])[.:]+$/, '');
  if (GENERATED_TITLE_START.test(plain) || GENERATED_TITLE.test(plain)) return true;
  if (isChangelog(page.markdown) || isLicenseText(page.markdown)) return true;
  if (inNav) return false;
  return dirs.some((stem) => SECONDARY_ANYWHERE.has(stem)) || SECONDARY_TITLE_START.test(plain) || SECONDARY_TITLE.test(plain);
}

// A folder's index page that calls its docs superseded: "Distributing Python Modules (Legacy version)".
const SUPERSEDED_TITLE = /\((?:legacy|deprecated|obsolete|outdated)(?: version| docs| documentation)?\)$|^(?:legacy|deprecated|obsolete)\b/i;

// A folder's landing page, by the names generators give it (Javadoc: package-summary.html).
export const INDEX_STEMS = new Set(['index', 'readme', '_index', 'package-summary']);

/** "/a/b.html" → "/a/"; "/" for an unusable URL. */
export function directoryOf(url: string): string {
  try {
    const path = new URL(url).pathname;
    return path.slice(0, path.lastIndexOf('/') + 1);
  } catch {
    return '/';
  }
}

/**
 * Whether a URL is in a folder whose own index page says it is superseded: such pages are kept,
 * but in Optional, like old versions — a reader wants the current docs first.
 */
export function supersededTest(pages: { finalUrl: string; title: string }[], baseDir: string): (url: string) => boolean {
  const folders = supersededFolders(pages, baseDir);
  return (url) => folders.some((folder) => directoryOf(url).startsWith(folder));
}

function supersededFolders(pages: { finalUrl: string; title: string }[], baseDir: string): string[] {
  const folders: string[] = [];
  for (const page of pages) {
    let pathname: string;
    try {
      pathname = new URL(page.finalUrl).pathname;
    } catch {
      continue;
    }
    const slash = pathname.lastIndexOf('/');
    const folder = pathname.slice(0, slash + 1);
    const isIndex = slash === pathname.length - 1 || INDEX_STEMS.has(fileStem(pathname.slice(slash + 1)));
    // The base folder's index is the site's home: never all of the site.
    if (isIndex && folder !== baseDir && folder.startsWith(baseDir) && SUPERSEDED_TITLE.test(page.title.trim())) folders.push(folder);
  }
  return folders;
}
