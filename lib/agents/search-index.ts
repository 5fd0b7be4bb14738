/**
 * Full-text search over docs folders for `search_docs`: BM25 (MiniSearch's BM25+) over
 * heading-level chunks — a page cut at its headings, long sections cut again at paragraphs — with
 * the page title and the chunk's headings weighted above its text. One index holds every folder;
 * a folder read again replaces its own chunks only. Link targets are left out of the indexed text
 * (every link to /library/ would otherwise make "library" a word of every page).
 */
import { ChunkSearch } from './chunk-search';
import { markdownSections } from './markdown-sections';

/** A page of one docs set, as the index needs it. */
export interface IndexPage {
  /** The set's id (list_docs). */
  site: string;
  path: string;
  url: string;
  title: string;
  section: string;
  markdown: string;
}

export interface Chunk {
  id: string;
  site: string;
  path: string;
  url: string;
  title: string;
  /** The heading's place in the page ("Lists › Using Lists as Stacks"); '' for the text above the first heading. */
  heading: string;
  section: string;
  text: string;
}

/** A chunk as a search answers it: where it is, its score and a snippet of its text. */
export type SearchHit = Omit<Chunk, 'id' | 'text'> & { score: number; snippet: string };

export interface SearchFilters {
  site?: string;
  section?: string;
  limit?: number;
}

/** A section's own text over this many characters is cut at blank lines into parts of about PART_CHARS. */
const MAX_CHUNK_CHARS = 4000;
const PART_CHARS = 2500;
const SNIPPET_CHARS = 280;

// Words too common to say what a question is about; left out of the index and of queries alike.
const STOP_WORDS = new Set(
  'a an and are as at be but by can do does for from how i if in into is it its of on or so such than that the their then there these this to was what when where which while who why will with you your'.split(' '),
);

// A word is a run of letters and digits; a dotted number ("3.11", "0.1", "127.0.0.1") stays one
// word. Cut at its dots, every version and decimal became the digits 0–9, which occur in most
// chunks: a question with a number in it scored most of the index (the slowest searches by far).
const WORD = /\d+(?:\.\d+)+|[^\n\r\p{Z}\p{P}\p{S}]+/gu;
const tokenize = (text: string) => text.match(WORD) ?? [];
// One character says too little to search by, a digit included (list numbers, code).
const processTerm = (term: string) => {
  const lower = term.toLowerCase();
  return lower.length < 2 || STOP_WORDS.has(lower) ? null : lower;
};

/** The words of `text` as the index sees them (lowercase, stop words out): what a result's words are marked by. */
export function queryTerms(text: string): string[] {
  return [...new Set(tokenize(text).map(processTerm).filter((term): term is string => term !== null))];
}

/** Link and image targets out, their text kept: `[os.path](https://…/os.path.html#x)` → `[os.path]`. */
function withoutLinkTargets(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('](', i);
    if (open < 0) break;
    const close = text.indexOf(')', open + 2);
    const space = text.slice(open + 2, close < 0 ? undefined : close).search(/\s/);
    out += text.slice(i, open + 1);
    if (close < 0 || space >= 0) {
      i = open + 1;
      continue;
    }
    i = close + 1;
  }
  return out + text.slice(i);
}

/** `text` cut at blank lines into parts of about PART_CHARS (a part is never cut inside a paragraph). */
function parts(text: string): string[] {
  if (text.length <= MAX_CHUNK_CHARS) return [text];
  const out: string[] = [];
  let current = '';
  for (const paragraph of text.split(/\n\s*\n/)) {
    if (current && current.length + paragraph.length > PART_CHARS) {
      out.push(current);
      current = '';
    }
    current = current ? `${current}\n\n${paragraph}` : paragraph;
  }
  if (current) out.push(current);
  return out;
}

/** A page's chunks: one a heading (its own text, up to the first sub-heading), long ones in parts. */
export function chunksOf(page: IndexPage): Chunk[] {
  const chunks: Chunk[] = [];
  // The page's own title as its H1 says nothing a result's title does not: it leaves the trail.
  const title = page.title.trim().toLowerCase();
  for (const section of markdownSections(page.markdown)) {
    const heading = [...section.trail, section.heading].filter((h) => h && h.toLowerCase() !== title).join(' › ');
    // The heading line is indexed as the heading, not again as text.
    const body = section.level > 0 ? section.text.slice(section.text.indexOf('\n') + 1 || section.text.length) : section.text;
    const cleaned = withoutLinkTargets(body).trim();
    if (!cleaned && !section.heading) continue;
    parts(cleaned || '').forEach((text) => {
      chunks.push({ id: `${page.site}\u0000${page.path}\u0000${chunks.length}`, site: page.site, path: page.path, url: page.url, title: page.title, heading, section: page.section, text });
    });
  }
  return chunks;
}

/**
 * The text around the place where the most of the query's words meet, on one line: each word's
 * first occurrences (a bounded number) are window starts, and the window holding the most
 * distinct words wins, the earliest on a tie.
 */
