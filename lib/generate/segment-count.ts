/**
 * Exact o200k token counts of many similar texts, cheaper together: each text is cut into short
 * segments whose counts add up to the text's count, and each distinct segment is tokenized once.
 * A site's plain page bodies and their lean-link variants (one per full-text file holding the
 * page) share most segments, as do pages of one site (headers, code, phrases).
 */
import { countTokens } from '../tokens';

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
  let start = 0;
  for (let at = 1; at + 1 < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 10) {
      let next = at + 1;
      while (next < text.length && (text.charCodeAt(next) === 32 || text.charCodeAt(next) === 9)) next++;
      if (next >= text.length || isSpace(text, next) || (next === at + 1 && text.charCodeAt(next) === 47)) continue;
      if (at + 1 > start) segments.push(text.slice(start, at + 1));
      start = at + 1;
    } else if (code > 32 && code < 127 && code !== 39 && !isAlnum(code) && isAlnum(text.charCodeAt(at - 1))) {
      if ((text.charCodeAt(at - 1) + code) % 3 !== 0) continue;
      if (at > start) segments.push(text.slice(start, at));
      start = at;
    } else if (code === 32) {
      if ((text.charCodeAt(at - 1) + text.charCodeAt(at + 1)) % 3 !== 0 || isSpace(text, at - 1) || isSpace(text, at + 1)) continue;
      if (at > start) segments.push(text.slice(start, at));
      start = at;
    }
  }
  segments.push(text.slice(start));
  return segments;
}

/**
 * `text` in paragraphs: cut after the last newline of each blank line that a non-space other than
 * `/` follows directly. Every such cut is one `segmentsOf` makes too, and no rule of its decides
 * across one (the newline rule looks ahead only over spaces and tabs), so the segments of the
 * paragraphs, in order, are the segments of the text.
 */
export function paragraphsOf(text: string): string[] {
  const paragraphs: string[] = [];
  let start = 0;
  for (let at = text.indexOf('\n\n', 1); at >= 0 && at + 2 < text.length; at = text.indexOf('\n\n', at + 1)) {
    const next = text.charCodeAt(at + 2);
    if (next === 47 || isSpace(text, at + 2)) continue;
    paragraphs.push(text.slice(start, at + 2));
    start = at + 2;
  }
  paragraphs.push(text.slice(start));
  return paragraphs;
}

/**
 * `text` in a string of its own. V8 makes a slice of 13 characters or more a view into the string
 * it was cut from, which it keeps alive: a cache keyed by such slices would hold every text it
 * ever counted (a site's llms-full.txt and each file's lean copy of it), not its distinct pieces.
 * Joining forces a fresh flat string, and the slice of that holds only itself.
 */
const ownCopy = (text: string): string => (text.length < 13 ? text : `${text} `.slice(0, -1));

/**
 * A counter that gives exactly `countTokens(text)`, tokenizing each distinct segment once. Keep
 * one per generation: its caches hold each distinct paragraph and segment it counted (copies, not
 * views into the texts). A whole paragraph that was counted before is one lookup: a page's lean
 * variants differ from its plain body only in the paragraphs holding links, so most of each
 * variant is found without cutting it into segments.
 */
export function segmentCounter(): (text: string) => number {
  const segmentCounts = new Map<string, number>();
  const paragraphCounts = new Map<string, number>();
  return (text: string): number => {
    let total = 0;
    for (const paragraph of paragraphsOf(text)) {
      let sum = paragraphCounts.get(paragraph);
      if (sum === undefined) {
        sum = 0;
        // The segments kept are views into this copy, which the paragraph cache keeps anyway.
        const own = ownCopy(paragraph);
        for (const segment of segmentsOf(own)) {
          let n = segmentCounts.get(segment);
          if (n === undefined) {
            n = countTokens(segment);
            segmentCounts.set(segment, n);
          }
          sum += n;
        }
        paragraphCounts.set(own, sum);
      }
      total += sum;
    }
    return total;
  };
}
