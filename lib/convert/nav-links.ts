/**
 * The site's own navigation order, read from its sidebar: the crawler and the llms.txt generator
 * use it to order pages the way the site's authors did.
 */
import { absoluteUrl, isHttp } from './urls';
import { namesOf, normalizeSpace, tagOf, walkElements } from './walk';

/** One entry of a site's navigation tree. */
export interface NavLink {
  title: string;
  /** Absolute http(s) URL without fragment. */
  url: string;
  /** Nesting level in the navigation tree; 0 for top-level entries. */
  depth: number;
}

// Names of sidebar trees; these words are specific enough to match anywhere in a class name.
const SIDEBAR_NAMES = /sidebar|sidenav|side-nav|toctree|column-left|book-summary|docs-nav/;
// Node.js API docs up to v18 put the module list in #column2 (later versions: #column-left).
const SIDEBAR_IDS = new Set(['column2']);
// Generic navigation words, matched as whole words (not inside "canvas" or "menubutton-x").
const NAV_NAMES = /(?:^|[\s_-])(?:nav|navigation|menu|toc)(?:$|[\s_-])/;
// Navigation that is not the site tree: trails, pagers, related links, footers.
const NOT_TREE = /(?:^|[\s_-])(?:breadcrumbs?|related|pagination|pager|footer)(?:$|[\s_-])/;
// Fewer links than this is a pager or a "this page" box, not a navigation tree.
const MIN_LINKS = 3;

interface Candidate {
  element: Element;
  score: number;
  links: NavLink[];
}

/**
 * Finds the navigation tree in `body` and returns its page links in order, with depth from the
 * nesting of list items. In-page anchors (`#section`) are left out: they are a table of contents
 * of this page, not the site. Returns an empty list when no tree is recognisable.
 */
export function findNavLinks(body: Element, baseUrl: string | undefined): NavLink[] {
  const candidates: Candidate[] = [];
  walkElements(body, (element) => {
    const tag = tagOf(element);
    if (tag === 'svg' || tag === 'pre' || tag === 'table') return 'skip';
    const names = namesOf(element);
    const role = element.getAttribute('role');
    const sidebar = SIDEBAR_NAMES.test(names) || SIDEBAR_IDS.has(element.getAttribute('id') ?? '');
    if (!sidebar && tag !== 'nav' && tag !== 'aside' && role !== 'navigation' && !NAV_NAMES.test(names)) return undefined;
    const label = (element.getAttribute('aria-label') ?? '').toLowerCase();
    if (NOT_TREE.test(names) || NOT_TREE.test(label)) return 'skip';
    const links = listLinks(element, baseUrl);
    if (links.length < MIN_LINKS) return undefined;
    // A site header's menu is navigation too, but rarely the documentation tree.
    const inBanner = element.closest('header, footer, [role=banner], [role=contentinfo]') !== null;
    const score = links.length * (sidebar || tag === 'aside' ? 2 : 1) * (inBanner ? 0.25 : 1);
    candidates.push({ element, score, links });
    return undefined;
  });
  let best: Candidate | undefined;
  for (const candidate of candidates) if (!best || candidate.score > best.score) best = candidate;
  return best?.links ?? [];
}

/** The page links inside list items of `container`, deduplicated, with their list depth. */
function listLinks(container: Element, baseUrl: string | undefined): NavLink[] {
  const links: NavLink[] = [];
  const seen = new Set<string>();
  for (const anchor of container.getElementsByTagName('a')) {
    const href = anchor.getAttribute('href');
    if (!href || href.startsWith('#')) continue;
    const url = absoluteUrl(href, baseUrl);
    if (!url || !isHttp(url)) continue;
    url.hash = '';
    if (seen.has(url.href)) continue;
    const depth = listDepth(anchor, container);
    if (depth < 0) continue;
    const title = normalizeSpace(anchor.textContent) || normalizeSpace(anchor.getAttribute('aria-label') ?? anchor.getAttribute('title'));
    if (!title) continue;
    seen.add(url.href);
    links.push({ title, url: url.href, depth });
  }
  return links;
}

/** Number of list items between `anchor` and `container`, minus one; -1 when not in a list. */
function listDepth(anchor: Element, container: Element): number {
  let items = 0;
  for (let node = anchor.parentElement; node && node !== container; node = node.parentElement) {
    if (tagOf(node) === 'li') items++;
  }
  return items - 1;
}
