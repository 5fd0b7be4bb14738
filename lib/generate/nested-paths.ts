/**
 * Where a nested llms.txt goes on the site. Spec v2: an llms.txt at any path covers the URLs under
 * its folder, and the most specific file applies. So a group whose pages share a folder below its
 * parent file's folder gets that folder (`/library/llms.txt` for the pages in /library/): exactly
 * where the site's owner would publish it; so does a group with at least half of its pages in one
 * such folder (a navigation section "Guide" of /guide/ pages and a few others). A group with no
 * such folder (a chapter of a flat Sphinx folder, scattered Optional pages, a part of a long list)
 * gets a folder named after it below its parent's folder — `/library/text/llms.txt` for
 * the chapter whose page is /library/text.html, `/optional/llms.txt` — never a folder that holds
 * crawled pages of its own, so it claims to cover nothing it does not list.
 */
import { commonDirectory, slugify, type EntryGroup } from './nested-groups';
import { sitePathProblem } from './safe-path';

/** Folders already given a file, and every folder that holds crawled pages. */
export interface PathState {
  origin: string;
  taken: Set<string>;
  pageFolders: Set<string>;
}

/** Every folder above every page ("/a/b/c.html" → "/", "/a/", "/a/b/"). */
export function pageFolders(urls: string[], origin: string): Set<string> {
  const folders = new Set<string>();
  for (const url of urls) {
    try {
      const parsed = new URL(url);
      if (parsed.origin !== origin) continue;
      const parts = parsed.pathname.split('/').slice(0, -1);
      for (let i = 1; i <= parts.length; i++) folders.add(`${parts.slice(0, i).join('/')}/`);
    } catch {
      // A page without a usable address adds no folder.
    }
  }
  return folders;
}

/** The folder of a file path: "/library/llms.txt" → "/library/". */
export function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/**
 * The deepest folder below `parentFolder` holding at least half of the group's pages: a section
 * from the site's navigation ("Guide": /guide/* and two /tutorials/* pages) is still mostly one folder.
 */
function mainFolder(group: EntryGroup, parentFolder: string, origin: string): string | null {
  const all = commonDirectory(group.entries.map((entry) => entry.pageUrl), origin);
  if (all?.startsWith(parentFolder) && all.length > parentFolder.length) return all;
  const counts = new Map<string, number>();
  for (const folder of group.entries.flatMap((entry) => [...pageFolders([entry.pageUrl], origin)])) {
    if (folder.startsWith(parentFolder) && folder.length > parentFolder.length) counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  const found = [...counts].filter(([, count]) => count * 2 >= group.entries.length).sort((a, b) => b[0].length - a[0].length)[0];
  return found?.[0] ?? null;
}

/** Whether `folder` is taken, letter case aside. */
function isTaken(state: PathState, folder: string): boolean {
  const key = folder.toLowerCase();
  for (const taken of state.taken) if (taken.toLowerCase() === key) return true;
  return false;
}

/** The path of the group's own llms.txt below `parentFolder` (see the module comment); recorded as taken. */
export function choosePath(group: EntryGroup, parentFolder: string, state: PathState): string {
  const own = mainFolder(group, parentFolder, state.origin);
  // The site's own folder only when the file can be written there on every system (safe-path.ts):
  // a folder named `..%5C..%5Cevil` or `CON` gets a named folder instead, and so does one whose
  // name differs from a taken one only in case, which macOS and Windows would make the same folder.
  if (own !== null && !isTaken(state, own) && sitePathProblem(`${own}llms-full.txt`) === null) {
    // Two groups can share a folder (sections from navigation): the first gets it, the next a named one.
    state.taken.add(own);
    return `${own}llms.txt`;
  }
  const slug = slugify(group.slug);
  let folder = `${parentFolder}${slug}/`;
  const unusable = (candidate: string) => isTaken(state, candidate) || state.pageFolders.has(candidate) || sitePathProblem(`${candidate}llms-full.txt`) !== null;
  // A name from the site's structure can be unsafe too (a section called "CON"): numbered until it
  // is not. A name that no number makes safe (a path already near the length limit) gives way to
  // the shortest one, "s2", "s3"…; the bound only stops a loop no real site reaches.
  for (let n = 2; unusable(folder) && n < 1000; n++) folder = `${parentFolder}${n <= 20 ? `${slug}-${n}` : `s${n}`}/`;
  state.taken.add(folder);
  return `${folder}llms.txt`;
}
