/**
 * llms.txt's H2 sections, following the site's own structure: its navigation tree when the crawl
 * recognised one that covers most pages, else its top-level directories.
 */
import type { NavLink } from '../convert/convert-page';
import { dedupeKey } from '../url/normalize';
import { pageKeys, pageLinker } from './page-order';
import { liftLoneRoot } from './sections-index';
import { directoryOf, fileStem, INDEX_STEMS, segmentsBelow } from './secondary';
import { headingLine, titleCaseSlug, wordsOf } from './text';
import type { PageGroup, SourcePage } from './types';

export type { PageGroup } from './types';


/** The name of the site's ungrouped top pages, as in llmstxt.org's own example ("## Docs"). */
export const ROOT_SECTION = 'Docs';

// A navigation tree listing less than this share of the pages says little about the site's structure
// (the rest are placed beside their directory neighbours, so a sidebar of chapters is enough).
const MIN_LISTED = 1 / 3;
// Above this many sections, single-page ones are merged: a table of contents of one-liners helps nobody.
const MAX_SECTIONS = 8;
// Index-page titles that say where you are, not what the section is about.
const GENERIC_INDEX_TITLE = /^(?:index|overview|introduction|intro|contents|table of contents|home|start|welcome|readme|untitled|documentation|docs)$/i;
// An index page's title longer than this is a sentence, not a section name.
const MAX_INDEX_TITLE = 60;

/** The directory of the start page: "/docs/intro.html" → "/docs/", "/docs/" → "/docs/". */
export function startDirectory(startUrl: string): string {
  try {
    const path = new URL(startUrl).pathname;
    return path.slice(0, path.lastIndexOf('/') + 1) || '/';
  } catch {
    return '/';
  }
}

/**
 * The directory whose subdirectories are the site's sections: the start page's directory, or the
 * nearest directory above it that holds at least half of the pages. A crawl started on /guide/
 * that reached /api/ and /tutorials/ is sectioned from /; one confined to /docs/ from /docs/
 * even when a stray page at / came along.
 */
export function baseDirectory(pages: SourcePage[], startUrl: string): string {
  let host = '';
  try {
    host = new URL(startUrl).host;
  } catch {
    return '/';
  }
  const paths: string[] = [];
  for (const page of pages) {
    try {
      const url = new URL(page.finalUrl);
      if (url.host === host) paths.push(url.pathname);
    } catch {
      // Not a page of this site's tree.
    }
  }
  let dir = startDirectory(startUrl);
  while (dir !== '/' && paths.filter((path) => path.startsWith(dir)).length * 2 < paths.length) {
    dir = dir.slice(0, dir.lastIndexOf('/', dir.length - 2) + 1) || '/';
  }
  return descendSingleChild(paths, dir);
}

// A subdirectory holding this share of the pages is the site's real top (Javadoc's /org/jsoup/).
const DOMINANT = 0.9;

/**
 * Goes down while one subdirectory holds nearly every page: sections one level below a lone
 * /org/ or /docs/ would be one section holding the whole site.
 */
function descendSingleChild(paths: string[], base: string): string {
  let dir = base;
  for (;;) {
    const below = paths.filter((path) => path.startsWith(dir));
    const counts = new Map<string, number>();
    for (const path of below) {
      const rest = path.slice(dir.length);
      const slash = rest.indexOf('/');
      if (slash > 0) counts.set(rest.slice(0, slash), (counts.get(rest.slice(0, slash)) ?? 0) + 1);
    }
    const [top] = [...counts].sort((a, b) => b[1] - a[1]);
    if (!top || counts.size !== 1 || top[1] < DOMINANT * below.length) return dir;
    dir = `${dir}${top[0]}/`;
  }
}

/** Common directory prefix of two paths that both end in "/". */
function commonDirectory(a: string, b: string): string {
  let end = 0;
  for (let i = 0; i < Math.min(a.length, b.length) && a[i] === b[i]; i++) if (a[i] === '/') end = i + 1;
  return a.slice(0, Math.max(end, 1));
}

