/**
 * Where a nested llms.txt goes on the site. Spec v2: an llms.txt at any path covers the URLs under
 * its folder, and the most specific file applies. So a group whose pages share a folder below its
 * parent file's folder gets that folder (`/library/llms.txt` for the pages in /library/): exactly
 * where the site's owner would publish it. A group whose pages share no deeper folder (a section
 * from the site's navigation, a chapter of a flat Sphinx folder, the Optional pages, a part of a
 * long list) gets a folder named after it below its parent's folder — `/library/text/llms.txt` for
 * the chapter whose page is /library/text.html, `/optional/llms.txt` — never a folder that holds
 * crawled pages of its own, so it claims to cover nothing it does not list.
 */
import { commonDirectory, slugify, type EntryGroup } from './nested-groups';

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

/** The path of the group's own llms.txt below `parentFolder` (see the module comment); recorded as taken. */
export function choosePath(group: EntryGroup, parentFolder: string, state: PathState): string {
  const own = commonDirectory(group.entries.map((entry) => entry.pageUrl), state.origin);
  if (own !== null && own.startsWith(parentFolder) && own.length > parentFolder.length && !state.taken.has(own)) {
    // Two groups can share a folder (sections from navigation): the first gets it, the next a named one.
    state.taken.add(own);
    return `${own}llms.txt`;
  }
  const slug = slugify(group.slug);
  let folder = `${parentFolder}${slug}/`;
  for (let n = 2; state.taken.has(folder) || state.pageFolders.has(folder); n++) folder = `${parentFolder}${slug}-${n}/`;
  state.taken.add(folder);
  return `${folder}llms.txt`;
}
