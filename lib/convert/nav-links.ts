/**
 * The site's own navigation order, read from its sidebar: the crawler and the llms.txt generator
 * use it to order pages the way the site's authors did.
 */
import { boundedMemo } from '../bounded-memo';
import { countLinks, indexLinks, listLinks, type NavLink } from './nav-tree';
import type { HrefCache } from './urls';
import { classOf, namesOf, tagOf, walkElements } from './walk';

export type { NavLink } from './nav-tree';

// Names of sidebar trees; these words are specific enough to match anywhere in a class name.
const SIDEBAR_NAMES = /sidebar|sidenav|side-nav|toctree|column-left|book-summary|docs-nav/;
// Node.js API docs up to v18 put the module list in #column2 (later versions: #column-left).
const SIDEBAR_IDS = new Set(['column2']);
// Generic navigation words, matched as whole words (not inside "canvas" or "menubutton-x").
const NAV_NAMES = /(?:^|[\s_-])(?:nav|navigation|menu|toc)(?:$|[\s_-])/;
// Navigation that is not the site tree: trails, pagers, related links, footers.
const NOT_TREE = /(?:^|[\s_-])(?:breadcrumbs?|related|pagination|pager|footer)(?:$|[\s_-])/;
// Tables of contents inside a page (Sphinx's toctree); several of them under headings make one tree.
const CONTENTS_NAMES = /toctree|(?:^|[\s_-])toc(?:$|[\s_-])/;
// Fewer list-item links than this is a pager or a "this page" box, not a navigation tree…
const MIN_LINKS = 3;
// …unless it has this many links outside lists (VitePress builds its sidebar from divs).
const MIN_FREE_LINKS = 8;

const SIDEBAR_NAME = 1;
const NAV_NAME = 2;

function bitsOfValue(value: string): number {
  const lower = value.toLowerCase();
  return (SIDEBAR_NAMES.test(lower) ? SIDEBAR_NAME : 0) | (NAV_NAMES.test(lower) ? NAV_NAME : 0);
}
// Every element of the page is asked; its class values repeat (a highlighter's spans), so each is
// read once. Kept up to this many, then started afresh. Ids are not remembered: each is unique in
// its page, so remembering one only costs a copy and crowds the class values out.
const MAX_NAME_ENTRIES = 2000;
const bitsOfClass = boundedMemo(MAX_NAME_ENTRIES, bitsOfValue);

/**
 * Whether an element's id and class values say sidebar or navigation: SIDEBAR_NAMES and NAV_NAMES
 * on each value alone. The same answer as on namesOf's "id class" string, whose one space joins two
 * parts that neither pattern can match across (a space ends a name, as the end of each value does).
 */
function nameBits(id: string | null, cls: string | null): number {
  return (id ? bitsOfValue(id) : 0) | (cls ? bitsOfClass(cls) : 0);
}

interface Candidate {
  element: Element;
  score: number;
  /** Read only for the candidate that wins: the others need only their counts. */
  links?: NavLink[];
}

/**
 * Whether `element` is, or is inside, the site's header or footer: `closest('header, footer,
 * [role=banner], [role=contentinfo]')` as a walk up the ancestors. linkedom compiles a selector
 * anew on every call, which cost more than the walk itself, once per navigation candidate.
 */
function inPageFrame(element: Element): boolean {
  for (let current: Element | null = element; current; current = current.parentElement) {
    const tag = tagOf(current);
    if (tag === 'header' || tag === 'footer') return true;
    const role = current.getAttribute('role');
    if (role === 'banner' || role === 'contentinfo') return true;
  }
  return false;
}

/** An element whose names say navigation, before its links are counted. */
interface Named {
  element: Element;
  /** Its links count twice: a sidebar or an aside. */
  side: boolean;
  contents: boolean;
}

/**
 * Finds the navigation tree in `body` and returns its page links in order, with depth from the
 * nesting of list items. In-page anchors (`#section`) are left out: they are a table of contents
 * of this page, not the site. Returns an empty list when no tree is recognisable.
 */
export function findNavLinks(body: Element, baseUrl: string | undefined, hrefs: HrefCache = new Map()): NavLink[] {
  const named: Named[] = [];
  walkElements(body, (element) => {
    const tag = tagOf(element);
    if (tag === 'svg' || tag === 'pre' || tag === 'table') return 'skip';
    // Without attributes only the tag can name navigation; most elements of a page have none.
    if (tag !== 'nav' && tag !== 'aside' && !element.hasAttributes()) return undefined;
    const role = element.getAttribute('role');
    const id = element.getAttribute('id');
    const bits = nameBits(id, classOf(element));
    const sidebar = (bits & SIDEBAR_NAME) !== 0 || SIDEBAR_IDS.has(id ?? '');
    if (!sidebar && tag !== 'nav' && tag !== 'aside' && role !== 'navigation' && !(bits & NAV_NAME)) return undefined;
    const names = namesOf(element);
    const label = (element.getAttribute('aria-label') ?? '').toLowerCase();
    if (NOT_TREE.test(names) || NOT_TREE.test(label)) return 'skip';
    named.push({ element, side: sidebar || tag === 'aside', contents: CONTENTS_NAMES.test(names) });
    return undefined;
  });
  if (named.length === 0) return [];
  // The outermost named elements hold every candidate: reading links there, not in all the page.
  const roots = new Set<Element>();
  for (const { element } of named) if (!hasAncestorIn(element, roots)) roots.add(element);
  const index = indexLinks(roots, baseUrl, hrefs);
  const counts = countLinks(
    named.map((n) => n.element),
    index,
  );
  const candidates: Candidate[] = [];
  // Every in-page table of contents, however short: several small ones can make one tree.
  const contents: Candidate[] = [];
  for (const { element, side, contents: isContents } of named) {
    const { pages, listed } = counts.get(element) ?? { pages: 0, listed: 0 };
    // A site header's menu is navigation too, but rarely the documentation tree.
    const candidate = { element, score: pages > 0 ? pages * (side ? 2 : 1) * (inPageFrame(element) ? 0.25 : 1) : 0 };
    if (pages > 0 && isContents) contents.push(candidate);
    if (listed >= MIN_LINKS || pages >= MIN_FREE_LINKS) candidates.push(candidate);
  }
  // Contents lists are combined per region: a sidebar's toctrees make one tree, the page's own
  // another (Sphinx's sidebar says "Community" where the start page's heading says "Community guide";
  // mixing both would name the site's groups by whichever comes first in the document).
  for (const region of contentRegions(contents, candidates)) {
    const sections = sectionedContents(region, baseUrl, hrefs);
    if (sections) candidates.push(sections);
  }
  let best: Candidate | undefined;
  for (const candidate of candidates) if (!best || candidate.score > best.score) best = candidate;
  if (!best) return [];
  return best.links ?? listLinks(best.element, baseUrl, hrefs, index).links;
}

