/**
 * The name a site gives its docs in its own llms.txt: the H1 of the file that covers the start
 * page (spec v2: a file covers the URLs under its folder; the most specific one wins).
 */
import type { Store } from '../store/store';
import { findingsOfRun } from '../store/discovered';
import { latestJob } from '../store/queries';
import { coveringFile } from '../url/boundary';
import { oneLine } from './text';

/** Of the files found (url, H1), the H1 of the most specific titled one whose folder holds `startUrl`. */
export function coveringName(files: Array<{ url: string; title?: string }>, startUrl: string): string | undefined {
  return oneLine(coveringFile(files.filter((file) => oneLine(file.title)), startUrl)?.title) || undefined;
}

/** The H1 of the llms.txt covering `startUrl` in the site's newest finished discovery, if it has one. */
export async function coveringLlmsName(db: Store, origin: string, startUrl: string): Promise<string | undefined> {
  const discovery = await latestJob(db, origin, 'discovery', 'done');
  if (!discovery) return undefined;
  const files = (await findingsOfRun(db, discovery.id)).filter((file) => file.kind === 'llms' && file.status === 'found');
  return coveringName(files.map((file) => ({ url: file.finalUrl ?? file.url, title: file.title })), startUrl);
}
