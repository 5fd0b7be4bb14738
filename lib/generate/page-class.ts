/**
 * Pages that are not documentation in their own right, whatever generator made them:
 * - source listings (Sphinx's viewcode `_modules/`, rustdoc's `src/…rs.html`, "Source code for x"):
 *   a reader wants the docs, not the code behind them;
 * - alphabetical indexes (a heading per letter): a reader searches, an agent reads the pages;
 * - aggregates (mdBook's print.html, Node's all.html, "single page" editions): every other page
 *   again, so listing them doubles llms-full.txt. Found by content containment, not by name:
 *   a page that holds most of the text of several other pages is one of these.
 */
import { firstHeadingText, oneLine } from './text';
import type { SourcePage } from './types';

export type PageClass = 'source' | 'aggregate' | 'index';

const SOURCE_DIRECTORIES = new Set(['_modules', '_sources']);
// rustdoc and similar "view source" pages: /src/crate/lib.rs.html.
const SOURCE_FILE = /\.(?:rs|py|js|mjs|ts|c|h|cc|cpp|hpp|go|java|rb|php|swift|kt)\.html?$/i;
const SOURCE_TITLE = /^(?:source code (?:for|of)\b|overview: module code$|.+ - source$)/i;

/** Words per shingle: long enough that shared phrases ("the return value is") don't match. */
const SHINGLE = 8;
// Only shingles whose hash falls in 1 of SAMPLE buckets are kept: the same ones on every page, so
// containment is still estimated fairly, at a fraction of the memory.
const SAMPLE = 8;
// A page needs this many sampled shingles for its containment in another to mean anything.
const MIN_SHINGLES = 12;
// Share of a page's shingles another page must hold to contain it.
const CONTAINED = 0.6;
// An aggregate contains at least this many other pages.
const MIN_CONTAINED_PAGES = 3;
// A shingle on more pages than this is site boilerplate; it says nothing about containment.
const MAX_POSTINGS = 16;

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * The page's sampled word shingles of prose: code repeats legitimately, and link text is what
 * tables of contents are made of (a full contents page lists every heading, but holds no page).
 */
function shingles(markdown: string): Set<number> {
  const prose = markdown.replace(/```[\s\S]*?```/g, ' ').replace(/\[[^\]]*\]\([^)]*\)/g, ' ');
  const words = prose.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const out = new Set<number>();
  for (let i = 0; i + SHINGLE <= words.length; i++) {
    const h = hash(words.slice(i, i + SHINGLE).join(' '));
    if (h % SAMPLE === 0) out.add(h);
  }
  return out;
}

// An A–Z index (Sphinx's genindex, Javadoc's index-all, Doxygen's globals) has a heading per letter.
const LETTER_HEADING = /^#{1,6} (?:\p{Lu}|\p{Ll}|_|\$|symbols|numbers)$/gmu;
const MIN_LETTER_HEADINGS = 5;

function isAlphabeticalIndex(page: SourcePage): boolean {
  return (page.markdown.match(LETTER_HEADING)?.length ?? 0) >= MIN_LETTER_HEADINGS;
}

function isSourceListing(page: SourcePage): boolean {
  try {
    const path = new URL(page.finalUrl).pathname;
    if (path.split('/').some((segment) => SOURCE_DIRECTORIES.has(segment)) || SOURCE_FILE.test(path)) return true;
  } catch {
    // An unusable URL: judge by the title alone.
  }
  return SOURCE_TITLE.test(oneLine(page.title)) || SOURCE_TITLE.test(firstHeadingText(page.markdown));
}

/** Pages that contain the text of at least MIN_CONTAINED_PAGES other pages. */
function aggregates(pages: SourcePage[]): Set<SourcePage> {
  const sets = pages.map((page) => shingles(page.markdown));
  const postings = new Map<number, number[]>();
  sets.forEach((set, index) => {
    for (const h of set) {
      const list = postings.get(h);
      if (!list) postings.set(h, [index]);
      else if (list.length <= MAX_POSTINGS) list.push(index);
    }
  });
  const containedIn = new Map<number, number>();
  sets.forEach((set, index) => {
    if (set.size < MIN_SHINGLES) return;
    // Which other pages hold this page's shingles, and how many of them.
    const hits = new Map<number, number>();
    for (const h of set) {
      const list = postings.get(h);
      if (!list || list.length > MAX_POSTINGS) continue;
      for (const other of list) if (other !== index) hits.set(other, (hits.get(other) ?? 0) + 1);
    }
    for (const [other, count] of hits) {
      if (count >= CONTAINED * set.size && (sets[other]?.size ?? 0) > set.size) containedIn.set(other, (containedIn.get(other) ?? 0) + 1);
    }
  });
  return new Set([...containedIn].filter(([, count]) => count >= MIN_CONTAINED_PAGES).map(([index]) => pages[index] as SourcePage));
}

/** The pages that are source listings, alphabetical indexes or aggregates, with their class. */
export function classifyPages(pages: SourcePage[]): Map<SourcePage, PageClass> {
  const classes = new Map<SourcePage, PageClass>();
  for (const page of pages) if (isSourceListing(page)) classes.set(page, 'source');
  // An aggregate is left out of llms-full.txt, so it is the class to keep when a page is both
  // (Sphinx's genindex-all holds every per-letter index page).
  for (const page of aggregates(pages)) if (!classes.has(page)) classes.set(page, 'aggregate');
  for (const page of pages) if (!classes.has(page) && isAlphabeticalIndex(page)) classes.set(page, 'index');
  return classes;
}
