import type { DescribeCounters, DescribeJob, JobState } from '../store/db';
import type { Store } from '../store/store';
import { cacheKey, describePages } from './describe-pages';
import type { DescribeResult, DescriptionCache, DescriptionProvider } from './types';
import { descriptionText, descriptionTexts, keepDescription } from '../store/descriptions';
import { createDescribeJob as addDescribeJob } from '../store/describe-jobs';
import { setJobFields } from '../store/jobs';
import { pagesInState } from '../store/page-outputs';
import { countPages, getJob, latestCrawlWithPages, updateJob } from '../store/queries';
import { chromeFor, servedMarkdown } from '../output/served-page';

const FALLBACKS_KEPT = 200;

/** Why a panel-run job ended when its panel stopped renewing its lease. */
export const PANEL_CLOSED = 'Stopped: the Scout panel writing them was closed. Run it again: descriptions already written are kept.';

/** The descriptions cache in IndexedDB: one row per content fingerprint, provider and prompt version. */
export function dexieCache(db: Store): DescriptionCache {
  return {
    get: (key) => descriptionText(db, key),
    put: (key, text) => keepDescription(db, key, text),
  };
}

/**
 * How many pages a describe job for the site would cover: the stored pages of the crawl the
 * job describes (the newest with pages, as for the outputs), so the panel's button and consent
 * count the same pages the worker sends, even after an empty or cancelled recrawl.
 */
export async function pagesToDescribe(db: Store, origin: string): Promise<number> {
  const crawl = await latestCrawlWithPages(db, origin);
  return crawl ? countPages(db, crawl.id) : 0;
}

/**
 * Creates a describe job for the site's latest crawl, or says why not. The checks and the new
 * row are one transaction, so two starts at once (two panels) make one job.
 */
export async function createDescribeJob(db: Store, origin: string, options: { leaseUntil?: number } = {}): Promise<DescribeJob | { error: string }> {
  // A job whose panel lease lapsed has no runner any more (the panel was closed): it ends, and this one starts.
  const made = await addDescribeJob(db, origin, PANEL_CLOSED, (crawl, now): DescribeJob => ({ id: crypto.randomUUID(), origin, kind: 'describe', state: 'running', createdAt: now, startedAt: now, crawlJobId: crawl.id, counters: {}, message: 'Writing descriptions…', ...(options.leaseUntil !== undefined ? { leaseUntil: options.leaseUntil } : {}) }));
  if (!('blocked' in made)) return made;
  if (made.blocked === 'no-crawl') return { error: 'Crawl the site first: descriptions are written for its stored pages.' };
  if (made.blocked === 'busy') return { error: `A ${made.active.kind} of this site is running; describe its pages when it is done.` };
  return { error: 'Descriptions for this site are already being written.' };
}

/**
 * Runs the provider over the crawl's stored pages. Counters move as pages settle;
 * pages that fall back keep their own description and are listed with the reason.
 * A stopped worker loses at most the calls in flight: finished descriptions are in
 * the cache, so running it again only asks for the rest.
 */
export async function runDescribeJob(db: Store, jobId: string, provider: DescriptionProvider, options: { concurrency: number; maxPages: number; signal?: AbortSignal }): Promise<JobState> {
  const job = await getJob(db, jobId, 'describe');
  if (!job) return 'failed';
  const pages = await pagesInState(db, job.crawlJobId);
  const counters: DescribeCounters = { total: pages.length, described: 0, cached: 0, fallback: 0 };
  const fallbacks: Array<{ url: string; reason: string }> = [];
  const urlOf = new Map(pages.map((p) => [p.key, p.url]));
  let lastWrite = 0;
  const progress = async (force = false) => {
    if (!force && Date.now() - lastWrite < 250) return;
    lastWrite = Date.now();
    await updateJob(db, jobId, 'describe', { counters: { ...counters }, fallbacks: fallbacks.slice(0, FALLBACKS_KEPT), message: `Describing · ${counters.described + counters.cached + counters.fallback} / ${counters.total} pages` });
  };
  const onResult = async (r: DescribeResult) => {
    if (r.source === 'ai') counters.described++;
    else if (r.source === 'cache') counters.cached++;
    else {
      counters.fallback++;
      fallbacks.push({ url: urlOf.get(r.key) ?? r.key, reason: r.reason ?? 'No description' });
    }
    await progress();
  };
  // The model reads each page as served: the site's repeated header and footer would take its
  // budget and tell it nothing about the page.
  const chrome = await chromeFor(db, { jobId: job.crawlJobId });
  await describePages(
    pages.map((p) => ({ key: p.key, title: p.title, url: p.url, markdown: servedMarkdown(chrome, p), contentHash: p.contentHash })),
    { provider, cache: dexieCache(db), concurrency: options.concurrency, maxPages: options.maxPages, signal: options.signal, onResult },
  );
  await progress(true);
  const state = options.signal?.aborted ? 'cancelled' : 'done';
  const words = `${counters.described} written · ${counters.cached} from earlier runs · ${counters.fallback} kept their own`;
  await setJobFields(db, jobId, { state, endedAt: Date.now(), message: state === 'done' ? `Descriptions: ${words}` : `Cancelled: ${words}` });
  return state;
}

/** AI descriptions for these pages from the cache (provider and prompt as now), by page key. */
export async function cachedDescriptions(db: Store, pages: Array<{ key: string; contentHash: string }>, providerId: string): Promise<Map<string, string>> {
  const texts = await descriptionTexts(db, pages.map((p) => cacheKey(p.contentHash, providerId)));
  const out = new Map<string, string>();
  texts.forEach((text, i) => {
    const page = pages[i];
    if (text !== undefined && page) out.set(page.key, text);
  });
  return out;
}
