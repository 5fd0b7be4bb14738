/**
 * The one rule for every name Scout writes or zips: the Output zip, the publishing kit, download
 * names and `scout generate --out`. Names come from URLs and titles a site chose, so they are
 * untrusted: a folder `..%5C..%5Cevil` decodes to `..\..\evil`, which Windows reads as two steps
 * out of the folder. A name must work on every system the files may be unpacked on, so the rule
 * is the strictest of them: no `.` or `..`, no slash or backslash, no control or invisible
 * formatting character, none of Windows' forbidden characters (`< > : " | ? *`, so no drive
 * letter either), no name Windows reserves (CON, NUL, COM1, `aux.txt`…), no trailing dot or
 * space (Windows drops them, so two names would become one), at most 255 bytes a name and
 * MAX_PATH_CHARS a path.
 *
 * Two uses: `safeName` rewrites a name into one that keeps to the rule (the zip's copies of
 * pages, whose names only need to be distinct), `segmentProblem` / `sitePathProblem` say in words
 * why a name breaks it (files that must sit at their exact path on the site, which a rename would
 * break: those are left out, with the reason). Plain loops and single character classes only:
 * the names are page input, and no pattern here may backtrack on them.
 */

/** Linux and macOS allow 255 bytes a name, Windows 255 UTF-16 units; UTF-8 bytes are never fewer. */
export const MAX_NAME_BYTES = 255;
/**
 * Characters a relative path may have: Windows' classic limit is 260 for the whole path, and the
 * folder the files are unpacked into (`C:\Users\someone\Downloads\docs.example.com-llms-txt\`)
 * takes about 60 of them.
 */
export const MAX_PATH_CHARS = 200;

