/**
 * How a group of llms.txt entries divides when its own file is over budget: by the folders below
 * its pages' common folder (the site's own layout), else by the tree its pages' links form (a flat
 * Sphinx folder's table of contents), and only when none of those divides it (one chapter, alone
 * over the budget, with no contents of its own) into "<its name> (part N of M)". A file with too
 * many groups even as links packs consecutive groups together, named by the first and last.
 */
import { entryLine } from './render';
import { linkTree, type PageLinks } from './link-tree';
import { groupByPath } from './sections';
import type { LlmsEntry, SourcePage } from './types';

/** Entries under one H2 of a nested file, or behind one link to a child file. */
export interface EntryGroup {
  name: string;
  optional: boolean;
  entries: LlmsEntry[];
  /** A folder name for the group's own file when its pages share no deeper folder (see nested-paths.ts). */
  slug: string;
  /** Groups packed into this one (see packGroups): they are its own file's H2s. */
  parts?: EntryGroup[];
}

/** Characters the group's entry lines take in a file. */
export function groupChars(entries: LlmsEntry[]): number {
  return entries.reduce((sum, entry) => sum + entryLine(entry).length + 1, 0);
}

/** "Text Processing Services" → "text-processing-services"; never empty. */
export function slugify(text: string): string {
  const slug = text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|(?<!-)-+$/g, '').slice(0, 48).replace(/(?<!-)-+$/, '');
  return slug || 'section';
}

/** The page's file name without its extension: /library/text.html → "text"; '' for a folder. */
function stem(url: string): string {
  try {
    return new URL(url).pathname.split('/').pop()?.replace(/\.[^.]*$/, '') ?? '';
  } catch {
    return '';
  }
}

/** The common folder of the pages on `origin`: "/library/" for /library/a.html and /library/b.html; null when none is there. */
export function commonDirectory(urls: string[], origin: string): string | null {
  let common: string | null = null;
  for (const url of urls) {
    let path: string;
    try {
      const parsed = new URL(url);
      if (parsed.origin !== origin) continue;
      path = parsed.pathname.slice(0, parsed.pathname.lastIndexOf('/') + 1);
    } catch {
      continue;
    }
    if (common === null) common = path;
    while (!path.startsWith(common)) common = common.slice(0, common.lastIndexOf('/', common.length - 2) + 1) || '/';
  }
  return common;
}

function byDirectory(group: EntryGroup, origin: string): EntryGroup[] {
  const base = commonDirectory(group.entries.map((entry) => entry.pageUrl), origin);
  if (base === null) return [group];
  // groupByPath works on pages; an entry carries what it reads (address and title).
  const asPages = group.entries.map((entry): SourcePage => ({ key: entry.key, url: entry.pageUrl, finalUrl: entry.pageUrl, title: entry.title, markdown: '', depth: 0, format: 'html', state: 'stored' }));
  const byKey = new Map(group.entries.map((entry) => [entry.key, entry]));
  return groupByPath(asPages, base, group.name).map((found) => ({
    name: found.name,
    optional: group.optional,
    entries: found.pages.map((page) => byKey.get(page.key)).filter((entry): entry is LlmsEntry => entry !== undefined),
    slug: found.root ? group.slug : (found.id.replace(/\/$/, '').split('/').pop() ?? group.slug),
  }));
}

/**
 * Groups from a page → chapter-head assignment: each head with pages under it leads its own group;
 * the rest form the lead group. Groups and their pages follow `rank` (the table of contents'
 * order), then the section's order.
 */
function fromHeads(group: EntryGroup, headOf: (key: string) => string | undefined, rank: (key: string) => number = () => 0): EntryGroup[] {
  const order = new Map(group.entries.map((entry, i) => [entry.key, i]));
  const byRank = (a: LlmsEntry, b: LlmsEntry): number => rank(a.key) - rank(b.key) || (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0);
  const members = new Map<string, LlmsEntry[]>();
  for (const entry of group.entries) {
    const head = headOf(entry.key) ?? entry.key;
    members.set(head, [...(members.get(head) ?? []), entry]);
  }
  const byKey = new Map(group.entries.map((entry) => [entry.key, entry]));
  const lead: LlmsEntry[] = [];
  const children: EntryGroup[] = [];
  for (const [head, entries] of members) {
    const leader = byKey.get(head);
    if (!leader || entries.length < 2 || head === group.entries[0]?.key) {
      lead.push(...entries);
      continue;
    }
    // The chapter's own page leads its group.
    const rest = entries.filter((entry) => entry !== leader).sort(byRank);
    children.push({ name: leader.title, optional: group.optional, entries: [leader, ...rest], slug: stem(leader.pageUrl) || leader.title });
  }
  if (children.length === 0) return [group];
  children.sort((a, b) => byRank(a.entries[0] as LlmsEntry, b.entries[0] as LlmsEntry));
  // The section's own first page keeps leading.
  const first = group.entries[0];
  lead.sort((a, b) => Number(b === first) - Number(a === first) || byRank(a, b));
  return lead.length > 0 ? [{ ...group, entries: lead }, ...children] : children;
}

