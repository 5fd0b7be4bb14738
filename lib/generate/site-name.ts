/**
 * The llms.txt title and summary from the pages alone. og:site_name is not kept per page, but
 * most sites end every page title with their name ("Install — Acorn DB"), which says the same.
 */
import { isWeakDescription } from '../convert/page-text';
import { markdownDescription } from '../crawl/markdown-meta';
import { dedupeKey } from '../url/normalize';
import { pageKeys } from './page-order';
import { affixesOf, insideParens, sharedAffixes, stripTitleTags, TITLE_SEPARATORS } from './site-titles';
import { firstHeadingText, oneLine, truncateWords } from './text';
import type { SourcePage } from './types';

const MAX_SUMMARY = 200;

// Where a site's name may start at the end of a title: the usual separators, and a colon, which
// counts only because many titles share what follows it ("Paths: Cairo: A Vector Graphics Library").
const SUFFIX_SEPARATORS = [...TITLE_SEPARATORS, ': '];

/**
 * Every part a title ends with after a separator, longest first: "Paths: Cairo: A Vector Graphics
 * Library" → "Cairo: A Vector Graphics Library", "A Vector Graphics Library".
 */
function suffixesOf(title: string): string[] {
  const found = new Set<string>();
  for (const separator of SUFFIX_SEPARATORS) {
    for (let at = title.indexOf(separator); at > 0; at = title.indexOf(separator, at + 1)) {
      if (insideParens(title, at)) continue;
      const suffix = title.slice(at + separator.length).trim();
      if (suffix) found.add(suffix);
    }
  }
  return [...found].sort((a, b) => b.length - a.length);
}

const looksLikeUrl = (text: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^www\./i.test(text);

/**
 * The suffix most page titles share, when it is on at least half of them (a page titled just
 * "Acorn DB", usually the home page, counts for "Acorn DB"). Of suffixes on as many titles, the
 * longest: a name with a colon in it ("Cairo: A Vector Graphics Library") is not cut at the colon.
 * Needs two pages: one title's "Install - Linux" says nothing about the site.
 */
function sharedSuffix(titles: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const title of titles) {
    for (const suffix of suffixesOf(title)) counts.set(suffix, (counts.get(suffix) ?? 0) + 1);
  }
  let best: string | undefined;
  let bestCount = 0;
  // Ties go to the longer suffix, then the alphabetically first, so the result does not depend on page order.
  for (const [suffix, count] of counts) {
    const better = best === undefined || count > bestCount || (count === bestCount && (suffix.length > best.length || (suffix.length === best.length && suffix < best)));
    if (better) {
      best = suffix;
      bestCount = count;
    }
  }
  if (best === undefined) return undefined;
  const name = best;
  const covered = titles.filter((title) => suffixesOf(title).includes(name) || title.trim() === name).length;
  return covered >= 2 && covered * 2 >= titles.length && !looksLikeUrl(name) ? name : undefined;
}

/** The title without `suffix` and the separator before it, or undefined when it does not end so. */
function withoutSuffix(title: string, suffix: string): string | undefined {
  for (const separator of SUFFIX_SEPARATORS) {
    const end = `${separator}${suffix}`;
    if (title.length > end.length && title.endsWith(end) && !insideParens(title, title.length - end.length)) return title.slice(0, -end.length).trim();
  }
  return undefined;
}

/** Whether `text` holds `name` as a whole token: "Span in proc_macro" holds "proc_macro", "proc_macro2" does not. */
function holdsToken(text: string, name: string): boolean {
  const haystack = text.toLowerCase();
  const needle = name.toLowerCase();
  if (!needle) return false;
  const word = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}_]/u.test(char);
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    if (!word(haystack[at - 1]) && !word(haystack[at + needle.length])) return true;
  }
  return false;
}

function pageAt(pages: SourcePage[], urls: string[]): SourcePage | undefined {
  for (const url of urls) {
    const key = dedupeKey(url);
    const page = pages.find((candidate) => pageKeys(candidate).includes(key));
    if (page) return page;
  }
  return undefined;
}

/** The page the crawl started from. */
export function startPage(pages: SourcePage[], startUrl: string): SourcePage | undefined {
  return pageAt(pages, [startUrl]);
}

/** A folder's index page URLs, as sites name them. */
function indexUrls(folder: string): string[] {
  return [folder, `${folder}index.html`, `${folder}index.md`];
}

