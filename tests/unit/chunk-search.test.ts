/**
 * The search index's faster paths (lib/agents/chunk-search.ts) against MiniSearch's own, on the
 * chunks of a real crawl of the Node.js docs (served on loopback): searches rank what MiniSearch's
 * `search` ranks, whole words and the side panel's prefix and fuzzy matches, in its order with its
 * scores, ties included (every page is indexed twice, under two paths, so that every score has a
 * twin); the saved bytes load into an index
 * that answers the same, before and after MiniSearch's Maps are made from them; a loaded index
 * takes new chunks. (Each test indexes the crawl again: two minutes each allowed on a shared machine.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChunkSearch } from '@/lib/agents/chunk-search';
import { docsFolderFromDb } from '@/lib/agents/from-db';
import { AGENT_TUNING, chunksOf, DEFAULT_TUNING, indexOptions, type Chunk, type IndexPage } from '@/lib/agents/search-index';
import { createDb } from '@/lib/store/db';
import { crawlSite } from '@/lib/headless/crawl-site';
import { nodeDocsSite } from '../fixtures/real-docs';
import { loopbackFetch, startFixtureServer } from '../fixtures/server';

/** Questions and identifiers as an agent or a person asks them; repeated and unknown words included. */
const QUERIES = [
  'read a file asynchronously with promises',
  'pipe a readable stream into a writable stream with backpressure',
  'spawn a child process and read its stdout',
  'hash a password with scrypt or compute an HMAC',
  'fs.readFile',
  'EventEmitter once error event',
  'Buffer.from base64 string encoding',
  'worker_threads MessagePort postMessage transfer',
  'stream stream stream pipeline',
  'the of and',
  'qwxzvbnmlkj zebra',
  'exit code 0.1 127.0.0.1 3.11',
  'AsyncLocalStorage run getStore',
  'http.createServer request response headers',
];

const boost = { title: AGENT_TUNING.titleBoost, heading: AGENT_TUNING.headingBoost };

let chunks: Chunk[] = [];

beforeAll(async () => {
  const server = await startFixtureServer({ 'nodejs.test': nodeDocsSite() });
  const db = createDb(`chunk-search-${crypto.randomUUID()}`);
  try {
    const { job } = await crawlSite({ db, startUrl: server.url('nodejs.test', '/index.html'), fetch: loopbackFetch(), output: {} });
    const folder = await docsFolderFromDb(db, job.origin, { scoutVersion: 'test' });
    if (!folder) throw new Error('the Node.js crawl made no docs folder');
    const text = new Map(folder.files.map((file) => [file.relativePath, file.text]));
    const pages: IndexPage[] = folder.manifest.pages.map((page) => ({ site: 'node', path: page.path, url: page.url, title: page.title, section: page.section, markdown: text.get(page.path) ?? '' }));
    // Every page twice: equal scores everywhere, so the order of ties is tested on every query.
    chunks = [...pages, ...pages.map((page) => ({ ...page, path: `copy/${page.path}` }))].flatMap(chunksOf);
  } finally {
    await db.delete();
    await server.close();
  }
}, 300_000);

afterAll(() => {
  chunks = [];
});

const built = () => {
  const search = new ChunkSearch<Chunk>(indexOptions(AGENT_TUNING));
  search.addAll(chunks);
  return search;
};

/** MiniSearch's answer in the shape searchWords gives. */
const miniSearch = (search: ChunkSearch<Chunk>, query: string, options: Parameters<ChunkSearch<Chunk>['search']>[1] = {}) => search.search(query, options).map((r) => ({ id: String(r.id), score: r.score, terms: r.terms }));

/** The side panel's matching (lib/agents/search-index.ts DEFAULT_TUNING): the last word's prefixes, typos in long words. */
const asYouType = {
  prefix: (term: string, i: number, terms: string[]) => i === terms.length - 1 && term.length >= 3,
  fuzzy: (term: string) => (term.length >= DEFAULT_TUNING.fuzzyMinLength ? 0.15 : false),
};

/** What a person types on the way to a query, and typos: the last word half typed, a letter wrong. */
const TYPED = ['read a fi', 'asyn', 'EventEmit', 'Buffer.fr', 'worker_thr', 'stream pip', 'asynchronus iterator', 'promisses readFile', 'cryptografy hash', 'http 2', 'sha 256', 'ob'];

