/**
 * File names inside the export zip, one per page, from the page's URL path. Zips are unpacked by
 * every kind of tool on every OS, so names are made safe for all of them: no `..`, no absolute
 * paths, no characters Windows refuses, no two files whose names differ only in case.
 */

import { decodeSegment as decode, MAX_PATH_CHARS, safeName, shortHash } from './safe-path';

const MAX_SEGMENT = 80;
// A documentation extension the page name loses: intro.html → intro(.md); a loop takes
// index.html.md → index(.md) one at a time.
const DOC_EXTENSION = /\.(?:html?|md|mdx|markdown|php|aspx?|jsp)$/i;

function withoutDocExtensions(name: string): string {
  // Each step looks at the last few characters only, so a name of a thousand ".html" stays linear.
  let end = name.length;
  while (end > 0 && DOC_EXTENSION.test(name.slice(Math.max(0, end - 10), end))) end = name.lastIndexOf('.', end - 1);
  return name.slice(0, end);
}

const isEdge = (char: string): boolean => char === '-' || char === '.';

/** `name` without dashes and dots at either end (and spaces at its end): loops, as the name is page input. */
function trimEdges(name: string): string {
  let start = 0;
  let end = name.length;
  while (start < end && isEdge(name.charAt(start))) start++;
  while (end > start && (isEdge(name.charAt(end - 1)) || /\s/.test(name.charAt(end - 1)))) end--;
  return name.slice(start, end);
}

/**
 * One decoded path segment as a readable file or directory name (letters, digits and a few
 * marks; the rest becomes `-`), then held to the rule every written name keeps (safe-path.ts:
 * device names, bytes); '' when nothing usable is left.
 */
function safeSegment(decoded: string): string {
  let name = trimEdges(decoded.normalize('NFC').replace(/[^\p{L}\p{N}._~+=,@-]+/gu, '-').replace(/-{2,}/g, '-'));
  if (name.length > MAX_SEGMENT) name = trimEdges(name.slice(0, MAX_SEGMENT));
  return safeName(name);
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
  let file = safeSegment(withoutDocExtensions(decode(fileRaw)));
  if (search) file = safeSegment(`${file || 'index'}_${decode(search)}`);
  if (file === '') file = 'index';
  const path = ['pages', ...dirs, `${file}.md`].join('/');
  if (path.length <= MAX_PATH_CHARS) return path;
  // Too deep to unpack on Windows: the folders that fit, and a name that says which page it is.
  const name = `${trimEdges(file.slice(0, 60))}-${shortHash(url)}.md`;
  const kept: string[] = [];
  let length = 'pages/'.length + name.length;
  for (const dir of dirs) {
    if (length + dir.length + 1 > MAX_PATH_CHARS) break;
    kept.push(dir);
    length += dir.length + 1;
  }
  return ['pages', ...kept, name].join('/');
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
