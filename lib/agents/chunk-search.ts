/**
 * MiniSearch with what a 10,000-page docs folder needs and its public API lacks, written against
 * its protected fields (what it offers subclasses; minisearch is pinned in package.json):
 *
 * - Postings packed into one Uint32Array, term by term, which is also the saved form (`toBytes`,
 *   `fromBytes`). MiniSearch keeps a Map of documents a term and field, and `loadJSON` rebuilds
 *   them all: 2.3 s for the 2.4 million postings of a 10,000-page folder, most of a start. A
 *   loaded index is searched from the packed words; the Maps are made only if MiniSearch's own
 *   search (prefix or fuzzy matches) or a change to the index needs them.
 * - Whole-word searches (`searchWords`: no prefix, no fuzzy match, an agent's) that score the
 *   matches into flat arrays and make result objects only for the best. MiniSearch makes one
 *   object a matched chunk and sorts them all; a question with common words in it matches most
 *   chunks of a big folder, and that was the slowest searches' time. The ranking is MiniSearch's
 *   (BM25+, field boosts, words combined with OR, the score times the number of query words
 *   matched), in the same order, ties included: tests/unit/page-search.test.ts compares the two.
 */
import MiniSearch, { type SearchOptions, type SearchResult } from 'minisearch';

/** A result of `searchWords`: a document's id, its score, and the query's words it holds, in the query's order. */
export interface WordHit {
  id: string;
  score: number;
  terms: string[];
}

type Postings = Map<number, Map<number, number>>;

/**
 * Each term's postings from `at.get(term)` on in `words`: how many fields; for each, its id, how
 * many documents, then document and frequency pairs.
 */
interface Packed {
  words: Uint32Array;
  at: Map<string, number>;
  /** Each document's field lengths, at its short id times the number of fields. */
  lengths: Uint32Array;
  /** 1 at each short id in the index (MiniSearch's discarded documents stay in postings until vacuumed). */
  present: Uint8Array;
}

/** Scores a search keeps while it runs, one a short id; reused, and cleared of its matches after. */
interface Scratch {
  total: Float64Array;
  partial: Float64Array;
  matched: Uint16Array;
  seen: Uint8Array;
}

/** Results put in order first: a search rarely reads past its best 100, and sorting every match was most of its time. */
const FIRST = 100;

/** MiniSearch's BM25+ parameters and prefix and fuzzy weights and limit (its defaults; the index sets no others). */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MAX_FUZZY = 6;

/** How `searchWords` matches and keeps results. */
export interface RankOptions {
  /** Field weights, as MiniSearch's `boost`. */
  boost?: Record<string, number>;
  /** Whether the query's word `i` also matches the words it starts, as MiniSearch's `prefix`. */
  prefix?: (term: string, i: number, terms: string[]) => boolean;
  /** How far a word may be from the query's word `i` to match it, as MiniSearch's `fuzzy`. */
  fuzzy?: (term: string, i: number, terms: string[]) => number | boolean;
  /** Only results this passes. */
  keep?: (id: string) => boolean;
  /** Called with each result kept; true ends the search there. */
  enough?: (id: string) => boolean;
}

const SAVED_FORMAT = 'scout-chunk-search-1';

interface SavedHead {
  format: string;
  documentCount: number;
  nextId: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  dirtCount: number;
  shortIds: number[];
  ids: string[];
  terms: string[];
}

export class ChunkSearch<T> extends MiniSearch<T> {
  private packed: Packed | undefined;
  private scratch: Scratch | undefined;
  /** False while a loaded index has only its packed postings. */
  private mapped = true;

