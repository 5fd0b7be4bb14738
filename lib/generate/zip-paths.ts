/**
 * File names inside the export zip, one per page, from the page's URL path. Zips are unpacked by
 * every kind of tool on every OS, so names are made safe for all of them: no `..`, no absolute
 * paths, no characters Windows refuses, no two files whose names differ only in case.
 */

// Windows refuses these names whatever the extension ("con.md" included).
const RESERVED = /^(?:con|prn|aux|nul|com\d|lpt\d)$/i;
const MAX_SEGMENT = 80;
// Documentation extensions the page name loses: intro.html → intro(.md), index.html.md → index(.md).
const DOC_EXTENSIONS = /(?:\.(?:html?|md|mdx|markdown|php|aspx?|jsp))+$/i;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** One decoded path segment as a safe file or directory name; '' when nothing usable is left. */
function safeSegment(decoded: string): string {
  let name = decoded
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._~+=,@-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.\s]+$/g, '');
  if (name.length > MAX_SEGMENT) name = name.slice(0, MAX_SEGMENT).replace(/[-.]+$/, '');
  if (RESERVED.test(name)) name = `${name}_`;
  return name;
}

/**
 * "pages/<path>.md" for a page URL: /guide/intro.html → pages/guide/intro.md, /guide/ →
 * pages/guide/index.md, / → pages/index.md, /p?id=3 → pages/p_id=3.md. Not unique on its own:
 * see `uniquePaths`.
 */
export function pagePath(url: string): string {
  let pathname = '/';
  let search = '';
  try {
    const parsed = new URL(url);
    pathname = parsed.pathname;
    search = parsed.search.slice(1);
  } catch {
    // An unusable URL is still a page the user wants in the zip: it gets a plain name.
    pathname = `/${url}`;
  }
  const raw = pathname.split('/');
  const isDirectory = pathname.endsWith('/');
  const fileRaw = isDirectory ? 'index' : (raw.pop() ?? '');
  // `.` and `..` (also as %2e%2e) are dropped rather than followed: the zip stays one flat tree.
  const dirs = raw.map((segment) => safeSegment(decode(segment))).filter((segment) => segment !== '' && !/^\.+$/.test(segment))
    // No directory may end in ".md", so a directory can never share its name with a page file.
    .map((segment) => (/\.md$/i.test(segment) ? `${segment}_` : segment));
  let file = safeSegment(decode(fileRaw).replace(DOC_EXTENSIONS, ''));
  if (search) file = safeSegment(`${file || 'index'}_${decode(search)}`);
  if (file === '') file = 'index';
  return ['pages', ...dirs, `${file}.md`].join('/');
}

/**
 * The same list with later repeats renamed `name-2.md`, `name-3.md`… Compared case-insensitively,
 * because macOS and Windows would unpack `A.md` and `a.md` onto one file.
 */
export function uniquePaths(paths: string[]): string[] {
  const taken = new Set<string>();
  return paths.map((path) => {
    let candidate = path;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = path.replace(/\.md$/, `-${n}.md`);
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
