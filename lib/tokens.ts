/**
 * Token counts with OpenAI's o200k_base encoding (GPT-4o and later), the closest widely used
 * measure of what a file costs in a model's context. gpt-tokenizer is pure JavaScript with the
 * vocabulary bundled, so it works offline and in a service worker.
 */
import o200k, { countTokens as countO200k } from 'gpt-tokenizer';
import { ownString } from './bounded-memo';

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
    const isSpace = code === 32 || (code >= 9 && code <= 13) || (code > 0x7f && isWideSpace(code));
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

/** The spaces of `\s` above ASCII. */
function isWideSpace(code: number): boolean {
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
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
  const rankOf = (from: number, to: number | undefined): number => (to === undefined ? Number.POSITIVE_INFINITY : (RANKS.get(text.slice(from, to)) ?? Number.POSITIVE_INFINITY));
  const starts: number[] = [];
  const ranks: number[] = [];
  for (let i = 0; i <= text.length; i++) {
    starts.push(i);
    ranks.push(i < text.length - 1 ? rankOf(i, i + 2) : Number.POSITIVE_INFINITY);
  }
  while (starts.length > 1) {
    let lowest = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let i = 0; i < ranks.length - 1; i++) {
      if ((ranks[i] as number) < lowest) {
        lowest = ranks[i] as number;
        at = i;
      }
    }
    if (at < 0) break;
    starts.splice(at + 1, 1);
    ranks.splice(at, 1);
    ranks[at] = rankOf(starts[at] as number, starts[at + 2]);
    if (at > 0) ranks[at - 1] = rankOf(starts[at - 1] as number, starts[at + 1]);
  }
  return starts.length - 1;
}