  /** MiniSearch's Maps made from the packed postings, when a loaded index has none yet. */
  private ensureMaps(): void {
    if (this.mapped) return;
    this.mapped = true;
    const { words, at: offsets, lengths } = this.packed as Packed;
    const fields = Object.keys(this._fieldIds).length;
    for (const shortId of this._documentIds.keys()) this._fieldLength.set(shortId, Array.from(lengths.subarray(shortId * fields, (shortId + 1) * fields)));
    for (const [term, start] of offsets) {
      const data: Postings = new Map();
      let at = start;
      const count = words[at++] ?? 0;
      for (let f = 0; f < count; f++) {
        const fieldId = words[at++] ?? 0;
        const size = words[at++] ?? 0;
        const freqs = new Map<number, number>();
        for (let d = 0; d < size; d++, at += 2) freqs.set(words[at] ?? 0, words[at + 1] ?? 0);
        data.set(fieldId, freqs);
      }
      this._index.set(term, data as never);
    }
  }

  /** The packed postings, made from the Maps after a change; searches make them when not yet. */
  pack(): Packed {
    if (this.packed) return this.packed;
    let size = 0;
    for (const [, data] of this._index as Iterable<[string, Postings]>) {
      size += 1;
      for (const freqs of data.values()) size += 2 + freqs.size * 2;
    }
    const words = new Uint32Array(size);
    const offsets = new Map<string, number>();
    let at = 0;
    for (const [term, data] of this._index as Iterable<[string, Postings]>) {
      offsets.set(term, at);
      words[at++] = data.size;
      for (const [fieldId, freqs] of data) {
        words[at++] = fieldId;
        words[at++] = freqs.size;
        for (const [docId, freq] of freqs) {
          words[at++] = docId;
          words[at++] = freq;
        }
      }
    }
    const fields = Object.keys(this._fieldIds).length;
    const lengths = new Uint32Array(this._nextId * fields);
    const present = new Uint8Array(this._nextId);
    for (const [shortId, of] of this._fieldLength) {
      present[shortId] = this._documentIds.has(shortId) ? 1 : 0;
      for (let f = 0; f < fields; f++) lengths[shortId * fields + f] = of[f] ?? 0;
    }
    this.packed = { words, at: offsets, lengths, present };
    return this.packed;
  }

  /**
   * Keeps only the packed postings: MiniSearch's Maps hold the same again (about 100 MB for 10,000
   * pages) and whole-word searches never read them. Made again if a change or MiniSearch's own
   * search needs them.
   */
  compact(): void {
    this.pack();
    if (!this.mapped) return;
    this._index.clear();
    this._fieldLength.clear();
    this.mapped = false;
  }

  /** A change is made to MiniSearch's Maps, so they must exist, and the packed copy is stale after it. */
  private beforeChange(): void {
    this.ensureMaps();
    this.packed = undefined;
  }

  override add(document: T): void {
    this.beforeChange();
    super.add(document);
  }

  override remove(document: T): void {
    this.beforeChange();
    super.remove(document);
  }

  override removeAll(documents?: readonly T[]): void {
    this.beforeChange();
    super.removeAll(documents);
  }

  override discard(id: unknown): void {
    this.beforeChange();
    super.discard(id);
  }

  override search(query: Parameters<MiniSearch<T>['search']>[0], options?: SearchOptions): SearchResult[] {
    this.ensureMaps();
    return super.search(query, options);
  }

  /** Every document's id. */
  ids(): IterableIterator<string> {
    return this._documentIds.values();
  }

  /**
   * The index as bytes: a JSON line (its counts, the documents' ids, the terms), padded so the
   * rest starts at a multiple of four bytes, then Uint32 words: each document's field lengths,
   * then the packed postings. In this machine's byte order: it is a cache, read where it was written.
   */
  toBytes(): Uint8Array {
    const { words, at, lengths: byShortId } = this.pack();
    const fields = Object.keys(this._fieldIds).length;
    const documents = [...this._documentIds];
    const lengths = new Uint32Array(documents.length * fields);
    documents.forEach(([shortId], i) => lengths.set(byShortId.subarray(shortId * fields, (shortId + 1) * fields), i * fields));
    const head: SavedHead = {
      format: SAVED_FORMAT,
      documentCount: this._documentCount,
      nextId: this._nextId,
      fieldIds: this._fieldIds,
      averageFieldLength: this._avgFieldLength,
      dirtCount: this._dirtCount,
      shortIds: documents.map(([shortId]) => shortId),
      ids: documents.map(([, id]) => id),
      // In the order of their postings, so each one's offset is found by walking them once.
      terms: [...at.keys()],
    };
    let line = JSON.stringify(head);
    // TextEncoder, not Buffer: this module also runs in the side panel's search worker.
    const encoder = new TextEncoder();
    line += ' '.repeat((4 - ((encoder.encode(line).length + 1) % 4)) % 4);
    const text = encoder.encode(`${line}\n`);
    const result = new Uint8Array(text.length + lengths.byteLength + words.byteLength);
    result.set(text, 0);
    result.set(new Uint8Array(lengths.buffer), text.length);
    result.set(new Uint8Array(words.buffer, words.byteOffset, words.byteLength), text.length + lengths.byteLength);
    return result;
  }

