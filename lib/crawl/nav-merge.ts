/**
 * A site's navigation tree, put together from its pages. Many themes render only the open branch
 * of the sidebar (Docusaurus's collapsed categories, Read the Docs-style Sphinx themes): each
 * page shows the top level and its own group's pages. Merging the trees of pages that share the
 * same top level gives the whole tree; a page whose tree is something else (a chapter's own
 * table of contents) is left out.
 */
import type { NavLink } from '../convert/convert-page';
import { boundedMemo } from '../bounded-memo';
import { dedupeKey } from '../url/normalize';

interface Node {
  link: NavLink;
  key: string;
  children: Node[];
}

// Enough for the largest sidebars we have seen; past this a merge adds nothing useful.
const MAX_ENTRIES = 5000;
// Share of the new tree's top level the kept tree must already have for the two to be one site tree.
const OVERLAP = 0.8;

// Every page repeats the same sidebar: its URLs are normalized once, not once per page.
const urlKey = boundedMemo(20_000, (url: string): string => {
  try {
    return `url:${dedupeKey(url)}`;
  } catch {
    return `url:${url}`;
  }
});
// The key set of the tree kept so far, per array (the writer keeps one array until it changes).
const keySets = new WeakMap<NavLink[], Set<string>>();

function keyOf(link: NavLink): string {
  if (link.url === '') return `label:${link.title.toLowerCase()}`;
  return urlKey(link.url);
}

function keysOf(list: NavLink[]): Set<string> {
  let keys = keySets.get(list);
  if (!keys) {
    keys = new Set(list.map(keyOf));
    keySets.set(list, keys);
  }
  return keys;
}

function toTree(links: NavLink[]): Node[] {
  const roots: Node[] = [];
  const stack: Node[] = [];
  for (const link of links) {
    const node: Node = { link, key: keyOf(link), children: [] };
    while (stack.length && (stack.at(-1)?.link.depth ?? -1) >= link.depth) stack.pop();
    (stack.at(-1)?.children ?? roots).push(node);
    stack.push(node);
  }
  return roots;
}

function flatten(nodes: Node[], depth: number, out: NavLink[]): NavLink[] {
  for (const node of nodes) {
    out.push({ ...node.link, depth });
    flatten(node.children, depth + 1, out);
  }
  return out;
}

/** Merges `extra`'s nodes into `into`, keeping `into`'s order; new ones go after their matched predecessor. */
function mergeInto(into: Node[], extra: Node[], known: Set<string>): boolean {
  let changed = false;
  let insertAt = 0;
  const here = new Map(into.map((candidate) => [candidate.key, candidate]));
  for (const node of extra) {
    const key = node.key;
    const match = here.get(key);
    const at = match ? into.indexOf(match) : -1;
    if (at >= 0) {
      changed = mergeInto((into[at] as Node).children, node.children, known) || changed;
      insertAt = at + 1;
      continue;
    }
    // A page the tree already lists elsewhere stays where it was first seen.
    if (node.link.url !== '' && known.has(key)) continue;
    const fresh: Node = { link: node.link, key, children: [] };
    into.splice(insertAt++, 0, fresh);
    here.set(key, fresh);
    if (node.link.url !== '') known.add(key);
    mergeInto(fresh.children, node.children, known);
    changed = true;
  }
  return changed;
}

/**
 * `kept` with what `extra` adds, or null when `extra` adds nothing or is not the same site tree
 * (less than 80 % of its top level is in `kept`'s: a start page's own contents beside the sidebar
 * share some group names but not all, and merging them would list near-duplicate sections).
 */
export function mergeNav(kept: NavLink[], extra: NavLink[]): NavLink[] | null {
  if (kept.length >= MAX_ENTRIES || extra.length === 0) return null;
  // The usual case, page after page: the same tree again, nothing to add.
  const keptKeys = keysOf(kept);
  if (extra.every((link) => keptKeys.has(keyOf(link)))) return null;
  const base = toTree(kept);
  const more = toTree(extra);
  const top = new Set(base.map((node) => node.key));
  const shared = more.filter((node) => top.has(node.key)).length;
  if (shared < OVERLAP * more.length) return null;
  const known = new Set([...keptKeys].filter((key) => key.startsWith('url:')));
  if (!mergeInto(base, more, known)) return null;
  const merged = flatten(base, 0, []);
  return merged.length > MAX_ENTRIES ? merged.slice(0, MAX_ENTRIES) : merged;
}
