/**
 * What `scout mcp` serves, apart from the protocol: the docs folders it was given, their search
 * index, and the four tools' answers (list, search, read a page or a section, an llms.txt) in
 * words an agent can act on. A bad request is a ToolError with what to do instead, never a crash.
 * Before each answer a folder whose manifest changed is read again (a refresh or a new export
 * written over it); if the new one cannot be read, the old one is served and the reason logged.
 * Node only (reads the folders from disk).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocsManifest } from './docs-folder';
import { findSection, markdownSections, sectionText } from './markdown-sections';
import { manifestStamp, PageFileError, readDocsFolder, type DocsSetOnDisk, type FolderPage } from './read-folder';
import { AGENT_TUNING, DocsIndex, INDEX_VERSION, type IndexPage, type SearchHit, type SearchTuning } from './search-index';

/** A request the tools cannot answer: the message says why and what to ask instead. */
export class ToolError extends Error {
  override name = 'ToolError';
}

export interface DocsSetInfo {
  id: string;
  name: string;
  summary?: string;
  site: string;
  startUrl: string;
  folder: string;
  pages: number;
  sections: Array<{ name: string; pages: number }>;
  crawledAt: string;
  refreshedAt?: string;
  generatedAt: string;
}

/** A page over this many characters is returned as its outline and its start, unless one section is asked for. */
export const PAGE_CHARS = 60_000;

interface LoadedSet {
  id: string;
  disk: DocsSetOnDisk;
  byPath: Map<string, FolderPage>;
  byUrl: Map<string, FolderPage>;
}

/** A URL as pages are compared by: no fragment, no trailing slash, no `index.html`. */
function urlKey(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    let path = parsed.pathname.replace(/\/index\.html?$/i, '/');
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    return `${parsed.host.toLowerCase()}${path}${parsed.search}`;
  } catch {
    return url.trim();
  }
}

const hostOf = (site: string) => {
  try {
    return new URL(site).host;
  } catch {
    return site;
  }
};

function loaded(id: string, disk: DocsSetOnDisk): LoadedSet {
  const byPath = new Map(disk.pages.map((page) => [page.path.toLowerCase(), page]));
  const byUrl = new Map<string, FolderPage>();
  for (const page of disk.pages) {
    byUrl.set(urlKey(page.url), page);
    if (page.markdownUrl) byUrl.set(urlKey(page.markdownUrl), page);
  }
  return { id, disk, byPath, byUrl };
}

function sectionCounts(manifest: DocsManifest): Array<{ name: string; pages: number }> {
  const counts = new Map<string, number>();
  for (const page of manifest.pages) counts.set(page.section, (counts.get(page.section) ?? 0) + 1);
  return [...counts].map(([name, pages]) => ({ name, pages }));
}

export class DocsLibrary {
  private readonly sets: LoadedSet[] = [];
  private readonly index: DocsIndex;
  /** Sets read but not indexed yet: indexing is the slow part of starting, so it waits for the first search (or `indexAll`). */
  private readonly unindexed = new Set<LoadedSet>();

  private constructor(
    private readonly log: (message: string) => void,
    tuning: Partial<SearchTuning>,
    private readonly cacheDir: string | undefined,
  ) {
    this.index = new DocsIndex({ ...AGENT_TUNING, ...tuning });
  }

  /** Where a set's saved index lives: one file a folder, named by a hash of its path. */
  private cacheFile(set: LoadedSet): string | undefined {
    return this.cacheDir ? join(this.cacheDir, `${createHash('sha256').update(set.disk.dir).digest('hex').slice(0, 24)}.index`) : undefined;
  }