/** Chapters from the first page's nested list of links: a top-level item with pages nested under it is a chapter. */
function byToc(group: EntryGroup, links: PageLinks): EntryGroup[] {
  const first = group.entries[0];
  if (!first) return [group];
  const inGroup = new Set(group.entries.map((entry) => entry.key));
  const headOf = new Map<string, string>();
  let top: string | null = null;
  for (const item of links.tocOf(first.key)) {
    if (!inGroup.has(item.key)) continue;
    if (item.level === 0) top = item.key;
    if (!headOf.has(item.key)) headOf.set(item.key, item.level === 0 || top === null ? item.key : top);
  }
  const ranks = new Map([...headOf.keys()].map((key, i) => [key, i]));
  return fromHeads(group, (key) => headOf.get(key), (key) => ranks.get(key) ?? ranks.size);
}

/** Chapters from the breadth-first tree of the pages' links: each child of the first page with pages below it. */
function byLinkTree(group: EntryGroup, links: PageLinks): EntryGroup[] {
  const first = group.entries[0]?.key;
  if (first === undefined) return [group];
  const parent = linkTree(group.entries.map((entry) => entry.key), links.linksOf);
  return fromHeads(group, (key) => {
    let at = key;
    let up = parent.get(at) ?? null;
    while (up !== null && up !== first) {
      at = up;
      up = parent.get(at) ?? null;
    }
    return up === first ? at : undefined;
  });
}

/** Consecutive parts of about equal size, each about `chunkChars` or less. */
export function chunkGroup(group: EntryGroup, chunkChars: number): EntryGroup[] {
  const total = groupChars(group.entries);
  const count = Math.max(1, Math.ceil(total / Math.max(1, chunkChars)));
  if (count === 1 || group.entries.length < 2) return [group];
  const target = total / count;
  const parts: LlmsEntry[][] = [[]];
  let size = 0;
  for (const entry of group.entries) {
    const chars = groupChars([entry]);
    const current = parts[parts.length - 1] ?? [];
    // An entry goes to the next part when most of it would lie past this part's share.
    if (current.length > 0 && size + chars / 2 > target) {
      parts.push([entry]);
      size = chars;
    } else {
      current.push(entry);
      size += chars;
    }
  }
  // A part of the Optional group must not be named like it (only the exact name marks links optional).
  return parts.map((entries, i) => ({
    name: group.optional ? `Part ${i + 1} of ${parts.length}` : `${group.name} (part ${i + 1} of ${parts.length})`,
    optional: group.optional,
    entries,
    slug: `part-${i + 1}`,
  }));
}

/**
 * Consecutive groups packed into files of about `chunkChars` of entries each, for a file whose
 * groups are too many even as one link each: a pack is named by its first and last group
 * ("I. Tutorial – III. Server Administration") and keeps them as its H2s. Optional groups are
 * packed apart and keep their name.
 */
export function packGroups(groups: EntryGroup[], chunkChars: number): EntryGroup[] {
  const runs: EntryGroup[][] = [];
  let size = 0;
  for (const group of groups) {
    const chars = groupChars(group.entries);
    const run = runs.at(-1);
    if (run && run[0]?.optional === group.optional && size + chars <= chunkChars) {
      run.push(group);
      size += chars;
    } else {
      runs.push([group]);
      size = chars;
    }
  }
  return runs.map((run): EntryGroup => {
    const first = run[0] as EntryGroup;
    if (run.length === 1) return first;
    const last = run.at(-1) as EntryGroup;
    const name = first.optional ? first.name : `${first.name} – ${last.name}`;
    return { name, optional: first.optional, entries: run.flatMap((group) => group.entries), slug: first.slug, parts: run };
  });
}

/**
 * The H2 groups of a group's own file: by folder, else by the first page's table of contents, else
 * by the link tree, else in parts. The Optional group only ever splits into parts (its pages are
 * scattered: indexes, changelogs, legal pages).
 */
export function splitGroup(group: EntryGroup, options: { origin: string; chunkChars: number; links?: PageLinks }): EntryGroup[] {
  if (group.parts && group.parts.length > 1) return group.parts;
  if (group.optional) return chunkGroup(group, options.chunkChars);
  const folders = byDirectory(group, options.origin);
  if (folders.length > 1) return folders;
  if (options.links) {
    const toc = byToc(group, options.links);
    if (toc.length > 1) return toc;
    const tree = byLinkTree(group, options.links);
    if (tree.length > 1) return tree;
  }
  return chunkGroup(group, options.chunkChars);
}
