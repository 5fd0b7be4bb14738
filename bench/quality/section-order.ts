/**
 * Invariant 6, the order half — the llms.txt's sections follow the order of the site's own table
 * of contents. Over the sections present in both (names compared as sections.ts normalizes
 * them), the share of pairs that the llms.txt has in the navigation's order (Kendall-style
 * concordance: 1 in order, 0 reversed). Null when fewer than two sections are shared — then
 * there is no order to follow. The agreement half is sections.ts's Jaccard.
 */
import { normalizeSectionName } from './sections';

export interface SectionOrder {
  /** Concordant pairs / pairs, null below two shared sections. */
  score: number | null;
  shared: number;
  /** Pairs out of the navigation's order, as "later ↔ earlier" (names as generated). */
  inversions: string[];
}

export function sectionOrder(generated: string[], truth: string[], keepInversions = 6): SectionOrder {
  const rank = new Map<string, number>();
  truth.forEach((name, i) => {
    const key = normalizeSectionName(name);
    if (key && !rank.has(key)) rank.set(key, i);
  });
  const seen = new Set<string>();
  const shared: { name: string; rank: number }[] = [];
  for (const name of generated) {
    const key = normalizeSectionName(name);
    const r = rank.get(key);
    if (r === undefined || seen.has(key)) continue;
    seen.add(key);
    shared.push({ name, rank: r });
  }
  if (shared.length < 2) return { score: null, shared: shared.length, inversions: [] };
  let pairs = 0;
  let concordant = 0;
  const inversions: string[] = [];
  for (let i = 0; i < shared.length; i++) {
    for (let j = i + 1; j < shared.length; j++) {
      pairs += 1;
      const a = shared[i] as { name: string; rank: number };
      const b = shared[j] as { name: string; rank: number };
      if (a.rank < b.rank) concordant += 1;
      else if (inversions.length < keepInversions) inversions.push(`“${a.name}” before “${b.name}”`);
    }
  }
  return { score: concordant / pairs, shared: shared.length, inversions };
}
