import type { BuildProgress, PageHit, SearchWorkerReply, SearchWorkerRequest } from '@/lib/agents/page-search';

/** The pages to search: a crawl, and a stamp that changes when its pages do (count, generated version). */
export interface SearchSource {
  jobId: string;
  stamp: string;
}

export interface PanelSearchState {
  /** The build under way, if any: "Indexing 3,200 of 10,000 pages…". */
  indexing: BuildProgress | null;
  /** The index searches are answered from. */
  ready: { jobId: string; pages: number } | null;
  error: string | null;
  /** The answer to the latest query (null for a blank one or before the first answer). */
  results: { query: string; words: string[]; jobId: string; hits: PageHit[] } | null;
}

/** The part of a Worker this uses (the panel gives it the real one). */
export interface WorkerLike {
  postMessage(message: SearchWorkerRequest): void;
  onmessage: ((event: MessageEvent<SearchWorkerReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  terminate(): void;
}

/** Shortest wait between two builds; a build waits at least twice as long as the last one took. */
const MIN_GAP_MS = 1000;

/**
 * The panel's side of the search worker: which crawl to index and when, and the answer to the
 * latest query. While a crawl stores pages, its stamp changes with every batch: building on each
 * would keep the worker busy for nothing, so a new build waits until the last one ended plus twice
 * its time (searches are answered from the last finished index meanwhile). A new crawl is indexed
 * at once.
 */
export class PanelSearch {
  private state: PanelSearchState = { indexing: null, ready: null, error: null, results: null };
  private readonly listeners = new Set<() => void>();
  private builds = 0;
  private building: { build: number; source: SearchSource; started: number } | null = null;
  private built: SearchSource | null = null;
  private wanted: SearchSource | null = null;
  private nextBuildAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private searches = 0;
  private query = '';

  constructor(private readonly worker: WorkerLike) {
    worker.onmessage = (event) => this.receive(event.data);
    worker.onerror = (event) => this.set({ error: event.message || 'The search worker stopped.', indexing: null });
  }

  snapshot = (): PanelSearchState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The crawl whose pages to search now (null: none has pages). */
  want(source: SearchSource | null): void {
    this.wanted = source;
    if (!source) {
      clearTimeout(this.timer);
      this.built = null;
      this.set({ ready: null, results: null, indexing: null });
      return;
    }
    this.schedule();
  }

  /** Searches the current index for `query`; a blank query clears the results. */
  search(query: string): void {
    this.query = query;
    const id = ++this.searches;
    if (query.trim() === '') {
      this.set({ results: null });
      return;
    }
    this.worker.postMessage({ type: 'search', id, query, limit: 10 });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.worker.terminate();
    this.listeners.clear();
  }

  private schedule(): void {
    const wanted = this.wanted;
    if (!wanted || wanted.stamp === this.built?.stamp || wanted.stamp === this.building?.source.stamp) return;
    const otherCrawl = wanted.jobId !== (this.building?.source.jobId ?? this.built?.jobId);
    if (this.building && !otherCrawl) return; // The build's end schedules the next.
    clearTimeout(this.timer);
    const wait = otherCrawl ? 0 : Math.max(0, this.nextBuildAt - Date.now());
    if (wait === 0) this.start(wanted);
    else this.timer = setTimeout(() => this.schedule(), wait);
  }

  private start(source: SearchSource): void {
    const build = ++this.builds;
    this.building = { build, source, started: Date.now() };
    this.worker.postMessage({ type: 'build', build, jobId: source.jobId });
  }

  private receive(reply: SearchWorkerReply): void {
    if (reply.type === 'results') {
      if (reply.id !== this.searches || !reply.jobId) return;
      this.set({ results: { query: reply.query, words: reply.words, jobId: reply.jobId, hits: reply.hits } });
      return;
    }
    if (reply.build !== this.building?.build) return;
    if (reply.type === 'progress') {
      this.set({ indexing: { indexed: reply.indexed, total: reply.total } });
      return;
    }
    const { source, started } = this.building;
    this.building = null;
    const took = Date.now() - started;
    this.nextBuildAt = Date.now() + Math.max(MIN_GAP_MS, 2 * took);
    // A failed build is not tried again until the pages change.
    this.built = source;
    if (reply.type === 'failed') {
      this.set({ indexing: null, error: `The pages could not be indexed for search: ${reply.message}` });
    } else {
      this.set({ indexing: null, error: null, ready: { jobId: reply.jobId, pages: reply.pages } });
      // The query typed is answered again from the new index.
      if (this.query.trim()) this.search(this.query);
    }
    this.schedule();
  }

  private set(changes: Partial<PanelSearchState>): void {
    this.state = { ...this.state, ...changes };
    for (const listener of this.listeners) listener();
  }
}
