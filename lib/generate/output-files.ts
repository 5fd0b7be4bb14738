/**
 * The files Scout publishes for a site, as stored with each generated version: the llms.txt
 * layout (one flat file, or nested per-section files — see nested.ts) and, for each file, the
 * size and token count of the llms-full.txt beside it. The full texts themselves are not stored
 * again: each is cut page by page from the site's llms-full.txt (see full-text.ts) when it is
 * viewed, downloaded or zipped.
 */
import type { BodyCounts } from './body-counts';
import { assembleFull, bodyOf as cut, fullTextPieces, indexFullText, type FullIndexEntry, type FullPart, type FullTotals } from './full-text';
import { leanMarkdown } from './lean-links';
import { markdownLinks } from './link-tree';
import { nestOutput, type NestedFile, type NestModel } from './nested';
import type { OutputSettings } from './output-settings';
import { countTokens } from '../tokens';
import { dedupeKey } from '../url/normalize';
import type { OutputFile, OutputFiles } from '../store/records/generate';

/** Stored with each version, so the store holds their shape (lib/store/records/generate.ts). */
export type { OutputFile, OutputFiles } from '../store/records/generate';

/**
 * The pages of a full-text file, in the order of `keys`, cut from the site's llms-full.txt;
 * with `lean`, their links made lean for exactly this set of pages.
 */
export function fileParts(fullText: string, index: FullIndexEntry[], keys: string[], options: { origin: string; lean: boolean }, cache = new Map<string, string>()): FullPart[] {
  return [...eachFilePart((entry) => cut(fullText, entry), index, keys, options, cache)];
}

/** `fileParts`, each part made when it is taken, its body given by `bodyOf`. */
function* eachFilePart(bodyOf: (entry: FullIndexEntry) => string, index: FullIndexEntry[], keys: string[], options: { origin: string; lean: boolean }, cache: Map<string, string>): Generator<FullPart> {
  const byKey = new Map(index.map((entry) => [entry.key, entry]));
  const entries = keys.map((key) => byKey.get(key)).filter((entry): entry is FullIndexEntry => entry !== undefined);
  const inFile = new Set(entries.flatMap((entry) => [dedupeKey(entry.url), ...(entry.link ? [dedupeKey(entry.link)] : [])]));
  const context = { origin: options.origin, inFile: (key: string) => inFile.has(key) };
  for (const entry of entries) {
    const body = bodyOf(entry);
    yield { key: entry.key, title: entry.title, url: entry.url, body: options.lean ? leanMarkdown(body, entry.url, context, cache) : body };
  }
}

/** The text of a file's llms-full.txt. */
export function fileFullText(fullText: string, files: OutputFiles, file: NestedFile, origin: string): string {
  const parts = fileParts(fullText, files.index, file.keys, { origin, lean: files.settings.leanLinks });
  return assembleFull({ title: file.title, ...(file.summary ? { summary: file.summary } : {}) }, parts);
}

/**
 * Each file's llms-full.txt as `buildOutputFiles` made it to count it, by the file's place in the
 * layout, in pieces that joined are the file (`fullTextPieces`), for a caller that writes the
 * files out (the CLI) to keep instead of making them again. The sink takes every piece before it
 * returns (each is made, and counted, as it is taken).
 */
export type FullTextSink = (fileIndex: number, pieces: Iterable<string>) => void;

/**
 * Lays out the files for a generated version and counts every file. `fullText` is the site's
 * llms-full.txt as generated, or, better, where each body is in it with the bodies
 * (`renderLlmsFull`'s `index` and `bodies`): then the text is never read, and need never be
 * joined into one string beside the bodies it is made of. `counts` caches page-body counts
 * across versions. `fullTexts`, when given, is handed each file's llms-full.txt (exactly
 * `fileFullText`'s) as soon as it is counted.
 */
export function buildOutputFiles(input: { model: NestModel; flatText: string; fullText: string | { index: FullIndexEntry[]; bodies: string[] }; origin: string; settings: OutputSettings; counts: BodyCounts; plainCounts?: Map<string, { count: number }>; fullTexts?: FullTextSink }): OutputFiles {
  const { model, fullText, origin, settings, counts } = input;
  const index = typeof fullText === 'string' ? indexFullText(fullText, model.sections) : fullText.index;
  const bodies = typeof fullText === 'string' ? undefined : new Map(fullText.index.map((entry, i) => [entry, fullText.bodies[i] ?? '']));
  const bodyOf = (entry: FullIndexEntry): string => (bodies ? (bodies.get(entry) ?? '') : cut(fullText as string, entry));
  // The generator counted every plain body already (GeneratedOutput.fullTokens): no need to again.
  for (const entry of index) {
    const known = input.plainCounts?.get(entry.key);
    if (known) counts.seed(entry.key, bodyOf(entry), known.count);
  }
  const links = markdownLinks(index.map((entry) => ({ key: entry.key, urls: [entry.url, ...(entry.link ? [entry.link] : [])], markdown: bodyOf(entry), base: entry.url })));
  const budget = settings.layout === 'flat' ? Number.POSITIVE_INFINITY : settings.budget;
  const nested = nestOutput(model, { origin, budget, links });
  const cache = new Map<string, string>();
  const byKey = new Map(index.map((entry) => [entry.key, entry]));
  const files = nested.map((file, i): OutputFile => {
    const head = { title: file.title, ...(file.summary ? { summary: file.summary } : {}) };
    // One pass over the file's parts, each made as its piece is written and counted: the root
    // file's parts are every page's body again (made lean), never all held beside the site's text.
    const full: FullTotals = { chars: 0, tokens: 0, pages: 0, done: false };
    const pieces = fullTextPieces(head, eachFilePart(bodyOf, index, file.keys, { origin, lean: settings.leanLinks }, cache), countTokens, (part) => {
      const n = counts.get(part.key, part.body);
      // The root holds every page: its counts are the estimates context packs start from.
      const entry = i === 0 ? byKey.get(part.key) : undefined;
      if (entry) entry.tokens = n;
      return n;
    }, full);
    input.fullTexts?.(i, pieces);
    // What the caller did not take (without a caller: every piece) is counted here.
    while (!pieces.next().done);
    if (!full.done) throw new Error('A full-text sink stopped before the last piece: the file was not counted.');
    return { ...file, chars: file.text.length, tokens: countTokens(file.text), full: { chars: full.chars, tokens: full.tokens, pages: full.pages } };
  });
  return { settings, flatChars: input.flatText.length, files, index };
}
