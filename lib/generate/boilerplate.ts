/**
 * Theme chrome that survived conversion, found by repetition: a block of Markdown at the top or
 * the bottom of many pages (a site-title heading, "Home | Contents | Index" bars, "« previous |
 * up | next »" pagers, "© Copyright … Created using Sphinx" footers) is the site's frame, not the
 * page. Per-theme selectors cannot know every theme; repetition across the site does.
 */
import type { ChromeModel, Curation } from '../store/records/generate';
import { oneLine } from './text';

/** One Markdown block (paragraphs, lists, headings, fenced code) with its position. */
interface Block {
  text: string;
  code: boolean;
}

// A block on at least this share of pages (and on at least MIN_PAGES) is the site's, not the page's.
const SHARE = 0.3;
const MIN_PAGES = 3;
// Below this many pages there is no "site" to compare with: nothing is stripped.
const MIN_SITE = 5;
// A pager shows other pages' titles each time; its shape repeats when its words don't. A block is
// a pager by shape when it is mostly links (this many at least) with a few words around them.
const MIN_SHAPE_LINKS = 2;
const MAX_SHAPE_WORDS = 6;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LINK = /(?<!\\)!?\[((?:[^[\]\\]|\\.)*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g;

/**
 * Splits Markdown into blocks at blank lines, keeping fenced code whole. A block is a run of whole
 * lines, so its text is one slice of `markdown` (no array of the page's lines, no join). A line
 * starting with a printable ASCII character other than a fence's is neither blank nor a fence: it
 * is added without being cut out of the page.
 */
export function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  // The lines taken so far: `markdown.slice(from, to)`; none while `from` is -1.
  let from = -1;
  let to = 0;
  let fence = '';
  const flush = (code: boolean) => {
    if (from >= 0) blocks.push({ text: markdown.slice(from, to), code });
    from = -1;
  };
  for (let start = 0; start <= markdown.length; ) {
    const newline = markdown.indexOf('\n', start);
    const end = newline < 0 ? markdown.length : newline;
    const first = markdown.charCodeAt(start);
    const plain = first > 32 && first < 127 && first !== 96 && first !== 126;
    const line = plain ? '' : markdown.slice(start, end);
    const marker = plain ? undefined : FENCE.exec(line)?.[1];
    if (fence) {
      if (from < 0) from = start;
      to = end;
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        flush(true);
        fence = '';
      }
    } else if (marker) {
      flush(false);
      fence = marker;
      from = start;
      to = end;
    } else if (!plain && line.trim() === '') {
      flush(false);
    } else {
      if (from < 0) from = start;
      to = end;
    }
    start = end + 1;
  }
  flush(fence !== '');
  return blocks;
}

/** The block's text, whitespace-collapsed and lower-cased: equal on every page it repeats on. */
export function exactKey(text: string): string {
  return oneLine(text).toLowerCase();
}

/** The block with link texts and targets blanked, when it is link-dominated (a pager, a nav bar). */
function shapeKey(text: string): string | undefined {
  // Every link holds a `](` of its own: a block with fewer than MIN_SHAPE_LINKS of them has fewer
  // links, and most blocks are found out here without running LINK over their text.
  let opens = 0;
  for (let at = text.indexOf(']('); at >= 0 && opens < MIN_SHAPE_LINKS; at = text.indexOf('](', at + 2)) opens++;
  if (opens < MIN_SHAPE_LINKS) return undefined;
  let links = 0;
  const shape = text.replace(LINK, () => {
    links++;
    return '[]';
  });
  if (links < MIN_SHAPE_LINKS) return undefined;
  const words = shape.replace(/\[\]/g, ' ').split(/\s+/).filter((word) => /\p{L}/u.test(word));
  if (words.length > MAX_SHAPE_WORDS) return undefined;
  return `shape:${shape.replace(/\d+/g, '0').replace(/\s+/g, ' ').trim().toLowerCase()}`;
}

// A one- or two-word block ("Note", "See also") is an admonition's label: content, however often it
// repeats. A heading is different: a "## GIT" closing every man page is the site's frame.
const MIN_CHROME_WORDS = 3;

const WORD = /\S+/g;
const LETTER = /\p{L}/u;

/**
 * Whether the text has at least one and fewer than MIN_CHROME_WORDS words with a letter (runs of
 * non-space): counted only as far as the limit, with no array of the text's words.
 */
function isLabel(text: string): boolean {
  let words = 0;
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match; match = WORD.exec(text)) {
    if (LETTER.test(match[0]) && ++words >= MIN_CHROME_WORDS) return false;
  }
  return words > 0;
}

