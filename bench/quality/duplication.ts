/**
 * Metric 7 — llms-full.txt duplication: the share of the file's characters that repeat content seen
 * earlier in it.
 *
 * The file is cut into blocks at blank lines. A block whose whitespace-collapsed text is at least
 * `minChars` (80) characters long — not counting link targets, so a short line made long by one URL
 * ("_Part of the [Stable ABI](http://…/c-api/stable.html#stable)._") is still short — and equals a
 * block seen earlier in the file is a repeat; the
 * share is (sum of the repeated blocks' lengths, as written) / (file length). Short blocks ("Returns:",
 * "Example") repeat legitimately and are never counted. The per-page `## title` / `Source:` headers
 * are unique by construction, so the figure is about page bodies: chrome repeated on every page, an
 * all-in-one page holding the whole site again, the same page listed under two URLs.
 */

import { stripLinkTargets } from './markdown';

export interface DuplicationResult {
  /** Repeated characters / file characters, 0..1. */
  share: number;
  repeatedChars: number;
  totalChars: number;
  /** The blocks repeated most often (count = times seen after the first), for diagnosis. */
  top: { block: string; repeats: number; chars: number }[];
}

export function fullDuplication(text: string, options: { minChars?: number; keepTop?: number } = {}): DuplicationResult {
  const minChars = options.minChars ?? 80;
  const keepTop = options.keepTop ?? 8;
  const seen = new Map<string, { repeats: number; chars: number }>();
  let repeatedChars = 0;
  for (const block of text.split(/\n[ \t]*\n/)) {
    const key = block.replace(/\s+/g, ' ').trim();
    if (stripLinkTargets(key).length < minChars) continue;
    const before = seen.get(key);
    if (before) {
      before.repeats += 1;
      before.chars += block.length;
      repeatedChars += block.length;
    } else {
      seen.set(key, { repeats: 0, chars: 0 });
    }
  }
  const top = [...seen]
    .filter(([, v]) => v.repeats > 0)
    .sort((a, b) => b[1].chars - a[1].chars)
    .slice(0, keepTop)
    .map(([block, v]) => ({ block: block.length > 160 ? `${block.slice(0, 157)}…` : block, repeats: v.repeats, chars: v.chars }));
  return { share: text.length ? repeatedChars / text.length : 0, repeatedChars, totalChars: text.length, top };
}