/** True when `title` names directory `segment`: "The Python Tutorial" for tutorial/, "Python HOWTOs" for howto/. */
function titleNamesDirectory(title: string, segment: string): boolean {
  const target = wordsOf(segment).join('');
  const words = wordsOf(title);
  for (let from = 0; from < words.length; from++) {
    let joined = '';
    for (let to = from; to < words.length && joined.length < target.length + 1; to++) {
      joined += words[to];
      if (joined === target || joined === `${target}s`) return true;
    }
  }
  return false;
}

/**
 * Groups by the first directory below `base` (see `baseDirectory`), in order of first appearance;
 * a directory's index page leads its group. A group is named after its index page when that
 * page's title names the directory ("The Python Tutorial" for /tutorial/), else after the
 * directory itself, title-cased ("getting-started" → "Getting Started"). Pages directly in
 * `base` (and any outside it) form the root group.
 */
export function groupByPath(pages: SourcePage[], base: string, rootName: string, labels?: Map<string, string>, startDir?: string): PageGroup[] {
  const groups = new Map<string, PageGroup & { index?: SourcePage; segment: string }>();
  for (const page of pages) {
    let pathname = '/';
    try {
      pathname = new URL(page.finalUrl).pathname;
    } catch {
      // A page without a usable URL lands in the root group.
    }
    // Pages outside the base (the home page of a crawl started in /docs/) join the root group.
    const inside = pathname.startsWith(base);
    const segments = inside ? segmentsBelow(pathname, base) : [];
    const inSubdirectory = segments.length > 1 || (segments.length === 1 && pathname.endsWith('/'));
    const segment = inSubdirectory ? pathname.slice(base.length).split('/')[0] ?? '' : '';
    const id = inSubdirectory ? `path:${base}${segment}/` : `path:${base}`;
    let group = groups.get(id);
    if (!group) {
      group = { id, name: inSubdirectory ? titleCaseSlug(segment) : rootName, pages: [], root: !inSubdirectory, segment };
      groups.set(id, group);
    }
    group.pages.push(page);
    const rest = segments.slice(1);
    const isIndex = inSubdirectory && (rest.length === 0 || (rest.length === 1 && INDEX_STEMS.has(fileStem(rest[0] ?? ''))));
    // The base folder's own index page names the root group only when the crawl started elsewhere
    // (Javadoc: the overview at / above the pages of /org/jsoup/, whose package-summary says "org.jsoup");
    // where the crawl started in the base, that index is the site's home and the group stays generic.
    const isBaseIndex = inside && startDir !== undefined && startDir !== base && !inSubdirectory &&
      segments.length === 1 && INDEX_STEMS.has(fileStem(segments[0] ?? ''));
    if ((isIndex || isBaseIndex) && group.index === undefined) group.index = page;
  }
  // The root group (the site's home and top-level pages) leads, like the home page leads the site.
  const ordered = [...groups.values()].sort((a, b) => Number(b.root) - Number(a.root));
  return ordered.map(({ id, name, pages: grouped, root, index, segment }) => {
    const title = headingLine(index?.title ?? '', '');
    // The index page's title names the section ("API Reference" for ref/, "The Python Tutorial" for
    // tutorial/) unless it is a generic word ("Overview", "Index") that says less than the folder.
    const named = title !== '' && title.length <= MAX_INDEX_TITLE && ((segment !== '' && titleNamesDirectory(title, segment)) || !GENERIC_INDEX_TITLE.test(title));
    // What the start page calls the section when it links to it ("Library Reference") is the site's
    // own name for it, ahead of the index page's title ("The Python Standard Library").
    const label = index && labels ? pageKeys(index).map((key) => labels.get(key)).find((text) => text !== undefined) : undefined;
    // An index leads its folder's group; the root group keeps the site's home first.
    const members = index && !root ? [index, ...grouped.filter((page) => page !== index)] : grouped;
    return { id, name: label ?? (named ? title : name), pages: members, root, siteNamed: label !== undefined };
  });
}

