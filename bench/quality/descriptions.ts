/**
 * Metric 9 — descriptions of non-Optional entries, and metric 10's summary check.
 *
 * A description (or the llms.txt blockquote summary) is *weak* when it
 *  * is a copyright line ("Copyright © …", "© 2024 …", "… All rights reserved");
 *  * ends with ":" — it introduces a list or a code block that is not there;
 *  * starts with "See also", or is one sentence that only points elsewhere ("For information
 *    about terms used in this document see: terminology");
 *  * is a version note: "New in version …", "Changed in version …", "Deprecated since …",
 *    "Added in …", "Version added: …", "Stability: …";
 *  * has fewer than 4 words;
 *  * only repeats the title (equal after lower-casing and dropping punctuation, or the title plus
 *    at most one word).
 * The percentage described counts entries with any description, weak or not; weak ones are
 * counted separately (the goal is ≥ 90 % described, 0 weak).
 */

export type WeakReason = 'copyright' | 'introduces-list' | 'see-also' | 'version-note' | 'too-short' | 'repeats-title';

// One sentence that only says where to read: "For information about terms used in this document see: terminology".
const POINTS_FROM = /^for (?:more |further )?(?:information|details|help)\b/i;
const POINTS_TO = /\b(?:see|refer to)\b/i;
const pointsElsewhere = (text: string): boolean => POINTS_FROM.test(text) && POINTS_TO.test(text) && !/[.!?]/.test(text.slice(0, -1));

const fold = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** Why a description is weak, or null when it is fine. `title` is the entry's title (omit for a summary). */
export function weakReason(text: string, title?: string): WeakReason | null {
  const t = text.trim();
  if (/^(?:copyright\b|©|\(c\)\s*\d{4}|&copy;)|\ball rights reserved\b/i.test(t)) return 'copyright';
  if (/:\s*$/.test(t)) return 'introduces-list';
  if (/^(?:\*\*)?see also\b/i.test(t) || pointsElsewhere(t)) return 'see-also';
  if (/^(?:new in version|changed in version|deprecated since|deprecated in version|added in(?: version)?\b|version added|version changed|stability\s*:)/i.test(t)) return 'version-note';
  const words = t.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length < 4) return 'too-short';
  if (title) {
    const d = fold(t);
    const h = fold(title);
    if (h && (d === h || (d.startsWith(h) && d.slice(h.length).trim().split(' ').length <= 1))) return 'repeats-title';
  }
  return null;
}

export interface DescribedEntry {
  title: string;
  url: string;
  description?: string;
  optional: boolean;
}

export interface DescriptionsResult {
  /** Non-Optional entries. */
  entries: number;
  described: number;
  /** described / entries, 0..1 (null when there are no entries). */
  share: number | null;
  weak: number;
  byReason: Partial<Record<WeakReason, number>>;
  examples: { title: string; url: string; description: string; reason: WeakReason }[];
  /** Some non-Optional entries without a description. */
  undescribed: { title: string; url: string }[];
}

export function descriptionQuality(entries: DescribedEntry[], keepExamples = 12): DescriptionsResult {
  const main = entries.filter((e) => !e.optional);
  const result: DescriptionsResult = { entries: main.length, described: 0, share: null, weak: 0, byReason: {}, examples: [], undescribed: [] };
  for (const e of main) {
    if (!e.description?.trim()) {
      if (result.undescribed.length < keepExamples) result.undescribed.push({ title: e.title, url: e.url });
      continue;
    }
    result.described += 1;
    const reason = weakReason(e.description, e.title);
    if (!reason) continue;
    result.weak += 1;
    result.byReason[reason] = (result.byReason[reason] ?? 0) + 1;
    if (result.examples.length < keepExamples && result.examples.filter((x) => x.reason === reason).length < Math.ceil(keepExamples / 3)) {
      result.examples.push({ title: e.title, url: e.url, description: e.description, reason });
    }
  }
  result.share = main.length ? result.described / main.length : null;
  return result;
}

export interface SummaryResult {
  summary: string | null;
  /** Why the blockquote is weak; 'missing' when there is none. */
  weak: WeakReason | 'missing' | null;
}

/** Metric 10's summary check: the llms.txt blockquote. */
export function summaryQuality(summary: string | undefined): SummaryResult {
  const s = summary?.trim();
  if (!s) return { summary: null, weak: 'missing' };
  return { summary: s, weak: weakReason(s) };
}
