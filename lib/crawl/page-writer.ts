import type { CrawlJob, FrontierRecord, FrontierState, PageRecord } from '../store/db';
import type { Store } from '../store/store';
import { getJob } from '../store/queries';
import { pageHashes, writePageBatch, type PageBatch } from '../store/pages';
import { planFor } from '../store/plans';
import { BatchQueue } from './batch-queue';
import { mergeNav } from './nav-merge';
import type { Frontier, Prepared } from './frontier';
import { toEntries, type ClassifyContext } from './links';
import { markEmpty } from './empty-page';
import { judgeNotDocs, notDocsContext, type NotDocsContext } from './not-docs';
import { frontierStateOf, type FetchedPage, type PageOutcome } from './processor';

interface Item {
  entry: FrontierRecord;
  outcome: PageOutcome;
}

/** What a crawl's progress counts, as the writer sees them: see PageWriter.progress. */
export interface WriterView {
  counts: Record<FrontierState, number>;
  stored: number;
  duplicates: number;
  rendered: number;
  empty: number;
  notDocs: number;
  storeMs: number;
}

/** The writer's page counts (see PageWriter.stored and the rest). */
type PageTally = Pick<WriterView, 'stored' | 'duplicates' | 'rendered' | 'empty' | 'notDocs'>;

/** Counts one page of a batch as `write` records it; `after` predicts the same counts by the same rule. */
function tally(into: PageTally, page: FetchedPage, duplicate: boolean): void {
  if (duplicate) into.duplicates++;
  else into.stored++;
  if (page.rendered) into.rendered++;
  if (page.empty && !duplicate) into.empty++;
  if (page.notDocs && !duplicate) into.notDocs++;
}

/** Pages written per transaction: enough to amortise a commit, few enough to keep progress smooth. */
const BATCH = 32;

/**
 * Writes crawl results in batches. One transaction per batch stores the pages,
 * marks their frontier entries, and queues the links they found — so a batch
 * is all-or-nothing and a killed worker leaves each URL either done (with its
 * page and links) or in-flight (fetched again on resume), never half-written.
 */
export class PageWriter {
  private readonly batches = new BatchQueue<Item>(BATCH, (batch) => this.write(batch), (error) => this.onFailure(error), () => this.onWritten());
  /** The job's navigation tree as merged so far (loaded on first use; only this writer changes it). */
  private nav: NonNullable<CrawlJob['nav']> | undefined;
  /**
   * Link targets already classified in this run. Docs pages repeat the same
   * sidebar links on every page; normalizing and scoping them again each time
   * was the writer's main cost.
   */
  private readonly seenLinks = new Set<string>();
  /**
   * Content hashes of this job's pages already in the database (any state). Only a hash found
   * here needs the indexed duplicate look-up, which otherwise cost an IndexedDB round trip in
   * every batch's transaction while finding nothing on almost every page.
   */
  private readonly knownHashes = new Set<string>();
  stored = 0;
  duplicates = 0;
  /** Pages whose text came from rendering them in a tab (lib/render/); the runner seeds it on resume. */
  rendered = 0;
  /** Stored pages with no readable text (marked empty); the runner seeds it on resume. */
  empty = 0;
  /** Stored pages the evidence says are not documentation (lib/crawl/not-docs.ts); carried on from the job's counters. */
  notDocs = 0;
  /** The job's boundary, for the not-documentation judgement (loaded by init). */
  private notDocsContext: NotDocsContext = notDocsContext(undefined);
  /** A `docs` crawl does not walk on from a page that is not documentation (a blog's or a forum's pagination). */
  private followNotDocs = true;
  /** Time spent in write transactions, for the benchmark's time split. */
  storeMs = 0;
  /**
   * The job's progress (counters and message) to write in a batch's own transaction, made from the
   * counts as they will be once the batch commits (`after`); undefined when none is due. Written
   * with the batch, progress costs the job no transaction of its own — each a get and a put of the
   * job record and a commit, about 1.7 ms of the browser process's IndexedDB per transaction in
   * Chromium — and the counts it shows are the ones the batch makes true.
   */
  progress?: (after: () => WriterView) => Pick<CrawlJob, 'counters' | 'message'> | undefined;

  constructor(
    private readonly db: Store,
    private readonly jobId: string,
    private readonly frontier: Frontier,
    private readonly ctx: ClassifyContext,
    private readonly maxDepth: number,
    private readonly onWritten: () => void,
    /** Called once when a batch cannot be written (storage full, database closed…). */
    private readonly onFailure: (error: unknown) => void = () => undefined,
  ) {}

  /** Loads the content hashes of pages stored by an earlier run of this job (keys only: no page bodies are read). */
  async init(): Promise<void> {
    const job = await getJob(this.db, this.jobId, 'crawl');
    // A host or site crawl keeps no boundary of its own; the plan the Generate tab showed for its start page says where the docs are.
    const plan = job && !job.boundary ? await planFor(this.db, job.startUrl) : undefined;
    this.notDocsContext = notDocsContext(job?.boundary ?? (plan?.state === 'done' ? plan.boundary : undefined));
    this.followNotDocs = job?.settings.scope !== 'docs';
    this.notDocs = job?.counters.notDocs ?? 0;
    for (const hash of await pageHashes(this.db, this.jobId)) this.knownHashes.add(hash);
  }

  /** Results not yet committed (queued or in the transaction being written). */
  get pending(): number {
    return this.batches.pending;
  }

  get idle(): boolean {
    return this.batches.idle;
  }

  add(entry: FrontierRecord, outcome: PageOutcome): void {
    this.batches.add({ entry, outcome: this.markNotDocs(entry, markEmpty(outcome)) });
  }