// Pages a listed page reaches within this many links (its contents, their contents…) are its
// subtree; a page farther away is placed by its folder, which says more than a chain of cross-references.
const MAX_DESCENT = 3;

interface Place {
  name: string;
  /** Position in the reading order of the tree: the nav's, with each page's unlisted subtree after it. */
  rank: number;
  /** Nesting in the tree: a chapter (deeper) is a more specific parent than its part. */
  depth: number;
}

/**
 * Where the pages the tree does not list belong, by its own links: a chapter page listed in the
 * tree lists its sections in its content (DocBook's chapter contents, a Sphinx section page's
 * toctree), so a page is under the listed page whose links reach it first (breadth-first from
 * every listed page at once). When several reach it as soon, the deepest in the tree wins (a part's
 * contents list its chapters' sections too: they belong to the chapter), then the first in it.
 * Within a subtree, pages keep the order their parents link to them (pre-order).
 */
function descend(pages: SourcePage[], places: Map<SourcePage, Place | undefined>): Map<SourcePage, Place & { distance: number; source: SourcePage }> {
  const linked = pageLinker(pages);
  const sources = pages
    .filter((page) => places.get(page) !== undefined)
    .sort((a, b) => (places.get(b)?.depth ?? 0) - (places.get(a)?.depth ?? 0) || (places.get(a)?.rank ?? 0) - (places.get(b)?.rank ?? 0));
  const parent = new Map<SourcePage, SourcePage>();
  const distance = new Map<SourcePage, number>(sources.map((page) => [page, 0]));
  const children = new Map<SourcePage, SourcePage[]>();
  let frontier = sources;
  for (let level = 1; frontier.length > 0 && level <= MAX_DESCENT; level++) {
    const next: SourcePage[] = [];
    for (const page of frontier) {
      for (const target of linked(page)) {
        if (distance.has(target)) continue;
        distance.set(target, level);
        parent.set(target, page);
        children.set(page, [...(children.get(page) ?? []), target]);
        next.push(target);
      }
    }
    frontier = next;
  }
  const out = new Map<SourcePage, Place & { distance: number; source: SourcePage }>();
  for (const source of sources) {
    const place = places.get(source);
    if (place === undefined) continue;
    // Pre-order below the listed page: its subtree fits between it and the tree's next entry.
    const order: SourcePage[] = [];
    const stack = [...(children.get(source) ?? [])].reverse();
    while (stack.length > 0) {
      const page = stack.pop() as SourcePage;
      order.push(page);
      stack.push(...[...(children.get(page) ?? [])].reverse());
    }
    order.forEach((page, i) => out.set(page, { name: place.name, rank: place.rank + (i + 1) / (order.length + 1), depth: place.depth + 1, distance: distance.get(page) ?? 0, source }));
  }
  return out;
}

/**
 * Groups by the navigation tree: each top-level entry with children becomes a section holding its
 * whole subtree, in navigation order; top-level entries without children join the root group.
 * A tree whose only group is an overflow menu (a header bar of chapters, the last ones under
 * "More") is read as its chapters when they are few beside the pages: each heads the pages it reaches.
 * Pages the tree does not list join the listed page whose links reach them (see `descend`), else
 * the section of the listed page sharing the longest directory with them. Returns undefined when
 * the tree has no sub-levels or covers under a third of the pages (listed or linked from a listed
 * page): then it says little about the site's structure (Python's index page "navigation" is a
 * list of links to other sites).
 */
