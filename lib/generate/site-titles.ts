/**
 * Site-level title cleaning. Most generators put the site's name in every `<title>` ("Writing
 * views — Django documentation", "Installation - The Rust Programming Language", "json-c:
 * json_object.h File Reference", "Jsoup (jsoup Java HTML Parser 1.15.3 API)"); the converter only
 * strips it when the page itself names its site (og:site_name and the like). Across the whole
 * site the repeated part is plain to see, so it is removed from every title here.
 */
import { oneLine, wordsOf } from './text';

/** Separators between a page's title and the site's name, as generators write them. */
export const TITLE_SEPARATORS = [' — ', ' – ', ' | ', ' - ', ' · ', ' » ', ' :: '];
// "Site: Page" only ever puts the site first (Doxygen); "Tutorial: Getting started" is one title,
// so a colon counts only when many titles share what stands before it.
const PREFIX_SEPARATORS = [...TITLE_SEPARATORS, ': '];
// "Page (Site)": Javadoc's form.
const PAREN_SUFFIX = /^(.*\S)\s+\(([^()]+)\)$/;
// A prefix or suffix on at least this share of titles is the site's, not the pages'.
const SHARE = 0.4;
// With fewer titles than this, a shared part may be a coincidence ("Install - Linux", "Build - Linux").
const MIN_TITLES = 3;

const key = (text: string): string => text.trim().toLowerCase();

/** Markup that leaked into a title as text ("<tt>json-c</tt>"): the words stay. */
export function stripTitleTags(title: string): string {
  return title.replace(/<\/?[a-z][a-z0-9]*>/gi, '');
}

/**
 * Whether position `at` sits inside parentheses the title opened before it: in "Top (libffi: the
 * portable foreign function interface library)" the colon belongs to the parenthesised name, so
 * no part of the title starts or ends there.
 */
export function insideParens(title: string, at: number): boolean {
  let depth = 0;
  for (let i = 0; i < at; i++) {
    if (title[i] === '(') depth++;
    else if (title[i] === ')' && depth > 0) depth--;
  }
  return depth > 0;
}

/** The last place `separator` stands in `title` outside parentheses (-1 when none). */
function lastOutside(title: string, separator: string): number {
  for (let at = title.lastIndexOf(separator); at > 0; at = title.lastIndexOf(separator, at - 1)) {
    if (!insideParens(title, at)) return at;
  }
  return -1;
}

/** The first place `separator` stands in `title` outside parentheses (-1 when none). */
function firstOutside(title: string, separator: string): number {
  for (let at = title.indexOf(separator); at > 0; at = title.indexOf(separator, at + 1)) {
    if (!insideParens(title, at)) return at;
  }
  return -1;
}

/** The parts a site may add to a title: after the last separator, before the first, in final parentheses. */
export function affixesOf(title: string): { prefix?: string; suffix?: string; paren?: string } {
  const out: { prefix?: string; suffix?: string; paren?: string } = {};
  let last = -1;
  let length = 0;
  for (const separator of TITLE_SEPARATORS) {
    const at = lastOutside(title, separator);
    if (at > last) {
      last = at;
      length = separator.length;
    }
  }
  if (last > 0) out.suffix = title.slice(last + length).trim();
  let first = Number.POSITIVE_INFINITY;
  for (const separator of PREFIX_SEPARATORS) {
    const at = firstOutside(title, separator);
    if (at > 0 && at < first) first = at;
  }
  if (Number.isFinite(first)) out.prefix = title.slice(0, first).trim();
  const paren = PAREN_SUFFIX.exec(title)?.[2];
  if (paren) out.paren = paren.trim();
  return out;
}

export interface SharedAffixes {
  prefixes: Set<string>;
  suffixes: Set<string>;
  parens: Set<string>;
}

/** Affixes (lower-cased) that at least SHARE of `titles` carry. */
export function sharedAffixes(titles: string[], share = SHARE): SharedAffixes {
  const counts = { prefixes: new Map<string, number>(), suffixes: new Map<string, number>(), parens: new Map<string, number>() };
  const count = (map: Map<string, number>, text: string | undefined) => {
    if (text) map.set(key(text), (map.get(key(text)) ?? 0) + 1);
  };
  for (const title of titles) {
    const { prefix, suffix, paren } = affixesOf(title);
    count(counts.prefixes, prefix);
    count(counts.suffixes, suffix);
    count(counts.parens, paren);
  }
  const minimum = Math.max(2, Math.ceil(share * titles.length));
  const frequent = (map: Map<string, number>) => new Set(titles.length < MIN_TITLES ? [] : [...map].filter(([, n]) => n >= minimum).map(([text]) => text));
  return { prefixes: frequent(counts.prefixes), suffixes: frequent(counts.suffixes), parens: frequent(counts.parens) };
}

/** One pass: the first site affix found at either end, removed; the title itself when none is. */
function stripOnce(current: string, { prefixes, suffixes, parens }: SharedAffixes): string {
  for (const separator of TITLE_SEPARATORS) {
    const at = lastOutside(current, separator);
    if (at > 0 && suffixes.has(key(current.slice(at + separator.length)))) return current.slice(0, at).trim();
  }
  // A colon also ends a page's part where what follows is the site's name or a shared suffix, and
  // that name may hold a colon itself ("Drawing: Cairo: A Vector Graphics Library"): every colon
  // is tried, the first (the longest suffix) first.
  for (let at = current.indexOf(': '); at > 0; at = current.indexOf(': ', at + 1)) {
    if (!insideParens(current, at) && suffixes.has(key(current.slice(at + 2)))) return current.slice(0, at).trim();
  }
  for (const separator of PREFIX_SEPARATORS) {
    const at = firstOutside(current, separator);
    if (at > 0 && prefixes.has(key(current.slice(0, at)))) return current.slice(at + separator.length).trim();
  }
  const paren = PAREN_SUFFIX.exec(current);
  if (paren?.[1] && paren[2] && parens.has(key(paren[2]))) return paren[1].trim();
  return current;
}

