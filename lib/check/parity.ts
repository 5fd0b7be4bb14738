/**
 * Twin parity: how much of a page's text its `.md` twin holds, as token-F1 — the harmonic mean of
 * the share of the twin's words found in the page and the share of the page's words found in the
 * twin (multisets, so a paragraph repeated counts twice). The page's side is its main content as
 * Scout's converter reads it (the same Markdown a crawl stores), so navigation and footers do not
 * count against a twin that rightly leaves them out.
 */
import { convertHtml } from '../convert/convert-page';
import { linkedomAdapter } from '../convert/dom';

/** Below this, a twin says something else than its page: stale, truncated or another page. */
export const PARITY_THRESHOLD = 0.7;

/** Words of Markdown text: link targets, image sources and HTML tags dropped, lower-cased. */
export function textTokens(markdown: string): string[] {
  const text = markdown
    .replace(/!?\[([^[\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
    .replace(/<[^<>]+>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .toLowerCase();
  return text.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Token-F1 of two token lists (1 when both are empty). */
export function tokenF1(a: string[], b: string[]): number {
  if (!a.length && !b.length) return 1;
  if (!a.length || !b.length) return 0;
  const counts = new Map<string, number>();
  for (const t of a) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of b) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      common++;
      counts.set(t, left - 1);
    }
  }
  if (!common) return 0;
  const precision = common / b.length;
  const recall = common / a.length;
  return (2 * precision * recall) / (precision + recall);
}

/** The parity of a twin with the HTML page it stands for. */
export function twinParity(html: string, pageUrl: string, twinMarkdown: string): number {
  const page = convertHtml(html, pageUrl, linkedomAdapter).markdown;
  return tokenF1(textTokens(page), textTokens(twinMarkdown));
}