export function groupByNav(pages: SourcePage[], nav: NavLink[] | undefined, rootName: string, start?: SourcePage): PageGroup[] | undefined {
  if (!nav || nav.length === 0) return undefined;
  const top = Math.min(...nav.map((item) => item.depth));
  // A tree of top-level links only (Javadoc's bar: Overview, Tree, Index) is no outline of the site.
  if (!nav.some((item, index) => item.depth === top && (nav[index + 1]?.depth ?? top) > top)) return undefined;
  // A tree whose entries mostly lead to no page is one page's outline of its own members (in-page
  // anchors are kept as labels), not the site's navigation.
  if (nav.filter((item) => item.url !== '').length * 2 < nav.length) return undefined;
  // Top-level leaves head sections only beside two groups or more (a tab bar of sections); beside
  // one (an overflow menu) or none they are the root's pages, as the readings below expect.
  const topGroups = nav.filter((item, index) => item.depth === top && (nav[index + 1]?.depth ?? top) > top).length;
  const groups = navGroups(pages, nav, rootName, false, { leafHeads: topGroups >= 2, start });
  if (groups && groups.filter((group) => !group.root).length >= 2) return groups;
  // One root over the whole tree (a module index: "Text" over every module): its branches are the sections.
  const lifted = liftLoneRoot(nav);
  const branches = lifted && navGroups(pages, lifted, rootName, false, { start });
  // The root over the tree was the site's top: its other pages (the home first) lead.
  if (branches && branches.filter((group) => !group.root).length >= 2) return [...branches.filter((group) => group.root), ...branches.filter((group) => !group.root)];
  // A tree whose only group is an overflow menu ("More" over the last chapters of a header bar)
  // names one section where the site has many: its chapters, read as peers, say more.
  return navGroups(pages, nav, rootName, true, { start }) ?? groups;
}

/**
 * The groups `groupByNav` describes; with `flat`, every page link of the tree heads a section of
 * the pages it leads to (labels ignored), which only a tree of few links beside the pages can do.
 */
interface NavReading {
  /** Top-level leaves beside groups head sections of what they lead to (a tab bar). */
  leafHeads?: boolean;
  /** Fewest sections besides the root group for the flat reading to say something. */
  minSections?: number;
  /** Where the crawl started (see `startOf`). */
  start?: SourcePage;
}

/**
 * The crawl's start page: the one given, else the only page at depth 0. Depth 0 is no test of its
 * own: the sitemap's and an llms.txt's pages are seeds at depth 0 too.
 */
export function startOf(pages: SourcePage[], start?: SourcePage): SourcePage | undefined {
  if (start) return start;
  const top = pages.filter((page) => page.depth === 0);
  return top.length === 1 ? top[0] : undefined;
}

