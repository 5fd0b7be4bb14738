import type { ArtifactRecord, CrawlJob, PageRecord } from '../store/db';
import type { Store } from '../store/store';
import { cachedDescriptions } from '../describe/run-describe';
import { siteSummaryKey } from '../describe/site-summary';
import { crawledHeading, generateWithFull } from './generate';
import { chromeLearner, chromeStripper, isGenerated } from './boilerplate';
import { coveringLlmsName } from './llms-name';
import { BodyCounts, type StoredCounts } from './body-counts';
import { buildOutputFiles, type FullTextSink, type OutputFiles } from './output-files';
import { normalizeOutputSettings } from './output-settings';
import { segmentCounter } from './segment-count';
import { describeVariant } from '../url/variants';
import type { Curation, GeneratedOutput, SourcePage } from './types';
import type { ChromeModel } from '../store/records/generate';
import { addVersion } from '../store/artifacts';
import { withTextPieces } from '../store/text-pieces';
import { descriptionText } from '../store/descriptions';
import { type CountUpdate, keepPageCounts, type PageHead, storedPagesTwice } from '../store/page-outputs';
import { planFor } from '../store/plans';
import { latestCrawlWithPages } from '../store/queries';
import { siteByOrigin, updateSite } from '../store/sites';

/** Versions kept per site and kind; older ones are dropped (each llms-full can be megabytes). */
export const KEEP_VERSIONS = 5;

/**
 * Generates the site's llms.txt and llms-full.txt from its latest crawl with the
 * saved curation, lays out the files to publish (flat, or nested over the size budget), and
 * stores all three as a new version. Token counts are computed once per page body and kept on
 * the page, so re-generating after a curation change is quick.
 */
export async function generateForSite(db: Store, origin: string, now = new Date(), options: { refreshJobId?: string; descriptionsBy?: string | null; fullTexts?: FullTextSink } = {}): Promise<{ version: number; output: GeneratedOutput; files: OutputFiles } | null> {
  const started = Date.now();
  const job = await latestCrawlWithPages(db, origin);
  if (!job) return null;
  const site = await siteByOrigin(db, origin);
  // Two passes over the pages, a batch at a time: the first learns the site's chrome, the second
  // keeps each page with the chrome already taken off, never beside its copy as crawled. How often
  // the store reads them is its own (storedPagesTwice): the CLI's never holds the site's text.
  const generated = isGenerated(site?.curation);
  const stored = storedPagesTwice(db, job.id, PAGE_BATCH);
  const chrome = await learnStoredChrome(stored, generated);
  const strip = chromeStripper(chrome);
  const read: Array<{ head: PageHead; source: Omit<SourcePage, 'description'> }> = [];
  await stored.second((p) => {
    const source = toSource(p);
    // A page left out of both files has its row read, never its text.
    read.push({ head: withoutMarkdown(p), source: generated(p) ? { ...source, markdown: strip(p.markdown), crawledHeading: crawledHeading(p.markdown) } : { ...source, markdown: '' } });
  });
  const pages = read.map((r) => r.head);
  // AI descriptions (when the user turned them on) replace the pages' own, page by page; a page
  // whose text changed since it was described has no cached one and keeps its own until described again.
  const ai = options.descriptionsBy ? await cachedDescriptions(db, pages, options.descriptionsBy) : new Map<string, string>();
  let sources: SourcePage[] | undefined = read.map(({ head, source }) => ({ ...source, description: ai.get(head.key) ?? head.description }));
  read.length = 0;
  const summary = options.descriptionsBy ? await descriptionText(db, siteSummaryKey(origin, options.descriptionsBy)) : undefined;
  // Plain bodies and their lean-link variants share most of their text: each distinct segment is tokenized once.
  const count = segmentCounter();
  // A crawl of a wider scope (host, site) has no boundary of its own; the plan the panel made for
  // its start page before it started still knows the docs' name and home.
  const plan = job.boundary ? undefined : await planFor(db, job.startUrl);
  const docs = docsOf(plan?.state === 'done' && plan.boundary ? { startUrl: job.startUrl, boundary: plan.boundary } : job);
  // Without the boundary's name, the site's own llms.txt may still name its docs.
  const llmsName = docs.docsName ? undefined : await coveringLlmsName(db, origin, job.startUrl);
  // llms-full.txt is kept as the pieces it was made of, with where each body is (`full`): the
  // files are laid out from the bodies and the text is stored piece by piece where the store
  // can, so it is never joined beside the bodies it holds (tens of MB on a large site).
  const { output, full } = generateWithFull({ startUrl: job.startUrl, pages: sources, nav: job.nav, curation: site?.curation, generatedAt: now, summary, countTokens: count, chrome, ...docs, ...(llmsName ? { llmsName } : {}) });
  sources = undefined;
  // The files to publish: flat, or nested per section over the budget, each with its llms-full.txt counted.
  const counts = new BodyCounts(new Map(pages.flatMap((p) => (p.bodyCounts ? [[p.key, p.bodyCounts] as const] : []))), count);
  // The files say which version and language of the docs they describe (the crawl stays in one; see variants.ts).
  const variant = describeVariant(job.startUrl);
  const model = variant ? { ...output, details: `${output.details} Describes ${variant} of the docs.` } : output;
  const files = buildOutputFiles({ model, flatText: output.llmsTxt, fullText: full, origin, settings: normalizeOutputSettings(site?.curation?.output), counts, plainCounts: output.fullTokens, ...(options.fullTexts ? { fullTexts: options.fullTexts } : {}) });
  await keepCounts(db, job.id, pages, counts.kept(), output.fullTokens);

  const version = await addVersion(db, origin, KEEP_VERSIONS, (next) => {
    const base = { origin, version: next, jobId: job.id, createdAt: now.getTime(), buildMs: Date.now() - started, ...(options.refreshJobId ? { refreshJobId: options.refreshJobId } : {}) };
    const model = { title: output.title, summary: output.summary, sections: output.sections, notDocs: output.notDocs };
    const rows: ArtifactRecord[] = [
      { ...base, kind: 'llms', text: output.llmsTxt, tokens: output.tokens.llmsTxt, model },
      withTextPieces({ ...base, kind: 'llms-full', text: output.llmsFullTxt, tokens: output.tokens.llmsFullTxt }, full.pieces),
      // The chrome learned for llms-full.txt goes with the version: what serves a stored page strips the same frame.
      { ...base, kind: 'files', text: files.files[0]?.text ?? output.llmsTxt, tokens: files.files[0]?.tokens ?? output.tokens.llmsTxt, files: { ...files, chrome: output.chrome } },
    ];
    return rows;
  });
  return { version, output, files };
}