  /** The index `toBytes` made, with the options it was made with; throws when the bytes are not one. */
  static fromBytes<T>(bytes: Uint8Array, options: ConstructorParameters<typeof MiniSearch<T>>[0]): ChunkSearch<T> {
    const newline = bytes.indexOf(10);
    if (newline < 0) throw new Error('not a saved index');
    const head = JSON.parse(new TextDecoder().decode(bytes.subarray(0, newline))) as SavedHead;
    if (head.format !== SAVED_FORMAT || !Array.isArray(head.ids) || head.shortIds.length !== head.ids.length) throw new Error('not a saved index of this version');
    const start = bytes.byteOffset + newline + 1;
    const length = (bytes.length - newline - 1) / 4;
    if (!Number.isInteger(length)) throw new Error('a saved index cut short');
    // A Uint32Array must start at a multiple of four bytes: copied when the bytes given do not.
    let all: Uint32Array;
    if (start % 4 === 0) all = new Uint32Array(bytes.buffer, start, length);
    else {
      all = new Uint32Array(length);
      new Uint8Array(all.buffer).set(bytes.subarray(newline + 1));
    }
    const search = new ChunkSearch<T>(options);
    const fields = Object.keys(head.fieldIds).length;
    search._documentCount = head.documentCount;
    search._nextId = head.nextId;
    search._fieldIds = head.fieldIds;
    search._avgFieldLength = head.averageFieldLength;
    search._dirtCount = head.dirtCount;
    // MiniSearch's field lengths are made with its Maps, when needed (ensureMaps).
    const lengths = new Uint32Array(head.nextId * fields);
    const present = new Uint8Array(head.nextId);
    head.shortIds.forEach((shortId, i) => {
      const id = head.ids[i];
      if (!Number.isInteger(shortId) || shortId < 0 || shortId >= head.nextId) throw new Error('a saved index with a document out of range');
      search._documentIds.set(shortId, id);
      search._idToShortId.set(id, shortId);
      lengths.set(all.subarray(i * fields, (i + 1) * fields), shortId * fields);
      present[shortId] = 1;
    });
    const words = all.subarray(head.ids.length * fields);
    const offsets = new Map<string, number>();
    let at = 0;
    for (const term of head.terms) {
      offsets.set(term, at);
      const count = words[at++] ?? 0;
      for (let f = 0; f < count && at < words.length; f++) at += 2 + 2 * (words[at + 1] ?? 0);
    }
    if (at !== words.length) throw new Error('a saved index of another length');
    search.packed = { words, at: offsets, lengths, present };
    search.mapped = false;
    return search;
  }