/**
 * A cleaner for this site's titles: it removes, from either end, the site's name (any of
 * `siteNames`) and any prefix, suffix or parenthesised suffix that many titles share. A title
 * that is nothing but the site's name (a home page) stays as it is.
 */
export function titleCleaner(titles: string[], siteNames: string[]): (title: string) => string {
  const affixes = sharedAffixes(titles.map((title) => stripTitleTags(oneLine(title))).filter(Boolean));
  for (const name of siteNames) {
    const clean = key(stripTitleTags(oneLine(name)));
    if (clean) {
      affixes.prefixes.add(clean);
      affixes.suffixes.add(clean);
      affixes.parens.add(clean);
    }
  }
  return (title) => {
    const original = stripTitleTags(oneLine(title));
    let current = original;
    for (let next = stripOnce(current, affixes); next !== current && next !== ''; next = stripOnce(current, affixes)) current = next;
    return current || original;
  };
}

// A heading longer than this is a sentence, not a name for the page.
const MAX_HEADING_TITLE = 150;

const camelWords = (text: string): string[] => wordsOf(text.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2'));

// Words that join a name to its context ("Span in proc_macro", "Guide to the API"): a title whose
// other words are all the heading's names what the heading names.
const CONNECTIVES = new Set(['in', 'of', 'the', 'a', 'an', 'for', 'on', 'at', 'to', 'from', 'with', 'by', 'and']);

/**
 * The words of a URL's file name without its extension, escapes decoded: "%20", and the "_002d"
 * with which some generators write a character a file name may not hold ("Command_002dLine").
 */
export function fileNameWords(url: string): string[] {
  let name: string;
  try {
    name = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
  } catch {
    return [];
  }
  let stem = name.replace(/\.[a-z0-9]{1,5}$/i, '');
  try {
    stem = decodeURIComponent(stem);
  } catch {
    // A stray "%" stays as it is.
  }
  return wordsOf(stem.replace(/_([0-9a-f]{4})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))));
}

const sameList = (a: string[], b: string[]): boolean => a.length === b.length && a.every((word, i) => word === b[i]);

/**
 * The page's title, or the heading that opens its content when the title only names the page for
 * its generator, or names what the heading names with less:
 *  * a title that is one token (a node, file or identifier name) sharing no word with the heading:
 *    a GNU Texinfo manual titles a page by its node ("Cxx (flex)", "Top") while the page says
 *    "18 Generating C++ Scanners"; some generators title pages by file name ("intro.html", "README");
 *  * a title that is the page's file name in words (a node name: "Edwin Scheme Mode" on
 *    Edwin-Scheme-Mode.html) where the heading says something else ("8.3 Scheme Mode");
 *  * a title that is the heading's name plus the words that tie it to its context ("Span in
 *    proc_macro" under "Struct proc_macro::Span"): the heading names the same thing, and its kind.
 * A title that agrees with the heading (every word of one is the other's), one of several words
 * that is not the file's name, a one-token title sharing a word with the heading ("Document" under
 * "Class Document"), or one that is or stands under the site's own name (a home page) stays.
 */
export function titleOrHeading(title: string, heading: string, siteNames: string[] = [], url = ''): string {
  const clean = oneLine(heading);
  if (clean === '' || clean.length > MAX_HEADING_TITLE || !/\p{L}/u.test(clean)) return title;
  // A home page titled "Home" under the site's name keeps its title: the name says nothing of the page.
  if (siteNames.some((name) => key(name) === key(title) || key(name) === key(clean))) return title;
  const titleWords = camelWords(title);
  const headingWords = camelWords(clean);
  const inHeading = new Set(headingWords);
  if (!/\s/.test(title.trim())) return titleWords.some((word) => inHeading.has(word)) ? title : clean;
  // (Before agreement is asked: "quote in proc_macro" holds every word of "Macro proc_macro::quote".)
  const context = titleWords.filter((word) => !inHeading.has(word));
  if (context.length > 0 && context.every((word) => CONNECTIVES.has(word)) && titleWords.some((word) => !CONNECTIVES.has(word))) return clean;
  const inTitle = new Set(titleWords);
  if (titleWords.every((word) => inHeading.has(word)) || headingWords.every((word) => inTitle.has(word))) return title;
  return url !== '' && sameList(wordsOf(title), fileNameWords(url)) ? clean : title;
}

// Words that name a kind of document, not its subject: "Scanner Options (Tally Manual)".
const DOCUMENT_WORDS = new Set(['manual', 'documentation', 'docs', 'doc', 'reference', 'guide', 'api', 'the', 'of', 'for', 'and', 'a']);

/**
 * Whether a description only repeats the page's title and the site's name (a GNU Texinfo manual
 * writes `<meta name="description" content="Cxx (flex)">` on every node): every word of it is in
 * one of `titles` or `siteNames`, or names the kind of document.
 */
export function repeatsTitle(description: string, titles: string[], siteNames: string[]): boolean {
  const known = new Set([...titles, ...siteNames].flatMap((text) => wordsOf(text)));
  const words = wordsOf(description);
  return words.length > 0 && words.every((word) => known.has(word) || DOCUMENT_WORDS.has(word));
}