/** `exact` is the block's `exactKey` where the caller has it already. */
function keysOf(block: Block, exact?: string): string[] {
  if (block.code) return [];
  if (!block.text.includes('](') && !/^#{1,6}\s/.test(block.text) && isLabel(block.text)) return [];
  const key = exact ?? exactKey(block.text);
  const shape = shapeKey(block.text);
  return shape ? [key, shape] : [key];
}

/**
 * What `learnChrome` learns, as plain data a store keeps with each version (its shape is the
 * store's: lib/store/records/generate.ts): the keys (`keysOf`) of the blocks on a share of the
 * pages, and the exact texts of the prose blocks on a few pages (what a frame's tail is matched
 * by). Both lists are sorted, so one site's pages always give the same model.
 */
export type { ChromeModel } from '../store/records/generate';

/** The strip's version: a stored model made by another version is not used (`isChromeModel`). */
export const CHROME_MODEL_VERSION = 1;

/** The model that strips nothing: a site too small to learn from, or one with no repeated block. */
export const NO_CHROME: ChromeModel = { v: CHROME_MODEL_VERSION, repeated: [], frameTail: [] };

/** True when `value` is a model this version's strip can use (a stored one may be from another). */
export function isChromeModel(value: unknown): value is ChromeModel {
  const model = value as Partial<ChromeModel> | null | undefined;
  return !!model && model.v === CHROME_MODEL_VERSION && Array.isArray(model.repeated) && Array.isArray(model.frameTail);
}

/** Learns the site's repeated edge blocks from all of its pages' Markdown (see `stripChrome`). */
export function learnChrome(markdowns: string[]): ChromeModel {
  const learner = chromeLearner();
  for (const markdown of markdowns) learner.add(markdown);
  return learner.model();
}

/**
 * `learnChrome` one page at a time: each page's Markdown is read for its block keys and let go, so
 * a caller that reads pages from a store need not hold the site's text to learn its chrome. The
 * pages given, in any order, learn the model `learnChrome` learns from them as one list.
 */
export function chromeLearner(): { add(markdown: string): void; model(): ChromeModel } {
  const pagesPerKey = new Map<string, number>();
  // Every prose block's exact text, short ones too: what a frame's tail is matched by.
  const pagesPerText = new Map<string, number>();
  let pages = 0;
  const add = (markdown: string): void => {
    pages++;
    const seen = new Set<string>();
    const texts = new Set<string>();
    for (const block of blocksOf(markdown)) {
      if (block.code) continue;
      const exact = exactKey(block.text);
      for (const key of keysOf(block, exact)) seen.add(key);
      texts.add(exact);
    }
    for (const key of seen) pagesPerKey.set(key, (pagesPerKey.get(key) ?? 0) + 1);
    for (const text of texts) pagesPerText.set(text, (pagesPerText.get(text) ?? 0) + 1);
  };
  const model = (): ChromeModel => {
    if (pages < MIN_SITE) return NO_CHROME;
    const threshold = Math.max(MIN_PAGES, Math.ceil(SHARE * pages));
    const repeated = [...pagesPerKey].filter(([, count]) => count >= threshold).map(([key]) => key).sort();
    // Without a repeated block there is no frame for a tail to sit below: nothing to keep.
    if (repeated.length === 0) return NO_CHROME;
    const frameTail = [...pagesPerText].filter(([, count]) => count >= MIN_PAGES).map(([text]) => text).sort();
    return { v: CHROME_MODEL_VERSION, repeated, frameTail };
  };
  return { add, model };
}

/**
 * A function that removes the site's repeated edge blocks, as `model` learned them, from one
 * page's Markdown. Only the leading and trailing runs are touched (a unique heading inside the
 * leading run is kept): a note that repeats in the middle of many pages is content. What is left
 * is always a contiguous run of the page's blocks.
 */
export function chromeStripper(model: ChromeModel | undefined): (markdown: string) => string {
  if (!model || model.repeated.length === 0) return (markdown) => markdown;
  let strip = strippers.get(model);
  if (!strip) {
    strip = stripperOf(model);
    strippers.set(model, strip);
  }
  return strip;
}

// One stripper per model object: serving page after page from one model builds its sets once.
const strippers = new WeakMap<ChromeModel, (markdown: string) => string>();

function stripperOf(model: ChromeModel): (markdown: string) => string {
  const repeated = new Set(model.repeated);
  const frameTexts = new Set(model.frameTail);
  const isChrome = (block: Block) => keysOf(block).some((key) => repeated.has(key));
  // Below a site's frame a generator may append blocks that only some kinds of page get (rustdoc
  // inlines the same blanket-implementation docs at the end of every type page, one more impl on
  // iterator types): repeated verbatim on a few pages, and part of the frame when they sit after it.
  const isFrameTail = (block: Block) => !block.code && frameTexts.has(exactKey(block.text));
  const isHeading = (block: Block) => !block.code && /^#{1,6}\s/.test(block.text) && !block.text.includes('\n');

  return (markdown) => {
    const blocks = blocksOf(markdown);
    const keep = blocks.map(() => true);
    // Leading run: chrome and the page's own headings, up to its first content block. A plain
    // sub-heading that many pages share ("### Synopsis" on every command page) is structure, not
    // chrome; a site-title heading is an H1 or a link.
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i] as Block;
      const structure = isHeading(block) && !/^#\s/.test(block.text) && !block.text.includes('](');
      if (!structure && isChrome(block)) keep[i] = false;
      else if (!isHeading(block)) break;
    }
    // Trailing run: chrome, and blocks repeated on a few pages that sit below chrome. The run
    // ends at the first block that repeats on fewer; it is cut from its topmost chrome block on,
    // so a few pages' shared note above the frame stays.
    //
    // A heading is the page's own: it ends the run, and the body of its section (the blocks up to
    // the next heading) stays with it, chrome-shaped or not (a "See also" list of two links has a
    // pager's shape). Only a section that is itself the frame goes whole: everything below it is
    // being cut, its heading repeats word for word on several pages and every block of its body on
    // most ("## GIT" over "Part of the git(1) suite"; a member every type inherits, with the
    // summary it inherits). An option's docs that a few command pages share ("Default: false"
    // above the option's own description) are not on most pages.
    let cut = blocks.length;
    for (let i = blocks.length - 1; i >= 0; i--) {
      const block = blocks[i] as Block;
      if (isHeading(block)) {
        let end = i + 1;
        while (end < blocks.length && !isHeading(blocks[end] as Block)) end++;
        const body = blocks.slice(i + 1, end);
        // Body blocks too short to be told apart from a label ("Calls `U::from(self)`.") need only
        // repeat on several pages; every other one on most.
        const common = (b: Block) => repeated.has(exactKey(b.text)) || (isFrameTail(b) && keysOf(b).length === 0);
        const frameSection = cut <= end && isFrameTail(block)
          && (body.length === 0 ? cut === i + 1 && end < blocks.length : body.every(common) && [block, ...body].some((b) => repeated.has(exactKey(b.text))));
        if (frameSection) {
          cut = i;
          continue;
        }
        // Its body stays down to its last block that is not on most pages word for word; a
        // footer below that, which Markdown cannot set apart from the last section, still goes.
        let last = end - 1;
        while (last > i && repeated.has(exactKey((blocks[last] as Block).text))) last--;
        cut = Math.max(cut, last + 1);
        break;
      }
      if (isChrome(block)) cut = i;
      else if (!isFrameTail(block)) break;
    }
    for (let i = cut; i < blocks.length; i++) keep[i] = false;
    if (keep.every(Boolean)) return markdown;
    return blocks.filter((_, i) => keep[i]).map((block) => block.text).join('\n\n');
  };
}