// A start page's contents count as the site's tree with this many groups and page links at least.
const MIN_CONTENT_GROUPS = 2;
const MIN_CONTENT_LINKS = 8;

/** Whether a tree has groups: some top-level entry with entries under it. */
export function hasGroups(links: NavLink[]): boolean {
  return links.some((link, i) => link.depth === 0 && (links[i + 1]?.depth ?? 0) > 0);
}

/**
 * The table of contents a start page lays out in its content (git's man page: headings over
 * lists of commands; a DocBook book's contents), read as a tree with its headings as groups.
 * Undefined when the content is not one (fewer than two groups of links).
 */
export function findContentsTree(main: Element, baseUrl: string | undefined, hrefs: HrefCache = new Map()): NavLink[] | undefined {
  const { links } = listLinks(main, baseUrl, hrefs);
  const groups = links.filter((link, i) => link.depth === 0 && (links[i + 1]?.depth ?? 0) > 0).length;
  const pages = links.filter((link) => link.url !== '').length;
  return groups >= MIN_CONTENT_GROUPS && pages >= MIN_CONTENT_LINKS ? links : undefined;
}

/** Contents lists grouped by the outermost navigation candidate holding them (or none: the page). */
function contentRegions(contents: Candidate[], candidates: Candidate[]): Candidate[][] {
  const holders = new Set(candidates.map((candidate) => candidate.element));
  const regions = new Map<Element | null, Candidate[]>();
  for (const list of contents) {
    let region: Element | null = null;
    for (let node = list.element.parentElement; node; node = node.parentElement) if (holders.has(node)) region = node;
    const members = regions.get(region);
    if (members) members.push(list);
    else regions.set(region, [list]);
  }
  return [...regions.values()];
}

function hasAncestorIn(element: Element, set: Set<Element>): boolean {
  for (let node = element.parentElement; node; node = node.parentElement) if (set.has(node)) return true;
  return false;
}

/** The innermost element holding both. */
function commonAncestor(a: Element, b: Element): Element | null {
  for (let node: Element | null = a; node; node = node.parentElement) if (node.contains(b)) return node;
  return null;
}

/**
 * A start page that lays its contents out as several lists under headings (Sphinx's toctrees
 * under "User's Guide", "API Reference"…): each list alone is a fragment; the element holding
 * them all, read with its headings as group labels, is the site's table of contents.
 */
function sectionedContents(contents: Candidate[], baseUrl: string | undefined, hrefs: HrefCache): Candidate | undefined {
  const elements = new Set(contents.map((c) => c.element));
  const lists = contents.filter((c) => !hasAncestorIn(c.element, elements));
  if (lists.length < 2) return undefined;
  let holder: Element | null = lists[0]?.element ?? null;
  for (const list of lists.slice(1)) holder = holder && commonAncestor(holder, list.element);
  if (!holder) return undefined;
  // The element holding the lists may lie outside the index's roots (the page's main): read on its own.
  const { links } = listLinks(holder, baseUrl, hrefs);
  if (!links.some((link) => link.url === '')) return undefined;
  // Worth more than any one of its lists, which it contains.
  return { element: holder, score: lists.reduce((sum, list) => sum + list.score, 0) * 1.1, links: collapseLabelChains(links) };
}

/**
 * A heading over one captioned list ("Community guide" › "Community" › pages) is one group, named
 * by the list's own caption: the name the site's navigation gives it. Links are in tree order.
 */
export function collapseLabelChains(links: NavLink[]): NavLink[] {
  const out: NavLink[] = [];
  // Depths of the dropped outer labels still open above this link: each lifts it one level.
  let dropped: number[] = [];
  links.forEach((link, i) => {
    dropped = dropped.filter((below) => link.depth > below);
    const depth = link.depth - dropped.length;
    const next = links[i + 1];
    if (link.url === '' && next && next.url === '' && next.depth === link.depth + 1 && onlyChild(links, i + 1)) {
      dropped.push(link.depth);
      return;
    }
    out.push(depth === link.depth ? link : { ...link, depth });
  });
  return out;
}

/** Whether the entry at `index` is the only one at its depth under its parent. */
function onlyChild(links: NavLink[], index: number): boolean {
  const depth = links[index]?.depth ?? 0;
  for (let i = index + 1; i < links.length; i++) {
    const d = links[i]?.depth ?? 0;
    if (d < depth) return true;
    if (d === depth) return false;
  }
  return true;
}
