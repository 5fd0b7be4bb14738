/**
 * What the crawl and refresh runners ask of the page pipeline (lib/pipeline/), and what they get
 * back: the runners schedule, hold the hosts' request slots and store; the pipeline fetches,
 * converts and reads links. The contract lives here, below both, so the runners never import the
 * pipeline and the pipeline's runtimes (Chromium, Firefox, Node) stay behind it.
 */
import type { NavLink } from '../convert/convert-page';
import type { PageTypeSignals } from '../convert/metadata';
import type { ShellVerdict } from '../shell/detect';
import type { FrontierRecord, PageRecord } from '../store/db';
import type { DocsBoundary } from '../url/boundary';
import type { CrawlSettings } from './settings';

/**
 * The runner's hold on the entry's host (one of its per-host request slots). The pipeline
 * releases it the moment the response is read, so the host's next request goes out while this
 * page converts; a later request for the same page (its Markdown twin) takes a slot again.
 */
export interface HostSlot {
  release(): void;
  /** Waits for a free slot of the host and takes it; call the returned function when the request is done. */
  reacquire(): Promise<() => void>;
  /** The host asked for a pause (Retry-After): no new request to it starts for `waitMs`. */
  slowDown(waitMs: number): void;
}

/** One URL to fetch and convert, with what is needed to judge redirects (the job's scope). */
export interface ProcessRequest {
  entry: FrontierRecord;
  startUrl: string;
  settings: CrawlSettings;
  /** The documentation's boundary, for a `docs` crawl (its scope judges redirects too). */
  boundary?: DocsBoundary;
  timeoutMs?: number;
  /** Given by the crawl runner; without it (a refresh, a test) nothing is released early. */
  slot?: HostSlot;
  /**
   * The pipeline calls it when a converter takes the fetched page: the page stops counting as the
   * runner's conversion backlog. Not called, the page counts as backlog until it settles.
   */
  converting?: () => void;
  /**
   * Given by the queue runner: the pipeline hands it a page's slow step, and gets the step's result
   * back when the runner is ready to write it. The runner writes pages in the order they started:
   * awaited in place, a slow step would hold every later page's write (and the links they add to
   * the queue) that long. The step starts at once; `place` says where its page is written instead.
   * Without it the step is awaited in place.
   */
  later?: (run: () => Promise<ProcessResult>, place: LaterPlace) => Promise<ProcessResult>;
}

/**
 * Where a page whose slow step ran apart is written (both points are the same on every run):
 * `idle`, when nothing else can start (a tab render: seconds); `deeper`, just before the first
 * page deeper than it starts, so its links still queue before any deeper page's (a very big page's
 * conversion: about a second).
 */
export type LaterPlace = 'idle' | 'deeper';

/** A page ready to store (its state — stored or duplicate — is decided at write time). */
export type FetchedPage = Pick<PageRecord, 'url' | 'finalUrl' | 'title' | 'description' | 'siteName' | 'markdown' | 'format' | 'twinUrl' | 'contentHash' | 'bytes' | 'etag' | 'lastModified' | 'rendered' | 'shell' | 'empty' | 'notDocs'>;

/** What the rendering step adds to a stored page's outcome: the shell verdict, a note for the page list, the site's routing. */
export interface RenderNotes {
  /** Set when fetch returned a thin page: whether it is a client-rendered shell, and why. */
  shell?: ShellVerdict;
  /** Shown next to the page in the crawl's list (frontier reason): "Rendered in a tab: …". */
  reason?: string;
  /** The page shows the site routes by hash (`#/path`): such routes are pages from now on. */
  routing?: 'hash';
}

export type PageOutcome =
  | ({ state: 'done'; page: FetchedPage; links: string[]; nav: NavLink[]; retries: number; pageType?: PageTypeSignals } & RenderNotes)
  | { state: 'failed' | 'skipped'; reason: string; retries: number; status?: number }
  /** Only when the entry carried validators (a refresh): the stored page is current. */
  | { state: 'not-modified'; retries: number };

/** The frontier state an outcome leaves its entry in. */
export function frontierStateOf(outcome: PageOutcome): 'done' | 'failed' | 'skipped' {
  return outcome.state === 'not-modified' ? 'done' : outcome.state;
}

export type ProcessResult = PageOutcome & { ms: { fetch: number; convert: number } };

/** One page through the pipeline: the runner awaits its outcome and writes it. */
export type PageProcessor = (request: ProcessRequest, signal?: AbortSignal) => Promise<ProcessResult>;

/** The pipeline as a runtime assembled it (lib/pipeline/page-pipeline.ts): what the runners are given. */
export interface CrawlProcessor {
  process: PageProcessor;
  /** Pages converted at once; read when a run starts, as the bound of its backlog of fetched pages. */
  converters(): number;
  /** A job ended: close whatever it still holds (render tabs). */
  ended?(jobId: string): Promise<void>;
  /** A crawl is starting: start the converters now, while it finds its seeds, not at its first page. */
  prepare?(): void;
}
