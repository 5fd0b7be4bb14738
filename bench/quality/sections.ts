/**
 * Metric 8 — section agreement: Jaccard similarity |A ∩ B| / |A ∪ B| between the set of generated
 * llms.txt H2 names (without "Optional", and without "Docs", the root group of pages the site shows
 * outside any named group: there is no site name for it to agree with) and the site's own top-level navigation group names
 * (`topSections` from the matrix). Names are compared normalized: Unicode-folded, a leading
 * enumeration dropped ("2. ", "2.1 ", "IV. ", "A. ", "Part I. ", "Chapter 3: " — numbering is how a
 * sidebar shows the name, on either side), lower-cased, every run of punctuation or whitespace one
 * space, trimmed ("Part I. Tutorial" = "tutorial", "2. Lexical structure" = "lexical structure").
 * No ground truth (a site without navigation groups) gives null, shown as "n/a".
 */

export function normalizeSectionName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .replace(/^(?:(?:part|chapter|appendix|section)\s+)?(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.)[\s:]+(?=\S)/i, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export interface SectionAgreement {
  jaccard: number | null;
  /** Generated names the site does not have, and site names missing from the output (normalized). */
  extra: string[];
  missing: string[];
}

export function sectionAgreement(generated: string[], truth: string[]): SectionAgreement {
  const a = new Set(generated.filter((n) => n.trim().toLowerCase() !== 'optional').map(normalizeSectionName).filter(Boolean));
  const b = new Set(truth.map(normalizeSectionName).filter(Boolean));
  if (b.size === 0) return { jaccard: null, extra: [...a], missing: [] };
  const both = [...a].filter((n) => b.has(n)).length;
  const union = new Set([...a, ...b]).size;
  return { jaccard: union ? both / union : 1, extra: [...a].filter((n) => !b.has(n)), missing: [...b].filter((n) => !a.has(n)) };
}
