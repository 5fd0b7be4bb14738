/**
 * Metric 11 — Markdown-vs-source token F1, where the site's source Markdown is known.
 *
 * Both sides become bags of lower-case `\w+` tokens — the tokenization of
 * tests/unit/convert-real-docs.test.ts, whose Node figure (median 0.948 over the pages converted
 * from HTML, source unstripped) this continues. F1 = 2PR / (P + R) with P = overlap / |stored bag|,
 * R = overlap / |source bag|, overlap = Σ min(count in each).
 *
 * The source is cleaned first (`cleanSource`): YAML/TOML front matter, MDX `import`/`export` lines
 * HTML comments (`<!-- YAML … -->`, `<!--introduced_in=…-->`) and the tags of raw HTML (`<td>`, `<code>`)
 * are not text a reader sees. Pages the
 * crawler took from a Markdown twin are skipped: their stored Markdown *is* the source.
 */
import { median, stripLinkTargets, wordTokens } from './markdown';

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
    // Raw HTML in the source (Node's <table><tr><td>…) shows its text, not its tag names.
    kept.push(line.replace(HTML_TAG, ' '));
  }
  return kept.join('\n');
}

/** Markdown without link targets, reference definitions or autolinked URLs. */
export function textOnly(markdown: string): string {
  return markdown
    .split('\n')
    .filter((line) => !/^ {0,3}\[[^\]]+\]:\s*\S/.test(line))
    .map((line) => stripLinkTargets(line).replace(/<https?:\/\/[^>\s]+>/g, ' '))
    .join('\n');
}

// An HTML tag; not a Markdown autolink (<https://…>), whose name is followed by a colon.
const HTML_TAG = /<\/?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^>]*)?\/?>/g;

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
  /**
   * Text F1: link targets left out on both sides. Generators rewrite every link (`fs.md#x` in the
   * source, `https://site/docs/fs#x` on the page, reference definitions inlined), so the URLs
   * measure the URL scheme, not the content; this figure measures the words a reader sees.
   */
  textMedian: number | null;
  textMin: number | null;
  lowest: { url: string; f1: number }[];
}

export function sourceF1(pages: F1Page[], keepLowest = 6): F1Result {
  if (pages.length === 0) return { pages: 0, median: null, min: null, medianRaw: null, textMedian: null, textMin: null, lowest: [] };
  const scores = pages.map((p) => {
    const source = cleanSource(p.source);
    return { url: p.url, f1: tokenF1(p.markdown, source), raw: tokenF1(p.markdown, p.source), text: tokenF1(textOnly(p.markdown), textOnly(source)) };
  });
  const values = scores.map((s) => s.f1);
  return {
    pages: scores.length,
    median: median(values),
    min: Math.min(...values),
    medianRaw: median(scores.map((s) => s.raw)),
    textMedian: median(scores.map((s) => s.text)),
    textMin: Math.min(...scores.map((s) => s.text)),
    lowest: [...scores].sort((a, b) => a.f1 - b.f1).slice(0, keepLowest).map(({ url, f1 }) => ({ url, f1 })),
  };
}
