/**
 * The files to publish from a generated version, by their path on the site: the root llms.txt
 * and llms-full.txt, and each nested llms.txt with the llms-full.txt beside it — exactly what the
 * Output tab's zip holds (without the per-page Markdown). The command line writes them to a folder.
 */
import { sitePath } from '../generate/export';
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

/** Every file of the layout, each llms.txt followed by its llms-full.txt, parents first. */
export function filesToPublish(files: OutputFiles, fullText: string, origin: string): PublishedFile[] {
  const out: PublishedFile[] = [];
  const seen = new Set<string>();
  const add = (file: PublishedFile) => {
    // Two files on one path would overwrite each other; the zip keeps the first too.
    if (!file.relativePath || seen.has(file.relativePath)) return;
    seen.add(file.relativePath);
    out.push(file);
  };
  for (const file of files.files) {
    add({ path: file.path, url: file.url, relativePath: sitePath(file.path), kind: 'llms', text: file.text, listed: file.listed, pages: file.keys.length });
    add({ path: file.fullPath, url: file.fullUrl, relativePath: sitePath(file.fullPath), kind: 'llms-full', text: fileFullText(fullText, files, file, origin) });
  }
  return out;
}