/**
 * The documentation's home: the index of the docs' own folder (`docsHome`, from the crawl's
 * boundary) when it was crawled, else the site's home page (its origin's `/`), else the start page.
 * A company's front page is not the docs' home when the docs sit in a folder of their own.
 */
export function rootPage(pages: SourcePage[], startUrl: string, docsHome?: string): SourcePage | undefined {
  const docs = docsHome ? pageAt(pages, indexUrls(docsHome.endsWith('/') ? docsHome : `${docsHome}/`)) : undefined;
  if (docs) return docs;
  let origin = '';
  try {
    origin = new URL(startUrl).origin;
  } catch {
    // An unusable start URL: only an exact match can be found.
  }
  const home = origin ? pageAt(pages, indexUrls(`${origin}/`)) : undefined;
  return home ?? startPage(pages, startUrl);
}

// Page names that say where you are, not what the site is called.
const GENERIC_NAME = /^(?:home(?: ?page)?|welcome|index|overview|introduction|intro|documentation|docs|start(?: here)?|getting started|main page|contents|table of contents|untitled)$/i;
// A first heading on this many pages is a section name all pages share.
const COMMON_HEADING_PAGES = 3;
// A heading longer than this is a slogan ("Build faster with…"), not a name.
const MAX_NAME_WORDS = 6;

/**
 * What a page calls the site: its first heading when that is short (home pages put the project's
 * name there: "# Acorn DB", "# Python 3.11.2 documentation", while their titles, stripped of
 * the site name by the converter, are "Home" and "3.11.2 Documentation"), else its title.
 */
function nameOnPage(page: SourcePage | undefined, commonHeadings: Set<string>): string | undefined {
  if (!page) return undefined;
  const heading = firstHeadingText(page.markdown);
  // A heading many pages start with ("SYNOPSIS" on every man page) names a part of a page, not the site.
  const short = heading.split(' ').length <= MAX_NAME_WORDS && heading.length <= 60 && !commonHeadings.has(heading.toLowerCase());
  return [short ? heading : '', oneLine(page.title)].find((name) => name !== '' && !GENERIC_NAME.test(name) && !looksLikeUrl(name));
}

// A name the pages declare (og:site_name…) counts when this share of pages declares it.
const DECLARED_SHARE = 0.3;

/**
 * The site name most pages declare in their head (og:site_name, application-name, the OpenSearch
 * title): the converter already took it off their titles, so no shared suffix is left to find.
 */