  /**
   * The documents holding any of `query`'s words (as the index's tokenizer and term processing
   * see them), best first, as MiniSearch's `search` with the same options ranks them: `boost`,
   * `prefix` and `fuzzy` as MiniSearch's options of those names (prefix and fuzzy matches weighted
   * by its default weights); those `keep` passes (all when not given), up to the first `enough`
   * says is enough.
   */
  searchWords(query: string, options: RankOptions = {}): WordHit[] {
    const { tokenize, processTerm } = this._options;
    const terms: string[] = [];
    for (const token of tokenize(query)) {
      const processed = processTerm(token);
      for (const term of Array.isArray(processed) ? processed : [processed]) if (term) terms.push(term);
    }
    // Each query word with the index's words it matches and their weights, in MiniSearch's order:
    // itself, then the words it starts, then those a few edits away.
    const matches = terms.map((term, i) => {
      const list = [{ term, weight: 1 }];
      const prefix = options.prefix?.(term, i, terms) ?? false;
      const fuzzy = options.fuzzy?.(term, i, terms) ?? false;
      if (!prefix && !fuzzy) return list;
      // Found through MiniSearch's radix tree, which a loaded index makes now.
      this.ensureMaps();
      let fuzzyMatches: Map<string, [unknown, number]> | undefined;
      if (fuzzy) {
        const fraction = fuzzy === true ? 0.2 : fuzzy;
        const maxDistance = fraction < 1 ? Math.min(MAX_FUZZY, Math.round(term.length * fraction)) : fraction;
        if (maxDistance) fuzzyMatches = this._index.fuzzyGet(term, maxDistance) as Map<string, [unknown, number]>;
      }
      if (prefix) {
        for (const word of this._index.atPrefix(term).keys()) {
          const distance = word.length - term.length;
          if (!distance) continue;
          fuzzyMatches?.delete(word);
          list.push({ term: word, weight: (PREFIX_WEIGHT * word.length) / (word.length + 0.3 * distance) });
        }
      }
      for (const [word, [, distance]] of fuzzyMatches ?? []) {
        if (distance) list.push({ term: word, weight: (FUZZY_WEIGHT * word.length) / (word.length + distance) });
      }
      return list;
    });
    const { words, at: offsets, lengths, present } = this.pack();
    const size = this._nextId;
    if (!this.scratch || this.scratch.total.length < size) this.scratch = { total: new Float64Array(size), partial: new Float64Array(size), matched: new Uint16Array(size), seen: new Uint8Array(size) };
    const { total, partial, matched, seen } = this.scratch;
    // The distinct query words a document holds: MiniSearch multiplies its score by their number.
    const distinct = [...new Set(terms)];
    const holds = distinct.map(() => new Uint8Array(size));
    const touched: number[] = [];
    const fieldCount = Object.keys(this._fieldIds).length;
    const fields = this._options.fields.map((field) => ({ id: this._fieldIds[field] ?? -1, boost: options.boost?.[field] || 1 }));
    try {
      for (const [i, term] of terms.entries()) {
        const holdsWord = holds[distinct.indexOf(term)] as Uint8Array;
        const inTerm: number[] = [];
        for (const { term: word, weight } of matches[i] ?? []) {
          const start = offsets.get(word);
          if (start === undefined) continue;
          // Where each field's postings start, as MiniSearch reads the fields: in the index's field order.
          const fieldAt = new Map<number, number>();
          let at = start + 1;
          for (let f = 0; f < (words[start] ?? 0); f++) {
            fieldAt.set(words[at] ?? 0, at + 1);
            at += 2 + 2 * (words[at + 1] ?? 0);
          }
          for (const field of fields) {
            const from = fieldAt.get(field.id);
            if (from === undefined) continue;
            const matching = words[from] ?? 0;
            const average = this._avgFieldLength[field.id] ?? 0;
            const idf = Math.log(1 + (this._documentCount - matching + 0.5) / (matching + 0.5));
            const weighted = weight * field.boost;
            for (let p = from + 1, end = from + 1 + 2 * matching; p < end; p += 2) {
              const docId = words[p] ?? 0;
              if (!present[docId]) continue;
              const freq = words[p + 1] ?? 0;
              const length = lengths[docId * fieldCount + field.id] ?? 0;
              // MiniSearch's termResults and calcBM25Score, their operations in their order so the sums come out the same.
              const score = weighted * (idf * (BM25.d + (freq * (BM25.k + 1)) / (freq + BM25.k * (1 - BM25.b + (BM25.b * length) / average))));
              // Every score is over 0 (BM25+ adds d to each match): 0 means not matched by this word yet.
              if (partial[docId] === 0) inTerm.push(docId);
              partial[docId] = (partial[docId] ?? 0) + score;
            }
          }
        }
        for (const docId of inTerm) {
          if (!seen[docId]) {
            seen[docId] = 1;
            touched.push(docId);
            total[docId] = partial[docId] ?? 0;
          } else total[docId] = (total[docId] ?? 0) + (partial[docId] ?? 0);
          partial[docId] = 0;
          if (!holdsWord[docId]) {
            holdsWord[docId] = 1;
            matched[docId] = (matched[docId] ?? 0) + 1;
          }
        }
      }
      for (const docId of touched) total[docId] = (total[docId] ?? 0) * (matched[docId] || 1);
      // Stable sorts: equal scores keep the order the documents were first matched in, as MiniSearch's do.
      // The best FIRST (and any tied with the last of them) are put in order first, the rest only if read.
      const byScore = (a: number, b: number) => (total[b] ?? 0) - (total[a] ?? 0);
      let first = touched;
      const rest: number[] = [];
      if (touched.length > 4 * FIRST) {
        const scores = Float64Array.from(touched, (docId) => total[docId] ?? 0).sort();
        const threshold = scores[scores.length - FIRST] ?? 0;
        first = [];
        for (const docId of touched) ((total[docId] ?? 0) >= threshold ? first : rest).push(docId);
      }
      const hits: WordHit[] = [];
      const hitDocs: number[] = [];
      found: for (const part of [first, rest]) {
        for (const docId of part.sort(byScore)) {
          const id = this._documentIds.get(docId) as string;
          if (options.keep && !options.keep(id)) continue;
          hits.push({ id, score: total[docId] ?? 0, terms: [] });
          hitDocs.push(docId);
          if (options.enough?.(id)) break found;
        }
      }
      this.matchedWords(hits, hitDocs, matches, distinct, holds);
      return hits;
    } finally {
      for (const docId of touched) {
        total[docId] = 0;
        matched[docId] = 0;
        seen[docId] = 0;
      }
      partial.fill(0);
    }
  }

