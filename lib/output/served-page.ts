/**
 * A stored page as Scout serves it: its Markdown without the site chrome that generation found
 * repeated across the crawl's pages (lib/generate/boilerplate.ts). The page record itself is
 * never rewritten (a refresh compares it with the page as fetched again); the chrome is learned
 * once per generated version and kept on its `files` artifact, and everything that shows, searches,
 * describes or exports a page strips that same frame, so they all agree with llms-full.txt.
 */
import { chromeStripper, isChromeModel, learnSiteChrome, type ChromeModel } from '../generate/boilerplate';
import type { Curation } from '../generate/types';
import { versionsNewestFirst } from '../store/artifacts';
import type { Store } from '../store/store';
import { getJob } from '../store/queries';

export type { ChromeModel } from '../generate/boilerplate';

/** Which crawl's chrome: a site's latest generated version, or the newest version made from one crawl. */
export type ChromeOf = { origin: string } | { jobId: string };

/**
 * The chrome model of the latest version generated from that crawl (for an origin, its latest
 * version), or undefined when there is none: no version yet, one made before models were kept, or
 * by another version of the strip. Undefined serves the page as stored.
 */
export async function chromeFor(db: Store, of: ChromeOf): Promise<ChromeModel | undefined> {
  let origin: string;
  if ('origin' in of) origin = of.origin;
  else {
    const job = await getJob(db, of.jobId, 'crawl');
    if (!job) return undefined;
    origin = job.origin;
  }
  const versions = await versionsNewestFirst(db, origin, 'files');
  const version = 'jobId' in of ? versions.find((v) => v.jobId === of.jobId) : versions[0];
  const model = version?.files?.chrome;
  return isChromeModel(model) ? model : undefined;
}

/** The page's Markdown as served: without the chrome `model` learned, or as stored without one. */
export function servedMarkdown(model: ChromeModel | undefined, page: { markdown: string }): string {
  return chromeStripper(model)(page.markdown);
}

/**
 * The chrome to strip from crawl `jobId`'s pages when exporting them: the model its latest version
 * kept, else (a version made before models were kept) learned once from `pages` as generation
 * learns it, from the same pages (`learnSiteChrome`), so an export never strips a different frame.
 */
export async function outputChrome(db: Store, jobId: string, pages: Parameters<typeof learnSiteChrome>[0], curation?: Curation): Promise<ChromeModel> {
  return (await chromeFor(db, { jobId })) ?? learnSiteChrome(pages, curation);
}

/**
 * What a page preview shows: the page as served, or with `asStored` the record as the crawl kept
 * it; `cut` is how many characters of chrome serving takes off (0: the two are the same, and
 * there is nothing to toggle).
 */
export function previewOf(model: ChromeModel | undefined, page: { markdown: string }, asStored: boolean): { text: string; cut: number } {
  const served = servedMarkdown(model, page);
  const cut = served === page.markdown ? 0 : page.markdown.length - served.length;
  return { text: asStored ? page.markdown : served, cut };
}