// Control characters, invisible formatting characters (byte order marks, bidirectional overrides
// that make `exe.md` read as `dm.exe`), separators and what Windows forbids in a name.
const UNSAFE_CHARS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}<>:"/\\|?*]/u;
const UNSAFE_RUN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}<>:"/\\|?*]+/gu;
// Windows' device names, also with an extension ("aux.txt") and with superscript digits.
const RESERVED = /^(?:con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;

const encoder = new TextEncoder();
const byteLength = (text: string): number => encoder.encode(text).length;

/** A short, stable fingerprint (FNV-1a, 32 bits, hex) that keeps two cut names apart. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The part of a name Windows compares with its device names: up to the first dot, without trailing spaces. */
function deviceStem(name: string): string {
  const dot = name.indexOf('.');
  return (dot < 0 ? name : name.slice(0, dot)).trimEnd();
}

const isTrailingJunk = (char: string): boolean => char === '.' || char === ' ' || /\s/u.test(char);

/** `name` without trailing dots and spaces (a loop, not a `$`-anchored pattern: see the module comment). */
function trimTrailing(name: string): string {
  let end = name.length;
  while (end > 0 && isTrailingJunk(name.charAt(end - 1))) end--;
  return name.slice(0, end);
}

/** Why a decoded name cannot be a file or folder name on every system ("a name over 255 bytes"); null when it can. */
export function segmentProblem(name: string): string | null {
  if (name === '') return 'an empty name';
  let dotsOnly = true;
  for (const char of name) if (char !== '.') dotsOnly = false;
  if (dotsOnly) return `the name "${name}", which would step outside the folder`;
  if (UNSAFE_CHARS.test(name)) return 'a slash, backslash, colon, control character or other character Windows does not allow in a name';
  if (name.normalize('NFC') !== name) return 'a name in a Unicode form that macOS would store differently';
  if (name.trim() !== name || trimTrailing(name) !== name) return 'a name that starts or ends with a space or ends with a dot, which Windows drops';
  if (RESERVED.test(deviceStem(name))) return `the name "${name}", which Windows keeps for a device`;
  if (byteLength(name) > MAX_NAME_BYTES) return `a name over ${MAX_NAME_BYTES} bytes`;
  return null;
}

/** The longest start of `text` that fits in `bytes` UTF-8 bytes, cut between characters. */
function cutToBytes(text: string, bytes: number): string {
  let out = '';
  let used = 0;
  for (const char of text) {
    const size = byteLength(char);
    if (used + size > bytes) break;
    out += char;
    used += size;
  }
  return out;
}

/**
 * `name` (decoded) as a name that keeps to the rule, as close to it as possible: forbidden
 * characters become `-`, trailing dots and spaces go, a device name gets `_` (`aux.txt` →
 * `aux_.txt`), and a name over `maxBytes` is cut with a fingerprint of the whole name before its
 * extension, so two long names that start alike stay apart. '' when nothing usable is left
 * (`..`, only forbidden characters).
 */
export function safeName(name: string, maxBytes = MAX_NAME_BYTES): string {
  let out = trimTrailing(name.normalize('NFC').replace(UNSAFE_RUN, '-').trim());
  let dotsOnly = true;
  for (const char of out) if (char !== '.') dotsOnly = false;
  if (dotsOnly) return '';
  const stem = deviceStem(out);
  if (RESERVED.test(stem)) out = `${stem}_${out.slice(stem.length)}`;
  if (byteLength(out) > maxBytes) {
    const dot = out.lastIndexOf('.');
    const extension = dot > 0 && out.length - dot <= 16 ? out.slice(dot) : '';
    const tag = `-${shortHash(name)}`;
    const head = trimTrailing(cutToBytes(out.slice(0, out.length - extension.length), maxBytes - byteLength(tag) - byteLength(extension)));
    out = `${head}${tag}${extension}`;
  }
  return out;
}

/** One URL path segment decoded (`%20` → space); a segment that is not valid percent-encoding is kept as written. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Why a file's path on the site (URL-encoded, "/my%20docs/llms.txt") cannot be written as is
 * below a folder on every system ("its path has …"); null when it can. Each segment is judged decoded, as a web
 * server decodes it when it looks for the file.
 */
export function sitePathProblem(path: string): string | null {
  const segments = path.split('/');
  if (segments[0] === '') segments.shift();
  if (segments.length === 0 || (segments.length === 1 && segments[0] === '')) return 'its path has no file name';
  const decoded: string[] = [];
  for (const segment of segments) {
    const name = decodeSegment(segment);
    const problem = segmentProblem(name);
    if (problem) return `its path has ${problem}`;
    decoded.push(name);
  }
  const length = decoded.join('/').length;
  if (length > MAX_PATH_CHARS) return `its path has ${length} characters, over the ${MAX_PATH_CHARS} a path can have to unpack on Windows`;
  return null;
}

/**
 * A file's path on the site as a relative path to write or zip ("/my%20docs/llms.txt" →
 * "my docs/llms.txt"), or the reason it cannot be one (see `sitePathProblem`). Never rewritten:
 * a file published at another path than the one the site's links name would not be found.
 */
export function relativeSitePath(path: string): { path: string } | { reason: string } {
  const problem = sitePathProblem(path);
  if (problem) return { reason: problem };
  return { path: path.split('/').filter((segment, i) => i > 0 || segment !== '').map(decodeSegment).join('/') };
}

/**
 * The paths already in one zip or folder, to refuse a path that would land on another: the same
 * path apart from letter case (macOS and Windows keep one file for `A.md` and `a.md`), a file
 * where a folder is, or a folder where a file is.
 */
export class PathSet {
  private readonly files = new Set<string>();
  private readonly folders = new Set<string>();
  /** Paths added, as given: the same path again is the same file, not a clash. */
  private readonly exact = new Set<string>();

  /**
   * Adds the file published at `sitePath` ("/my%20docs/llms.txt"), under `prefix` in the zip or
   * folder: where it goes; `again` when that very path is in already (the same file, kept once);
   * or why it cannot go — `clash: false` when the path breaks the rule (relativeSitePath), true
   * when it would land on another file or folder. Never renamed (see relativeSitePath).
   */
  placeSiteFile(sitePath: string, prefix = ''): { path: string } | { again: true } | { reason: string; clash: boolean } {
    const relative = relativeSitePath(sitePath);
    if ('reason' in relative) return { reason: relative.reason, clash: false };
    const path = prefix + relative.path;
    if (this.exact.has(path)) return { again: true };
    const clash = this.claim(path);
    return clash === null ? { path } : { reason: clash, clash: true };
  }

  /** Why `path` (relative, '/'-separated, safe by the rule) cannot be added; null when it is added. */
  claim(path: string): string | null {
    const key = path.normalize('NFC').toLowerCase();
    if (this.files.has(key)) return 'another file has the same path (letter case aside)';
    if (this.folders.has(key)) return 'a folder has the same path';
    const parts = key.split('/');
    const parents: string[] = [];
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      if (this.files.has(parent)) return `a file already has the path of its folder ${path.split('/').slice(0, i).join('/')}`;
      parents.push(parent);
    }
    for (const parent of parents) this.folders.add(parent);
    this.files.add(key);
    this.exact.add(path);
    return null;
  }
}
