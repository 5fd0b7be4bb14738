/**
 * Sections from an index page of the site itself, for sites whose navigation the crawl could not
 * read as a tree (drawn by script, or only a bar of links): an API reference's index groups its
 * items under headings ("Modules", "Structs", "Functions"; "Classes", "Interfaces"), and a module
 * index is a nested list of modules. Both are the site's own table of contents.
 */
import type { NavLink } from '../convert/nav-tree';
import { dedupeKey } from '../url/normalize';
import { pageKeys, pageLinker } from './page-order';
import { oneLine } from './text';
import type { PageGroup, SourcePage } from './types';

// A link opening the text it is run on (an image is no entry): anchored, so it is tried once.
const LINK_FIRST = /^\[((?:[^[\]\\]|\\.)*)\]\(\s*<?((?:[^()\s<>]|\([^()\s]*\))+)>?(?:\s+"[^"]*")?\)/;
const FENCE = /^\s*(?:```|~~~)/;
// What may come before an entry's link on its line: indentation, a list marker, a table's bar.
const LEADING = /^\s*(?:(?:[-*+]|\d+\.)\s+)?(?:\|\s*)?/;
// An index's groups together list at least this share of the pages (directly, or one link below).
const MIN_COVERED = 1 / 3;
// One heading holding this share of the listed pages is the whole index, not one of its groups:
// its subheadings are the groups (a manual page's "Commands" over "High-level commands"…).
const DOMINANT = 2 / 3;
// Links from a grouped page reach the pages below it this many links away (a module's own items).
const MAX_DESCENT = 2;

/** Plain text of a line of inline Markdown: link texts, no code or emphasis marks. */
function plain(text: string): string {
  return oneLine(withoutClosingHashes(text.replace(/!?\[([^[\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1').replace(/\\(.)/g, '$1').replace(/[`*]/g, '')));
}

/** A heading's text without its closing #s ("Title ##"), read without a pattern: one backtracks on long runs of spaces. */
function withoutClosingHashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === text.length || (end > 0 && !/\s/.test(text[end - 1] ?? ''))) return text;
  return text.slice(0, end).trimEnd();
}

/**
 * The link that opens `line` (after a list marker or a table's bar), as its text and its absolute
 * http(s) URL without fragment; null when the line does not open with one.
 */
export function openingLink(line: string, base: string): { text: string; url: string } | null {
  const lead = LEADING.exec(line);
  const match = lead ? LINK_FIRST.exec(line.slice(lead[0].length)) : null;
  const url = match ? absolute(match[2] ?? '', base) : '';
  return match && url ? { text: match[1] ?? '', url } : null;
}

