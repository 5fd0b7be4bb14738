/**
 * Invariant 1 — the structure of the main content kept in the Markdown, measured against the
 * page's own HTML (page-facts.ts), no ground truth needed. Per page, five kept/total counts:
 *  * headings    — each h1–h6 whose words are held, as whole words, by a Markdown heading line
 *                  (link targets left out): a heading flattened to bold or dropped is lost;
 *  * code blocks — each `pre` whose every line is a line of one fenced block;
 *  * code lines  — each line of every `pre` found as a line of a fenced block (a block whose
 *                  lines were run together keeps its words but not its lines);
 *  * tables      — each outermost table with ≥ 90 % of its cells' words found in the Markdown
 *                  (by content: a layout table may rightly become a list);
 *  * list items  — each `li` (outside tables) whose first words are on a list-item line or its
 *                  continuation (an indented line).
 * Lines are compared with whitespace collapsed. `keptSummary` adds the pages of a site up and names
 * the pages that lose the most.
 */
import { classifyLines } from './markdown';
import { words, type PageFacts } from './page-facts';

export const KEPT_METRICS = ['headings', 'codeBlocks', 'codeLines', 'tables', 'listItems'] as const;
export type KeptMetric = (typeof KEPT_METRICS)[number];

export interface KeptCount {
  total: number;
  kept: number;
  /** Up to a few of what was lost (words or lines), for the report. */
  lost: string[];
}

export type PageKept = Record<KeptMetric, KeptCount>;

const TABLE_SHARE = 0.9;
const KEEP_LOST = 3;

// A link is its text ("[builder](…)s" is the page's "builders"); code-span and strong markers go
// too ("`Promise`s" is "Promises"). Targets are absolute after conversion, so a code span's
// "](err, name)" is not taken for one.
const withoutTargets = (line: string): string =>
  line.replace(/\[((?:[^[\]]|\[[^[\]]*\])*)\]\((?:https?|mailto|ftp|tel):(?:[^()]|\([^()]*\))*\)/g, '$1').replace(/`+|\*\*/g, '');
const collapse = (line: string) => line.replace(/\s+/g, ' ').trim();

/**
 * Fenced blocks at any indentation (a list item's code is indented), each as its set of collapsed
 * lines. A fence closes on a line of the same character, at least as long, and nothing else.
 */
export function fencedBlocks(markdown: string): Set<string>[] {
  const blocks: Set<string>[] = [];
  let open: { char: string; length: number; quote: string; lines: Set<string> } | null = null;
  for (const line of markdown.split(/\r\n|\r|\n/)) {
    // A fence opened inside a blockquote has the quote's markers on every line: they are not the code's.
    const quote = /^(?:\s*>)+ ?/.exec(line)?.[0] ?? '';
    if (open) {
      const raw = open.quote && line.startsWith(open.quote.trimEnd()) ? line.slice(open.quote.trimEnd().length).replace(/^ /, '') : line;
      const marker = /^\s*(`{3,}|~{3,})\s*$/.exec(raw);
      if (marker?.[1] && marker[1][0] === open.char && marker[1].length >= open.length) {
        blocks.push(open.lines);
        open = null;
        continue;
      }
      const text = collapse(raw);
      if (text) open.lines.add(text);
      continue;
    }
    const marker = /^\s*(`{3,}|~{3,})/.exec(line.slice(quote.length));
    if (marker?.[1]) open = { char: marker[1][0] ?? '`', length: marker[1].length, quote, lines: new Set() };
  }
  if (open) blocks.push(open.lines);
  return blocks;
}

