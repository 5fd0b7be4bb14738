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

/** What the walk of one container collects. */
interface Walk {
  links: NavLink[];
  seen: Set<string>;
  listed: number;
  container: Element;
  /** Elements (up to the container) that hold at least one page link. */
  holders: Set<Element>;
  /** Each anchor's page URL, resolved once. */
  urls: Map<Element, string>;
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
  for (let next = element.nextElementSibling; next; next = next.nextElementSibling) if (walk.holders.has(next)) return true;
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
    if (!walk.holders.has(child)) {
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

function addLink(anchor: Element, depth: number, walk: Walk): void {
  const url = walk.urls.get(anchor);
  if (!url || walk.seen.has(url)) return;
  const title = normalizeSpace(anchor.textContent) || normalizeSpace(anchor.getAttribute('aria-label') ?? anchor.getAttribute('title'));
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
 */
export function listLinks(container: Element, baseUrl: string | undefined, cache: HrefCache = new Map()): TreeLinks {
  const walk: Walk = { links: [], seen: new Set(), listed: 0, container, holders: new Set(), urls: new Map() };
  for (const anchor of container.getElementsByTagName('a')) {
    const url = pageHref(anchor, baseUrl, cache);
    if (!url) continue;
    walk.urls.set(anchor, url);
    for (let node = anchor.parentElement; node && node !== container && !walk.holders.has(node); node = node.parentElement) walk.holders.add(node);
  }
  if (walk.holders.size === 0) return { links: [], listed: 0 };
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
