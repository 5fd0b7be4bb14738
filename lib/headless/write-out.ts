/**
 * Writes files below an output folder (`scout generate --out`) so that none lands outside it.
 * Their paths come from the crawled site, so each is checked again here whoever made it: every
 * name keeps to safe-path.ts, and every folder on the way must be a real folder inside the output
 * folder — a link inside it to elsewhere (`--out public` where `public/docs` links to `/etc`) is
 * not followed, and the file under it is left out with the reason. A file is written under a new
 * temporary name in its checked folder (created exclusively, so it cannot be a link) and renamed
 * onto its name: a link already at that name is replaced, never written through, and a reader
 * never sees half a file. Node only (node:fs).
 *
 * The checks are made just before each write; a local process racing to swap folders for links
 * between check and write is out of scope: the attacker here is a web site, not a user of the machine.
 */
import { lstat, mkdir, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { MAX_PATH_CHARS, PathSet, segmentProblem } from '../generate/safe-path';

export interface FileToWrite {
  /** '/'-separated, relative to the output folder ("library/llms.txt"). */
  relativePath: string;
  /**
   * The file's content: text (written as UTF-8) or bytes, or what makes it, called just before the
   * file is written (so a caller need not hold every file's content at once): text, bytes, or
   * bytes a slice at a time (a long file need never be in memory whole).
   */
  text: string | Uint8Array | (() => string | Uint8Array | Iterable<Uint8Array>);
}

export interface WriteResult {
  /** Files written, in the order given, by their path below `outDir` as given. */
  written: Array<{ relativePath: string; file: string }>;
  leftOut: Array<{ relativePath: string; reason: string }>;
}

/** Why the output folder cannot be used at all, or null; checked before any crawl so a bad --out writes nothing. */
export async function outFolderProblem(outDir: string): Promise<string | null> {
  const info = await stat(outDir).catch(() => null);
  if (info && !info.isDirectory()) return `${outDir} exists and is not a folder`;
  return null;
}

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** Why `relativePath` may not be written, by its names alone; null when it may. */
function nameProblem(relativePath: string): string | null {
  if (relativePath.length > MAX_PATH_CHARS) return `its path has ${relativePath.length} characters, over the ${MAX_PATH_CHARS} a path can have to unpack on Windows`;
  for (const name of relativePath.split('/')) {
    const problem = segmentProblem(name);
    if (problem) return `its path has ${problem}`;
  }
  return null;
}

/**
 * The folder for `relativePath` made (one level at a time) and checked: each level a folder, or a
 * link to a folder, whose real place is inside `root`. The folder's real path, or the reason not.
 */
async function checkedFolder(root: string, relativePath: string): Promise<{ folder: string } | { reason: string }> {
  const names = relativePath.split('/').slice(0, -1);
  let current = root;
  for (let i = 0; i < names.length; i++) {
    const next = join(current, names[i] ?? '');
    const shown = names.slice(0, i + 1).join('/');
    let info = await lstat(next).catch(() => null);
    if (!info) {
      await mkdir(next).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      info = await lstat(next);
    }
    if (info.isSymbolicLink()) {
      const target = await realpath(next).catch(() => null);
      if (target === null) return { reason: `its folder ${shown} is a link to nothing` };
      if (!inside(root, target)) return { reason: `its folder ${shown} is a link to ${target}, outside the output folder` };
      if (!(await stat(target)).isDirectory()) return { reason: `its folder ${shown} is a link to a file` };
      current = target;
    } else if (info.isDirectory()) {
      current = next;
    } else {
      return { reason: `${shown} is a file, where its folder would be` };
    }
  }
  return { folder: current };
}

/** Writes `files` below `outDir` (made if missing); a file that cannot be written safely is left out with the reason, never the whole run. */
export async function writeFilesInside(outDir: string, files: FileToWrite[]): Promise<WriteResult> {
  await mkdir(outDir, { recursive: true });
  const root = await realpath(outDir);
  const result: WriteResult = { written: [], leftOut: [] };
  const taken = new PathSet();
  for (const file of files) {
    const problem = nameProblem(file.relativePath) ?? taken.claim(file.relativePath);
    if (problem) {
      result.leftOut.push({ relativePath: file.relativePath, reason: problem });
      continue;
    }
    const name = file.relativePath.split('/').pop() ?? '';
    const place = await checkedFolder(root, file.relativePath).catch((error: Error) => ({ reason: `its folder could not be made: ${error.message}` }));
    if ('reason' in place) {
      result.leftOut.push({ relativePath: file.relativePath, reason: place.reason });
      continue;
    }
    const target = join(place.folder, name);
    const existing = await lstat(target).catch(() => null);
    if (existing?.isDirectory()) {
      result.leftOut.push({ relativePath: file.relativePath, reason: `${file.relativePath} is a folder` });
      continue;
    }
    const temporary = join(place.folder, `.scout-${crypto.randomUUID().slice(0, 8)}.tmp`);
    try {
      // 'wx': created new, so never a link someone left at that name.
      await writeFile(temporary, typeof file.text === 'function' ? file.text() : file.text, { flag: 'wx' });
      await rename(temporary, target);
      result.written.push({ relativePath: file.relativePath, file: join(outDir, file.relativePath) });
    } catch (error) {
      await rm(temporary, { force: true });
      result.leftOut.push({ relativePath: file.relativePath, reason: `it could not be written: ${(error as Error).message}` });
    }
  }
  return result;
}