function snippetOf(text: string, terms: string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_CHARS) return flat;
  const lower = flat.toLowerCase();
  const hits: Array<{ at: number; term: number }> = [];
  terms.forEach((term, index) => {
    const word = term.toLowerCase();
    for (let from = 0, n = 0; n < 40; n++) {
      const at = lower.indexOf(word, from);
      if (at < 0) break;
      hits.push({ at, term: index });
      from = at + word.length;
    }
  });
  hits.sort((a, b) => a.at - b.at);
  // One sweep: window starts only move right, and so do their ends (a search asks for ten
  // snippets, and a query's words can occur hundreds of times in a chunk).
  const counts = new Int32Array(terms.length);
  let distinct = 0;
  let from = 0;
  let to = 0;
  let best = 0;
  let bestCount = 0;
  for (const hit of hits) {
    const start = Math.max(0, hit.at - 60);
    const end = start + SNIPPET_CHARS - 20;
    for (let next = hits[to]; next && next.at < end; next = hits[++to]) {
      counts[next.term] = (counts[next.term] ?? 0) + 1;
      if (counts[next.term] === 1) distinct++;
    }
    for (let gone = hits[from]; gone && from < to && gone.at < start; gone = hits[++from]) {
      counts[gone.term] = (counts[gone.term] ?? 0) - 1;
      if (counts[gone.term] === 0) distinct--;
    }
    if (distinct > bestCount) {
      bestCount = distinct;
      best = start;
    }
  }
  const end = Math.min(flat.length, best + SNIPPET_CHARS);
  return `${best > 0 ? '…' : ''}${flat.slice(best, end).trim()}${end < flat.length ? '…' : ''}`;
}

const fold = (text: string) => text.toLowerCase().trim();

/** How results are ranked; bench/retrieval.ts --tuning compares others on the same questions. */
export interface SearchTuning {
  titleBoost: number;
  headingBoost: number;
  /** Words at least this long match with one edit in about seven characters; 0 turns fuzzy matching off. */
  fuzzyMinLength: number;
  /** The last word of the query also matches words it starts (a half-typed word); off when false. */
  prefixLast: boolean;
}

/** The side panel's search, which answers as the user types: a half-typed last word, typos forgiven. */
export const DEFAULT_TUNING: SearchTuning = { titleBoost: 3, headingBoost: 2, fuzzyMinLength: 7, prefixLast: true };

/**
 * An agent's searches (scout mcp, scout serve): its questions are whole words nobody typed, so
 * neither the last word's prefixes nor fuzzy matches are looked up. On a 10,000-page folder those
 * two take about half of a search's time; on the hand-written questions recall@5 stays over 0.9
 * (bench/retrieval.ts, the figures in bench/results/).
 */
export const AGENT_TUNING: SearchTuning = { ...DEFAULT_TUNING, fuzzyMinLength: 0, prefixLast: false };

/** The version of the index's layout and text processing: a cached index of another version is built again. */
export const INDEX_VERSION = 3;

interface SiteIndex {
  search: ChunkSearch<Chunk>;
  /**
   * Each page's chunks by its path: every page's when the index was built here; when it was
   * loaded, a page's are made from `pages` the first time a result needs them (its heading and
   * snippet), so loading reads no page.
   */
  chunks: Map<string, Chunk[]>;
  pages: Map<string, IndexPage>;
}

/** The MiniSearch options of a set's index: its fields, words, and the tuning's field boosts. */
export function indexOptions(tuning: SearchTuning) {
  return {
    fields: ['title', 'heading', 'text'],
    storeFields: [],
    tokenize,
    processTerm,
    searchOptions: { boost: { title: tuning.titleBoost, heading: tuning.headingBoost }, tokenize, processTerm },
  };
}

/** A chunk's id is `site \0 path \0 n`: its page's path. */
function pathOf(id: string): string {
  return id.slice(id.indexOf('\u0000') + 1, id.lastIndexOf('\u0000'));
}

/** The chunk `id` names, its page's chunks made when not yet; undefined when its page cannot be read (its file went). */
function chunkOf(index: SiteIndex, id: string): Chunk | undefined {
  const path = pathOf(id);
  let chunks = index.chunks.get(path);
  if (!chunks) {
    const page = index.pages.get(path);
    if (!page) return undefined;
    try {
      chunks = chunksOf(page);
    } catch {
      return undefined;
    }
    index.chunks.set(path, chunks);
  }
  return chunks[Number(id.slice(id.lastIndexOf('\u0000') + 1))];
}

function sectionOf(index: SiteIndex, path: string): string {
  return index.chunks.get(path)?.[0]?.section ?? index.pages.get(path)?.section ?? '';
}

/**
 * The search index over every served folder: one MiniSearch a set, so a set read again replaces
 * only its own, and a set's index can be saved and loaded whole (`exportSite`, `replaceSite`'s
 * `saved`): loading is many times faster than indexing, and indexing is what starting costs.
 */
export class DocsIndex {
  private readonly tuning: SearchTuning;
  private readonly sites = new Map<string, SiteIndex>();

  constructor(tuning: Partial<SearchTuning> = {}) {
    this.tuning = { ...DEFAULT_TUNING, ...tuning };
  }