  /** A page the evidence says is not documentation gets `notDocs` (why) and says so in its list reason. */
  private markNotDocs(entry: FrontierRecord, outcome: PageOutcome): PageOutcome {
    if (outcome.state !== 'done' || outcome.page.empty) return outcome;
    const listed = entry.source === 'start' || entry.source === 'llms';
    const why = judgeNotDocs({ url: entry.url, finalUrl: outcome.page.finalUrl, listed, nav: outcome.nav, pageType: outcome.pageType }, this.notDocsContext);
    if (!why) return outcome;
    const note = `Not documentation: ${why}${this.followNotDocs ? '' : ' · its links not followed'}`;
    return { ...outcome, page: { ...outcome.page, notDocs: why }, reason: outcome.reason ? `${note} · ${outcome.reason}` : note };
  }

  /** Resolves once everything added so far is committed. */
  async drain(): Promise<void> {
    await this.batches.drain();
  }

  private async write(batch: Item[]): Promise<void> {
    const { db, jobId } = this;
    const started = Date.now();
    const fresh: PageTally = { stored: 0, duplicates: 0, rendered: 0, empty: 0, notDocs: 0 };
    const newLinks: string[] = [];
    const done = batch.flatMap((i) => (i.outcome.state === 'done' ? [{ entry: i.entry, outcome: i.outcome }] : []));
    const links: Parameters<typeof toEntries>[0] = [];
    const job: PageBatch['job'] = {};
    for (const { entry, outcome } of done) {
      // A hash-routed site (docsify, an SPA with #/ routes): its routes are pages from here on.
      if (outcome.routing === 'hash' && !this.ctx.hashRoutes) {
        this.ctx.hashRoutes = true;
        job.hashRoutes = true;
      }
      const walkOn = !outcome.page.notDocs || this.followNotDocs;
      if (entry.depth < this.maxDepth && walkOn) {
        for (const url of outcome.links) {
          if (this.seenLinks.has(url)) continue;
          newLinks.push(url);
          links.push({ url, depth: entry.depth + 1, source: 'link', parentUrl: entry.url });
        }
      }
      // The site's outline is the documentation's: a blog's or a forum's own menu is not part of it.
      if (outcome.nav.length && !outcome.page.notDocs) {
        const nav = await this.keepNav(outcome.nav);
        if (nav) job.nav = nav;
      }
    }
    const queue = this.frontier.prepare(toEntries(links, this.ctx));
    const progress = this.progress?.(() => this.after(done.map((d) => d.outcome.page), queue, batch));
    if (progress) Object.assign(job, progress);
    // Pages the job already stored with the same content make these duplicates; so does an earlier page of the batch.
    const pages = (seen: Map<string, string>): PageRecord[] => {
      return done.map(({ entry, outcome }) => {
        const original = seen.get(outcome.page.contentHash);
        if (!original) seen.set(outcome.page.contentHash, outcome.page.url);
        tally(fresh, outcome.page, !!original);
        return { ...outcome.page, jobId, key: entry.key, depth: entry.depth, state: original ? 'duplicate' : 'stored', duplicateOf: original, fetchedAt: Date.now() };
      });
    };
    const refused = await writePageBatch(db, jobId, {
      hashes: [...new Set(done.map((d) => d.outcome.page.contentHash))].filter((h) => this.knownHashes.has(h)),
      pages,
      job,
      queue,
      settled: batch.map(({ entry, outcome }) => ({
        ...entry,
        state: frontierStateOf(outcome),
        reason: 'reason' in outcome ? outcome.reason : undefined,
        retries: outcome.retries,
        updatedAt: Date.now(),
      })),
    });
    const added = this.frontier.added(queue, refused);
    // Committed: now the in-memory view may move.
    this.stored += fresh.stored;
    this.duplicates += fresh.duplicates;
    this.rendered += fresh.rendered;
    this.empty += fresh.empty;
    this.notDocs += fresh.notDocs;
    this.frontier.remember(added);
    this.frontier.settled(batch.map((i) => frontierStateOf(i.outcome)));
    for (const url of newLinks) this.seenLinks.add(url);
    for (const item of batch) if (item.outcome.state === 'done') this.knownHashes.add(item.outcome.page.contentHash);
    this.storeMs += Date.now() - started;
  }

  /**
   * The writer's and the frontier's counts once `batch` commits, as `write` will record them. A
   * page whose hash the job already holds is counted a duplicate (the transaction's look-up finds
   * its stored original); a link's key the database already held as a row (refused) is counted
   * added: the next progress, and the last, are exact.
   */
  private after(pages: FetchedPage[], queue: Prepared, batch: Item[]): WriterView {
    const view: PageTally = { stored: this.stored, duplicates: this.duplicates, rendered: this.rendered, empty: this.empty, notDocs: this.notDocs };
    const seen = new Set<string>();
    for (const page of pages) {
      const duplicate = this.knownHashes.has(page.contentHash) || seen.has(page.contentHash);
      seen.add(page.contentHash);
      tally(view, page, duplicate);
    }
    const counts = this.frontier.countsAfter(this.frontier.added(queue, new Set()), batch.map((i) => frontierStateOf(i.outcome)));
    return { ...view, storeMs: this.storeMs, counts };
  }

  /**
   * The site's navigation order (for llms.txt sections): the first page's tree, completed by the
   * trees of later pages that share its top level (themes that render only the open branch).
   * Answers the tree to write when it changed.
   */
  private async keepNav(nav: NonNullable<CrawlJob['nav']>): Promise<CrawlJob['nav']> {
    if (this.nav === undefined) this.nav = (await getJob(this.db, this.jobId, 'crawl'))?.nav ?? [];
    const next = this.nav.length === 0 ? nav : mergeNav(this.nav, nav);
    if (!next) return undefined;
    this.nav = next;
    return next;
  }
}