/** The Markdown read once for all comparisons. */
function readMarkdown(markdown: string) {
  const lines = classifyLines(markdown);
  const headingLines = lines.filter((l) => l.kind === 'heading').map((l) => ` ${words(withoutTargets(l.text))} `);
  const fences = fencedBlocks(markdown);
  const allCode = new Set(fences.flatMap((f) => [...f]));
  // A table cell's line breaks are written <br>: not words of the page.
  const text = ` ${words(withoutTargets(markdown).replace(/<br\s*\/?>/gi, ' '))} `;
  // List-item lines and their continuations, inside blockquotes too.
  const listText = ` ${lines
    .filter((l) => l.kind === 'text')
    .map((l) => l.raw.replace(/^(?:\s*>)+ ?/, ''))
    .filter((raw) => /^\s*(?:[-*+]|\d+[.)])\s/.test(raw) || /^\s{2,}\S/.test(raw))
    .map((raw) => words(withoutTargets(raw)))
    .join(' | ')} `;
  return { headingLines, fences, allCode, text, compact: text.replace(/ /g, ''), listText };
}

const count = (): KeptCount => ({ total: 0, kept: 0, lost: [] });
function tally(c: KeptCount, kept: boolean, what: string): void {
  c.total += 1;
  if (kept) c.kept += 1;
  else if (c.lost.length < KEEP_LOST) c.lost.push(what.length > 100 ? `${what.slice(0, 99)}…` : what);
}

/** Invariant 1 for one page: its facts against its Markdown. */
export function keptCounts(facts: PageFacts, markdown: string): PageKept {
  const md = readMarkdown(markdown);
  const out: PageKept = { headings: count(), codeBlocks: count(), codeLines: count(), tables: count(), listItems: count() };
  // A heading whose parts the page's CSS sets apart (`program<code>Const</code>`, a badge) reads
  // glued in the HTML's text and apart in the Markdown: word breaks do not decide, as for tables.
  const glued = md.headingLines.map((line) => line.replace(/ /g, ''));
  for (const heading of facts.headings) tally(out.headings, md.headingLines.some((line) => line.includes(` ${heading} `)) || glued.includes(heading.replace(/ /g, '')), heading);
  for (const block of facts.codeBlocks) {
    for (const line of block) tally(out.codeLines, md.allCode.has(line), line);
    tally(out.codeBlocks, md.fences.some((fence) => block.every((line) => fence.has(line))), block[0] ?? '');
  }
  for (const cells of facts.tables) {
    // Compared without word breaks: an icon letter set against a name ("C" + "array_list") splits
    // differently in HTML and in Markdown.
    const found = cells.filter((cell) => md.compact.includes(cell.replace(/ /g, ''))).length;
    tally(out.tables, found >= TABLE_SHARE * cells.length, cells.slice(0, 4).join(' | '));
  }
  for (const item of facts.listItems) tally(out.listItems, md.listText.includes(` ${item} `) || md.listText.includes(` ${item} |`), item);
  return out;
}

export interface KeptMetricSummary {
  total: number;
  kept: number;
  /** kept / total, null when the site has none. */
  ratio: number | null;
  /** The pages that lose the most, most lost first. */
  worst: { url: string; kept: number; total: number; lost: string[] }[];
}

export type KeptSummary = Record<KeptMetric, KeptMetricSummary>;

/** A site's pages added up per metric, with its worst pages. */
export function keptSummary(pages: { url: string; kept: PageKept }[], keepWorst = 5): KeptSummary {
  const summary = {} as KeptSummary;
  for (const metric of KEPT_METRICS) {
    let total = 0;
    let kept = 0;
    for (const p of pages) {
      total += p.kept[metric].total;
      kept += p.kept[metric].kept;
    }
    const worst = pages
      .filter((p) => p.kept[metric].kept < p.kept[metric].total)
      .sort((a, b) => b.kept[metric].total - b.kept[metric].kept - (a.kept[metric].total - a.kept[metric].kept) || a.url.localeCompare(b.url))
      .slice(0, keepWorst)
      .map((p) => ({ url: p.url, kept: p.kept[metric].kept, total: p.kept[metric].total, lost: p.kept[metric].lost }));
    summary[metric] = { total, kept, ratio: total ? kept / total : null, worst };
  }
  return summary;
}
