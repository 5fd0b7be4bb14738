/**
 * Invariant 2 — no block repeated at the top or the bottom of most pages of a site.
 *
 * A page's Markdown is cut into blocks at blank lines (fenced code is one block and never counts);
 * its first and last `edge` (3) blocks are its edges. A block — link targets left out, whitespace
 * collapsed, list markers dropped (chrome.ts's repetitionKey); not a heading alone, not text the page's
 * source Markdown holds — that is at an edge of more than
 * `share` (half) of the site's pages, and of at least `minPages` (5), is chrome: a theme's header,
 * breadcrumb, pager or footer, whatever it says. chrome.ts counts repeated *lines* anywhere and
 * known patterns; this is the structural test the issue asks for, per block and at the edges only.
 * A block whose pages all sit in one folder, with `minPages` of the site outside it, is that part's
 * own note, not the frame (chrome.ts's `confined`).
 */
import { confined, repetitionKey } from './chrome';
import { words } from './page-facts';

export interface EdgeChromeBlock {
  block: string;
  where: 'top' | 'bottom';
  pages: number;
  example: string;
}

export interface EdgeChromeResult {
  /** Distinct repeated edge blocks. */
  blocks: number;
  /** Pages with at least one of them. */
  pages: number;
  top: EdgeChromeBlock[];
}

/** The page's blocks (fenced code left out): text between blank lines, normalized for comparison. */
export function markdownBlocks(markdown: string): string[] {
  return blockSpans(markdown).map((b) => b.text);
}

/** markdownBlocks with each block's lines (0-based, first and last). */
export function blockSpans(markdown: string): { text: string; from: number; to: number }[] {
  const blocks: { text: string; from: number; to: number }[] = [];
  let current: string[] = [];
  let from = 0;
  let fence: string | null = null;
  const flush = (next: number) => {
    const text = current.map(repetitionKey).join(' ').replace(/\s+/g, ' ').trim();
    if (text) blocks.push({ text, from, to: from + current.length - 1 });
    current = [];
    from = next;
  };
  for (const [index, line] of markdown.split('\n').entries()) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) {
        fence = null;
        from = index + 1;
      }
      continue;
    }
    if (marker) {
      flush(index + 1);
      fence = marker;
      continue;
    }
    if (line.trim() === '') flush(index + 1);
    else current.push(line);
  }
  flush(0);
  return blocks;
}

export function edgeChrome(pages: { url: string; markdown: string; source?: string }[], options: { edge?: number; share?: number; minPages?: number; keepTop?: number } = {}): EdgeChromeResult {
  return detectEdges(pages, options).result;
}

/** Per page, the (0-based) Markdown lines of its edge blocks that invariant 2 calls chrome. */
export function edgeChromeLines(pages: { url: string; markdown: string; source?: string }[], options: { edge?: number; share?: number; minPages?: number } = {}): Set<number>[] {
  return detectEdges(pages, options).lines;
}

function detectEdges(pages: { url: string; markdown: string; source?: string }[], options: { edge?: number; share?: number; minPages?: number; keepTop?: number }): { result: EdgeChromeResult; lines: Set<number>[] } {
  const edge = options.edge ?? 3;
  const share = options.share ?? 0.5;
  const minPages = options.minPages ?? 5;
  const counts = new Map<string, { pages: number; example: string; urls: string[] }>();
  const perPage = pages.map((page) => {
    // A heading alone is structure ("## SYNOPSIS" opens every man page), and a block the page's
    // source Markdown holds was written by its author ("> Stability: 2 - Stable"): neither is chrome.
    const source = page.source === undefined ? null : ` ${words(page.source)} `;
    const blocks = blockSpans(page.markdown).filter(({ text: b }) => !/^#{1,6} /.test(b) && !(source && words(b) && source.includes(` ${words(b)} `)));
    const top = blocks.slice(0, edge).map((b) => ({ ...b, key: `top\u0000${b.text}` }));
    const bottom = blocks.slice(Math.max(edge, blocks.length - edge)).map((b) => ({ ...b, key: `bottom\u0000${b.text}` }));
    const edges = [...top, ...bottom];
    const keys = new Set(edges.map((b) => b.key));
    for (const key of keys) {
      const c = counts.get(key) ?? { pages: 0, example: page.url, urls: [] };
      c.pages += 1;
      c.urls.push(page.url);
      counts.set(key, c);
    }
    return { keys, edges };
  });
  const threshold = Math.max(minPages, Math.floor(share * pages.length) + 1);
  const siteUrls = pages.map((p) => p.url);
  const repeated = [...counts].filter(([, c]) => c.pages >= threshold && !confined(c.urls, siteUrls, minPages));
  const chrome = new Set(repeated.map(([key]) => key));
  const lines = perPage.map(({ edges }) => {
    const flagged = new Set<number>();
    for (const b of edges) if (chrome.has(b.key)) for (let i = b.from; i <= b.to; i++) flagged.add(i);
    return flagged;
  });
  const result: EdgeChromeResult = {
    blocks: repeated.length,
    pages: perPage.filter(({ keys }) => [...keys].some((k) => chrome.has(k))).length,
    top: repeated
      .sort((a, b) => b[1].pages - a[1].pages)
      .slice(0, options.keepTop ?? 8)
      .map(([key, c]) => {
        const [where, block] = key.split('\u0000') as ['top' | 'bottom', string];
        return { block, where, pages: c.pages, example: c.example };
      }),
  };
  return { result, lines };
}