  private options() {
    return indexOptions(this.tuning);
  }

  /**
   * Indexes `pages` as the set `site`'s, replacing what the set had. `saved` is the set's index as
   * `exportSite` gave it for these very pages (the caller keys it by the folder's manifest): loaded
   * instead of built when it is there and readable, and then no page's text is read until a
   * result needs it.
   */
  replaceSite(site: string, pages: IndexPage[], saved?: Uint8Array): { loaded: boolean } {
    if (saved) {
      try {
        const search = ChunkSearch.fromBytes<Chunk>(saved, this.options());
        const byPath = new Map(pages.map((page) => [page.path, page]));
        // An index saved for other pages: built again.
        if ([...search.ids()].every((id) => byPath.has(pathOf(id)))) {
          this.sites.set(site, { search, chunks: new Map(), pages: byPath });
          return { loaded: true };
        }
      } catch {
        // A damaged or foreign file: built again below.
      }
    }
    this.sites.set(site, { search: new ChunkSearch<Chunk>(this.options()), chunks: new Map(), pages: new Map() });
    this.addChunks(site, pages.flatMap(chunksOf));
    this.finish(site);
    return { loaded: false };
  }

  /**
   * Readies the set's index for searching once no more pages come (its postings packed): else the
   * first search after indexing does it, a few hundred milliseconds on 10,000 pages. Whole-word
   * searches (an agent's) need nothing else, so MiniSearch's copy of the postings is let go.
   */
  finish(site: string): void {
    const search = this.sites.get(site)?.search;
    if (!this.tuning.prefixLast && this.tuning.fuzzyMinLength <= 0) search?.compact();
    else search?.pack();
  }

  /**
   * Adds `pages` to the set `site` (made when new): how a big set is indexed a batch at a time, so
   * the caller can say how far it got and answer other work in between (the side panel's worker).
   * A page already in the set must not be added again.
   */
  addPages(site: string, pages: IndexPage[]): void {
    if (!this.sites.has(site)) this.sites.set(site, { search: new ChunkSearch<Chunk>(this.options()), chunks: new Map(), pages: new Map() });
    // A chunk's id holds its set and page, so one batch's never collide with another's.
    this.addChunks(site, pages.flatMap(chunksOf));
  }

  private addChunks(site: string, chunks: Chunk[]): void {
    const index = this.sites.get(site);
    if (!index) return;
    for (const chunk of chunks) {
      const list = index.chunks.get(chunk.path);
      if (list) list.push(chunk);
      else index.chunks.set(chunk.path, [chunk]);
    }
    index.search.addAll(chunks);
  }

  /** The set's index as bytes, for `replaceSite`'s `saved`. */
  exportSite(site: string): Uint8Array | undefined {
    return this.sites.get(site)?.search.toBytes();
  }

  get size(): number {
    let size = 0;
    for (const index of this.sites.values()) size += index.search.documentCount;
    return size;
  }

  /** The best chunk of each of the best pages for `query`, best first. */
  query(query: string, filters: SearchFilters = {}): SearchHit[] {
    const limit = filters.limit ?? 8;
    const section = filters.section ? fold(filters.section) : undefined;
    const found: Array<{ index: SiteIndex; id: string; score: number; terms: string[] }> = [];
    const searched = [...this.sites].filter(([site]) => !filters.site || site === filters.site);
    const boost = { title: this.tuning.titleBoost, heading: this.tuning.headingBoost };
    // The last word may be half typed; long words forgive a typo (the panel's tuning; an agent's has neither).
    const prefix = (term: string, i: number, terms: string[]) => this.tuning.prefixLast && i === terms.length - 1 && term.length >= 3;
    const fuzzy = (term: string) => (this.tuning.fuzzyMinLength > 0 && term.length >= this.tuning.fuzzyMinLength ? 0.15 : false);
    for (const [, index] of searched) {
      const keep = section ? (id: string) => fold(sectionOf(index, pathOf(id))) === section : undefined;
      // A set's best `limit` pages are all the merge can use from it.
      const pagesOfSet = new Set<string>();
      const enough = (id: string) => {
        pagesOfSet.add(pathOf(id));
        return pagesOfSet.size > limit;
      };
      for (const hit of index.search.searchWords(query, { boost, prefix, fuzzy, ...(keep ? { keep } : {}), enough })) found.push({ index, ...hit });
    }
    // Each set's results come best first; several sets' are merged by score.
    if (searched.length > 1) found.sort((a, b) => b.score - a.score);
    const hits: SearchHit[] = [];
    const pages = new Set<string>();
    for (const { index, id, score, terms } of found) {
      const chunk = chunkOf(index, id);
      if (!chunk) continue;
      const page = `${chunk.site}\u0000${chunk.path}`;
      if (pages.has(page)) continue;
      pages.add(page);
      hits.push({ site: chunk.site, path: chunk.path, url: chunk.url, title: chunk.title, heading: chunk.heading, section: chunk.section, score: Math.round(score * 100) / 100, snippet: snippetOf(chunk.text, terms) });
      if (hits.length >= limit) break;
    }
    return hits;
  }
}
