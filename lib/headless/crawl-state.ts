/**
 * A crawl's database rows, saved beside a docs folder (`.scout/crawl.json.gz`) so that
 * `scout generate --refresh` can re-check its pages later the way the extension refreshes a crawl:
 * lib/refresh/ works on the database (each page's validators, content hash and Markdown, the
 * crawl's settings and navigation), and the command line's database lives only as long as one
 * run. Saved: the site (its curation), its jobs, the crawl's stored and removed pages, the plan,
 * discovery's findings, AI descriptions and the current version's outputs; not the crawl's queue
 * or link blocks (a refresh makes its own queue) nor older versions. Node only.
 *
 * The file comes from disk and may have been edited: it is parsed as JSON, checked for its format
 * and version, and its rows put into a fresh database — never run.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ArtifactRecord } from '../store/db';
import type { Store } from '../store/store';
import { putSiteRows, readSiteRows, type SiteRows } from '../store/site-state';
import { latestArtifact, latestCrawlWithPages } from '../store/queries';

export const CRAWL_STATE_PATH = '.scout/crawl.json.gz';
const FORMAT = 'llms-txt-scout/crawl-state';
const VERSION = 1;

/** Where the pages were fetched from: the network, or a built site on disk published at a URL. */
export type CrawlSource = { kind: 'url' } | { kind: 'folder'; baseUrl: string; cleanUrls: boolean };

export interface CrawlState extends SiteRows {
  format: typeof FORMAT;
  version: number;
  origin: string;
  source: CrawlSource;
}

/** The site's crawl as the gzipped JSON to save; null when it has no crawl with pages. */
export async function exportCrawlState(db: Store, origin: string, source: CrawlSource): Promise<Uint8Array | null> {
  const crawl = await latestCrawlWithPages(db, origin);
  if (!crawl) return null;
  const artifacts: ArtifactRecord[] = [];
  for (const kind of ['llms', 'llms-full', 'files'] as const) {
    const latest = await latestArtifact(db, origin, kind);
    if (latest) artifacts.push(latest);
  }
  // Only the crawl the pages belong to and the jobs around it: other crawls' rows are not saved.
  const state: CrawlState = { format: FORMAT, version: VERSION, origin, source, ...(await readSiteRows(db, origin, crawl.id, artifacts)) };
  return gzipSync(JSON.stringify(state));
}

export class CrawlStateError extends Error {
  override name = 'CrawlStateError';
}

const ARRAYS = ['sites', 'jobs', 'pages', 'plans', 'discovered', 'descriptions', 'artifacts'] as const;

/** The saved state read back, or a CrawlStateError saying what is wrong with it. */
export function parseCrawlState(gzipped: Uint8Array): CrawlState {
  let value: unknown;
  try {
    value = JSON.parse(gunzipSync(gzipped, { maxOutputLength: 2 ** 31 - 1 }).toString('utf8'));
  } catch (error) {
    throw new CrawlStateError(`it is not gzipped JSON (${(error as Error).message})`);
  }
  const state = value as Partial<CrawlState> | null;
  if (typeof state !== 'object' || state === null || state.format !== FORMAT) throw new CrawlStateError(`it is not Scout's crawl state (format "${String(state?.format)}")`);
  if (typeof state.version !== 'number' || state.version > VERSION) throw new CrawlStateError(`it is version ${String(state.version)}, newer than this Scout reads (${VERSION}): update Scout`);
  if (typeof state.origin !== 'string') throw new CrawlStateError('it names no site');
  const source = state.source as Partial<{ kind: string; baseUrl: unknown; cleanUrls: unknown }> | undefined;
  if (!(source?.kind === 'url' || (source?.kind === 'folder' && typeof source.baseUrl === 'string' && typeof source.cleanUrls === 'boolean'))) throw new CrawlStateError('it does not say where the pages came from');
  for (const key of ARRAYS) if (!Array.isArray(state[key])) throw new CrawlStateError(`its "${key}" is not a list`);
  return state as CrawlState;
}

/** Puts the saved rows into `db` (a new, empty database). */
export async function importCrawlState(db: Store, state: CrawlState): Promise<void> {
  await putSiteRows(db, state);
}
