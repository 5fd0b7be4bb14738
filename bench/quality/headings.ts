/**
 * Metric 4 — headings with permalink artifacts, and metric 5 — pages with more than one H1.
 * Both read headings outside code fences only (see classifyLines).
 */
import { headings } from './markdown';

export type PermalinkKind = 'self-link' | 'marker' | 'empty-link' | 'marker-link';

/**
 * The permalink artifact in one heading's text, or null:
 *  * 'self-link'   — the whole heading is a link to an #anchor: `# [Title](page.html#title)`;
 *  * 'marker-link' — a link whose text is only a permalink sign: `## Title [¶](#title)`, `[#](#x)`;
 *  * 'empty-link'  — an empty link anywhere: `## [](#title)Title`;
 *  * 'marker'      — the text ends in ¶, §, 🔗 or a lone #, or starts with one.
 * A heading that is a link *without* a fragment (`# [Project](index.html)`) is site chrome (metric 3),
 * not a permalink.
 */
export function permalinkArtifact(text: string): PermalinkKind | null {
  const t = text.trim();
  if (/^\[[^\]]*\]\([^)\s]*#[^)]*\)$/.test(t) && !/^\[\]/.test(t)) return 'self-link';
  if (/\[\s*(?:¶|§|#|🔗|\\#|link|permalink|anchor)\s*\]\([^)]*\)/i.test(t)) return 'marker-link';
  if (/\[\s*\]\([^)]*\)/.test(t)) return 'empty-link';
  if (/(?:^|\s)(?:¶|§|🔗|#|\\#)\s*$/.test(t) || /[¶§🔗]\s*$/u.test(t) || /^(?:¶|§|🔗)/u.test(t)) return 'marker';
  return null;
}

export interface HeadingPage {
  key: string;
  url: string;
  markdown: string;
}

export interface PermalinkResult {
  /** Headings with an artifact, over all pages. */
  headings: number;
  pages: number;
  byKind: Partial<Record<PermalinkKind, number>>;
  examples: { url: string; heading: string; kind: PermalinkKind }[];
}

/** Metric 4. */
export function permalinkHeadings(pages: HeadingPage[], keepExamples = 10): PermalinkResult {
  const result: PermalinkResult = { headings: 0, pages: 0, byKind: {}, examples: [] };
  const exampleKinds = new Map<PermalinkKind, number>();
  for (const page of pages) {
    let found = 0;
    for (const h of headings(page.markdown)) {
      const kind = permalinkArtifact(h.text);
      if (!kind) continue;
      found += 1;
      result.byKind[kind] = (result.byKind[kind] ?? 0) + 1;
      // Examples spread over the kinds (and over pages: at most one per page).
      if (found === 1 && result.examples.length < keepExamples && (exampleKinds.get(kind) ?? 0) < Math.ceil(keepExamples / 2)) {
        result.examples.push({ url: page.url, heading: h.raw.trim(), kind });
        exampleKinds.set(kind, (exampleKinds.get(kind) ?? 0) + 1);
      }
    }
    result.headings += found;
    if (found) result.pages += 1;
  }
  return result;
}

export interface MultiH1Result {
  /** Pages with two or more H1s outside code. */
  pages: number;
  /** The most H1s on one page. */
  max: number;
  examples: { url: string; h1s: string[] }[];
}

/** Metric 5: ATX `# x` and setext `x\n===` both count. */
export function multipleH1(pages: HeadingPage[], keepExamples = 8): MultiH1Result {
  const result: MultiH1Result = { pages: 0, max: 0, examples: [] };
  for (const page of pages) {
    const h1s = headings(page.markdown).filter((h) => h.level === 1);
    result.max = Math.max(result.max, h1s.length);
    if (h1s.length < 2) continue;
    result.pages += 1;
    if (result.examples.length < keepExamples) result.examples.push({ url: page.url, h1s: h1s.slice(0, 4).map((h) => h.raw.trim()) });
  }
  return result;
}
