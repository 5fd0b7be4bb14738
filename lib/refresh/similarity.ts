/**
 * How alike two versions of a page are: Jaccard similarity of their word 4-shingles.
 * Why shingles and not a diff: they are order-aware enough to notice rewritten
 * paragraphs, cheap (linear), and the score reads naturally as "share of the text
 * that is the same". Exact sets, not MinHash: a docs page has at most a few
 * thousand shingles, so the exact answer costs about a millisecond.
 */

/** Words per shingle. With 4, changing one word in a 100-word page gives about 0.92. */
export const SHINGLE_WORDS = 4;

/** Default threshold: below this similarity a page counts as changed. */
export const DEFAULT_THRESHOLD = 0.9;

/** Words of the text, lower-cased; Markdown punctuation and whitespace are not content. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** 32-bit FNV-1a of each shingle: sets of numbers are much cheaper than sets of strings. */
export function shingles(text: string, size = SHINGLE_WORDS): Set<number> {
  const w = words(text);
  const out = new Set<number>();
  if (w.length === 0) return out;
  const last = Math.max(0, w.length - size);
  for (let i = 0; i <= last; i++) out.add(fnv1a(w.slice(i, i + size).join(' ')));
  return out;
}

export function jaccard(a: Set<number>, b: Set<number>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const x of small) if (large.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Similarity of two texts, 0 (nothing shared) to 1 (same words in the same order). */
export function similarity(before: string, after: string): number {
  return jaccard(shingles(before), shingles(after));
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
