/**
 * Pages that are not documentation in their own right, whatever generator made them:
 * - source listings (Sphinx's viewcode `_modules/`, rustdoc's `src/…rs.html`, "Source code for x",
 *   and by shape any page that is one long code block with next to no prose): a reader wants the
 *   docs, not the code behind them;
 * - alphabetical indexes (a heading per letter, or a bar of links to each letter's page): a reader
 *   searches, an agent reads the pages;
 * - aggregates (mdBook's print.html, Node's all.html, "single page" editions): every other page
 *   again, so listing them doubles llms-full.txt. Found by content containment, not by name:
 *   a page that holds most of the text of several other pages is one of these.
 */
import { openingLink } from './sections-index';
import { firstHeadingText, oneLine, wordWidthAt } from './text';
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
// A contained page already this covered by the others counted is one of a kind with them.
const DISTINCT = 0.5;
// The contained pages make up at least this share of an aggregate.
const MADE_OF = 0.5;
// An aggregate contains at least this many other pages.
const MIN_CONTAINED_PAGES = 3;
// A shingle on more pages than this is site boilerplate; it says nothing about containment.
const MAX_POSTINGS = 16;

/**
 * The FNV-1a hash of each match of `/[\p{L}\p{N}]+/gu` in `text`, in order, read in place: a
 * page's words as strings (and the array of them) were most of what shingling a site allocated.
 * Characters are classed per code point as the pattern does, a surrogate pair as one.
 */
function wordHashes(text: string): number[] {
  const out: number[] = [];
  let h = 2166136261;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const width = wordWidthAt(text, i);
    if (width > 0) {
      if (!inWord) h = 2166136261;
      inWord = true;
      for (let j = i; j < i + width; j++) h = Math.imul(h ^ text.charCodeAt(j), 16777619);
    } else if (inWord) {
      out.push(h >>> 0);
      inWord = false;
    }
    if (width > 1) i += width - 1;
  }
  if (inWord) out.push(h >>> 0);
  return out;
}

/**
 * The page's sampled word shingles of prose: code repeats legitimately, and link text is what
 * tables of contents are made of (a full contents page lists every heading, but holds no page).
 */
export function shingles(markdown: string): Set<number> {
  const prose = markdown.replace(/```[\s\S]*?```/g, ' ').replace(/\[[^[\]]*\]\((?:[^()]|\([^()]*\))*\)/g, ' ');
  const words = wordHashes(prose.toLowerCase());
  const out = new Set<number>();
  // Each shingle's hash combines its words' hashes: no string is built per position.
  for (let i = 0; i + SHINGLE <= words.length; i++) {
    let h = 2166136261;
    for (let j = i; j < i + SHINGLE; j++) h = Math.imul(h ^ (words[j] ?? 0), 16777619);
    h >>>= 0;
    if (h % SAMPLE === 0) out.add(h);
  }
  return out;
}

