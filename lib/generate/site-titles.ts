/**
 * Site-level title cleaning. Most generators put the site's name in every `<title>` ("Writing
 * views — Django documentation", "Installation - The Rust Programming Language"); the converter
 * only strips it when the page itself names its site (og:site_name and the like). Across the
 * whole site the repeated part is plain to see, so it is removed from every title here.
 */
import { oneLine } from './text';

/** Separators between a page's title and the site's name, as generators write them. */
export const TITLE_SEPARATORS = [' — ', ' – ', ' | ', ' - ', ' · ', ' » ', ' :: '];
// A prefix or suffix on at least this share of titles is the site's, not the pages'.
const SHARE = 0.4;
// With fewer titles than this, a shared part may be a coincidence ("Install - Linux", "Build - Linux").
const MIN_TITLES = 3;

const key = (text: string): string => text.trim().toLowerCase();

/** The part after the last separator and the part before the first one. */
function affixesOf(title: string): { prefix?: string; suffix?: string } {
  let last = -1;
  let lastLength = 0;
  let first = Number.POSITIVE_INFINITY;
  for (const separator of TITLE_SEPARATORS) {
    const at = title.lastIndexOf(separator);
    if (at > last) {
      last = at;
      lastLength = separator.length;
    }
    const early = title.indexOf(separator);
    if (early > 0 && early < first) first = early;
  }
  if (last <= 0) return {};
  return { suffix: title.slice(last + lastLength).trim(), prefix: title.slice(0, first).trim() || undefined };
}

/** Affixes (lower-cased) that at least SHARE of `titles` carry. */
function sharedAffixes(titles: string[]): { prefixes: Set<string>; suffixes: Set<string> } {
  const prefixes = new Map<string, number>();
  const suffixes = new Map<string, number>();
  for (const title of titles) {
    const { prefix, suffix } = affixesOf(title);
    if (prefix) prefixes.set(key(prefix), (prefixes.get(key(prefix)) ?? 0) + 1);
    if (suffix) suffixes.set(key(suffix), (suffixes.get(key(suffix)) ?? 0) + 1);
  }
  const minimum = Math.max(2, Math.ceil(SHARE * titles.length));
  const frequent = (counts: Map<string, number>) => new Set([...counts].filter(([, n]) => n >= minimum).map(([text]) => text));
  return titles.length < MIN_TITLES ? { prefixes: new Set(), suffixes: new Set() } : { prefixes: frequent(prefixes), suffixes: frequent(suffixes) };
}

/**
 * A cleaner for this site's titles: it removes, from either end, the site's name (any of
 * `siteNames`) and any prefix or suffix that many titles share. A title that is nothing but the
 * site's name (a home page) stays as it is.
 */
export function titleCleaner(titles: string[], siteNames: string[]): (title: string) => string {
  const { prefixes, suffixes } = sharedAffixes(titles.map((title) => oneLine(title)).filter(Boolean));
  for (const name of siteNames) {
    const clean = key(oneLine(name));
    if (clean) {
      prefixes.add(clean);
      suffixes.add(clean);
    }
  }
  return (title) => {
    let current = oneLine(title);
    for (let changed = true; changed; ) {
      changed = false;
      for (const separator of TITLE_SEPARATORS) {
        const at = current.lastIndexOf(separator);
        if (at > 0 && suffixes.has(key(current.slice(at + separator.length)))) {
          current = current.slice(0, at).trim();
          changed = true;
          break;
        }
        const early = current.indexOf(separator);
        if (early > 0 && prefixes.has(key(current.slice(0, early)))) {
          current = current.slice(early + separator.length).trim();
          changed = true;
          break;
        }
      }
    }
    return current || oneLine(title);
  };
}
