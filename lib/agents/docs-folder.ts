/**
 * The docs folder ("Docs for agents", docs/docs-folder.md): the files an agent's tools read from
 * disk. The llms.txt files at their paths on the site (what `scout generate --out` writes), one
 * Markdown file a page under `pages/` with its URL, title, section and fetch time in front matter,
 * and `manifest.json`, which lists every page with its path. The pages are exactly those the
 * generated llms.txt lists (its sections' entries), so a search never finds a page the llms.txt
 * left out (an empty page, a blog post, one the user took out in the Review).
 *
 * Pure: the extension zips the files (fflate), the command line writes them (write-out.ts).
 */
import { chromeStripper, learnChrome, type ChromeModel } from '../generate/boilerplate';
import { PathSet } from '../generate/safe-path';
import type { LlmsSectionModel } from '../generate/types';
import { pagePath, uniquePaths } from '../generate/zip-paths';

/** What `format` says in every manifest; a reader refuses any other. */
export const DOCS_FOLDER_FORMAT = 'llms-txt-scout/docs-folder';
/** The layout's version: a reader refuses a higher one, as it cannot know what changed. */
export const DOCS_FOLDER_VERSION = 1;
export const MANIFEST_NAME = 'manifest.json';

export interface ManifestPage {
  /** The page's Markdown file, relative to the folder ("pages/library/os.md"). */
  path: string;
  /** The page on the site (the link people follow; the Markdown twin is `markdownUrl`). */
  url: string;
  /** The Markdown twin the llms.txt links to, when the site has one. */
  markdownUrl?: string;
  title: string;
  /** The llms.txt section that lists it ("Library Reference", "Optional"). */
  section: string;
  /** o200k tokens of its body in llms-full.txt. */
  tokens: number;
  /** When its text was fetched (ISO 8601). */
  fetchedAt: string;
}

export interface ManifestFile {
  /** Relative to the folder ("llms.txt", "library/llms-full.txt"). */
  path: string;
  url: string;
  kind: 'llms' | 'llms-full';
}

export interface DocsManifest {
  format: typeof DOCS_FOLDER_FORMAT;
  formatVersion: number;
  /** The documentation's name (the llms.txt H1). */
  name: string;
  summary?: string;
  /** The site's origin ("https://docs.python.org"). */
  site: string;
  startUrl: string;
  /** The crawl's scope setting (docs, site, host, path) and, when found, the folders the docs live in. */
  scope: { mode: string; roots?: string[] };
  generator: { name: string; version: string };
  /** When the crawl started and ended, the last refresh ended, and this folder was made (ISO 8601). */
  crawledAt: string;
  refreshedAt?: string;
  generatedAt: string;
  files: ManifestFile[];
  pages: ManifestPage[];
}

/** A page as the builder needs it: the stored record's fields. */
export interface FolderPageSource {
  key: string;
  url: string;
  finalUrl: string;
  title: string;
  markdown: string;
  fetchedAt: number;
}

export interface DocsFolderInput {
  name: string;
  summary?: string;
  origin: string;
  startUrl: string;
  scope: { mode: string; roots?: string[] };
  scoutVersion: string;
  crawledAt: number;
  refreshedAt?: number;
  generatedAt: number;
  /** The generated llms.txt's sections: the pages listed, in its order. */
  sections: LlmsSectionModel[];
  /** The crawl's stored pages; only those the sections list are written. */
  pages: FolderPageSource[];
  /** The llms.txt and llms-full.txt files by their path on the site ("/llms.txt", "/library/llms-full.txt"), root first. */
  siteFiles: Array<{ path: string; url: string; kind: 'llms' | 'llms-full'; text: string }>;
  /**
   * The site chrome the version's llms-full.txt left out of each page (`outputChrome`), so a page
   * file is the page as llms-full.txt has it; without one it is learned from the pages listed.
   */
  chrome?: ChromeModel;
}

export interface DocsFolderFile {
  relativePath: string;
  text: string;
  kind: 'llms' | 'llms-full' | 'page' | 'manifest';
}

