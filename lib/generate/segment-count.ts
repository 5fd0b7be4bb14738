/**
 * Exact o200k token counts of many similar texts, cheaper together: each text is cut into short
 * segments whose counts add up to the text's count, and each distinct segment is tokenized once.
 * A site's plain page bodies and their lean-link variants (one per full-text file holding the
 * page) share most segments, as do pages of one site (headers, code, phrases).
 */
import { ownString } from '../bounded-memo';
import { countAsciiPreToken, countTokens, MAX_RUN } from '../tokens';

const WHITESPACE = /\s/u;
const isAlnum = (code: number) => (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
const isSpace = (text: string, at: number): boolean => {
  const code = text.charCodeAt(at);
  return code < 128 ? code === 32 || (code >= 9 && code <= 13) : WHITESPACE.test(text.charAt(at));
};

/**
 * `text` in segments whose o200k counts add up to the count of the whole. A lean body differs
 * from the plain one only in its links' targets, so short segments cut where the text itself says
 * (not every n characters) are the same on both sides around each change. Cuts are where no
 * o200k pre-token can span, and the regex decides the same on either side of them (about a third
 * of the candidates, chosen by the characters around each, so segments hold a few words):
 *
 * - before ASCII punctuation (not `'`) that follows an ASCII letter or digit: letter runs (with
 *   their optional `'s`) and digit runs stop there, and the punctuation starts the next pre-token
 *   (`https://docs.python.org/3/library/os.html#os.path` cuts inside: its targets are what lean
 *   links change);
 * - before a space between two non-spaces: no pre-token holds a space but at its start (or in a
 *   run of spaces), so the one before ends there and the next starts with that space;
 * - after a newline followed by spaces or tabs and then a non-space, or directly by a non-space
 *   other than `/`: a run of spaces ending in newlines ends at its last newline, letter and digit
 *   runs stop at a newline, and a punctuation run takes only `\r`, `\n` and `/` after it.
 *
 * The regex looks behind nowhere, and its one lookahead (`\s+(?!\S)`) never reaches across such a
 * cut, so each segment splits into the same pre-tokens alone as in place; BPE works per pre-token.
 */
export function segmentsOf(text: string): string[] {
  const segments: string[] = [];
  segmentRanges(text, 0, text.length, (from, to) => segments.push(text.slice(from, to)));
  return segments;
}

/** `segmentsOf(text.slice(from, to))` as index ranges of `text`, each handed to `each`: no string is cut. */
function segmentRanges(text: string, from: number, to: number, each: (from: number, to: number) => void): void {
  let start = from;
  for (let at = from + 1; at + 1 < to; at++) {
    const code = text.charCodeAt(at);
    if (code === 10) {
      let next = at + 1;
      while (next < to && (text.charCodeAt(next) === 32 || text.charCodeAt(next) === 9)) next++;
      if (next >= to || isSpace(text, next) || (next === at + 1 && text.charCodeAt(next) === 47)) continue;
      if (at + 1 > start) each(start, at + 1);
      start = at + 1;
    } else if (code > 32 && code < 127 && code !== 39 && !isAlnum(code) && isAlnum(text.charCodeAt(at - 1))) {
      if ((text.charCodeAt(at - 1) + code) % 3 !== 0) continue;
      if (at > start) each(start, at);
      start = at;
    } else if (code === 32) {
      if ((text.charCodeAt(at - 1) + text.charCodeAt(at + 1)) % 3 !== 0 || isSpace(text, at - 1) || isSpace(text, at + 1)) continue;
      if (at > start) each(start, at);
      start = at;
    }
  }
  each(start, to);
}

/**
 * `text` in paragraphs: cut after the last newline of each blank line that a non-space other than
 * `/` follows directly. Every such cut is one `segmentsOf` makes too, and no rule of its decides
 * across one (the newline rule looks ahead only over spaces and tabs), so the segments of the
 * paragraphs, in order, are the segments of the text.
 */
export function paragraphsOf(text: string): string[] {
  const paragraphs: string[] = [];
  paragraphRanges(text, (from, to) => paragraphs.push(text.slice(from, to)));
  return paragraphs;
}

/** `paragraphsOf(text)` as index ranges of `text`, each handed to `each`. */
function paragraphRanges(text: string, each: (from: number, to: number) => void): void {
  let start = 0;
  for (let at = text.indexOf('\n\n', 1); at >= 0 && at + 2 < text.length; at = text.indexOf('\n\n', at + 1)) {
    const next = text.charCodeAt(at + 2);
    if (next === 47 || isSpace(text, at + 2)) continue;
    each(start, at + 2);
    start = at + 2;
  }
  each(start, text.length);
}

/**
 * Counts under a piece's 64-bit hash (cyrb53's two halves, its length mixed in, read in place), in
 * an open-addressed table of one typed array, a slot's hash halves and count side by side. Two
 * different pieces share a key only when both halves meet: about once in 1.8·10^19 pairs. No key
 * or count is an object of its own: in a Map under 53-bit numbers nearly every key is a heap
 * number, and on the Python docs its lookups took half as long as tokenizing the pieces they saved.
 * The table is an ArrayBuffer outside V8's heap, tens of MB on a large site at generation's
 * fullest: a slot is three 32-bit numbers, not four (the length kept beside the hash).
 */
class PieceCounts {
  private capacity = 1 << 10;
  /** Per slot: hash halves h1 and h2, and the count plus one (0 marks a free slot). */
  private slots = new Int32Array(this.capacity * SLOT);
  private size = 0;
  // The piece `get` last missed: `set` stores its count there.
  private slot = 0;
  private h1 = 0;
  private h2 = 0;

  /** The count of `text.slice(from, to)` if known, else -1 (then `set` stores it). */
  get(text: string, from: number, to: number): number {
    // The length seeds the hash: pieces of different lengths then differ in both halves.
    const length = to - from;
    let h1 = 0xdeadbeef ^ length;
    let h2 = 0x41c6ce57 ^ length;
    for (let i = from; i < to; i++) {
      const code = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    const slots = this.slots;
    const mask = this.capacity - 1;
    let slot = h1 & mask;
    for (let held = slots[slot * SLOT + 2] as number; held !== 0; held = slots[slot * SLOT + 2] as number) {
      if (slots[slot * SLOT] === h1 && slots[slot * SLOT + 1] === h2) return held - 1;
      slot = (slot + 1) & mask;
    }
    this.slot = slot;
    this.h1 = h1;
    this.h2 = h2;
    return -1;
  }

  /** Stores `count` for the piece the last `get` did not find. */
  set(count: number): void {
    this.put(this.slots, this.slot, this.h1, this.h2, count + 1);
    // Kept at most half full, so a miss ends at a free slot within a few steps.
    if (++this.size * 2 > this.capacity) this.grow();
  }

  private put(slots: Int32Array, slot: number, h1: number, h2: number, held: number): void {
    slots[slot * SLOT] = h1;
    slots[slot * SLOT + 1] = h2;
    slots[slot * SLOT + 2] = held;
  }

  private grow(): void {
    const old = this.slots;
    this.capacity *= 2;
    const slots = new Int32Array(this.capacity * SLOT);
    const mask = this.capacity - 1;
    for (let i = 0; i < old.length; i += SLOT) {
      const held = old[i + 2] as number;
      if (held === 0) continue;
      const h1 = old[i] as number;
      let slot = h1 & mask;
      while (slots[slot * SLOT + 2] !== 0) slot = (slot + 1) & mask;
      this.put(slots, slot, h1, old[i + 1] as number, held);
    }
    this.slots = slots;
  }
}

/** 32-bit numbers per slot of a `PieceCounts` table. */
const SLOT = 3;

// ASCII character classes of the o200k pre-token pattern (gpt-tokenizer's `tokenSplitRegex`).
const OTHER = 0; // neither letter, digit nor space: punctuation, symbols, control characters
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const BLANK = 4; // a space other than a line break: space, tab, vertical tab, form feed
const BREAK = 5; // \r or \n
const ASCII_CLASS = new Uint8Array(128).map((_, code) => {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === 10 || code === 13) return BREAK;
  if (code === 32 || code === 9 || code === 11 || code === 12) return BLANK;
  return OTHER;
});
const classAt = (text: string, at: number) => ASCII_CLASS[text.charCodeAt(at)] as number;
const isLetter = (cls: number) => cls === LOWER || cls === UPPER;
const isSpaceClass = (cls: number) => cls === BLANK || cls === BREAK;

/** Where the ASCII text's `'s`, `'d`, `'m`, `'t`, `'ll`, `'ve` or `'re` starting at `at` ends, else `at`. */
function contractionEnd(text: string, at: number, to: number): number {
  if (at + 1 >= to || text.charCodeAt(at) !== 39) return at;
  const a = text.charCodeAt(at + 1) | 32;
  if (a === 115 || a === 100 || a === 109 || a === 116) return at + 2;
  if (at + 2 >= to) return at;
  const b = text.charCodeAt(at + 2) | 32;
  return (a === 108 && b === 108) || (a === 118 && b === 101) || (a === 114 && b === 101) ? at + 3 : at;
}

/**
 * Where the o200k pre-token starting at `at` in the all-ASCII `text.slice(0, to)` ends: the
 * pattern's alternatives tried in its order, as the regex engine backtracks through them over
 * ASCII, where a letter is A–Z or a–z, `\s` is a space, tab, line break, vertical tab or form feed,
 * and every other character (punctuation, symbols, controls) is neither.
 */
function preTokenEnd(text: string, at: number, to: number): number {
  const cls = classAt(text, at);
  // [^\r\n\p{L}\p{N}]?[\p{Lu}…]*[\p{Ll}…]+('s…)? | [^\r\n\p{L}\p{N}]?[\p{Lu}…]+[\p{Ll}…]*('s…)?
  let start = -1;
  if (isLetter(cls)) start = at;
  else if ((cls === OTHER || cls === BLANK) && at + 1 < to && isLetter(classAt(text, at + 1))) start = at + 1;
  if (start >= 0) {
    let end = start;
    while (end < to && classAt(text, end) === UPPER) end++;
    while (end < to && classAt(text, end) === LOWER) end++;
    return contractionEnd(text, end, to);
  }
  // \p{N}{1,3}
  if (cls === DIGIT) {
    let end = at + 1;
    while (end < to && end < at + 3 && classAt(text, end) === DIGIT) end++;
    return end;
  }
  // " ?[^\s\p{L}\p{N}]+[\r\n/]*"
  const punct = text.charCodeAt(at) === 32 ? at + 1 : at;
  if (punct < to && classAt(text, punct) === OTHER) {
    let end = punct + 1;
    while (end < to && classAt(text, end) === OTHER) end++;
    while (end < to && (classAt(text, end) === BREAK || text.charCodeAt(end) === 47)) end++;
    return end;
  }
  // What is left starts with a space: \s*[\r\n]+ (up to the run's last line break),
  // \s+(?!\S) (the run, less its last space before a non-space), \s+.
  let end = at + 1;
  let lastBreak = cls === BREAK ? at : -1;
  while (end < to && isSpaceClass(classAt(text, end))) {
    if (classAt(text, end) === BREAK) lastBreak = end;
    end++;
  }
  if (lastBreak >= 0) return lastBreak + 1;
  if (end === to) return end;
  return end - 1 > at ? end - 1 : end;
}

/** `text`'s o200k pre-tokens, for a text of ASCII characters only (what `preTokenEnd` reads). */
export function asciiPreTokensOf(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    const end = preTokenEnd(text, at, text.length);
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

function isAscii(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/**
 * A counter that gives `countTokens(text)`, tokenizing each distinct segment once. Keep one per
 * generation. Its caches hold each distinct paragraph's and segment's count under the piece's
 * length and hash, not the piece: a site's Markdown counted in paragraphs (its pages, each file's
 * lean copy) would otherwise stay in memory as copies as large as the site. A whole paragraph
 * counted before is one lookup: a page's lean variants differ from its plain body only in the
 * paragraphs holding links, so most of each variant is found without cutting it into segments.
 */
export function segmentCounter(): (text: string) => number {
  const segmentCounts = new PieceCounts();
  const paragraphCounts = new PieceCounts();
  const preTokenCounts = new PieceCounts();
  // A copy of its own: the tokenizer's merge cache keeps the pre-tokens it cut from what it
  // counted, and views into the counted text would keep that whole text (a page, a file) alive.
  const tokenize = (text: string, from: number, to: number) => countTokens(ownString(text.slice(from, to)));
  const countSegment = (text: string, from: number, to: number): number => {
    const known = segmentCounts.get(text, from, to);
    if (known >= 0) return known;
    let n = 0;
    // BPE works per pre-token, and a pre-token alone is one pre-token again, so an ASCII segment
    // is counted pre-token by pre-token, each distinct one merged once (countAsciiPreToken): the words and
    // punctuation of a site's new segments are nearly all old ones. Cut here, no string or regex
    // match is made per pre-token. Longer segments are counted whole, as countTokens cuts long runs.
    if (to - from <= MAX_RUN && isAscii(text, from, to)) {
      for (let at = from; at < to; ) {
        const end = preTokenEnd(text, at, to);
        let count = preTokenCounts.get(text, at, end);
        if (count < 0) {
          // Not kept by the count: a view into the text will do.
          count = countAsciiPreToken(text.slice(at, end));
          preTokenCounts.set(count);
        }
        n += count;
        at = end;
      }
    } else n = tokenize(text, from, to);
    segmentCounts.set(n);
    return n;
  };
  return (text: string): number => {
    let total = 0;
    paragraphRanges(text, (from, to) => {
      let sum = paragraphCounts.get(text, from, to);
      if (sum < 0) {
        let counted = 0;
        segmentRanges(text, from, to, (start, end) => {
          counted += countSegment(text, start, end);
        });
        paragraphCounts.set(counted);
        sum = counted;
      }
      total += sum;
    });
    return total;
  };
}