/** One page's Markdown without the site's chrome as `model` learned it (unchanged without a model). */
export function stripChrome(model: ChromeModel | undefined, markdown: string): string {
  return chromeStripper(model)(markdown);
}

/** `learnChrome` then `chromeStripper`: the site's pages learn the chrome that is stripped from each. */
export function learnBoilerplate(markdowns: string[]): (markdown: string) => string {
  return chromeStripper(learnChrome(markdowns));
}

/** What `generatedPages` reads of a page (a SourcePage, a stored page record). */
export interface ChromePage {
  key: string;
  state: string;
  empty?: string;
  notDocs?: string;
}

/**
 * The pages both files are made of, before any is dropped as a duplicate link: stored with text,
 * not left out by the user, and documentation unless the user brought them back (the evidence
 * says a blog post or a forum thread is not; such pages stay out of the name and summary too).
 */
export function generatedPages<T extends ChromePage>(pages: T[], curation: Pick<Curation, 'excluded' | 'included'> = {}): T[] {
  return pages.filter(isGenerated(curation));
}

/** `generatedPages` for one page at a time: true for a page both files are made of. */
export function isGenerated(curation: Pick<Curation, 'excluded' | 'included'> = {}): (page: ChromePage) => boolean {
  const excluded = new Set(curation.excluded ?? []);
  const included = new Set(curation.included ?? []);
  return (page) => page.state === 'stored' && !page.empty && !excluded.has(page.key) && (!page.notDocs || included.has(page.key));
}

/**
 * The site chrome generation learns, from the same pages (`generatedPages`): for a version that
 * kept no model, what serves its pages learns it here once rather than from a page set of its own.
 */
export function learnSiteChrome(pages: Array<ChromePage & { markdown: string }>, curation?: Pick<Curation, 'excluded' | 'included'>): ChromeModel {
  return learnChrome(generatedPages(pages, curation).map((page) => page.markdown));
}
