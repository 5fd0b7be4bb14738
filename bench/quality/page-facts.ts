/**
 * What a page's own HTML says about its content, read apart from the conversion: the invariants
 * (kept.ts, title-h1.ts, the member test in descriptions.ts) compare the converted Markdown or the
 * generated entry with these facts, so they need no ground truth.
 *
 * The main content is the container the converter picked (`findMainContent` after `pruneNonText`,
 * on a parse of its own). Inside it, what is under `nav`/`[role=navigation]`, in a list that marks
 * a link `aria-current` (a breadcrumb), or hidden
 * (`hidden`, `aria-hidden="true"`, an inline `display:none`) is not counted: the reader does not
 * see it as content, and the converter rightly drops it.
 */
import { pruneNonText } from '../../lib/convert/clean';
import { findMainContent } from '../../lib/convert/main-content';

export interface PageFacts {
  /**
   * Candidates for the page's H1 as a reader sees it, in document order, outside navigation, the
   * site header (`[role=banner]`, a `header` outside any article, main or section), asides, footers and hidden parts: every h1 with at most
   * 40 words of page text before it; when there is none, the first heading of any level with at most
   * 10 words before it that are not link text (a chapter title written as h2 or h3, under a bar of
   * links such as a Texinfo node's "Next: …, Previous: …, Up: …"), unless it labels a table's rows
   * (a heading in a row with rows after it: Doxygen's "Files") or is an index's letter ("- a -": the
 * first of an alphabet's headings, Doxygen's "Globals"). A page whose first heading comes after
   * its text (a section heading under a Doxygen or Haddock title written as plain text) has none.
   * The site decides between them: see `pageH1`.
   */
  h1Candidates: string[];
  /** Words (see `words`) of each h1–h6 of the main content, in order. */
  headings: string[];
  /** Each `pre` of the main content as its non-blank lines (whitespace collapsed; line-number gutters left out). */
  codeBlocks: string[][];
  /** Each outermost `table` of the main content as the words of its non-empty cells. */
  tables: string[][];
  /** Each `li` of the main content outside tables: the first words of its own first line of text (nested lists, code and tables left out). */
  listItems: string[];
  /** Paragraphs (their words) of the page's lead: `p` before the first section heading (one level below the top heading: h2 under an h1), outside lists, tables, definition lists and callouts (a block opened by a one- or two-word label). */
  lead: string[];
  /** Paragraphs that belong to a member: after the first section heading, or inside a definition list's `dd` (an API member's documentation). */
  members: string[];
}

/** Lower-case letter/digit runs joined by one space (how every invariant compares text). */
export const words = (text: string): string => (text.match(/[\p{L}\p{N}]+/gu) ?? []).join(' ').toLowerCase();

const LIST_ITEM_WORDS = 8;

function isHidden(element: Element): boolean {
  return element.hasAttribute('hidden') || element.getAttribute('aria-hidden') === 'true' || /display\s*:\s*none/i.test(element.getAttribute('style') ?? '');
}

/** Inside navigation or hidden, up to (not including) `stop`. */
function excluded(element: Element, stop: Element): boolean {
  for (let at: Element | null = element; at && at !== stop; at = at.parentElement) {
    const tag = at.localName.toLowerCase();
    if (tag === 'nav' || at.getAttribute('role') === 'navigation' || isHidden(at)) return true;
    // A list marking one of its links as where the reader is (`aria-current`) is navigation: a
    // breadcrumb or a menu, whatever element holds it.
    if ((tag === 'ul' || tag === 'ol') && at.querySelector('[aria-current]')) return true;
  }
  return false;
}

