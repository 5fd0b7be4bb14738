/**
 * Metric 11 — Markdown-vs-source token F1, where the site's source Markdown is known.
 *
 * Both sides become bags of lower-case `\w+` tokens — the tokenization of
 * tests/unit/convert-real-docs.test.ts, whose Node figure (median 0.948 over the pages converted
 * from HTML, source unstripped) this continues. F1 = 2PR / (P + R) with P = overlap / |stored bag|,
 * R = overlap / |source bag|, overlap = Σ min(count in each).
 *
 * The source is cleaned first (`cleanSource`): YAML/TOML front matter, MDX `import`/`export` lines
 * and HTML comments (`<!-- YAML … -->`, `<!--introduced_in=…-->`) are not text a reader sees. Pages the
 * crawler took from a Markdown twin are skipped: their stored Markdown *is* the source.
 */
import { median, wordTokens } from './markdown';

function bag(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of wordTokens(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

export function tokenF1(candidate: string, reference: string): number {
  const a = bag(candidate);
  const b = bag(reference);
  const total = (m: Map<string, number>) => [...m.values()].reduce((s, v) => s + v, 0);
  let overlap = 0;
  for (const [token, count] of a) overlap += Math.min(count, b.get(token) ?? 0);
  if (!overlap) return 0;
  const precision = overlap / total(a);
  const recall = overlap / total(b);
  return (2 * precision * recall) / (precision + recall);
}

/** Source Markdown without front matter, MDX import/export lines and HTML comments. */
export function cleanSource(source: string): string {
  let text = source.replace(/^\uFEFF/, '');
  text = text.replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/, '').replace(/^\+\+\+\r?\n[\s\S]*?\r?\n\+\+\+[ \t]*(?:\r?\n|$)/, '');
  text = text.replace(/<!--[\s\S]*?-->/g, '');
  // MDX: top-level ESM lines (outside fences; a fenced `import x from 'y'` is an example and stays).
  let fence: string | null = null;
  const kept: string[] = [];
  let inEsm = false;
  for (const line of text.split(/\r?\n/)) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      kept.push(line);
      continue;
    }
    if (marker) {
      fence = marker;
      kept.push(line);
      continue;
    }
    if (inEsm) {
      // The statement ends at a blank line or at its `from '…'` / `;`.
      if (line.trim() === '' || /;\s*$|from\s+['"][^'"]+['"]\s*;?\s*$/.test(line)) inEsm = false;
      continue;
    }
    if (/^(?:import\s+(?:[\w*{]|['"])|export\s+(?:const|default|function|let|var|\{|\*))/.test(line)) {
      // A multi-line import/export runs to the next blank line or a line ending the statement.
      inEsm = !/;\s*$|from\s+['"][^'"]+['"]\s*;?\s*$|^import\s+['"][^'"]+['"]\s*;?\s*$/.test(line);
      continue;
    }
    kept.push(line);
  }
  return kept.join('\n');
}

export interface F1Page {
  url: string;
  markdown: string;
  source: string;
}

export interface F1Result {
  pages: number;
  median: number | null;
  min: number | null;
  /** The same median with the source left uncleaned (the convert-real-docs.test.ts way). */
  medianRaw: number | null;
  lowest: { url: string; f1: number }[];
}

export function sourceF1(pages: F1Page[], keepLowest = 6): F1Result {
  if (pages.length === 0) return { pages: 0, median: null, min: null, medianRaw: null, lowest: [] };
  const scores = pages.map((p) => ({ url: p.url, f1: tokenF1(p.markdown, cleanSource(p.source)), raw: tokenF1(p.markdown, p.source) }));
  const values = scores.map((s) => s.f1);
  return {
    pages: scores.length,
    median: median(values),
    min: Math.min(...values),
    medianRaw: median(scores.map((s) => s.raw)),
    lowest: [...scores].sort((a, b) => a.f1 - b.f1).slice(0, keepLowest).map(({ url, f1 }) => ({ url, f1 })),
  };
}
