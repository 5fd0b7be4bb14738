/**
 * Reads a docs folder (docs-folder.ts, docs/docs-folder.md) from disk and checks it, for
 * `scout mcp`: a folder that is not one, or is broken, is refused with every problem said in
 * words, so the person who pointed an agent at it learns what to fix. Node only (node:fs).
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { DOCS_FOLDER_FORMAT, DOCS_FOLDER_VERSION, MANIFEST_NAME, type DocsManifest, type ManifestFile, type ManifestPage } from './docs-folder';

export interface FolderPage extends ManifestPage {
  /**
   * The page's Markdown, without the front matter: read from its file the first time it is asked
   * for, then kept. Starting to serve a 10,000-page folder needs none of them when its search
   * index was saved, and reading them all took most of the start. A file gone since the folder was
   * read throws a PageFileError.
   */
  readonly markdown: string;
}

/** A page file listed by the manifest that cannot be read now (the folder changed under the server). */
export class PageFileError extends Error {
  override name = 'PageFileError';
}

export interface DocsSetOnDisk {
  /** The folder, as an absolute path. */
  dir: string;
  manifest: DocsManifest;
  pages: FolderPage[];
  /** The llms.txt files' text by their path in the folder ("llms.txt", "library/llms.txt"). */
  llmsTxt: Map<string, string>;
  /** The manifest's modification time and size when read: a change means the folder was written again. */
  stamp: string;
}

/** A folder that cannot be served, with each reason. */
export class DocsFolderError extends Error {
  constructor(
    readonly dir: string,
    readonly problems: string[],
  ) {
    const shown = problems.slice(0, 8);
    const more = problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : '';
    super(`${dir} is not a docs folder Scout can serve:\n  ${shown.join('\n  ')}${more}`);
    this.name = 'DocsFolderError';
  }
}

/** The manifest's modification time and size, or null when it cannot be read. */
export async function manifestStamp(dir: string): Promise<string | null> {
  const info = await stat(join(dir, MANIFEST_NAME)).catch(() => null);
  return info ? `${info.mtimeMs}:${info.size}` : null;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A path in the manifest must stay inside the folder: relative, '/'-separated, no `.` or `..` step. */
function pathProblem(path: string): string | null {
  if (path === '' || isAbsolute(path) || path.includes('\\')) return 'is not a relative path inside the folder';
  if (path.split('/').some((part) => part === '' || part === '.' || part === '..')) return 'steps outside the folder or has an empty name';
  return null;
}

/** Checks the manifest's shape; every problem in words, none thrown. */
export function manifestProblems(value: unknown): string[] {
  if (!isRecord(value)) return [`${MANIFEST_NAME} is not a JSON object`];
  const problems: string[] = [];
  if (value.format !== DOCS_FOLDER_FORMAT) return [`${MANIFEST_NAME} says format ${JSON.stringify(value.format ?? null)}, not "${DOCS_FOLDER_FORMAT}": it was not written by llms.txt Scout`];
  const version = value.formatVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) problems.push(`${MANIFEST_NAME} has no formatVersion`);
  else if (version > DOCS_FOLDER_VERSION) problems.push(`the folder is format version ${version}, newer than this Scout reads (${DOCS_FOLDER_VERSION}): update Scout`);
  for (const key of ['name', 'site', 'startUrl', 'crawledAt', 'generatedAt'] as const) {
    if (!isString(value[key])) problems.push(`${MANIFEST_NAME} has no "${key}"`);
  }
  if (!Array.isArray(value.files)) problems.push(`${MANIFEST_NAME} has no "files" list`);
  else
    value.files.forEach((file: unknown, i) => {
      if (!isRecord(file) || !isString(file.path) || !isString(file.url) || (file.kind !== 'llms' && file.kind !== 'llms-full')) problems.push(`files[${i}] needs a path, a url and a kind (llms or llms-full)`);
      else {
        const problem = pathProblem(file.path);
        if (problem) problems.push(`files[${i}] path "${file.path}" ${problem}`);
      }
    });
  if (!Array.isArray(value.pages)) problems.push(`${MANIFEST_NAME} has no "pages" list`);
  else
    value.pages.forEach((page: unknown, i) => {
      if (!isRecord(page) || !isString(page.path) || !isString(page.url) || !isString(page.title) || !isString(page.section)) {
        problems.push(`pages[${i}] needs a path, a url, a title and a section`);
        return;
      }
      const problem = pathProblem(page.path);
      if (problem) problems.push(`pages[${i}] path "${page.path}" ${problem}`);
    });
  return problems;
}

