/**
 * Invariant 3 — the llms.txt entry's title agrees with the page's H1 (page-facts.ts: the H1 as a
 * reader sees it).
 *
 * Both are read as lower-case letter/digit words. They agree when
 *  * the words of one are all among the words of the other ("Generating C++ Scanners" and
 *    "18 Generating C++ Scanners"; "os.path" and "os.path — Common pathname manipulations"), or
 *  * their token F1 (the harmonic mean of the shares of each one's words found in the other,
 *    counted with multiplicity) is at least 0.8.
 * A node name ("Cxx") against the heading "18 Generating C++ Scanners", or a member's heading
 * ("Settings") against the class's, do not agree. Pages without any heading are counted apart.
 */
import { words } from './page-facts';

const AGREE_F1 = 0.8;

const tokens = (text: string): string[] => words(text).split(' ').filter(Boolean);

/** Token F1 of two word lists (with multiplicity). */
export function tokenOverlapF1(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const w of b) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of a) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      common += 1;
      counts.set(w, n - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / a.length;
  const recall = common / b.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Whether an entry title agrees with a page's H1 (see the module comment). */
export function titleAgrees(title: string, h1: string): boolean {
  const a = tokens(title);
  const b = tokens(h1);
  if (a.length === 0 || b.length === 0) return false;
  const setA = new Set(a);
  const setB = new Set(b);
  if (a.every((w) => setB.has(w)) || b.every((w) => setA.has(w))) return true;
  return tokenOverlapF1(a, b) >= AGREE_F1;
}

export interface TitleH1Result {
  /** Entries whose page has a heading. */
  pages: number;
  agree: number;
  /** agree / pages; null when no page has a heading. */
  share: number | null;
  /** Entries whose page has no heading at all. */
  noH1: number;
  examples: { url: string; title: string; h1: string }[];
}

/** Invariant 3 over a site's listed entries (`h1` null: the page has no heading; undefined: its HTML is not known). */
export function titleH1Agreement(entries: { url: string; title: string; h1: string | null | undefined }[], keepExamples = 10): TitleH1Result {
  const result: TitleH1Result = { pages: 0, agree: 0, share: null, noH1: 0, examples: [] };
  for (const e of entries) {
    if (e.h1 === undefined) continue;
    if (e.h1 === null) {
      result.noH1 += 1;
      continue;
    }
    result.pages += 1;
    if (titleAgrees(e.title, e.h1)) result.agree += 1;
    else if (result.examples.length < keepExamples) result.examples.push({ url: e.url, title: e.title, h1: e.h1 });
  }
  result.share = result.pages ? result.agree / result.pages : null;
  return result;
}
