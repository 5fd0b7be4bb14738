/**
 * What the Output tab shows and exports, from a version's artifacts: the files to publish (the
 * stored layout, or just the flat llms.txt for versions made before layouts existed) and each
 * one's llms-full.txt, cut from the site's.
 */
import type { ArtifactRecord } from '@/lib/store/db';
import type { PackScope } from '@/lib/generate/context-pack';
import type { NestedFile } from '@/lib/generate/nested';
import { fileFullText, type OutputFile, type OutputFiles } from '@/lib/generate/output-files';

/** The files of the layout, parents first; a single root for a version without one. */
export function publishedFiles(origin: string, llms: ArtifactRecord, full?: ArtifactRecord, files?: ArtifactRecord): OutputFile[] {
  if (files?.files) return files.files.files;
  const keys = (llms.model?.sections ?? []).flatMap((s) => s.entries.map((e) => e.key));
  return [{
    path: '/llms.txt', url: `${origin}/llms.txt`, fullPath: '/llms-full.txt', fullUrl: `${origin}/llms-full.txt`,
    title: llms.model?.title ?? '', ...(llms.model?.summary ? { summary: llms.model.summary } : {}), depth: 0, text: llms.text, keys, listed: keys.length,
    chars: llms.text.length, tokens: llms.tokens, full: { chars: full?.text.length ?? 0, tokens: full?.tokens ?? 0, pages: keys.length },
  }];
}

/** A file's llms-full.txt text: the site's own for the root of an old version, else cut from it for this file. */
export function fullTextOf(origin: string, file: NestedFile, full: ArtifactRecord, files?: OutputFiles): string {
  return files ? fileFullText(full.text, files, file, origin) : full.text;
}

/** What a context pack can be made of: the whole site, each of its sections, each nested file below them. */
export function packScopes(llms: ArtifactRecord, files: OutputFile[]): Array<{ id: string; label: string; scope: PackScope }> {
  const root = files[0];
  if (!root) return [];
  const scopes = [{ id: root.path, label: 'Whole site', scope: root as PackScope }];
  for (const section of llms.model?.sections ?? []) {
    scopes.push({ id: `section:${section.id}`, label: `Section: ${section.name}`, scope: { title: `${root.title}: ${section.name}`, url: root.url, keys: section.entries.map((e) => e.key) } });
  }
  // Files below the root's own sections (a section's file holds the same pages as the section).
  for (const file of files) if (file.depth >= 2) scopes.push({ id: file.path, label: `${'  '.repeat(file.depth - 1)}${file.path}`, scope: file });
  return scopes;
}