function declaredName(pages: SourcePage[]): string | undefined {
  const counts = new Map<string, number>();
  for (const page of pages) {
    const name = oneLine(page.siteName);
    if (name && !looksLikeUrl(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return best && best[1] >= Math.max(2, DECLARED_SHARE * pages.length) ? best[0] : undefined;
}

/**
 * One name says more than another: it starts with it and goes on ("Acme 4.2 documentation" beside
 * an og:site_name of "Acme", the company's name on every page of its website). "Welcome to Acme"
 * does not start with it, and "Acme: build faster" is a slogan.
 */
export function namesMore(onHome: string, declared: string): boolean {
  const home = onHome.toLowerCase();
  const base = declared.toLowerCase();
  const { prefix, suffix } = affixesOf(onHome);
  return home.startsWith(`${base} `) && !prefix && !suffix;
}

/**
 * Where the name came from: the host means the pages said nothing usable. `within` is the wider
 * name every title ends with when the docs are one part of it (see `nameWithin`).
 */
export interface SiteName { name: string; fromHost: boolean; within?: string }

/**
 * Whether the pages' name should replace the boundary's `docsName` (read from the start page's
 * title alone): they found it to be the wider whole the docs belong to ("proc_macro - Rust":
 * "Rust" ends every page's title, the docs are "proc_macro").
 */
export function namesWithin(found: SiteName, docsName: string): boolean {
  return found.within !== undefined && found.within.toLowerCase() === docsName.trim().toLowerCase();
}

/**
 * H1: the title suffix most pages share → the H1 of the site's own llms.txt covering the start
 * page → the name most pages declare (og:site_name…), unless the
 * docs' home names more (see `namesMore`) → what the docs' home calls the site → what the start
 * page does → the host. Never a URL, never empty. The caller puts the boundary's name first.
 */
export function siteName(pages: SourcePage[], startUrl: string, docsHome?: string, llmsName?: string): SiteName {
  const found = findSiteName(pages, startUrl, docsHome, llmsName);
  return found.fromHost ? found : { ...found, name: stripTitleTags(found.name) };
}

/** "Jsoup (jsoup API)" and "json-c: Main Page": the site's name before a colon or in final parentheses. */
function sharedAffixName(titles: string[]): string | undefined {
  const { prefixes, parens } = sharedAffixes(titles, 0.5);
  for (const title of titles) {
    const { prefix, paren } = affixesOf(title);
    if (paren && parens.has(paren.toLowerCase())) return paren;
    if (prefix && prefixes.has(prefix.toLowerCase())) return prefix;
  }
  return undefined;
}

/**
 * The docs' own name inside a wider one every title ends with: rustdoc ends every title with
 * " - Rust" (the toolchain), while the crate's front page is "proc_macro - Rust" under the heading
 * "Crate proc_macro" and most other titles name the crate again ("Span in proc_macro - Rust"). The
 * home's own part of its title is the docs' name when its heading says it and at least half of the
 * other titles with the suffix repeat it before the suffix. "Install — Acorn DB" under "Install" is
 * not: no other title says "Install".
 */
function nameWithin(suffix: string, titles: string[], homes: Array<SourcePage | undefined>): string | undefined {
  for (const home of homes) {
    if (!home) continue;
    const title = stripTitleTags(oneLine(home.title));
    const own = withoutSuffix(title, suffix);
    if (!own || GENERIC_NAME.test(own) || looksLikeUrl(own) || own.split(' ').length > MAX_NAME_WORDS) continue;
    if (!holdsToken(firstHeadingText(home.markdown), own)) continue;
    const others = titles.filter((other) => other !== title).flatMap((other) => withoutSuffix(other, suffix) ?? []);
    const repeating = others.filter((other) => holdsToken(other, own)).length;
    if (repeating >= 2 && repeating * 2 >= others.length) return own;
  }
  return undefined;
}

function findSiteName(pages: SourcePage[], startUrl: string, docsHome?: string, llmsName?: string): SiteName {
  const titles = pages.map((page) => stripTitleTags(oneLine(page.title))).filter(Boolean);
  const shared = sharedSuffix(titles) ?? sharedAffixName(titles);
  if (shared && !looksLikeUrl(shared)) {
    const inner = nameWithin(shared, titles, [rootPage(pages, startUrl, docsHome), startPage(pages, startUrl)]);
    return inner ? { name: inner, fromHost: false, within: shared } : { name: shared, fromHost: false };
  }
  const published = oneLine(llmsName);
  if (published && !looksLikeUrl(published)) return { name: published, fromHost: false };
  const counts = new Map<string, number>();
  for (const page of pages) {
    const heading = firstHeadingText(page.markdown).toLowerCase();
    if (heading) counts.set(heading, (counts.get(heading) ?? 0) + 1);
  }
  const common = new Set([...counts].filter(([, n]) => n >= COMMON_HEADING_PAGES).map(([heading]) => heading));
  const named = nameOnPage(rootPage(pages, startUrl, docsHome), common) ?? nameOnPage(startPage(pages, startUrl), common);
  const declared = declaredName(pages);
  if (declared) return { name: named && namesMore(named, declared) ? named : declared, fromHost: false };
  if (named) return { name: named, fromHost: false };
  let host = '';
  try {
    host = new URL(startUrl).hostname;
  } catch {
    // Falls through to the generic name.
  }
  return { name: host || 'Documentation', fromHost: true };
}

/**
 * The blockquote: the home page's description → its first paragraph → the start page's
 * description → its first paragraph → the first page's (in reading order); one line, ~200 chars.
 * A copyright line or a version note is skipped: no summary beats one of those.
 */
export function siteSummary(ordered: SourcePage[], startUrl: string, docsHome?: string): string | undefined {
  const root = rootPage(ordered, startUrl, docsHome);
  const start = startPage(ordered, startUrl);
  const candidates = [root?.description, root && markdownDescription(root.markdown), start?.description, start && markdownDescription(start.markdown), ...ordered.map((page) => page.description)];
  const text = candidates.map((candidate) => oneLine(candidate ?? undefined)).find((candidate) => candidate !== '' && !isWeakDescription(candidate));
  return text === undefined ? undefined : truncateWords(text, MAX_SUMMARY);
}