/**
 * Keeps the token counts this generation made on their pages, so the next one — a curation
 * change — skips them. The pages were read outside any transaction and a refresh may have
 * rewritten some since: only the count fields are written, and only on a page whose text is still
 * the one counted (a count of the old text would be wrong for the new, and the refresh's Markdown
 * and validators must stand).
 */
async function keepCounts(db: Store, jobId: string, read: PageHead[], kept: Map<string, StoredCounts>, fullTokens: GeneratedOutput['fullTokens']): Promise<void> {
  const updates: CountUpdate[] = [];
  for (const p of read) {
    const changes: Pick<PageRecord, 'bodyCounts' | 'fullTokens'> = {};
    const used = kept.get(p.key);
    if (used && JSON.stringify(used) !== JSON.stringify(p.bodyCounts)) changes.bodyCounts = used;
    const fresh = fullTokens.get(p.key);
    if (fresh && JSON.stringify(fresh) !== JSON.stringify(p.fullTokens)) changes.fullTokens = fresh;
    if (changes.bodyCounts || changes.fullTokens) updates.push({ key: p.key, contentHash: p.contentHash, changes });
  }
  await keepPageCounts(db, jobId, updates);
}

/** Saves the user's review choices for a site; the caller regenerates. */
export async function saveCuration(db: Store, origin: string, curation: Curation): Promise<void> {
  await updateSite(db, origin, { curation });
}

// Pages read per batch: a few dozen pages' text at a time, few enough reads of the store.
const PAGE_BATCH = 64;

/**
 * The chrome of the crawl's pages that `generated` keeps, learned a batch of pages at a time. Its
 * own function, so that the learner's counts of every block on the site go when it returns.
 */
async function learnStoredChrome(stored: ReturnType<typeof storedPagesTwice>, generated: (page: PageRecord) => boolean): Promise<ChromeModel> {
  const learner = chromeLearner();
  await stored.first((page) => {
    if (generated(page)) learner.add(page.markdown);
  });
  return learner.model();
}

function withoutMarkdown({ markdown: _, ...head }: PageRecord): PageHead {
  return head;
}

function toSource(p: PageRecord) {
  return { key: p.key, url: p.url, finalUrl: p.finalUrl, title: p.title, description: p.description, siteName: p.siteName, markdown: p.markdown, depth: p.depth, format: p.format, twinUrl: p.twinUrl, state: p.state, fullTokens: p.fullTokens, empty: p.empty, notDocs: p.notDocs };
}

/**
 * The documentation's name and home from the crawl's boundary: the home is the root that holds
 * the start page (the most specific one), else the first root.
 */
export function docsOf(job: Pick<CrawlJob, 'startUrl' | 'boundary'>): { docsName?: string; docsHome?: string } {
  const boundary = job.boundary;
  if (!boundary) return {};
  let start: URL | undefined;
  try {
    start = new URL(job.startUrl);
  } catch {
    // No start to place: the first root is the home.
  }
  const holding = boundary.roots
    .filter((root) => start && root.origin === start.origin && start.pathname.startsWith(root.path))
    .sort((a, b) => b.path.length - a.path.length);
  const home = holding[0] ?? boundary.roots[0];
  return {
    ...(boundary.name?.trim() ? { docsName: boundary.name.trim() } : {}),
    ...(home ? { docsHome: `${home.origin}${home.path}` } : {}),
  };
}
