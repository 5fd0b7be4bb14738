/**
 * One navigation container read as a tree: page links and group labels in document order, each
 * with its depth. Works for list trees (Sphinx, MkDocs, Docusaurus, mdBook), definition lists
 * (DocBook tables of contents), `<details>` groups (Starlight) and div trees (VitePress).
 */
import { cachedPageUrl, type HrefCache } from './urls';
import { classOf, normalizeSpace, tagOf } from './walk';

/** One entry of a site's navigation tree. */
export interface NavLink {
  title: string;
  /** Absolute http(s) URL without fragment; '' for a group label that is not a link ("User's Guide"). */
  url: string;
  /** Nesting level in the navigation tree; 0 for top-level entries. */
  depth: number;
}

export interface TreeLinks {
  links: NavLink[];
  /** How many of the page links sit in list items (li, dt, dd). */
  listed: number;
}

// A group label is short: "User's Guide", "API Reference", "Getting started".
const MAX_LABEL_CHARS = 60;
const MAX_LABEL_WORDS = 8;
// A `dd` describes the term before it; it heads nothing.
const NOT_LABEL = new Set(['a', 'img', 'svg', 'input', 'script', 'style', 'template', 'pre', 'code', 'table', 'dd']);

const CAPTION_NAMES = /caption|title|label|heading|header|category|group/i;
const PERMALINK = /^[¶§#🔗]?$/u;
const PROSE = new Set(['p', 'blockquote', 'table', 'figure']);

/**
 * What the walk of any container inside `roots` reads of the page, found once for all of them: the
 * navigation search asks about many containers of one page, nested in each other (a Sphinx
 * contents page nests thousands of `li.toctree-lN`, each one a candidate).
 */
export interface LinkIndex {
  /** Elements none inside another: the index covers their subtrees. */
  roots: Set<Element>;
  /** Elements inside the roots that hold at least one page link. */
  holders: Set<Element>;
  /** Each anchor's page URL, resolved once. */
  urls: Map<Element, string>;
  /** Each linked anchor's title, read once ('' for none). */
  titles: Map<Element, string>;
}

/**
 * Indexes the page links inside `roots` (none inside another). An element's holding a page link
 * depends on its own subtree only, so the set serves every container inside a root: within a
 * container, it is the set that container's own walk would build. Only the roots are read, not
 * the page: the links of an API page's content can outnumber its navigation's a hundredfold.
 */
export function indexLinks(roots: Iterable<Element>, baseUrl: string | undefined, cache: HrefCache = new Map()): LinkIndex {
  const index: LinkIndex = { roots: new Set(roots), holders: new Set(), urls: new Map(), titles: new Map() };
  for (const root of index.roots) {
    for (const anchor of root.getElementsByTagName('a')) {
      const url = pageHref(anchor, baseUrl, cache);
      if (!url) continue;
      index.urls.set(anchor, url);
      for (let node = anchor.parentElement; node && node !== root && !index.holders.has(node); node = node.parentElement) index.holders.add(node);
    }
  }
  return index;
}

/** What the walk of one container collects. */
interface Walk {
  links: NavLink[];
  seen: Set<string>;
  listed: number;
  container: Element;
  index: LinkIndex;
}

/** The page URL an anchor points to (fragment dropped), or undefined for in-page and unusable links. */
function pageHref(anchor: Element, baseUrl: string | undefined, cache: HrefCache): string | undefined {
  const href = anchor.getAttribute('href');
  if (!href || href.startsWith('#')) return undefined;
  // Nested candidates (aside > nav > ul) and the page's other steps hold the same links.
  return cachedPageUrl(href, baseUrl, cache);
}

/**
 * Text that can label a group: no link inside it (an in-page link is this page's contents, not a
 * group), except a bare `href="#"` toggle, which is how Docusaurus renders a category without a page.
 */
function labelText(element: Element): string | undefined {
  const tag = tagOf(element);
  if (NOT_LABEL.has(tag)) return undefined;
  // A paragraph is prose ("How to use it.") unless marked as a caption (Sphinx: p.caption role=heading).
  // A list item without a link is usually the current page shown unlinked (Javadoc's bar), not a
  // group title — unless its class says it is one (Bootstrap's "nav-header").
  if ((PROSE.has(tag) || tag === 'li') && element.getAttribute('role') !== 'heading' && !CAPTION_NAMES.test(classOf(element) ?? '')) return undefined;
  for (const anchor of element.getElementsByTagName('a')) {
    const href = anchor.getAttribute('href') ?? '';
    const toggle = href === '#' || anchor.getAttribute('role') === 'button';
    // A heading's permalink ("¶") is part of the heading, not a link to something else.
    const permalink = href.startsWith('#') && PERMALINK.test(normalizeSpace(anchor.textContent));
    if (!toggle && !permalink) return undefined;
  }
  const text = normalizeSpace(element.textContent).replace(/(?<!\s)\s*[¶§#🔗]$/u, '');
  if (!text || text.length > MAX_LABEL_CHARS || text.split(' ').length > MAX_LABEL_WORDS || !/\p{L}/u.test(text)) return undefined;
  return text;
}

function followedByLinks(element: Element, walk: Walk): boolean {
  for (let next = element.nextElementSibling; next; next = next.nextElementSibling) if (walk.index.holders.has(next)) return true;
  return false;
}

/**
 * Walks `parent`'s children in order at nesting `level`. Page links are entries; a short text
 * without links that precedes links (a Sphinx caption, a VitePress or Docusaurus group title, a
 * MkDocs section label, a `<summary>`, a heading over a list) is a group label (an entry without
 * a URL) and the siblings after it are one level deeper. A list inside a list item (or a `dd`)
 * is one level deeper too.
 */
function walkLevel(parent: Element, level: number, inItem: boolean, parentLabel: string | undefined, walk: Walk): void {
  let labelled = false;
  let label = parentLabel;
  for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
    const tag = tagOf(child);
    const base = labelled ? level + 1 : level;
    if (tag === 'a') {
      addLink(child, base, walk);
      continue;
    }
    if (!walk.index.holders.has(child)) {
      const text = labelText(child);
      // A nested menu repeats its opener's label as its title (MkDocs Material): not a new level.
      if (text && text !== parentLabel && followedByLinks(child, walk)) {
        walk.links.push({ title: text, url: '', depth: level });
        labelled = true;
        label = text;
      }
      continue;
    }
    // Links in running text ("Get started with Installation") are prose, not the tree.
    if (PROSE.has(tag)) continue;
    if (tag === 'ul' || tag === 'ol' || tag === 'dl' || tag === 'menu') walkLevel(child, inItem ? level + 1 : base, false, label, walk);
    else if (tag === 'li' || tag === 'dt' || tag === 'details') walkLevel(child, base, true, label, walk);
    else if (tag === 'dd') walkLevel(child, base + 1, false, label, walk);
    else walkLevel(child, base, inItem && !labelled, label, walk);
  }
}

/** An anchor's title: its text, else its label; '' when it has none (it is not listed then). */
function titleOf(anchor: Element, index: LinkIndex): string {
  let title = index.titles.get(anchor);
  if (title === undefined) {
    title = normalizeSpace(anchor.textContent) || normalizeSpace(anchor.getAttribute('aria-label') ?? anchor.getAttribute('title'));
    index.titles.set(anchor, title);
  }
  return title;
}

function addLink(anchor: Element, depth: number, walk: Walk): void {
  const url = walk.index.urls.get(anchor);
  if (!url || walk.seen.has(url)) return;
  const title = titleOf(anchor, walk.index);
  if (!title) return;
  walk.seen.add(url);
  walk.links.push({ title, url, depth });
  for (let node = anchor.parentElement; node && node !== walk.container; node = node.parentElement) {
    const tag = tagOf(node);
    if (tag === 'li' || tag === 'dt' || tag === 'dd') {
      walk.listed++;
      break;
    }
  }
}

/**
 * The container's page links and group labels in order, with their depth in the tree. Labels
 * that head nothing (their group had only in-page links) are dropped; depths start at 0.
 * `index` (of the container or an element holding it, with the same base URL) saves reading the
 * page again for each container; the DOM must not have changed since it was made.
 */
export function listLinks(container: Element, baseUrl: string | undefined, cache: HrefCache = new Map(), index?: LinkIndex): TreeLinks {
  const read = index ?? indexLinks([container], baseUrl, cache);
  // Only links nested in the container's elements make a tree: a row of bare links (a pager) is none.
  if (!holdsInChild(container, read)) return { links: [], listed: 0 };
  const walk: Walk = { links: [], seen: new Set(), listed: 0, container, index: read };
  walkLevel(container, 0, false, undefined, walk);
  let links = walk.links.filter((link, i) => link.url !== '' || (walk.links[i + 1]?.depth ?? -1) > link.depth);
  let top = Math.min(...links.map((link) => link.depth));
  // One label over everything is the page's title ("Welcome to Flask"), not a group of the site.
  while (links.filter((link) => link.depth === top).length === 1 && links[0]?.url === '' && links[0].depth === top) {
    links = links.slice(1);
    top++;
  }
  return { links: top > 0 ? links.map((link) => ({ ...link, depth: link.depth - top })) : links, listed: walk.listed };
}

/** How many page links {@link listLinks} lists in a container, and how many of them sit in list items. */
export interface LinkCounts {
  pages: number;
  listed: number;
}

/**
 * {@link LinkCounts} of each of `containers` (elements inside the index's roots), without reading any
 * as a tree: one pass up from each page link, where a walk of each container would cost the
 * page's size times its nesting (thousands of nested `li.toctree-lN` on a Sphinx contents page). The walk reaches a link from a container unless an element between them is
 * prose or another anchor (it reads neither's links), lists each URL once, where it first
 * reaches it, and counts that link as listed when a list item lies between it and the container.
 */
export function countLinks(containers: Iterable<Element>, index: LinkIndex): Map<Element, LinkCounts> {
  const counts = new Map<Element, LinkCounts & { seen: Set<string> }>();
  for (const container of containers) counts.set(container, { pages: 0, listed: 0, seen: new Set() });
  if (counts.size === 0) return counts;
  for (const [anchor, url] of index.urls) {
    let titled: boolean | undefined;
    let inItem = false;
    for (let node = anchor.parentElement; node; node = node.parentElement) {
      const count = counts.get(node);
      if (count && !count.seen.has(url)) {
        titled ??= titleOf(anchor, index) !== '';
        if (!titled) break;
        count.seen.add(url);
        count.pages++;
        if (inItem) count.listed++;
      }
      if (index.roots.has(node)) break;
      const tag = tagOf(node);
      if (PROSE.has(tag) || tag === 'a') break;
      if (tag === 'li' || tag === 'dt' || tag === 'dd') inItem = true;
    }
  }
  for (const [container, count] of counts) {
    // listLinks reads nothing from a container none of whose children holds a link (see there).
    if (count.pages > 0 && !holdsInChild(container, index)) {
      count.pages = 0;
      count.listed = 0;
    }
  }
  return counts;
}

function holdsInChild(container: Element, index: LinkIndex): boolean {
  for (let child = container.firstElementChild; child; child = child.nextElementSibling) if (index.holders.has(child)) return true;
  return false;
}