/** Absolute http(s) URL of a link target on `base`, without its fragment; '' for none. */
function absolute(target: string, base: string): string {
  try {
    const url = new URL(target, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
    url.hash = '';
    return url.href;
  } catch {
    return '';
  }
}

interface Heading {
  level: number;
  title: string;
  /** Dedupe keys of the entries in its own block (up to the next heading of any level): links that open their line. */
  links: string[];
}

/** The page's headings below its title (levels 2–6), each with the links of its own block. */
function headingsOf(page: SourcePage): Heading[] {
  const out: Heading[] = [];
  let fenced = false;
  for (const line of page.markdown.split('\n')) {
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^(#{2,6})\s+(\S.*)$/.exec(line);
    if (heading) {
      out.push({ level: (heading[1] ?? '').length, title: plain(heading[2] ?? ''), links: [] });
      continue;
    }
    const current = out[out.length - 1];
    if (!current) continue;
    // An index names each entry by its link, first on its line (a list item, a table row, a
    // paragraph); a link inside a sentence or a signature is a cross-reference, not an entry.
    const entry = openingLink(line, page.finalUrl);
    if (entry) current.links.push(dedupeKey(entry.url));
  }
  return out;
}

/**
 * The groups an index page's headings make: starting from its top headings, going down while one
 * heading holds most of the listed pages (then its subheadings are the groups). Each group lists
 * the pages linked under its heading (subheadings included) that no earlier group listed.
 */
function indexGroups(page: SourcePage, byKey: Map<string, SourcePage>): { title: string; pages: SourcePage[] }[] {
  const headings = headingsOf(page);
  const target = (key: string) => {
    const found = byKey.get(key);
    return found && found !== page ? found : undefined;
  };
  // Headings [from, to) of the current level, each with its subtree's links.
  let from = 0;
  let to = headings.length;
  for (;;) {
    const level = Math.min(...headings.slice(from, to).map((h) => h.level));
    const groups: { title: string; start: number; end: number; pages: Set<SourcePage> }[] = [];
    for (let i = from; i < to; i++) {
      const heading = headings[i] as Heading;
      if (heading.level !== level) continue;
      let end = i + 1;
      while (end < to && (headings[end] as Heading).level > level) end++;
      const pages = new Set(headings.slice(i, end).flatMap((h) => h.links.map(target)).filter((p): p is SourcePage => p !== undefined));
      groups.push({ title: heading.title, start: i, end, pages });
    }
    const total = new Set(groups.flatMap((g) => [...g.pages])).size;
    const top = groups.reduce<(typeof groups)[number] | undefined>((best, g) => (g.pages.size > (best?.pages.size ?? 0) ? g : best), undefined);
    if (!top || total === 0) return [];
    if (top.pages.size >= DOMINANT * total && top.end - top.start > 1) {
      from = top.start + 1;
      to = top.end;
      continue;
    }
    const seen = new Set<SourcePage>();
    return groups
      .map((g) => {
        const own = [...g.pages].filter((p) => !seen.has(p));
        for (const p of own) seen.add(p);
        return { title: g.title, pages: own };
      })
      .filter((g) => g.title !== '' && g.pages.length > 0);
  }
}

/**
 * Sections from the page whose headings group links to most of the site (an API reference's index:
 * "Modules", "Structs", "Functions"), in its order: each holds the pages listed under its heading
 * and the pages those reach that nothing listed (a module's own items), in reading order. Pages
 * nothing reaches form the root group, which leads with the index page. Undefined when no page
 * has two such groups listing at least a third of the pages, or when its groups cut across the
 * site's `folders` (the path groups) instead of naming them.
 */
export function groupByIndexHeadings(pages: SourcePage[], rootName: string, folders: PageGroup[] = [], start?: SourcePage): PageGroup[] | undefined {
  const byKey = new Map<string, SourcePage>();
  for (const page of pages) for (const key of pageKeys(page)) if (!byKey.has(key)) byKey.set(key, page);
  const folderOf = new Map<SourcePage, string>();
  for (const folder of folders) if (!folder.root) for (const page of folder.pages) folderOf.set(page, folder.id);
  // An index whose groups mostly each spread over several of the site's folders is another view
  // of the site (a class hierarchy, an A–Z index over packages): the folders are its structure.
  const crossesFolders = (groups: { pages: SourcePage[] }[]): boolean =>
    groups.filter((group) => new Set(group.pages.map((page) => folderOf.get(page)).filter(Boolean)).size > 1).length * 2 > groups.length;
  let best: { page: SourcePage; groups: { title: string; pages: SourcePage[] }[]; covered: number } | undefined;
  for (const page of pages) {
    // The site's outline sits at its top, not inside one of its folders (one package's class tree).
    if (folderOf.has(page)) continue;
    const groups = indexGroups(page, byKey);
    if (groups.length < 2 || crossesFolders(groups)) continue;
    const covered = groups.reduce((sum, g) => sum + g.pages.length, 0);
    if (!best || covered > best.covered || (covered === best.covered && page.depth < best.page.depth)) best = { page, groups, covered };
  }
  if (!best || best.covered < MIN_COVERED * pages.length) return undefined;
  const index = best.page;
  // Breadth-first from every listed page at once: a page joins the group whose pages reach it
  // first, and is listed below the page that reached it (a module's items after the module).
  const linked = pageLinker(pages);
  const owner = new Map<SourcePage, number>([[index, -1]]);
  const children = new Map<SourcePage, SourcePage[]>();
  best.groups.forEach((group, g) => {
    for (const page of group.pages) owner.set(page, g);
  });
  let frontier = best.groups.flatMap((group) => group.pages);
  for (let level = 1; level <= MAX_DESCENT && frontier.length > 0; level++) {
    const next: SourcePage[] = [];
    for (const page of frontier) {
      for (const reached of linked(page)) {
        if (owner.has(reached)) continue;
        owner.set(reached, owner.get(page) as number);
        children.set(page, [...(children.get(page) ?? []), reached]);
        next.push(reached);
      }
    }
    frontier = next;
  }
  const preOrder = (page: SourcePage): SourcePage[] => [page, ...(children.get(page) ?? []).flatMap(preOrder)];
  const root: PageGroup = { id: `nav:${rootName}`, name: rootName, root: true, pages: pages.filter((page) => !owner.has(page) || page === index) };
  // The index page leads the root group; the start page keeps the lead if it is not the index.
  const home = start ?? (pages.filter((page) => page.depth === 0).length === 1 ? pages.find((page) => page.depth === 0) : undefined);
  root.pages.sort((a, b) => Number(b === home) - Number(a === home) || Number(b === index) - Number(a === index));
  const named = best.groups.map((group): PageGroup => ({ id: `nav:${group.title}`, name: group.title, root: false, siteNamed: true, pages: group.pages.flatMap(preOrder) }));
  return [root, ...named].filter((group) => group.pages.length > 0);
}

/**
 * The start page's contents tree: its largest nested Markdown list of links (a module index:
 * "Text" over "Text.Megaparsec" over its submodules) as a navigation tree. Items that are not a
 * link are group labels. Undefined when the page has no list nested two levels deep.
 */
export function contentsTree(page: SourcePage | undefined): NavLink[] | undefined {
  const deep = contentsLists(page).filter((list) => list.some((item) => item.depth >= 2) && list.some((item) => item.url !== ''));
  return deep.sort((a, b) => b.filter((i) => i.url).length - a.filter((i) => i.url).length)[0];
}

/**
 * The start page's contents list of any depth (a Texinfo top node's menu of chapters, whose
 * sections each chapter's page lists): its largest list of two links or more, as a navigation
 * tree. Undefined when it has none.
 */
export function contentsList(page: SourcePage | undefined): NavLink[] | undefined {
  const links = (list: NavLink[]) => list.filter((item) => item.url !== '').length;
  const flat = contentsLists(page).filter((list) => links(list) >= 2);
  return flat.sort((a, b) => links(b) - links(a))[0];
}

/** Every Markdown list of `page` as a navigation tree (items that are no lone link are labels). */
function contentsLists(page: SourcePage | undefined): NavLink[][] {
  if (!page) return [];
  const lists: NavLink[][] = [];
  let current: NavLink[] = [];
  let indents: number[] = [];
  let fenced = false;
  const close = () => {
    if (current.length > 0) lists.push(current);
    current = [];
    indents = [];
  };
  for (const line of page.markdown.split('\n')) {
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced) continue;
    const item = /^(\s*)[-*+]\s+(\S.*|)$/.exec(line);
    if (!item) {
      // Text between items (a "Submodules" caption) does not end the list; a paragraph at the margin does.
      if (/^\S/.test(line)) close();
      continue;
    }
    const indent = (item[1] ?? '').replace(/\t/g, '    ').length;
    while (indents.length > 0 && indent < (indents[indents.length - 1] as number)) indents.pop();
    if (indents.length === 0 || indent > (indents[indents.length - 1] as number)) indents.push(indent);
    const text = (item[2] ?? '').trim();
    const only = /^\[((?:[^[\]\\]|\\.)*)\]\(\s*<?([^()\s<>]+)>?\)$/.exec(text);
    const title = plain(text);
    if (!title) continue;
    current.push({ title, url: only ? absolute(only[2] ?? '', page.finalUrl) : '', depth: indents.length - 1 });
  }
  close();
  return lists;
}

/**
 * A tree with one root holding the rest (a module index: "Text" over everything) names no
 * sections at its top: the root keeps its own page and its leaf children, and each child with
 * children of its own becomes a top-level entry; again while one root holds the rest.
 * Undefined when the tree has more than one top-level entry.
 */
export function liftLoneRoot(nav: NavLink[]): NavLink[] | undefined {
  let tree = nav;
  let lifted = false;
  for (;;) {
    const top = Math.min(...tree.map((item) => item.depth));
    const roots = tree.map((item, i) => ({ item, i })).filter(({ item }) => item.depth === top);
    const withChildren = roots.filter(({ i }) => (tree[i + 1]?.depth ?? top) > top);
    // Labels without children (a caption) are no entries; a lone root with children holds the tree.
    const entries = roots.filter(({ item, i }) => item.url !== '' || (tree[i + 1]?.depth ?? top) > top);
    if (entries.length !== 1 || withChildren.length !== 1) return lifted ? tree : undefined;
    const r = (withChildren[0] as { i: number }).i;
    let end = r + 1;
    while (end < tree.length && (tree[end] as NavLink).depth > top) end++;
    const below = tree.slice(r + 1, end);
    const rootEntry = tree[r] as NavLink;
    const leaves: NavLink[] = [];
    const promoted: NavLink[] = [];
    below.forEach((item, k) => {
      if (item.depth !== top + 1) {
        promoted.push({ ...item, depth: item.depth - 1 });
        return;
      }
      const hasChildren = (below[k + 1]?.depth ?? top) > top + 1;
      if (hasChildren) promoted.push({ ...item, depth: top });
      else leaves.push(item);
    });
    // A child's leaves follow it among the promoted (their depth moved up by one), so only the
    // root's own leaves stay under it.
    const rebuilt: NavLink[] = [{ ...rootEntry }, ...leaves, ...promoted];
    // A label root with no leaves of its own has nothing left to name.
    tree = rootEntry.url === '' && leaves.length === 0 ? promoted : rebuilt;
    lifted = true;
  }
}
