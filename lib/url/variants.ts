/**
 * Versions and languages of a documentation site, read from URL paths: Read the Docs serves
 * `/en/stable/`, `/ja/latest/`, `/pt-br/3.2/`; other hosts `/v2/`, `/3.11/`, `/next/`, `/dev/`. A
 * crawl that follows every version switcher and language menu stores the same docs many times,
 * so by default it stays in the start page's version and language (see createScope).
 *
 * A segment counts only where the start page has one of the same kind at the same position: a
 * folder named `dev/` or `it/` elsewhere on a site is left alone.
 */

// Language tags documentation sites use as path segments (ISO 639-1, with common regions).
const LANGUAGES = new Set([
  'ar', 'bg', 'bn', 'ca', 'cs', 'da', 'de', 'el', 'en', 'eo', 'es', 'et', 'eu', 'fa', 'fi', 'fr', 'gl', 'he', 'hi', 'hr', 'hu',
  'id', 'it', 'ja', 'ka', 'ko', 'lt', 'lv', 'ms', 'nb', 'nl', 'no', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sr', 'sv', 'ta', 'th',
  'tr', 'uk', 'ur', 'uz', 'vi', 'zh',
]);
const LANGUAGE = /^([a-z]{2})(?:[-_](?:[a-z]{2}|hans|hant|\d{3}))?$/i;
const VERSION_NAMES = new Set(['latest', 'stable', 'dev', 'devel', 'development', 'next', 'main', 'master', 'nightly', 'current', 'lts', 'trunk']);
const VERSION_NUMBER = /^v?\d+(?:\.\d+){0,2}(?:\.x)?$/i;

export type VariantKind = 'version' | 'language';

/** What kind of variant a path segment names, if any: "3.2" → version, "pt-br" → language, "guide" → null. */
export function variantKind(segment: string): VariantKind | null {
  const lower = segment.toLowerCase();
  if (VERSION_NAMES.has(lower) || VERSION_NUMBER.test(lower)) return 'version';
  const language = LANGUAGE.exec(lower)?.[1];
  return language && LANGUAGES.has(language) ? 'language' : null;
}

/** One variant segment of a path: its position among the path's folders, kind and value. */
export interface VariantSegment {
  index: number;
  kind: VariantKind;
  value: string;
}

/** The version and language segments among a URL's folders (not its file name), in order. */
export function variantSegments(url: string): VariantSegment[] {
  let folders: string[];
  try {
    folders = new URL(url).pathname.split('/').slice(1, -1);
  } catch {
    return [];
  }
  // Only the first few folders: /docs/en/stable/ yes, a version number deep in an API path no.
  return folders.slice(0, 4).flatMap((value, index) => {
    const kind = variantKind(value);
    return kind ? [{ index, kind, value }] : [];
  });
}

// The scope asks about every link against one start page: its host and segments are read once.
let lastStart: { url: string; host: string; segments: VariantSegment[] } | null = null;

function startOf(startUrl: string): { host: string; segments: VariantSegment[] } | null {
  if (lastStart?.url === startUrl) return lastStart;
  try {
    lastStart = { url: startUrl, host: new URL(startUrl).host, segments: variantSegments(startUrl) };
  } catch {
    return null;
  }
  return lastStart;
}

/** The start page's variant segment that `url` has a different value for, or null (see otherVariant). */
function differing(startUrl: string, url: string): { mine: VariantSegment; value: string } | null {
  const start = startOf(startUrl);
  if (!start || start.segments.length === 0) return null;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  if (start.host !== target.host) return null;
  const theirs = target.pathname.split('/').slice(1);
  for (const mine of start.segments) {
    const value = theirs[mine.index];
    // A file at that position (/en/index.html vs /en/stable/) is not a variant folder.
    if (value === undefined || theirs.length <= mine.index + 1 || value === mine.value || variantKind(value) !== mine.kind) continue;
    return { mine, value };
  }
  return null;
}

/**
 * Why `url` is another version or language of the docs the crawl started in, or null. Both URLs
 * must be on the same host and have a segment of the same kind at the same position that differs.
 */
export function otherVariant(startUrl: string, url: string): string | null {
  const found = differing(startUrl, url);
  if (!found) return null;
  const { mine, value } = found;
  return mine.kind === 'version' ? `Another version of the docs (${value}; crawling ${mine.value})` : `Another language (${value}; crawling ${mine.value})`;
}

/** Another version or language a crawl found and left alone. */
export interface FoundVariant {
  kind: VariantKind;
  value: string;
  /** Pages of it the crawl saw linked or listed in sitemaps. */
  pages: number;
  /** The start page's counterpart in it: where a crawl of it starts. */
  startUrl: string;
}

/** The other versions and languages among the URLs a crawl skipped, most pages first within each kind. */
export function foundVariants(startUrl: string, urls: string[]): FoundVariant[] {
  const found = new Map<string, FoundVariant>();
  for (const url of urls) {
    const hit = differing(startUrl, url);
    if (!hit) continue;
    const id = `${hit.mine.kind}:${hit.value}`;
    let variant = found.get(id);
    if (!variant) {
      const start = new URL(startUrl);
      const parts = start.pathname.split('/');
      parts[hit.mine.index + 1] = hit.value;
      start.pathname = parts.join('/');
      variant = { kind: hit.mine.kind, value: hit.value, pages: 0, startUrl: start.href };
      found.set(id, variant);
    }
    variant.pages++;
  }
  return [...found.values()].sort((a, b) => a.kind.localeCompare(b.kind) || b.pages - a.pages || a.value.localeCompare(b.value));
}

/** "version stable, language en" for the details line, from the start page's path; '' when it has neither. */
export function describeVariant(startUrl: string): string {
  const parts = variantSegments(startUrl).sort((a, b) => b.kind.localeCompare(a.kind)).map((s) => `${s.kind} ${s.value}`);
  return parts.join(', ');
}