  /**
   * Each hit's `terms`: the index's words it was found by, as MiniSearch's result lists them (the
   * keys of an object: words that are whole numbers first, the others in the order they matched).
   */
  private matchedWords(hits: WordHit[], hitDocs: number[], matches: Array<Array<{ term: string }>>, distinct: string[], holds: Uint8Array[]): void {
    if (matches.every((list) => list.length === 1)) {
      hitDocs.forEach((docId, i) => {
        (hits[i] as WordHit).terms = objectKeyOrder(distinct.filter((_, word) => holds[word]?.[docId] === 1));
      });
      return;
    }
    // Prefix and fuzzy matches: which of their words each hit holds, from their postings.
    const { words, at: offsets } = this.pack();
    const hitAt = new Map(hitDocs.map((docId, i) => [docId, i]));
    const found = hits.map(() => new Set<string>());
    for (const { term } of matches.flat()) {
      const start = offsets.get(term);
      if (start === undefined) continue;
      let at = start + 1;
      for (let f = 0; f < (words[start] ?? 0); f++) {
        const size = words[at + 1] ?? 0;
        for (let p = at + 2, end = at + 2 + 2 * size; p < end; p += 2) {
          const hit = hitAt.get(words[p] ?? 0);
          if (hit !== undefined) found[hit]?.add(term);
        }
        at += 2 + 2 * size;
      }
    }
    found.forEach((terms, i) => {
      (hits[i] as WordHit).terms = objectKeyOrder([...terms]);
    });
  }
}

/** Words in the order an object's keys take them: array indexes (whole numbers) first, ascending. */
function objectKeyOrder(words: string[]): string[] {
  const isIndex = (word: string) => /^(?:0|[1-9]\d{0,9})$/.test(word) && Number(word) < 4294967295;
  const indexes = words.filter(isIndex).sort((a, b) => Number(a) - Number(b));
  return indexes.length ? [...indexes, ...words.filter((word) => !isIndex(word))] : words;
}