  /** The saved index of the folder as it is now (same manifest, same index version), or undefined. */
  private savedIndex(set: LoadedSet): Uint8Array | undefined {
    const file = this.cacheFile(set);
    if (!file) return undefined;
    try {
      const bytes = readFileSync(file);
      const newline = bytes.indexOf(10);
      const head = JSON.parse(bytes.subarray(0, newline).toString('utf8')) as { version?: number; dir?: string; stamp?: string };
      return head.version === INDEX_VERSION && head.dir === set.disk.dir && head.stamp === set.disk.stamp ? bytes.subarray(newline + 1) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Saves the set's index for the next start: a header line (what it is for), then the index. Best effort. */
  private saveIndex(set: LoadedSet): void {
    const file = this.cacheFile(set);
    if (!file || !this.cacheDir) return;
    try {
      const bytes = this.index.exportSite(set.id);
      if (!bytes) return;
      mkdirSync(this.cacheDir, { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      // The header padded to a multiple of four bytes, so the index's words are read in place, not copied.
      let head = JSON.stringify({ version: INDEX_VERSION, dir: set.disk.dir, stamp: set.disk.stamp });
      head += ' '.repeat((4 - ((Buffer.byteLength(head) + 1) % 4)) % 4);
      writeFileSync(temporary, Buffer.concat([Buffer.from(`${head}\n`), bytes]));
      renameSync(temporary, file);
    } catch (error) {
      this.log(`Could not save the search index in ${this.cacheDir} (the next start indexes again): ${(error as Error).message}`);
    }
  }

  /** Reads every folder (throws DocsFolderError for the first that cannot be served) and indexes them. */
  static async open(dirs: string[], log: (message: string) => void = () => undefined, options: { tuning?: Partial<SearchTuning>; cacheDir?: string } = {}): Promise<DocsLibrary> {
    const library = new DocsLibrary(log, options.tuning ?? {}, options.cacheDir);
    const taken = new Set<string>();
    for (const dir of dirs) {
      const disk = await readDocsFolder(dir);
      const host = hostOf(disk.manifest.site);
      let id = host;
      for (let n = 2; taken.has(id); n++) id = `${host}-${n}`;
      taken.add(id);
      const set = loaded(id, disk);
      library.sets.push(set);
      library.unindexed.add(set);
    }
    return library;
  }

  /** Indexes every set read and not indexed yet (from its saved index when there is one for it); how many came from there. */
  indexAll(): { loaded: number; built: number } {
    let loaded = 0;
    const built: LoadedSet[] = [];
    for (const set of this.unindexed) {
      // The page's text is read when indexing, or a result, needs it: a saved index needs none to load.
      const pages: IndexPage[] = set.disk.pages.map((page) => ({
        site: set.id,
        path: page.path,
        url: page.url,
        title: page.title,
        section: page.section,
        get markdown() {
          return page.markdown;
        },
      }));
      if (this.index.replaceSite(set.id, pages, this.savedIndex(set)).loaded) loaded++;
      else built.push(set);
    }
    this.unindexed.clear();
    // Saved after the answer that needed the index, not before it.
    if (built.length && this.cacheDir) setImmediate(() => built.forEach((set) => this.saveIndex(set)));
    return { loaded, built: built.length };
  }

  /** Reads again each folder whose manifest changed since it was read. */
  async refresh(): Promise<void> {
    for (const [i, set] of this.sets.entries()) {
      const stamp = await manifestStamp(set.disk.dir);
      if (stamp === null || stamp === set.disk.stamp) continue;
      try {
        const next = loaded(set.id, await readDocsFolder(set.disk.dir));
        this.sets[i] = next;
        this.unindexed.delete(set);
        this.unindexed.add(next);
        this.log(`Read ${set.disk.dir} again: its manifest changed (${next.disk.pages.length} pages).`);
      } catch (error) {
        this.log(`${set.disk.dir} changed but cannot be read now, so the copy read before is served: ${(error as Error).message}`);
      }
    }
  }

  /** Sections indexed (every set indexed first). */
  get chunkCount(): number {
    this.indexAll();
    return this.index.size;
  }

  list(): DocsSetInfo[] {
    return this.sets.map(({ id, disk }) => ({
      id,
      name: disk.manifest.name,
      ...(disk.manifest.summary ? { summary: disk.manifest.summary } : {}),
      site: disk.manifest.site,
      startUrl: disk.manifest.startUrl,
      folder: disk.dir,
      pages: disk.pages.length,
      sections: sectionCounts(disk.manifest),
      crawledAt: disk.manifest.crawledAt,
      ...(disk.manifest.refreshedAt ? { refreshedAt: disk.manifest.refreshedAt } : {}),
      generatedAt: disk.manifest.generatedAt,
    }));
  }

  /** The set `site` names (its id, host or URL); with one set served, that set when none is named. */
  private setFor(site: string | undefined): LoadedSet {
    const ids = this.sets.map((set) => set.id).join(', ');
    if (site === undefined || site.trim() === '') {
      if (this.sets.length === 1 && this.sets[0]) return this.sets[0];
      throw new ToolError(`Several documentation sets are served; say which with "site": one of ${ids}.`);
    }
    const wanted = site.trim().toLowerCase();
    const found = this.sets.find((set) => set.id.toLowerCase() === wanted) ?? this.sets.find((set) => hostOf(set.disk.manifest.site).toLowerCase() === hostOf(wanted).toLowerCase());
    if (!found) throw new ToolError(`No documentation set "${site}". The sets served are: ${ids} (list_docs describes them).`);
    return found;
  }

  search(query: string, options: { site?: string; section?: string; limit?: number } = {}): SearchHit[] {
    if (query.trim() === '') throw new ToolError('The query is empty: say what to look for, e.g. "read a file line by line".');
    const site = options.site?.trim() ? this.setFor(options.site).id : undefined;
    if (options.section?.trim()) {
      const wanted = options.section.trim().toLowerCase();
      const sets = site ? this.sets.filter((set) => set.id === site) : this.sets;
      const names = [...new Set(sets.flatMap((set) => set.disk.manifest.pages.map((page) => page.section)))];
      if (!names.some((name) => name.toLowerCase() === wanted)) throw new ToolError(`No section "${options.section}"${site ? ` in ${site}` : ''}. Sections: ${names.join(', ')}.`);
    }
    const limit = Math.min(Math.max(Math.floor(options.limit ?? 8), 1), 50);
    this.indexAll();
    return this.index.query(query, { ...(site ? { site } : {}), ...(options.section?.trim() ? { section: options.section } : {}), limit });
  }

  /** A page by its path in the folder or its URL (the page's or its Markdown twin's). */
  page(site: string | undefined, page: string): { set: string; page: FolderPage } {
    if (page.trim() === '') throw new ToolError('Say which page: its URL or its path from search_docs (e.g. "pages/library/os.md").');
    const candidates = site?.trim() ? [this.setFor(site)] : this.sets;
    const wanted = page.trim();
    for (const set of candidates) {
      const found = set.byPath.get(wanted.replace(/^\/+/, '').toLowerCase()) ?? set.byUrl.get(urlKey(wanted));
      if (found) return { set: set.id, page: found };
    }
    throw new ToolError(`No page "${page}"${site ? ` in ${site}` : ''}. Give a page's URL or its path as search_docs returns it; search_docs finds pages by what they say.`);
  }

  /** A page's text, whole or one section (by its heading), as Markdown with its source first. */
  readPage(site: string | undefined, pageName: string, heading?: string): { set: string; page: FolderPage; heading?: string; text: string; truncated: boolean } {
    const { set, page } = this.page(site, pageName);
    const head = `Source: ${page.url}\nPage: ${page.title} (${page.path} in ${set})\n`;
    let markdown: string;
    try {
      markdown = page.markdown;
    } catch (error) {
      if (error instanceof PageFileError) throw new ToolError(error.message);
      throw error;
    }
    const sections = markdownSections(markdown);
    if (heading !== undefined && heading.trim() !== '') {
      const section = findSection(sections, heading);
      if (!section) {
        const headings = sections.filter((s) => s.level > 0).map((s) => `${'  '.repeat(Math.max(0, s.level - 1))}${s.heading}`);
        throw new ToolError(`The page "${page.title}" has no heading "${heading}". Its headings:\n${headings.slice(0, 60).join('\n')}${headings.length > 60 ? `\n… and ${headings.length - 60} more` : ''}`);
      }
      return { set, page, heading: section.heading, text: `${head}Section: ${[...section.trail, section.heading].join(' › ')}\n\n${sectionText(markdown, section)}\n`, truncated: false };
    }
    if (markdown.length <= PAGE_CHARS) return { set, page, text: `${head}\n${markdown.trim()}\n`, truncated: false };
    const outline = sections.filter((s) => s.level > 0 && s.level <= 3).map((s) => `${'  '.repeat(Math.max(0, s.level - 1))}- ${s.heading}`);
    const cut = markdown.lastIndexOf('\n', PAGE_CHARS);
    const start = markdown.slice(0, cut > 0 ? cut : PAGE_CHARS);
    return {
      set,
      page,
      text: `${head}\nThis page has ${markdown.length.toLocaleString('en')} characters; here are its headings and its first ${start.length.toLocaleString('en')}. Read the rest one section at a time with read_page and "heading".\n\nHeadings:\n${outline.join('\n')}\n\n${start.trim()}\n\n[… cut here]\n`,
      truncated: true,
    };
  }

  /** The set's root llms.txt, or the nested one at `path` ("library/llms.txt"). */
  llmsTxt(site: string | undefined, path?: string): { set: string; path: string; url: string; text: string } {
    const set = this.setFor(site);
    const files = set.disk.manifest.files.filter((file) => file.kind === 'llms');
    const wanted = path?.trim() ? path.trim().replace(/^\/+/, '') : (files[0]?.path ?? 'llms.txt');
    const file = files.find((f) => f.path.toLowerCase() === wanted.toLowerCase() || urlKey(f.url) === urlKey(wanted));
    const text = file ? set.disk.llmsTxt.get(file.path) : undefined;
    if (!file || text === undefined) throw new ToolError(`No llms.txt "${path}" in ${set.id}. Its llms.txt files: ${files.map((f) => f.path).join(', ')}.`);
    return { set: set.id, path: file.path, url: file.url, text };
  }
}
