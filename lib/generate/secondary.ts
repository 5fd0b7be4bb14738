/**
 * Which pages belong in llms.txt's `## Optional` section: the spec's place for links a reader can
 * skip when context is short. These are pages that matter to people browsing a site but rarely
 * to someone asking how to use it: history, legal text, generated indexes, old versions.
 */

// Directory or file names that name secondary material wherever they appear below the start.
const SECONDARY_ANYWHERE = new Set([
  'changelog', 'changelogs', 'change-log', 'release-notes', 'releasenotes', 'releases', 'news', 'blog', 'blogs',
  'legal', 'licenses', 'licences', 'privacy', 'privacy-policy', 'terms-of-service', 'terms-of-use',
  'cookie-policy', 'imprint', 'archive', 'archived', 'archives',
]);
// Names that only mark the page itself: a /search/ or /about/ directory can hold real docs
// (Elasticsearch's search guides), a search.html or about.html page is the site's own furniture.
const SECONDARY_FILES = new Set([
  'license', 'licence', 'copyright', 'about', 'bugs', 'terms', 'tos', 'cookies', 'changes', 'search',
  'search-results', 'genindex', 'py-modindex', 'modindex', 'sitemap', '404',
]);
// Sphinx splits its general index into genindex-A.html … genindex-all.html.
const SECONDARY_STEM = /^(?:genindex-.+|.+-(?:changelog|release-notes))$/;
// Version directories: /v1/, /v2.3/, /1.2/, /2024.1/ — an older copy of the docs; and /old/.
const VERSION_SEGMENT = /^(?:v?\d+(?:\.\d+)+|v\d+|old)$/;
// Titles that say the same when the URL does not (/docs/updates.html titled "Release notes").
// Whole titles only where the word alone is ambiguous ("Search" the page vs "Search API" the topic).
const SECONDARY_TITLE_START = /^(?:change ?log|release notes|privacy (?:policy|notice)|terms of (?:service|use)|software licen[cs]e|uses of (?:class|interface|package|enum|annotation)|no usage of)\b/i;
const SECONDARY_TITLE =
  /^(?:changes|what's changed|news|blog|licen[cs]e|history and license|privacy|terms|legal(?: notice)?|copyright|about these documents|about this (?:site|documentation)|index|general index|module index|python module index|search|search results|search page|page not found|all (?:classes|packages|modules)|class hierarchy|hierarchy for all packages|deprecated (?:api|list)|constant field values|serialized form|api help|how this api document is organized)$/i;

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
 * True when the page looks secondary: by a path segment below `baseDir`, the directory the site's
 * docs live in (so docs that live under /v2/ or /blog/ as a whole are not all pushed to
 * Optional), or by title.
 */
export function isSecondaryPage(pageUrl: string, title: string, baseDir: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(pageUrl).pathname;
  } catch {
    return false;
  }
  const segments = segmentsBelow(pathname, baseDir);
  const stems = segments.map((segment, index) => (index === segments.length - 1 ? fileStem(segment) : segment));
  if (stems.some((stem) => SECONDARY_ANYWHERE.has(stem) || SECONDARY_STEM.test(stem))) return true;
  const file = stems.at(-1);
  // A directory URL ("/about/") names its index page, so its last segment counts as the file too.
  if (file !== undefined && SECONDARY_FILES.has(file)) return true;
  // Only directories count as versions ("/1.2/" yes, "1.2.html" no); a trailing slash makes one.
  const dirs = pathname.endsWith('/') ? segments : segments.slice(0, -1);
  if (dirs.some((segment) => VERSION_SEGMENT.test(segment))) return true;
  const plain = title.trim().replace(/[’‘]/g, "'").replace(/(?<![.:])[.:]+$/, '');
  return SECONDARY_TITLE_START.test(plain) || SECONDARY_TITLE.test(plain);
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