export interface DocsFolder {
  files: DocsFolderFile[];
  manifest: DocsManifest;
  /** Files of the layout that could not be placed, with why ("/a%5Cb/llms.txt: its path has …"). */
  leftOut: string[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A YAML double-quoted scalar: JSON's string syntax is one, so any title is safe in it. */
const yamlString = (value: string) => JSON.stringify(value);

/** The page file: front matter (url, title, section, fetched), then the page's Markdown. */
export function pageFileText(page: ManifestPage, body: string): string {
  const head = ['---', `url: ${yamlString(page.url)}`, `title: ${yamlString(page.title)}`, `section: ${yamlString(page.section)}`, `fetched: ${yamlString(page.fetchedAt)}`];
  if (page.markdownUrl) head.push(`markdown: ${yamlString(page.markdownUrl)}`);
  head.push('---', '');
  return `${head.join('\n')}\n${body.trim()}\n`;
}

/** A Markdown twin's own front matter is the site's metadata, not text to read or search: it goes. */
function withoutFrontMatter(markdown: string): string {
  const lines = markdown.split('\n');
  if (lines[0]?.trim() !== '---') return markdown;
  const end = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'));
  return end < 0 ? markdown : lines.slice(end + 1).join('\n');
}

/** The manifest as written: two-space JSON with a final newline. */
export function manifestText(manifest: DocsManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * The folder's files and manifest. Paths keep to safe-path.ts: a page's file is renamed when it
 * must be (the manifest says which page each file holds), an llms.txt file that cannot be at its
 * path on the site is left out with the reason, as the zip does.
 */
export function buildDocsFolder(input: DocsFolderInput): DocsFolder {
  const taken = new PathSet();
  taken.claim(MANIFEST_NAME);
  const files: DocsFolderFile[] = [];
  const manifestFiles: ManifestFile[] = [];
  const leftOut: string[] = [];
  for (const file of input.siteFiles) {
    const place = taken.placeSiteFile(file.path);
    if ('again' in place) continue;
    if (!('path' in place)) {
      leftOut.push(`${file.path}: left out, ${place.reason}`);
      continue;
    }
    files.push({ relativePath: place.path, text: file.text, kind: file.kind });
    manifestFiles.push({ path: place.path, url: file.url, kind: file.kind });
  }

  const byKey = new Map(input.pages.map((page) => [page.key, page]));
  const listed: Array<{ page: FolderPageSource; section: string; url: string; markdownUrl?: string; tokens: number }> = [];
  const seen = new Set<string>();
  for (const section of input.sections) {
    for (const entry of section.entries) {
      const page = byKey.get(entry.key);
      if (!page || seen.has(entry.key)) continue;
      seen.add(entry.key);
      listed.push({ page, section: section.name, url: entry.pageUrl, ...(entry.url !== entry.pageUrl ? { markdownUrl: entry.url } : {}), tokens: entry.tokens });
    }
  }
  // Without the chrome the site repeats on every page, as llms-full.txt and the zip have them.
  const stripChrome = chromeStripper(input.chrome ?? learnChrome(listed.map((item) => item.page.markdown)));
  const paths = uniquePaths(listed.map((item) => pagePath(item.url)));
  const pages: ManifestPage[] = [];
  listed.forEach((item, index) => {
    const first = paths[index] ?? pagePath(item.url);
    // A nested llms.txt's file or folder may already hold that name: the page gets the next free one.
    let path: string | null = first;
    for (let n = 2; path !== null && taken.claim(path) !== null; n++) path = n > 20 ? null : first.replace(/\.md$/, `-${n}.md`);
    if (path === null) {
      leftOut.push(`${item.url}: left out, no free name near ${first}`);
      return;
    }
    const meta: ManifestPage = { path, url: item.url, ...(item.markdownUrl ? { markdownUrl: item.markdownUrl } : {}), title: item.page.title, section: item.section, tokens: item.tokens, fetchedAt: iso(item.page.fetchedAt) };
    pages.push(meta);
    files.push({ relativePath: path, text: pageFileText(meta, withoutFrontMatter(stripChrome(item.page.markdown))), kind: 'page' });
  });

  const manifest: DocsManifest = {
    format: DOCS_FOLDER_FORMAT,
    formatVersion: DOCS_FOLDER_VERSION,
    name: input.name,
    ...(input.summary ? { summary: input.summary } : {}),
    site: input.origin,
    startUrl: input.startUrl,
    scope: input.scope,
    generator: { name: 'llms.txt Scout', version: input.scoutVersion },
    crawledAt: iso(input.crawledAt),
    ...(input.refreshedAt ? { refreshedAt: iso(input.refreshedAt) } : {}),
    generatedAt: iso(input.generatedAt),
    files: manifestFiles,
    pages,
  };
  files.unshift({ relativePath: MANIFEST_NAME, text: manifestText(manifest), kind: 'manifest' });
  return { files, manifest, leftOut };
}