// An A–Z index (Sphinx's genindex, Javadoc's index-all, Doxygen's globals) has a heading per
// letter, bare or set between dashes ("- a -", escaped "\\- a -" in Markdown).
const LETTER_HEADING = /^#{1,6} (?:\\?[-–—]\s*)?(?:\p{Lu}|\p{Ll}|_|\$|symbols|numbers)(?:\s*[-–—])?$/gmu;
const MIN_LETTER_HEADINGS = 5;
// Or it is a list of names, each followed by only the links to where it is defined
// ("- json_object_put() : [json_object.h](…#a12)"): a member index, whatever its size.
// Checked a line at a time, the name and its links apart: one pattern over the page was quadratic.
const INDEX_LINKS = /^(?:\[[^[\]]+\]\([^)\s#]*#[^)\s]*\)(?:, )?)+$/;
const MAX_INDEX_NAME = 120;

function isIndexItem(line: string): boolean {
  if (!/^[-*] /.test(line)) return false;
  // The name ends at the first colon set between spaces (non-breaking ones too, as Doxygen writes).
  const colon = /\s:\s/.exec(line.slice(2));
  if (!colon || colon.index < 1 || colon.index > MAX_INDEX_NAME) return false;
  const name = line.slice(2, 2 + colon.index);
  return !/[[\]]/.test(name) && INDEX_LINKS.test(line.slice(2 + colon.index + 3));
}
const LIST_ITEM = /^[-*] /gm;
const MIN_INDEX_ITEMS = 2;
// The share of the page's list items that must be such entries, and the prose words it may have besides.
const INDEX_SHARE = 0.8;
const MAX_INDEX_PROSE_WORDS = 50;

function isMemberIndex(markdown: string): boolean {
  const items = markdown.split(/\r?\n/).filter(isIndexItem).length;
  if (items < MIN_INDEX_ITEMS || items < INDEX_SHARE * (markdown.match(LIST_ITEM)?.length ?? 0)) return false;
  const headings = markdown.match(/^#{1,6} .*$/gm) ?? [];
  if (headings.length !== (markdown.match(LETTER_HEADING)?.length ?? 0)) return false;
  const prose = markdown
    .split('\n')
    .filter((line) => line.trim() && !/^(?:#{1,6} |[-*] |---$)/.test(line))
    .join(' ')
    .replace(/\]\([^()]*\)/g, ']');
  return prose.split(/\s+/).filter((word) => /\p{L}/u.test(word)).length <= MAX_INDEX_PROSE_WORDS;
}

// Or a bar of links to its letters' pages (Haddock's doc-index-A.html, Javadoc's split index).
const LETTER_LINK = /\[(\p{L})\]\(/gu;
const MIN_LETTER_LINKS = 10;

function isAlphabeticalIndex(page: SourcePage): boolean {
  return isAlphabeticalIndexMarkdown(page.markdown);
}

/** Whether a page's Markdown is an alphabetical or member index (see above). */
export function isAlphabeticalIndexMarkdown(markdown: string): boolean {
  if ((markdown.match(LETTER_HEADING)?.length ?? 0) >= MIN_LETTER_HEADINGS) return true;
  if (isMemberIndex(markdown)) return true;
  const letters = new Set([...markdown.matchAll(LETTER_LINK)].map((match) => match[1]?.toUpperCase()));
  return letters.size >= MIN_LETTER_LINKS;
}

// A source listing by shape: next to no prose and long code that either opens the page with no
// heading of its own (Haddock's hyperlinked src/Module.html) or carries a column of line numbers
// (rustdoc's src/…rs.html, Doxygen's *_source.html), whatever its URL. A page of documentation
// that is mostly one long example still has its own title heading and no line numbers.
const MIN_SOURCE_LINES = 40;
const MAX_SOURCE_PROSE_WORDS = 25;
const FENCE_OPEN = /^(?:`{3,}|~{3,})/;

/**
 * The page's fenced code blocks and the text outside them, read line by line: a fence closes on a
 * line of the same mark at least as long. (As one pattern with a backreference it backtracks
 * polynomially on a run of unclosed fences.)
 */
function splitFences(markdown: string): { blocks: string[]; outside: string[] } {
  const blocks: string[] = [];
  const outside: string[] = [];
  let open: string | null = null;
  let code: string[] = [];
  for (const line of markdown.split('\n')) {
    if (open === null) {
      const mark = FENCE_OPEN.exec(line)?.[0];
      if (mark) {
        open = mark;
        code = [];
      } else outside.push(line);
      continue;
    }
    const trimmed = line.trimEnd();
    if (trimmed.startsWith(open) && /^[`~]*$/.test(trimmed) && trimmed[0] === open[0]) {
      blocks.push(code.join('\n'));
      outside.push(' ');
      open = null;
    } else code.push(line);
  }
  // An unclosed fence runs to the end of the page, as in CommonMark.
  if (open !== null) blocks.push(code.join('\n'));
  return { blocks, outside };
}
// Lines numbered in order: a fence of the numbers alone, or most lines starting with theirs.
const MIN_NUMBERED_LINES = 10;

function hasLineNumbers(code: string): boolean {
  const lines = code.split('\n');
  if (lines.length < MIN_NUMBERED_LINES) return false;
  let numbered = 0;
  lines.forEach((line, index) => {
    const text = line.trimStart();
    const number = String(index + 1);
    if (text.startsWith(number) && !/^\d/.test(text.slice(number.length))) numbered++;
  });
  return numbered >= 0.8 * lines.length;
}

function isCodeListing(markdown: string): boolean {
  const { blocks, outside } = splitFences(markdown);
  // Cheapest test first: most pages have far less code than a listing.
  let lines = 0;
  for (const code of blocks) {
    lines++;
    for (let at = code.indexOf('\n'); at >= 0; at = code.indexOf('\n', at + 1)) lines++;
  }
  if (lines < MIN_SOURCE_LINES) return false;
  // Prose: what is left outside the fences, headings and link targets; counted only as far as
  // the limit (a page of documentation has thousands of words).
  const prose = outside.join('\n').replace(/^#{1,6} .*$/gm, ' ').replace(/\]\((?:[^()]|\([^()]*\))*\)/g, ']');
  const word = /\p{L}[\p{L}\p{N}'’-]*/gu;
  let words = 0;
  while (word.exec(prose) && ++words <= MAX_SOURCE_PROSE_WORDS);
  if (words > MAX_SOURCE_PROSE_WORDS) return false;
  return /^\s*(?:`{3,}|~{3,})/.test(markdown) || blocks.some(hasLineNumbers);
}

function isSourceListing(page: SourcePage): boolean {
  try {
    const path = new URL(page.finalUrl).pathname;
    if (path.split('/').some((segment) => SOURCE_DIRECTORIES.has(segment)) || SOURCE_FILE.test(path)) return true;
  } catch {
    // An unusable URL: judge by the title alone.
  }
  return SOURCE_TITLE.test(oneLine(page.title)) || SOURCE_TITLE.test(firstHeadingText(page.markdown)) || isCodeListing(page.markdown);
}

/**
 * Pages made of other pages: each holds at least MIN_CONTAINED_PAGES pages that differ from one
 * another, and those pages make up at least half of it. Pages that share an included part (git's
 * diff options in git-log and git-diff-tree, npm's config options in every command page) are
 * alike, so they count once, and they make up only a part of the page that holds them.
 */
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
  const contained = new Map<number, number[]>();
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
      if (count >= CONTAINED * set.size && (sets[other]?.size ?? 0) > set.size) contained.set(other, [...(contained.get(other) ?? []), index]);
    }
  });
  const out = new Set<SourcePage>();
  for (const [holder, members] of contained) {
    if (members.length < MIN_CONTAINED_PAGES) continue;
    // Largest first; a member mostly covered by those already counted is one of a kind with them.
    const covered = new Set<number>();
    let distinct = 0;
    for (const member of members.sort((a, b) => (sets[b]?.size ?? 0) - (sets[a]?.size ?? 0))) {
      const set = sets[member] ?? new Set<number>();
      let seen = 0;
      for (const h of set) if (covered.has(h)) seen++;
      if (seen < DISTINCT * set.size) distinct++;
      for (const h of set) covered.add(h);
    }
    const own = sets[holder] ?? new Set<number>();
    let made = 0;
    for (const h of own) if (covered.has(h)) made++;
    if (distinct >= MIN_CONTAINED_PAGES && made >= MADE_OF * own.size) out.add(pages[holder] as SourcePage);
  }
  return out;
}

/**
 * The pages an alphabetical index's letter bar leads to: every link of the block of lines that
 * holds the bar's single-character links (the letters, "<", and the bar's other entries beside
 * them). In a crawl the bar repeats at the top of every letter's page and is taken off as chrome,
 * so those pages no longer show the shape that tells an index; the page that still has it does.
 */
function letterBarTargets(page: SourcePage): string[] {
  const out: string[] = [];
  for (const block of page.markdown.split(/\n[ \t]*\n/)) {
    const links = block.split('\n').map((line) => openingLink(line, page.finalUrl)).filter((link) => link !== null);
    if (links.filter((link) => [...link.text].length === 1).length >= MIN_LETTER_LINKS) out.push(...links.map((link) => link.url));
  }
  return out;
}

/** The pages that are source listings, alphabetical indexes or aggregates, with their class. */
export function classifyPages(pages: SourcePage[]): Map<SourcePage, PageClass> {
  const classes = new Map<SourcePage, PageClass>();
  for (const page of pages) if (isSourceListing(page)) classes.set(page, 'source');
  // An aggregate is left out of llms-full.txt, so it is the class to keep when a page is both
  // (Sphinx's genindex-all holds every per-letter index page).
  for (const page of aggregates(pages)) if (!classes.has(page)) classes.set(page, 'aggregate');
  const indexes = pages.filter((page) => !classes.has(page) && isAlphabeticalIndex(page));
  for (const page of indexes) classes.set(page, 'index');
  const byUrl = new Map<string, SourcePage>();
  for (const page of pages) for (const url of [page.url, page.finalUrl]) byUrl.set(url.split('#')[0] ?? url, page);
  for (const index of indexes) {
    for (const url of letterBarTargets(index)) {
      const target = byUrl.get(url);
      if (target && !classes.has(target)) classes.set(target, 'index');
    }
  }
  return classes;
}