/** Text as a reader sees it: hidden parts, buttons and icons left out, `<br>` and block ends read as line breaks. */
export function visibleText(root: Element, skip: (element: Element) => boolean = () => false): string {
  let text = '';
  const BLOCK = /^(?:div|p|li|tr|h[1-6]|pre|table|ul|ol|dl|dt|dd|section|article|blockquote)$/;
  const read = (node: Node): void => {
    if (node.nodeType === 3) {
      text += node.nodeValue ?? '';
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as Element;
    const tag = element.localName.toLowerCase();
    if (tag === 'br') {
      text += '\n';
      return;
    }
    if (['script', 'style', 'svg', 'button', 'template'].includes(tag) || isHidden(element) || skip(element)) return;
    for (let child = node.firstChild; child; child = child.nextSibling) read(child);
    if (BLOCK.test(tag)) text += '\n';
    else if (tag === 'td' || tag === 'th') text += ' ';
  };
  read(root);
  return text;
}

/**
 * A `pre`'s lines: whitespace collapsed, blanks left out, and line numbers left out — lines of
 * digits only (a gutter column of its own), or, when most lines open with an element holding only
 * a number and those numbers count up by one, that element (numbers written inline before each line).
 */
export function preLines(pre: Element): string[] {
  // Each line read twice: whole, and without the number element that opens it (if one does).
  type Line = { full: string; bare: string; numbered: boolean };
  const lines: Line[] = [{ full: '', bare: '', numbered: false }];
  const current = () => lines[lines.length - 1] as Line;
  const add = (text: string) => {
    current().full += text;
    current().bare += text;
  };
  const read = (node: Node): void => {
    if (node.nodeType === 3) {
      (node.nodeValue ?? '').split('\n').forEach((part, i) => {
        if (i > 0) lines.push({ full: '', bare: '', numbered: false });
        add(part);
      });
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as Element;
    const tag = element.localName.toLowerCase();
    if (tag === 'br') {
      lines.push({ full: '', bare: '', numbered: false });
      return;
    }
    if (['script', 'style', 'svg', 'button', 'template'].includes(tag) || isHidden(element)) return;
    const own = element.textContent ?? '';
    // Only an inline element can be a line's number: a block holding a number is a line of its own.
    const block = /^(?:div|p|li|tr|table|tbody|td|code)$/.test(tag) || element.querySelector('br') !== null;
    if (!block && current().full.trim() === '' && !current().numbered && /^\s*\d+\s*$/.test(own)) {
      current().full += own;
      current().numbered = true;
      return;
    }
    for (let child = node.firstChild; child; child = child.nextSibling) read(child);
    if (/^(?:div|p|li|tr)$/.test(tag) && current().full !== '') lines.push({ full: '', bare: '', numbered: false });
  };
  read(pre);
  const withText = lines.filter((l) => l.full.trim() !== '');
  // Line numbers count up by one: a log's years or a table of codes opening each line do not.
  const numbers = withText.filter((l) => l.numbered).map((l) => Number.parseInt(l.full, 10));
  // (A single numbered line is a gutter only when it is line 1.)
  const counting = numbers.length === 1 ? numbers[0] === 1 : numbers.slice(1).filter((n, i) => n === (numbers[i] ?? 0) + 1).length >= 0.9 * (numbers.length - 1);
  const numbered = counting && numbers.length > withText.length / 2;
  return withText
    .map((l) => (numbered ? l.bare : l.full).replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '' && !/^\d+$/.test(line));
}

const OUTSIDE_PAGE = /^(?:nav|header|footer|aside)$/;
const SECTIONING = /^(?:article|main|section)$/;
const H1_WORDS_BEFORE = 40;
const HEADING_WORDS_BEFORE = 10;

// An index's letter ("- a -", "A"): the first of an alphabet's headings, not the page's title.
const INDEX_LETTER = /^[^\p{L}\p{N}]*[\p{L}\p{N}][^\p{L}\p{N}]*$/u;

/** A heading in a table row with more rows after it: the label of those rows, not a page's title (a layout table's one row may hold the title). */
function labelsRows(heading: Element): boolean {
  const row = heading.closest('tr');
  for (let next = row?.nextElementSibling; next; next = next.nextElementSibling) if (next.localName.toLowerCase() === 'tr') return true;
  return false;
}

/** See PageFacts.h1Candidates: one walk in document order, counting the page text before each heading. */
function titleHeadings(body: Element): string[] {
  const h1s: string[] = [];
  let first: string | null = null;
  let before = 0;
  // Words before outside links: a bar of links above a chapter's heading is navigation, not text.
  let plainBefore = 0;
  // `inContent`: inside an article, main or section, where a `header` is that content's own (the
  // page's title block), not the site's banner (as HTML maps `header` to the banner role).
  const walk = (node: Node, inLink: boolean, inContent: boolean): void => {
    if (node.nodeType === 3) {
      const count = words(node.nodeValue ?? '').split(' ').filter(Boolean).length;
      before += count;
      if (!inLink) plainBefore += count;
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as Element;
    const tag = element.localName.toLowerCase();
    const role = element.getAttribute('role');
    if ((OUTSIDE_PAGE.test(tag) && !(tag === 'header' && inContent)) || role === 'navigation' || role === 'banner' || isHidden(element) || ['script', 'style', 'svg', 'button', 'template'].includes(tag)) return;
    if (/^h[1-6]$/.test(tag)) {
      const text = visibleText(element).replace(/\s+/g, ' ').trim();
      const count = words(text).split(' ').filter(Boolean).length;
      if (words(text)) {
        if (tag === 'h1' && before <= H1_WORDS_BEFORE) h1s.push(text);
        if (first === null) first = plainBefore <= HEADING_WORDS_BEFORE && !labelsRows(element) && !INDEX_LETTER.test(text) ? text : '';
      }
      before += count;
      plainBefore += count;
      return;
    }
    const content = inContent || SECTIONING.test(tag) || role === 'main';
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child, inLink || tag === 'a', content);
  };
  walk(body, false, false);
  return h1s.length ? h1s : first ? [first] : [];
}

/**
 * The page's H1 among its candidates: the first that is not the site's — a heading found on more
 * than half the site's pages (at least 5) is the site's title (mdBook's menu title), not the page's.
 */
export function pageH1(candidates: string[], siteHeadings: Set<string>): string | null {
  return candidates.find((c) => !siteHeadings.has(c)) ?? null;
}

/** The candidate headings on more than half of the pages (at least 5): the site's, not a page's. */
export function siteHeadings(pages: string[][]): Set<string> {
  const counts = new Map<string, number>();
  for (const candidates of pages) for (const c of new Set(candidates)) counts.set(c, (counts.get(c) ?? 0) + 1);
  const threshold = Math.max(5, Math.floor(pages.length / 2) + 1);
  return new Set([...counts].filter(([, n]) => n >= threshold).map(([c]) => c));
}

/** A list whose every item is only a link to a #fragment (nested lists of the same kind allowed). */
function isFragmentToc(list: Element): boolean {
  const items = [...list.children].filter((c) => c.localName.toLowerCase() === 'li');
  if (items.length === 0) return false;
  return items.every((li) => {
    const link = [...li.children].find((c) => c.localName.toLowerCase() === 'a' || c.querySelector('a'));
    const anchor = link?.localName.toLowerCase() === 'a' ? link : link?.querySelector('a');
    if (!anchor?.getAttribute('href')?.startsWith('#')) return false;
    const own = words(visibleText(li, (e) => /^(?:ul|ol)$/.test(e.localName.toLowerCase())));
    return own === words(visibleText(anchor));
  });
}

/**
 * Whether `element` sits in a callout: a block (below `main`) that opens with a label of one or two
 * words and no link ("Danger", "See also") before the rest. An admonition warns or points; it does
 * not say what the page is, so it is not the page's lead, however early it comes.
 */
function inLabelledBlock(element: Element, main: Element): boolean {
  for (let block = element.parentElement; block && block !== main; block = block.parentElement) {
    const first = block.firstElementChild;
    if (!first || first === element || first.contains(element) || /^h[1-6]$/i.test(first.localName) || first.querySelector('a')) continue;
    const label = words(visibleText(first));
    const count = label ? label.split(' ').length : 0;
    if (count >= 1 && count <= 2) return true;
  }
  return false;
}

/**
 * Whether a paragraph is a note or a byline set under a label rather than prose: it opens with an
 * element of its own that ends in a colon ("<span>Changed in version 1.6: </span>…",
 * "<strong>Note:</strong> …"), or it is one element whose text opens with a label of one or two
 * words ("<em>Module author: Ann Example</em>").
 */
function isLabelled(paragraph: Element): boolean {
  let first: Node | null = paragraph.firstChild;
  while (first && first.nodeType === 3 && !(first.nodeValue ?? '').trim()) first = first.nextSibling;
  if (first?.nodeType !== 1) return false;
  const label = visibleText(first as Element).trim();
  if (/[:：]$/.test(label)) return true;
  const whole = visibleText(paragraph).trim();
  return label === whole && /^[^\s:]+(?:\s[^\s:]+)?:\s/.test(label);
}

/** Facts of one parsed page (the document is modified: scripts and styles are pruned). */
export function pageFacts(document: Document): PageFacts {
  const body = document.body ?? document.documentElement;
  const empty: PageFacts = { h1Candidates: [], headings: [], codeBlocks: [], tables: [], listItems: [], lead: [], members: [] };
  if (!body) return empty;
  const title = document.querySelector('head > title')?.textContent ?? undefined;
  pruneNonText(document.documentElement ?? body);
  const main = findMainContent(body, title);
  const inMain = (selector: string) => [...main.querySelectorAll(selector)].filter((e) => !excluded(e, main));

  const headingElements = inMain('h1, h2, h3, h4, h5, h6');
  const headings = headingElements.map((h) => words(visibleText(h))).filter(Boolean);
  const h1Candidates = titleHeadings(body);

  const codeBlocks = inMain('pre')
    // A pre inside another pre is read with it.
    .filter((pre) => !pre.parentElement?.closest('pre'))
    .map(preLines)
    .filter((lines) => lines.length > 0);

  const tables = inMain('table')
    .filter((table) => !table.parentElement?.closest('table'))
    .map((table) => [...table.querySelectorAll('td, th')].filter((cell) => cell.closest('table') === table).map((cell) => words(visibleText(cell))).filter(Boolean))
    .filter((cells) => cells.length > 0);

  // A list used to lay out sections (an item holding a heading) is not a list of items, and a list
  // of links to the page's own fragments is its in-page table of contents: navigation.
  const listItems = inMain('li')
    .filter((li) => !li.closest('table') && !li.querySelector('h1, h2, h3, h4, h5, h6') && !(li.parentElement && isFragmentToc(li.parentElement)))
    .map((li) => {
      // The item's first line of text: what a list item's marker line holds.
      const own = visibleText(li, (e) => e !== li && /^(?:ul|ol|pre|table|dl)$/.test(e.localName.toLowerCase()));
      const first = own.split('\n').map(words).find(Boolean) ?? '';
      return first.split(' ').slice(0, LIST_ITEM_WORDS).join(' ');
    })
    .filter(Boolean);

  // Lead and member paragraphs: one pass in document order (querySelectorAll keeps it). Sections
  // start one level below the page's top heading (h2 under an h1; h3 under a Texinfo chapter's h2).
  const lead: string[] = [];
  const members: string[] = [];
  const levels = headingElements.map((h) => Number(h.localName.charAt(1)));
  const sectionLevel = levels.length ? Math.min(...levels) + 1 : 2;
  let inSection = false;
  for (const element of inMain('h1, h2, h3, h4, h5, h6, p')) {
    const tag = element.localName.toLowerCase();
    if (tag.startsWith('h')) {
      if (Number(tag.charAt(1)) >= sectionLevel) inSection = true;
      continue;
    }
    const text = words(visibleText(element));
    if (!text) continue;
    if (inSection || element.closest('dd')) members.push(text);
    else if (!element.closest('li, table, dl, aside, blockquote') && !inLabelledBlock(element, main) && !isLabelled(element)) lead.push(text);
  }
  return { h1Candidates, headings, codeBlocks, tables, listItems, lead, members };
}
