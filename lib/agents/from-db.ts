/**
 * The docs folder of a generated version, from the database: the extension's Output tab (one
 * button, zipped) and `scout generate --for-agents` (written to --out) both make it here, so the
 * two are the same layout. The pages are those the version's llms.txt lists, read from its crawl.
 */
import type { ArtifactRecord } from '../store/db';
import type { Store } from '../store/store';
import { fileFullText, type OutputFiles } from '../generate/output-files';
import { pagesInState } from '../store/page-outputs';
import { getJob, latestArtifact, latestJob } from '../store/queries';
import { outputChrome } from '../output/served-page';
import { siteByOrigin } from '../store/sites';
import { buildDocsFolder, type DocsFolder, type DocsFolderInput } from './docs-folder';

export interface FolderArtifacts {
  llms: ArtifactRecord;
  full?: ArtifactRecord;
  /** The version's layout of files (its `files` artifact); a version made before layouts has one root file. */
  layout?: OutputFiles;
}

/** The llms.txt files of the version by their path on the site, each followed by its llms-full.txt. */
function siteFiles(origin: string, { llms, full, layout }: FolderArtifacts): DocsFolderInput['siteFiles'] {
  if (!layout) {
    return [
      { path: '/llms.txt', url: `${origin}/llms.txt`, kind: 'llms', text: llms.text },
      ...(full ? [{ path: '/llms-full.txt', url: `${origin}/llms-full.txt`, kind: 'llms-full' as const, text: full.text }] : []),
    ];
  }
  return layout.files.flatMap((file) => [
    { path: file.path, url: file.url, kind: 'llms' as const, text: file.text },
    ...(full ? [{ path: file.fullPath, url: file.fullUrl, kind: 'llms-full' as const, text: fileFullText(full.text, layout, file, origin) }] : []),
  ]);
}

/**
 * The docs folder for the site's version `artifacts` (default: the latest). Null when the site has
 * no generated version or its crawl's pages are gone.
 */
export async function docsFolderFromDb(db: Store, origin: string, options: { scoutVersion: string; now?: Date; artifacts?: FolderArtifacts }): Promise<DocsFolder | null> {
  let artifacts = options.artifacts;
  if (!artifacts) {
    const llms = await latestArtifact(db, origin, 'llms');
    if (!llms) return null;
    const [full, files] = await Promise.all([latestArtifact(db, origin, 'llms-full'), latestArtifact(db, origin, 'files')]);
    artifacts = { llms, ...(full?.version === llms.version ? { full } : {}), ...(files?.version === llms.version && files.files ? { layout: files.files } : {}) };
  }
  const { llms } = artifacts;
  const job = await getJob(db, llms.jobId, 'crawl');
  if (!job || !llms.model) return null;
  const [pages, refresh, site] = await Promise.all([pagesInState(db, job.id), latestJob(db, origin, 'refresh', 'done'), siteByOrigin(db, origin)]);
  // The version's own chrome model when it kept one, so each page file is the page as its llms-full.txt has it.
  const chrome = artifacts.layout?.chrome ?? (await outputChrome(db, job.id, pages, site?.curation));
  const roots = job.boundary?.roots.map((root) => `${root.origin}${root.path}`);
  return buildDocsFolder({
    name: llms.model.title,
    ...(llms.model.summary ? { summary: llms.model.summary } : {}),
    origin,
    startUrl: job.startUrl,
    scope: { mode: job.settings.scope, ...(roots?.length ? { roots } : {}) },
    scoutVersion: options.scoutVersion,
    crawledAt: job.startedAt ?? job.createdAt,
    ...(refresh?.endedAt && refresh.endedAt > (job.endedAt ?? 0) ? { refreshedAt: refresh.endedAt } : {}),
    generatedAt: (options.now ?? new Date()).getTime(),
    sections: llms.model.sections,
    pages: pages.map((page) => ({ key: page.key, url: page.url, finalUrl: page.finalUrl, title: page.title, markdown: page.markdown, fetchedAt: page.fetchedAt })),
    siteFiles: siteFiles(origin, artifacts),
    chrome,
  });
}