describe('whole-word search', () => {
  it('ranks as MiniSearch does: the same chunks, scores and words, ties in the same order', () => {
    expect(chunks.length).toBeGreaterThan(1000);
    const search = built();
    for (const query of QUERIES) {
      const expected = miniSearch(search, query);
      expect(search.searchWords(query, { boost }), query).toEqual(expected);
    }
    // The questions match, over the 400 that puts the best 100 in order first: an empty answer would prove nothing.
    expect(search.searchWords(QUERIES[0] ?? '', { boost }).length).toBeGreaterThan(400);
    expect(search.searchWords('qwxzvbnmlkj zebra', { boost })).toEqual([]);
  }, 120_000);

  it("ranks prefix and fuzzy matches as MiniSearch does (the side panel's search as you type)", () => {
    const search = built();
    const boosted = { boost: { title: DEFAULT_TUNING.titleBoost, heading: DEFAULT_TUNING.headingBoost } };
    for (const query of [...TYPED, ...QUERIES]) {
      expect(search.searchWords(query, { ...boosted, ...asYouType }), query).toEqual(miniSearch(search, query, asYouType));
    }
    // Prefixes and typos do find more than the whole words alone.
    expect(search.searchWords('asyn', { ...boosted, ...asYouType }).length).toBeGreaterThan(search.searchWords('asyn', boosted).length);
    expect(search.searchWords('asynchronus', { ...boosted, ...asYouType }).length).toBeGreaterThan(search.searchWords('asynchronus', boosted).length);
  }, 120_000);

  it('keeps only what `keep` passes and stops where `enough` says', () => {
    const search = built();
    const query = 'spawn a child process and read its stdout';
    const all = search.searchWords(query, { boost });
    const copies = search.searchWords(query, { boost, keep: (id) => id.includes('\u0000copy/') });
    expect(copies).toEqual(all.filter((hit) => hit.id.includes('\u0000copy/')));
    for (const wanted of [7, 250]) {
      let seen = 0;
      expect(search.searchWords(query, { boost, enough: () => ++seen >= wanted })).toEqual(all.slice(0, wanted));
    }
    expect(all.length).toBeGreaterThan(400);
  }, 120_000);
});

describe('the saved index', () => {
  it('loads from its bytes (or lets its Maps go) and answers the same, from the packed postings and from Maps made of them', () => {
    const search = built();
    const bytes = search.toBytes();
    // Loaded from a copy that does not start at a multiple of four bytes, as from a file after its header line.
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    // And an index built here that let MiniSearch's Maps go (compact), as an agent's does.
    const compacted = built();
    compacted.compact();
    for (const loaded of [ChunkSearch.fromBytes<Chunk>(bytes, indexOptions(AGENT_TUNING)), ChunkSearch.fromBytes<Chunk>(shifted.subarray(3), indexOptions(AGENT_TUNING)), compacted]) {
      expect(loaded.documentCount).toBe(search.documentCount);
      for (const query of QUERIES) expect(loaded.searchWords(query, { boost }), query).toEqual(search.searchWords(query, { boost }));
      // Prefix and fuzzy matching, and MiniSearch's own search, need its Maps: made on the way.
      // (Its word tree is built again in another order, so prefix matches are summed in another order: compared with MiniSearch's on the same index.)
      for (const query of TYPED) expect(loaded.searchWords(query, { boost, ...asYouType }), query).toEqual(miniSearch(loaded, query, asYouType));
      for (const query of QUERIES) expect(miniSearch(loaded, query), query).toEqual(miniSearch(search, query));
    }
  }, 120_000);

  it('refuses bytes that are not a saved index, or are cut short', () => {
    const bytes = built().toBytes();
    expect(() => ChunkSearch.fromBytes(new TextEncoder().encode('{"format":"other"}\n'), indexOptions(AGENT_TUNING))).toThrow();
    expect(() => ChunkSearch.fromBytes(bytes.subarray(0, bytes.length - 8), indexOptions(AGENT_TUNING))).toThrow();
  }, 120_000);

  it('takes new chunks after loading, and finds them', () => {
    const loaded = ChunkSearch.fromBytes<Chunk>(built().toBytes(), indexOptions(AGENT_TUNING));
    const extra: Chunk = { id: 'node\u0000pages/new.md\u00000', site: 'node', path: 'pages/new.md', url: 'https://nodejs.test/new', title: 'Quokka', heading: '', section: 'New', text: 'quokkas spawn child processes' };
    loaded.add(extra);
    expect(loaded.searchWords('quokka', { boost }).map((hit) => hit.id)).toEqual([extra.id]);
    const fresh = built();
    fresh.add(extra);
    expect(loaded.searchWords('spawn child process', { boost })).toEqual(fresh.searchWords('spawn child process', { boost }));
  }, 120_000);
});