function navGroups(pages: SourcePage[], nav: NavLink[], rootName: string, flat: boolean, reading: NavReading = {}): PageGroup[] | undefined {
  const { leafHeads = false, minSections = 2 } = reading;
  const start = startOf(pages, reading.start);
  const top = Math.min(...nav.map((item) => item.depth));
  const hasChildren = (index: number): boolean => (nav[index + 1]?.depth ?? top) > top;
  const links = nav.filter((item) => item.url !== '').length;
  // A flat tree that lists most pages is an index of them (Node's module list), not chapters.
  if (flat && (links < 2 || links * 2 > pages.length)) return undefined;
  const sectionOf = new Map<string, Place>();
  // A top-level page without children beside groups (a tab bar: "Related Pages" next to "Files")
  // heads a section when the pages it leads to follow it; alone it joins the root group. The start
  // page is the root's, whatever it leads to.
  const startKeys = new Set(start ? pageKeys(start) : []);
  const leafSections = new Set<string>();
  let current = rootName;
  nav.forEach((item, position) => {
    if (flat) current = headingLine(item.title, rootName);
    else if (item.depth === top && hasChildren(position)) current = headingLine(item.title, rootName);
    else if (item.depth === top) {
      current = !leafHeads || item.url === '' || startKeys.has(dedupeKey(item.url)) ? rootName : headingLine(item.title, rootName);
      if (current !== rootName && !sectionOf.has(dedupeKey(item.url))) leafSections.add(current);
    }
    // A group label ("User's Guide") names its section but is no page.
    if (item.url === '') return;
    const key = dedupeKey(item.url);
    if (!sectionOf.has(key)) sectionOf.set(key, { name: current, rank: position, depth: flat ? 0 : item.depth - top });
  });
  const places = new Map(pages.map((page) => [page, pageKeys(page).map((key) => sectionOf.get(key)).find(Boolean)]));
  const listed = pages.filter((page) => places.get(page) !== undefined);
  const below = descend(pages, places);
  const linked = pageLinker(pages);
  const near = [...below.values()].filter((place) => place.distance <= 1).length;
  if (listed.length + near < MIN_LISTED * pages.length) return undefined;
  const directories = new Map(pages.map((page) => [page, directoryOf(page.finalUrl)]));
  const placed = pages.map((page, index) => {
    const place = places.get(page);
    if (place) return { page, name: place.name, rank: place.rank, index };
    // Where the crawl started is the site's home, whatever links back to it: it leads the root group.
    if (page === start) return { page, name: rootName, rank: Number.NEGATIVE_INFINITY, index };
    // The listed page whose directory shares the most with this one's, else the root group.
    const directory = directories.get(page) ?? '/';
    let best = { name: rootName, length: 1 };
    const nearest = new Set<string>();
    for (const other of listed) {
      const length = commonDirectory(directory, directories.get(other) ?? '/').length;
      const name = places.get(other)?.name;
      // Every page shares the site's root folder: that is no evidence of a section.
      if (name === undefined || length <= 1 || length < best.length) continue;
      if (length > best.length) nearest.clear();
      best = { name: length > best.length ? name : best.name, length };
      nearest.add(name);
    }
    // The links decide where the folders do not: a flat folder (DocBook), or a page beside the
    // listed page that reaches it. A cross-reference into another folder (a tutorial linking the
    // API pages it uses) does not move a page out of its folder's section.
    const reached = below.get(page);
    if (reached && commonDirectory(directory, directories.get(reached.source) ?? '/').length >= best.length) return { page, name: reached.name, rank: reached.rank, index };
    // A folder shared with several sections names none of them: the page's own links to placed
    // pages (a node's "Up" to its chapter, a breadcrumb) say where it hangs, after what it links to.
    if (nearest.size > 1) {
      const up = linked(page).map((target) => ({ target, place: places.get(target) ?? below.get(target) })).find(({ place }) => place !== undefined);
      if (up?.place) return { page, name: up.place.name, rank: up.place.rank + 1e-6 * (index + 1), index };
      return { page, name: rootName, rank: Number.POSITIVE_INFINITY, index };
    }
    return { page, name: best.name, rank: Number.POSITIVE_INFINITY, index };
  });
  // A top-level leaf that leads to no other page is a page of the root group.
  if (leafSections.size) {
    const sizes = new Map<string, number>();
    for (const entry of placed) sizes.set(entry.name, (sizes.get(entry.name) ?? 0) + 1);
    for (const name of leafSections) if ((sizes.get(name) ?? 0) >= 2) leafSections.delete(name);
    for (const entry of placed) if (leafSections.has(entry.name)) entry.name = rootName;
  }
  // A flat tree's entry that leads to no other page is a page of the root group, not a section.
  if (flat) {
    const sizes = new Map<string, number>();
    for (const entry of placed) sizes.set(entry.name, (sizes.get(entry.name) ?? 0) + 1);
    for (const entry of placed) if ((sizes.get(entry.name) ?? 0) < 2) entry.name = rootName;
    if (new Set(placed.map((entry) => entry.name).filter((name) => name !== rootName)).size < minSections) return undefined;
  }
  // Sections in navigation order (the root group first when the tree starts with leaves).
  let order = [...new Set([...sectionOf.values()].map((place) => (leafSections.has(place.name) ? rootName : place.name)))];
  if (!order.includes(rootName)) order.push(rootName);
  // The page that holds the tree without being listed in it (a contents page) comes before all it
  // lists: its group leads, wherever the tree's own top-level leaves sit.
  if (start && !places.get(start) && placed.some((entry) => entry.page === start && entry.name === rootName)) order = [rootName, ...order.filter((name) => name !== rootName)];
  return order
    .map((name) => ({
      id: `nav:${name}`,
      name,
      root: name === rootName,
      siteNamed: name !== rootName,
      pages: placed
        .filter((entry) => entry.name === name)
        .sort((a, b) => a.rank - b.rank || a.index - b.index)
        .map((entry) => entry.page),
    }))
    .filter((group) => group.pages.length > 0);
}

