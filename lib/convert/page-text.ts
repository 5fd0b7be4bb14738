/** The page's title and description, chosen from what the head and the content offer. */
import { namesOf, normalizeSpace, tagOf, truncateOnWord, walkElements } from './walk';

const TITLE_SEPARATORS = [' — ', ' – ', ' | ', ' - ', ' · ', ' » ', ' :: '];
const MAX_TITLE = 300;
const MAX_DESCRIPTION = 300;
// A first paragraph shorter than this is a label ("Source code: Lib/os.py", "Stability: 2").
const MIN_PARAGRAPH_CHARS = 60;
const MIN_PARAGRAPH_WORDS = 8;
// Paragraphs in these are asides, quotes or data, not the page's summary.
const NOT_SUMMARY = new Set(['blockquote', 'aside', 'table', 'figure', 'figcaption', 'li', 'dd', 'dt', 'nav', 'header', 'footer']);
// Callouts are not the summary either, whatever element they are built from.
const CALLOUT_NAMES = /admonition|callout|alert|warning|note|deprecated|version(?:added|changed)/;
const SECTION_MARKS = /(?<![\s¶#§])[\s¶#§]+$/;

function sameName(a: string, b: string): boolean {
  return a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
}

/**
 * Removes a trailing " — Site" (or " | Site", " - Site", …) when "Site" is one of the names the
 * page gives its site. Never strips on a guess: "Foo - Bar" keeps "Bar" unless Bar is the site.
 */
export function stripSiteSuffix(title: string, siteNames: string[]): string {
  for (const separator of TITLE_SEPARATORS) {
    const at = title.lastIndexOf(separator);
    if (at <= 0) continue;
    const suffix = title.slice(at + separator.length).trim();
    if (siteNames.some((name) => sameName(name, suffix))) return title.slice(0, at).trim();
  }
  return title;
}

/** "getting-started.html" → "Getting started"; the host name for a site root. */
export function titleFromUrl(pageUrl: string): string {
  try {
    const url = new URL(pageUrl);
    const segments = url.pathname.split('/').filter(Boolean);
    const last = segments.at(-1);
    if (!last) return url.hostname;
    let name = last;
    try {
      name = decodeURIComponent(last);
    } catch {
      // A malformed escape is shown as written.
    }
    name = normalizeSpace(name.replace(/\.(?:html?|php|aspx?|jsp|md|mdx|txt)$/i, '').replace(/[-_+]+/g, ' '));
    return name ? name.charAt(0).toUpperCase() + name.slice(1) : url.hostname;
  } catch {
    return '';
  }
}

/** The title chain: `<title>` (site suffix removed) → first h1 → last path segment. */
export function chooseTitle(headTitle: string | undefined, h1: string | undefined, pageUrl: string, siteNames: string[]): string {
  const fromHead = headTitle ? stripSiteSuffix(headTitle, siteNames) : '';
  const heading = normalizeSpace(h1).replace(SECTION_MARKS, '');
  const title = fromHead || heading || titleFromUrl(pageUrl);
  return truncateOnWord(title, MAX_TITLE);
}

/** Text of the first h1 in `root`, without permalink marks. */
export function firstHeading(root: Element): string | undefined {
  const h1 = root.querySelector('h1');
  const text = normalizeSpace(h1?.textContent).replace(SECTION_MARKS, '');
  return text || undefined;
}

/**
 * The page's lead: the first paragraph of cleaned content that reads like a summary, trimmed to
 * about 300 chars. Labels ("Source code: Lib/os.py") and legal lines are passed over; a lead that
 * introduces what follows ("It can be accessed using:") is still the lead, made to read alone. The
 * lead comes before the page's first member: a signature or a definition line with its own
 * anchor ends the search, for what follows it is that member's text.
 */
export function summaryParagraph(root: Element, definitions: Set<Element> = new Set()): string | undefined {
  let summary: string | undefined;
  let done = false;
  walkElements(root, (element) => {
    if (summary || done) return 'skip';
    const tag = tagOf(element);
    if (NOT_SUMMARY.has(tag) || tag === 'pre' || CALLOUT_NAMES.test(namesOf(element))) return 'skip';
    if (tag !== 'p') return undefined;
    const text = normalizeSpace(element.textContent);
    // A definition's signature starts the page's members: what follows is a member's text.
    if (definitions.has(element) || isSignature(text, proseOutsideCode(element))) {
      done = true;
      return 'skip';
    }
    if (text.length < MIN_PARAGRAPH_CHARS || text.split(' ').length < MIN_PARAGRAPH_WORDS) return 'skip';
    summary = isWeakDescription(text) ? leadThatIntroduces(text, element) : text;
    return 'skip';
  });
  return summary === undefined ? undefined : truncateOnWord(summary, MAX_DESCRIPTION);
}

// What a signature is written with, outside its links: Haskell's `::`, arrows, a parameter list
// right after a name. A bar's "[(dir)]" is a link's text and no mark.
const SIGNATURE_MARKS = /::|->|=>|[\p{L}\p{N}_]\(/u;
// Words a signature spells outside its links and code (parameter names, the member's own name)
// are under this share of its words; prose is mostly its own words.
const SIGNATURE_OWN_WORDS = 0.4;
const wordCount = (text: string): number => text.match(/\p{L}[\p{L}\p{N}_]+/gu)?.length ?? 0;

/**
 * Whether a block is a definition's signature rather than prose ("newline :: (MonadParsec e s m,
 * Token s ~ Char) => m (Token s) Source"): written with signature marks, and most of its words are
 * links to types or code. `own` is the block's text outside links and code.
 */
export function isSignature(text: string, own: string): boolean {
  if (!SIGNATURE_MARKS.test(own)) return false;
  const all = wordCount(text);
  return all > 0 && wordCount(own) < SIGNATURE_OWN_WORDS * all;
}

/**
 * The paragraphs of `root` that are a member's definition line: each holds its own anchor target
 * and a link to it (Haddock's `<p class="src"><a id="v:dbg">dbg</a> … <a href="#v:dbg">#</a></p>`).
 * Read before cleaning, which takes such self-links away as permalink marks.
 */
export function definitionLines(root: Element): Set<Element> {
  const out = new Set<Element>();
  for (const paragraph of root.querySelectorAll('p')) {
    const ids = new Set<string>();
    const own = paragraph.getAttribute('id');
    if (own) ids.add(own);
    for (const element of paragraph.querySelectorAll('[id]')) ids.add(element.getAttribute('id') ?? '');
    if (!ids.size) continue;
    for (const link of paragraph.querySelectorAll('a[href]')) {
      const href = link.getAttribute('href') ?? '';
      const hash = href.indexOf('#');
      if (hash >= 0 && ids.has(decodeFragment(href.slice(hash + 1)))) {
        out.add(paragraph);
        break;
      }
    }
  }
  return out;
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** The text of `element` outside links to somewhere and code. */
function proseOutsideCode(element: Element): string {
  let out = '';
  const visit = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) out += child.textContent ?? '';
      else if (child.nodeType === 1) {
        const tag = tagOf(child as Element);
        if (tag === 'code' || (tag === 'a' && (child as Element).hasAttribute('href'))) out += ' ';
        else visit(child);
      }
    }
  };
  visit(element);
  return out;
}

// Where a sentence ends: its mark, before the next one's capital, digit or quote.
const SENTENCE_END = /[.!?](?=\s+["“‘(]?[\p{Lu}\d])/gu;
const MAX_LIST_ITEMS = 6;

/**
 * A lead paragraph that only introduces what follows, made to read alone: the sentences before
 * the introducing one ("The path module provides utilities for working with paths. It can be
 * accessed using:" → its first sentence), else, when a list follows, the lead with the list's
 * items ("Tally reads three kinds of input: words, lines, records"). Undefined when it is weak
 * for another reason (a copyright line, a version note) or cannot stand alone.
 */
function leadThatIntroduces(text: string, paragraph: Element): string | undefined {
  if (!/[:：]$/.test(text) && !INTRODUCES.test(text)) return undefined;
  let cut = -1;
  for (const match of text.matchAll(SENTENCE_END)) cut = match.index + 1;
  const before = cut > 0 ? text.slice(0, cut) : '';
  if (before.length >= MIN_PARAGRAPH_CHARS && !isWeakDescription(before)) return before;
  const list = paragraph.nextElementSibling;
  if (!list || !/^(?:ul|ol)$/.test(tagOf(list))) return undefined;
  const items: string[] = [];
  for (let item = list.firstElementChild; item && items.length < MAX_LIST_ITEMS; item = item.nextElementSibling) {
    const line = normalizeSpace(item.textContent).replace(/[.;,:]$/, '');
    if (line) items.push(line.length > 60 ? truncateOnWord(line, 60) : line);
  }
  if (!items.length) return undefined;
  const lead = text.replace(/[:：]$/, '').trimEnd();
  const joined = `${lead}: ${items.join(', ')}`;
  return isWeakDescription(joined) ? undefined : joined;
}

// Text that is about the page's legal status, history or layout rather than its subject.
const WEAK_START = /^(?:©|\(c\)\s|copyright\b|see also\b|(?:new|changed|added|removed) in (?:version\b|v?\d)|deprecated (?:since|in)\b|version (?:added|changed)\b|note:|warning:|caution:|important:|tip:|source code:|stability:|previous topic\b|next topic\b|table of contents\b|on this page\b|last (?:updated|modified)\b|edit (?:this|on)\b)/i;
// A sentence that only leads into what follows, or continues the one before it.
const INTRODUCES = /\b(?:the following(?: \w+){0,3}|as follows|below)[.:]?$|^(?:then|next|also|finally|however|and|but|or|so|now)\b/i;
const WEAK_ANYWHERE = /all rights reserved|licensed under the |\bcopyright\s+(?:©|\(c\)|\d{4})/i;
const MIN_DESCRIPTION_WORDS = 4;

/**
 * Whether `text` is a poor description of a page: a copyright or licence line, a version note,
 * a "See also" pointer, a label, or a sentence that only introduces what follows ("…, for
 * example:"). No description beats one of these.
 */
export function isWeakDescription(text: string | undefined): boolean {
  const clean = normalizeSpace(text);
  const words = clean.split(' ');
  if (words.length < MIN_DESCRIPTION_WORDS) return true;
  if (/[:：]$/.test(clean) || INTRODUCES.test(clean)) return true;
  // A row of labels ("All Methods Static Methods Concrete Methods", "A B C D E F") is a tab bar.
  if (!/[.!?…)]$/.test(clean) && words.every((word) => !/\p{Ll}/u.test(word.charAt(0)))) return true;
  return WEAK_START.test(clean) || WEAK_ANYWHERE.test(clean);
}

/**
 * Whether a meta description only repeats the page's `<title>` (Texinfo writes
 * `<meta name="description" content="Scanner Options (Tally Manual)">` on every node): it says
 * nothing the title does not, and the page's lead says more.
 */
export function echoesTitle(description: string, headTitle: string | undefined): boolean {
  const plain = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  const title = plain(headTitle ?? '');
  return title !== '' && title.includes(plain(description));
}

/** A description from meta tags, trimmed like the paragraph fallback. */
export function trimDescription(text: string | undefined): string | undefined {
  const clean = normalizeSpace(text);
  return clean ? truncateOnWord(clean, MAX_DESCRIPTION) : undefined;
}
