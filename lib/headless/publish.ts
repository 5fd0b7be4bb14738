/**
 * The files to publish from a generated version, by their path on the site: the root llms.txt
 * and llms-full.txt, and each nested llms.txt with the llms-full.txt beside it — exactly what the
 * Output tab's zip holds (without the per-page Markdown). The command line writes them to a folder.
 */
import { PathSet } from '../generate/safe-path';
import { fileFullText, type OutputFiles } from '../generate/output-files';

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

/** Every file of the layout that can be written, each llms.txt followed by its llms-full.txt, parents first. */
export function filesToPublish(files: OutputFiles, fullText: string, origin: string): PublishedFile[] {
  return publishLayout(files, fullText, origin).files;
}

/**
 * `filesToPublish`, and the files left out with why: a path on the site that cannot be a file on
 * every system (safe-path.ts), or one that would land on another file. Never renamed: the llms.txt
 * above links to the file at its path on the site.
 */
export function publishLayout(files: OutputFiles, fullText: string, origin: string): { files: PublishedFile[]; leftOut: Array<{ path: string; reason: string }> } {
  const out: PublishedFile[] = [];
  const leftOut: Array<{ path: string; reason: string }> = [];
  const taken = new PathSet();
  const add = (file: Omit<PublishedFile, 'relativePath'>) => {
    const place = taken.placeSiteFile(file.path);
    // The same path twice is one file: the zip keeps the first too.
    if ('again' in place) return;
    if ('path' in place) out.push({ ...file, relativePath: place.path });
    else leftOut.push({ path: file.path, reason: place.reason });
  };
  for (const file of files.files) {
    add({ path: file.path, url: file.url, kind: 'llms', text: file.text, listed: file.listed, pages: file.keys.length });
    add({ path: file.fullPath, url: file.fullUrl, kind: 'llms-full', text: fileFullText(fullText, files, file, origin) });
  }
  return { files: out, leftOut };
}
