/**
 * The whole product pipeline without a browser: discovery first (as the side panel runs it when it
 * opens, so the crawl is seeded from the site's llms.txt files and sitemaps), the plan of a
 * crawl (where the documentation is, as the Generate tab shows it before the crawl), then the crawl runner
 * with the linkedom processor, then `generateForSite`. The command line (`scout generate`) and the
 * quality scorecard (bench/quality.ts) both run it; the caller brings the store (the memory store
 * in the CLI, Dexie in tests that compare the two) and the fetch (the network, a folder on disk, a
 * loopback server).
 */
import { linkedomAdapter } from '../convert/dom';
import type { CrawlJob, DiscoveryJob, JobState, PlanRecord } from '../store/db';
import type { Store } from '../store/store';
import { jobById } from '../store/jobs';
import { createCrawlJob } from '../crawl/jobs';
import { DEFAULT_PLAN_SITEMAP_URLS, planCrawl } from '../crawl/plan';
import { CrawlRunner } from '../crawl/runner';
import { normalizeSettings, type CrawlSettings } from '../crawl/settings';
import { runDiscoveryJob } from '../discovery/run-discovery';
import { nodePipeline } from '../pipeline/node';
import type { OutputSettings } from '../generate/output-settings';
import type { FullTextSink } from '../generate/output-files';
import { generateForSite, saveCuration } from '../generate/run-generate';
import { guardedFetch } from '../fetch/guarded-fetch';
import { getJob } from '../store/queries';
import { recordSiteOpened } from '../sites';
import { createNetworkGuard } from '../url/private-network';

export interface CrawlSiteInput {
  db: Store;
  startUrl: string;
  fetch: typeof fetch;
  /** Crawl settings over the extension's defaults (DEFAULT_SETTINGS). */
  settings?: Partial<CrawlSettings>;
  /** Output settings (budget, layout, lean links) over the extension's defaults; saved as the site's curation. */
  output?: Partial<OutputSettings>;
  /** The date the files say they were generated on. Default: now. */
  now?: Date;
  discoveryJobId?: string;
  /**
   * The pipeline's rendering step, as the extension runs it: docsify sites read from their
   * Markdown, client-rendered shells kept as fetched with the reason — Node has no tabs to render
   * them in. Off by default: the quality scorecard measures the plain processor.
   */
  rendering?: boolean;
  /** The crawl's progress in words (the job message the side panel shows), about once a second. */
  onProgress?: (message: string) => void;
  /** Told what a `docs` crawl will cover (the plan), before the crawl starts. */
  onPlan?: (plan: PlanRecord) => void;
  /** Handed each file's llms-full.txt as generation makes it (see `buildOutputFiles`), for a caller that writes them out. */
  fullTexts?: FullTextSink;
}

export interface CrawlSiteResult {
  discovery: DiscoveryJob;
  /** What the crawl was planned to cover (a `docs` crawl keeps to it; others use it to tell docs from the rest). */
  plan: PlanRecord;
  job: CrawlJob;
  crawlState: JobState;
  /** Null when the crawl stored no page. */
  generated: Awaited<ReturnType<typeof generateForSite>>;
  ms: { discovery: number; crawl: number; generate: number };
}

/** Discovery, crawl and generate for one site (see the module comment). */
export async function crawlSite(input: CrawlSiteInput): Promise<CrawlSiteResult> {
  const { db, startUrl } = input;
  // Whatever fetch the caller brings, nothing reaches the user's machine or network from a public start.
  const fetch = guardedFetch(input.fetch, createNetworkGuard(startUrl));
  const t0 = performance.now();
  input.onProgress?.(`Discovering llms.txt files, robots.txt and sitemaps for ${startUrl}…`);
  const discovery = await runDiscoveryJob(db, { jobId: input.discoveryJobId ?? `discovery-${crypto.randomUUID()}`, pageUrl: startUrl, fetch });
  if (discovery.message) input.onProgress?.(discovery.message);
  const settings = normalizeSettings(input.settings ?? {});
  // Between discovery and crawl, as the panel shows it before Generate, whatever the scope: a
  // `docs` crawl keeps to its boundary, and a host or site crawl still needs it to tell the pages
  // that are not documentation (page-writer.ts) and to name the docs. The crawl reuses it.
  const plan: PlanRecord = await planCrawl(db, startUrl, { fetch, dom: linkedomAdapter }, { maxSitemapUrls: Math.max(DEFAULT_PLAN_SITEMAP_URLS, settings.maxPages * 4) });
  input.onPlan?.(plan);
  const t1 = performance.now();
  const job = await createCrawlJob(db, startUrl, settings);
  const stopWatching = input.onProgress ? watchJob(db, job.id, input.onProgress) : () => undefined;
  let crawlState: JobState;
  try {
    const { process } = nodePipeline({ fetch, rendering: input.rendering });
    // Nobody can resume a paused job here: the command ends when the runner does.
    crawlState = await new CrawlRunner({ db, fetch, process, resumable: false }, job.id).run();
  } finally {
    stopWatching();
  }
  const ended = (await getJob(db, job.id, 'crawl')) ?? job;
  if (ended.message) input.onProgress?.(ended.message);
  const t2 = performance.now();
  if (input.output) {
    await recordSiteOpened(db, startUrl);
    await saveCuration(db, job.origin, { output: input.output });
  }
  // Generation runs as one block of work, seconds long on a large site: said before it starts.
  const stored = ended.counters.stored ?? 0;
  if (stored > 0) input.onProgress?.(`Generating llms.txt and llms-full.txt from ${stored.toLocaleString('en')} ${stored === 1 ? 'page' : 'pages'}…`);
  const generated = await generateForSite(db, job.origin, input.now ?? new Date(), input.fullTexts ? { fullTexts: input.fullTexts } : {});
  const t3 = performance.now();
  return { discovery, plan, job: ended, crawlState, generated, ms: { discovery: t1 - t0, crawl: t2 - t1, generate: t3 - t2 } };
}

/** Calls `report` with the job's message whenever it changed, once a second, until stopped. */
function watchJob(db: Store, jobId: string, report: (message: string) => void): () => void {
  let last = '';
  let stopped = false;
  const timer = setInterval(() => {
    void jobById(db, jobId).then((job) => {
      if (!stopped && job?.message && job.message !== last) report((last = job.message));
    });
  }, 1000);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
