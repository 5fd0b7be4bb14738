/**
 * Token counts with OpenAI's o200k_base encoding (GPT-4o and later), the closest widely used
 * measure of what a file costs in a model's context. gpt-tokenizer is pure JavaScript with the
 * vocabulary bundled, so it works offline and in a service worker.
 */
import o200k, { countTokens as countO200k } from 'gpt-tokenizer';
import { ownString } from './bounded-memo';
import { isSpaceCode } from './whitespace';

// By default gpt-tokenizer throws on text that contains a special token such as `<|endoftext|>`;
// documentation about tokenizers quotes them, and here they are plain text to be counted.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

// Byte-pair merging costs the square of a pre-token's length, and the encoder keeps a run of
// spaces, or of letters or punctuation without a space, as one pre-token: a page of 600 KB of "]("
// took minutes to count. Such a run is counted in pieces of this many characters (each cut can
// change the count by a token or so; the count is a budget, not a bill).
export const MAX_RUN = 256;

/** o200k_base tokens in `text`; 0 for an empty string. Never throws. */
export function countTokens(text: string): number {
  if (text === '') return 0;
  // No run can be longer than the text: a short text (most counted segments) is one piece.
  if (text.length <= MAX_RUN) return countPiece(text);
  let total = 0;
  let from = 0;
  let run = 0;
  let runIsSpace = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const isSpace = code === 32 || (code >= 9 && code <= 13) || (code > 0x7f && isSpaceCode(code));
    run = isSpace === runIsSpace ? run + 1 : 1;
    runIsSpace = isSpace;
    if (run > MAX_RUN) {
      total += countPiece(text.slice(from, i));
      from = i;
      run = 1;
    }
  }
  return total + countPiece(text.slice(from));
}


function countPiece(text: string): number {
  if (text === '') return 0;
  try {
    return countO200k(text, PLAIN_TEXT);
  } catch {
    // Not expected with special tokens allowed as text; a rough estimate beats failing an export.
    return Math.ceil(text.length / 4);
  }
}

/**
 * The o200k vocabulary's ranks by token text, as gpt-tokenizer holds them for its own byte-pair
 * merging (every token that is valid UTF-8, so every ASCII one); undefined should a version of
 * the package no longer hold them so, and then `countAsciiPreToken` asks `countTokens`.
 */
const RANKS: ReadonlyMap<string, number> | undefined = (() => {
  const core = (o200k as unknown as { bytePairEncodingCoreProcessor?: { bytePairStringRankEncoder?: unknown } }).bytePairEncodingCoreProcessor;
  const ranks = core?.bytePairStringRankEncoder;
  return ranks instanceof Map && ranks.get('!') === 0 && ranks.get('hello') !== undefined ? (ranks as Map<string, number>) : undefined;
})();

/**
 * `countTokens(text)` for a `text` that is one o200k pre-token of ASCII characters only (as
 * lib/generate/segment-count.ts cuts them): gpt-tokenizer's byte-pair merge, made on the text's
 * characters, which for ASCII are its UTF-8 bytes. The package's own path splits the text by its
 * pre-token regex again, checks for special tokens, and encodes and decodes each candidate pair's
 * bytes to look it up: for the first count of a site's pages that took most of the tokenizer's time.
 * Parts are merged as the package merges them: the adjacent pair of lowest rank first, the
 * leftmost of equal ones, until no pair is a token; the count is the parts left.
 */
export function countAsciiPreToken(text: string): number {
  // The package's merge cache keeps what it counted: a copy of its own, not a view into a page.
  if (!RANKS || text.length > MAX_RUN) return countTokens(ownString(text));
  if (text === '') return 0;
  if (text.length === 1 || RANKS.has(text)) return 1;
  const ranks = RANKS;
  // starts[i]: where part i begins (starts[parts] is the text's end); rank[i]: the rank of parts i
  // and i + 1 joined, NO_TOKEN when that is no token. In scratch arrays (a pre-token is at most
  // MAX_RUN long): a merge shifts the tail of both down by one, as splicing would, with no array made.
  let parts = text.length;
  for (let i = 0; i < parts; i++) {
    STARTS[i] = i;
    RANK[i] = i + 1 < parts ? pairRank(ranks, text.charCodeAt(i), text.charCodeAt(i + 1)) : NO_TOKEN;
  }
  STARTS[parts] = parts;
  const rankOf = (from: number, to: number): number => ranks.get(text.slice(from, to)) ?? NO_TOKEN;
  while (parts > 1) {
    let lowest = NO_TOKEN;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      const rank = RANK[i] as number;
      if (rank < lowest) {
        lowest = rank;
        at = i;
      }
    }
    if (at < 0) break;
    // Parts at and at + 1 become one: what followed moves down by one.
    for (let i = at + 1; i < parts; i++) {
      STARTS[i] = STARTS[i + 1] as number;
      RANK[i] = RANK[i + 1] as number;
    }
    parts--;
    RANK[at] = at + 1 < parts ? rankOf(STARTS[at] as number, STARTS[at + 2] as number) : NO_TOKEN;
    if (at > 0) RANK[at - 1] = rankOf(STARTS[at - 1] as number, STARTS[at + 1] as number);
  }
  return parts;
}

/** A rank above every token's: the pair is no token. */
const NO_TOKEN = 0x7fffffff;
const STARTS = new Int32Array(MAX_RUN + 1);
const RANK = new Int32Array(MAX_RUN + 1);

/**
 * Ranks of two-character ASCII tokens by their two codes, found in the vocabulary once each:
 * every pre-token's merge starts with a lookup for each pair of neighbours, most of them the same
 * few thousand pairs. 0 is not yet looked up, else the rank plus one, or -1 for no token.
 */
const PAIRS = new Int32Array(128 * 128);

function pairRank(ranks: ReadonlyMap<string, number>, a: number, b: number): number {
  // Only ASCII is held; any other pair (not what this is for) is looked up every time.
  if ((a | b) > 127) return ranks.get(String.fromCharCode(a, b)) ?? NO_TOKEN;
  const key = a * 128 + b;
  let held = PAIRS[key] as number;
  if (held === 0) {
    const rank = ranks.get(String.fromCharCode(a, b));
    held = rank === undefined ? -1 : rank + 1;
    PAIRS[key] = held;
  }
  return held < 0 ? NO_TOKEN : held - 1;
}
