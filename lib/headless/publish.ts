/**
 * The files to publish from a generated version, by their path on the site: the root llms.txt
 * and llms-full.txt, and each nested llms.txt with the llms-full.txt beside it — exactly what the
 * Output tab's zip holds (without the per-page Markdown). The command line writes them to a folder.
 */
import { PathSet } from '../generate/safe-path';
import { fileFullText, type OutputFile, type OutputFiles } from '../generate/output-files';

export interface PublishedFile {
  /** Path on the site, e.g. "/llms.txt", "/library/llms-full.txt". */
  path: string;
  url: string;
  /** Path relative to the site's root folder ("library/llms-full.txt"): where to write it. */
  relativePath: string;
  kind: 'llms' | 'llms-full';
  text: string;
  /** For llms.txt files: pages it lists itself and pages under it. */
  listed?: number;
  pages?: number;
}

/** A file of the layout whose text is made when asked: a site's full texts are written one at a time, never held together. */
export type LaidOutFile = Omit<PublishedFile, 'text'> & { text: () => string };

/** Every file of the layout that can be written, each llms.txt followed by its llms-full.txt, parents first. */
export function filesToPublish(files: OutputFiles, fullText: string, origin: string): PublishedFile[] {
  return publishLayout(files, (file) => fileFullText(fullText, files, file, origin)).files.map((file) => ({ ...file, text: file.text() }));
}

/**
 * The files of the layout, and the files left out with why: a path on the site that cannot be a
 * file on every system (safe-path.ts), or one that would land on another file. Never renamed: the
 * llms.txt above links to the file at its path on the site. `fullTextOf` makes a file's
 * llms-full.txt (`fileFullText`, or the text generation already made: `buildOutputFiles`'s
 * `fullTexts`); it is called when the file's text is asked for.
 */
export function publishLayout(files: OutputFiles, fullTextOf: (file: OutputFile, fileIndex: number) => string): { files: LaidOutFile[]; leftOut: Array<{ path: string; reason: string }> } {
  const out: LaidOutFile[] = [];
  const leftOut: Array<{ path: string; reason: string }> = [];
  const taken = new PathSet();
  const add = (file: Omit<LaidOutFile, 'relativePath'>) => {
    const place = taken.placeSiteFile(file.path);
    // The same path twice is one file: the zip keeps the first too.
    if ('again' in place) return;
    if ('path' in place) out.push({ ...file, relativePath: place.path });
    else leftOut.push({ path: file.path, reason: place.reason });
  };
  files.files.forEach((file, i) => {
    add({ path: file.path, url: file.url, kind: 'llms', text: () => file.text, listed: file.listed, pages: file.keys.length });
    add({ path: file.fullPath, url: file.fullUrl, kind: 'llms-full', text: () => fullTextOf(file, i) });
  });
  return { files: out, leftOut };
}