/**
 * Groups by the start page's own contents list where neither a navigation tree nor the folders
 * say anything (every page in one folder: a Texinfo manual, whose top node lists its chapters and
 * each chapter's page its sections). A nested list is read as a navigation tree; a list of one
 * level makes each entry that leads to other pages a section of them, and leaves the entries that
 * lead nowhere to the root group: a flat list of pages is no list of sections. One such section
 * is enough (a manual with one long chapter beside short ones).
 */
export function groupByContentsList(pages: SourcePage[], list: NavLink[] | undefined, rootName: string, start?: SourcePage): PageGroup[] | undefined {
  if (!list || list.length === 0) return undefined;
  const top = Math.min(...list.map((item) => item.depth));
  if (list.some((item) => item.depth > top)) return groupByNav(pages, list, rootName, start);
  const groups = navGroups(pages, list, rootName, true, { minSections: 1, start });
  // The root group holds the start page: it leads, as the start page leads the site.
  return groups && [...groups.filter((group) => group.root), ...groups.filter((group) => !group.root)];
}

// A link text that is a section's name: a few words starting with a capital, not "here", "read more"
// or a phrase ('all "What's new" documents').
const MAX_LABEL_WORDS = 6;
const NOT_A_NAME = /^(?:here|more|read more|link|this|next|previous|back|home|index|overview|introduction|intro|contents|start|start here|documentation|docs)$/i;
// A link that shows its own address ("/guide/index.html", "https://…", "fs.md") names nothing.
const LOOKS_LIKE_PATH = /^(?:\/|[a-z][a-z0-9+.-]*:\/\/)|^\S+\.(?:html?|md|mdx|php|aspx?)$/i;
const MARKDOWN_LINK = /(?<!\\)\[((?:[^[\]\\]|\\.)+)\]\(\s*<?((?:[^()\s<>]|\([^()\s]*\))+)>?\)/g;

/**
 * The names the start page gives the pages it links to, by dedupe key: the site's own table of
 * contents on its home page ("Tutorial", "Library Reference"). The first link to a page wins.
 */
export function startPageLabels(start: SourcePage | undefined): Map<string, string> {
  const labels = new Map<string, string>();
  if (!start) return labels;
  for (const match of start.markdown.matchAll(MARKDOWN_LINK)) {
    const text = (match[1] ?? '').replace(/\\(.)/g, '$1').replace(/[`*_]/g, '').replace(/\s+/g, ' ').trim();
    if (!text || text.length > MAX_INDEX_TITLE || text.split(' ').length > MAX_LABEL_WORDS || NOT_A_NAME.test(text) || !/\p{L}/u.test(text) || LOOKS_LIKE_PATH.test(text) || /^\p{Ll}/u.test(text) || /["“”]/.test(text)) continue;
    try {
      const key = dedupeKey(new URL(match[2] ?? '', start.finalUrl).href);
      if (!labels.has(key)) labels.set(key, text);
    } catch {
      // Not a URL: no page to name.
    }
  }
  return labels;
}

/**
 * Above ~8 sections, single-page sections move to one "More" section at the end — except the root
 * group and those the site itself names (Python's start page lists "Installing Python Modules", a
 * one-page folder, among its parts: dropping it into "More" would lose the site's own outline).
 */
export function mergeTinyGroups(groups: PageGroup[]): PageGroup[] {
  if (groups.length <= MAX_SECTIONS) return groups;
  const tiny = groups.filter((group) => !group.root && !group.siteNamed && group.pages.length === 1);
  if (tiny.length < 2) return groups;
  const kept = groups.filter((group) => !tiny.includes(group));
  return [...kept, { id: 'more', name: 'More', root: false, pages: tiny.flatMap((group) => group.pages) }];
}