/** The one folder right inside `root` that holds a manifest.json, if exactly one does. */
async function folderBelowWithManifest(root: string): Promise<string | null> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries.slice(0, 200)) {
    if (entry.isDirectory() && (await stat(join(root, entry.name, MANIFEST_NAME)).catch(() => null))) found.push(join(root, entry.name));
  }
  return found.length === 1 ? (found[0] ?? null) : null;
}

/** The text after a leading `---` … `---` block (the page file's front matter). */
export function stripFrontMatter(text: string): string {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  if (!body.startsWith('---\n') && !body.startsWith('---\r\n')) return body;
  const end = body.indexOf('\n---', 3);
  if (end < 0) return body;
  const after = body.indexOf('\n', end + 4);
  return after < 0 ? '' : body.slice(after + 1).replace(/^\r?\n/, '');
}

/**
 * Every file under `root` by its '/'-separated path: one directory read a folder, so checking that
 * 10,000 page files are there costs a few hundred reads, not 10,000 (Node's recursive readdir is
 * several times slower than this walk).
 */
async function filesUnder(root: string): Promise<Set<string>> {
  const files = new Set<string>();
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(relative ? join(root, relative) : root, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries.map((entry) => {
        const path = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.isDirectory()) return walk(path);
        files.add(path);
        return undefined;
      }),
    );
  };
  await walk('');
  return files;
}

/** A manifest page whose Markdown is read from `file` when first asked for. */
function lazyPage(page: ManifestPage, file: string): FolderPage {
  let markdown: string | undefined;
  const entry = { ...page, tokens: typeof page.tokens === 'number' ? page.tokens : 0 };
  return Object.defineProperty(entry, 'markdown', {
    enumerable: true,
    get(): string {
      if (markdown === undefined) {
        try {
          markdown = stripFrontMatter(readFileSync(file, 'utf8'));
        } catch (error) {
          throw new PageFileError(`The page file ${page.path} (${page.url}) cannot be read now: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. The docs folder changed since it was read; it is read again at the next request once its manifest is written.`);
        }
      }
      return markdown;
    },
  }) as FolderPage;
}

/**
 * Reads and checks the docs folder at `dir`: its manifest, that every page file it lists is there,
 * and its llms.txt files (the pages' text is read when first needed, see FolderPage). Throws
 * DocsFolderError with every problem found; never returns a half-read folder.
 */
export async function readDocsFolder(dir: string): Promise<DocsSetOnDisk> {
  const root = resolve(dir);
  const info = await stat(root).catch(() => null);
  if (!info) throw new DocsFolderError(root, ['there is no such folder']);
  if (!info.isDirectory()) throw new DocsFolderError(root, ['it is a file, not a folder']);
  const stamp = await manifestStamp(root);
  const raw = await readFile(join(root, MANIFEST_NAME), 'utf8').catch(() => null);
  if (raw === null || stamp === null) {
    // Unzipping often makes one folder more than expected: name the folder below that is a docs folder.
    const inner = await folderBelowWithManifest(root);
    throw new DocsFolderError(root, [inner ? `it has no ${MANIFEST_NAME}, but the folder in it ${inner} has: give that folder` : `it has no ${MANIFEST_NAME}: export "Docs for agents" from Scout's Output tab, or run scout generate <site> --out <folder> --for-agents`]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new DocsFolderError(root, [`${MANIFEST_NAME} is not valid JSON (${(error as Error).message})`]);
  }
  const problems = manifestProblems(parsed);
  if (problems.length) throw new DocsFolderError(root, problems);
  const manifest = parsed as DocsManifest;

  const missing: string[] = [];
  const listed = await filesUnder(root);
  const pages: FolderPage[] = [];
  await Promise.all(
    manifest.pages.map(async (page, index) => {
      // Not in the walk's list (a symbolic link to a folder, a name in another letter case): asked directly.
      if (!listed.has(page.path) && !(await stat(join(root, page.path)).catch(() => null))?.isFile()) missing.push(`the page file ${page.path} (${page.url}) is missing`);
      else pages[index] = lazyPage(page, join(root, page.path));
    }),
  );
  const llmsTxt = new Map<string, string>();
  const llmsFiles = manifest.files.filter((file: ManifestFile) => file.kind === 'llms');
  for (const file of llmsFiles) {
    const text = await readFile(join(root, file.path), 'utf8').catch(() => null);
    if (text === null) missing.push(`the llms.txt file ${file.path} is missing`);
    else llmsTxt.set(file.path, text);
  }
  if (!llmsFiles.length) missing.push(`${MANIFEST_NAME} lists no llms.txt file`);
  if (missing.length) throw new DocsFolderError(root, missing.sort());
  return { dir: root, manifest, pages: pages.filter(Boolean), llmsTxt, stamp };
}
