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
 *
 * What the bench itself calls chrome may go (invariant 2 wants it gone): an item lost from the
 * Markdown that the page's raw stored Markdown holds inside chrome (see `chromeParts`) is tallied
 * as "dropped as chrome", apart, and is out of that metric's total. The bench's own detectors
 * decide (chrome.ts, edge-chrome.ts), never the product's chrome model: the bench does not grade the
 * product by the product's own decision.
 */
import { chromeFindings, confined, type ChromePage } from './chrome';
import { edgeChromeLines } from './edge-chrome';
import { classifyLines, proseWords } from './markdown';
import { words, type PageFacts } from './page-facts';

export const KEPT_METRICS = ['headings', 'codeBlocks', 'codeLines', 'tables', 'listItems'] as const;
export type KeptMetric = (typeof KEPT_METRICS)[number];

export interface KeptCount {
  /** Items counted (dropped-as-chrome ones are not). */
  total: number;
  kept: number;
  /** Up to a few of what was lost (words or lines), for the report. */
  lost: string[];
  /** Items lost that the raw stored Markdown held inside chrome: not in `total`. */
  dropped: number;
  /** Up to a few of them, for the report. */
  droppedAs: string[];
}

export type PageKept = Record<KeptMetric, KeptCount>;

const TABLE_SHARE = 0.9;
/** chrome.ts's share of pages for a repeated line (its default). */
const CHROME_SHARE = 0.4;
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

const count = (): KeptCount => ({ total: 0, kept: 0, lost: [], dropped: 0, droppedAs: [] });
const clip = (what: string) => (what.length > 100 ? `${what.slice(0, 99)}…` : what);
/** One item: kept, else dropped as chrome when `chrome()` finds it in the raw page's chrome, else lost. */
function tally(c: KeptCount, kept: boolean, what: string, chrome: () => boolean = () => false): void {
  if (!kept && chrome()) {
    c.dropped += 1;
    if (c.droppedAs.length < KEEP_LOST) c.droppedAs.push(clip(what));
    return;
  }
  c.total += 1;
  if (kept) c.kept += 1;
  else if (c.lost.length < KEEP_LOST) c.lost.push(clip(what));
}

type ReadMarkdown = ReturnType<typeof readMarkdown>;

/** The index of the first heading line of `md` holding `heading` (see keptCounts), or -1. */
function headingAt(md: ReadMarkdown, glued: string[], heading: string): number {
  const at = md.headingLines.findIndex((line) => line.includes(` ${heading} `));
  return at >= 0 ? at : glued.indexOf(heading.replace(/ /g, ''));
}

/**
 * Invariant 1 for one page: its facts against its Markdown. `chrome` is the chrome of the page's
 * raw stored Markdown (`chromeParts`): what is lost here and found there is dropped as chrome.
 */
export function keptCounts(facts: PageFacts, markdown: string, chrome = ''): PageKept {
  const md = readMarkdown(markdown);
  const cut = readMarkdown(chrome);
  const out: PageKept = { headings: count(), codeBlocks: count(), codeLines: count(), tables: count(), listItems: count() };
  // A heading whose parts the page's CSS sets apart (`program<code>Const</code>`, a badge) reads
  // glued in the HTML's text and apart in the Markdown: word breaks do not decide, as for tables.
  const glued = md.headingLines.map((line) => line.replace(/ /g, ''));
  const cutGlued = cut.headingLines.map((line) => line.replace(/ /g, ''));
  // Each chrome heading line accounts for one lost heading at most.
  const takeCut = (heading: string) => {
    const at = headingAt(cut, cutGlued, heading);
    if (at < 0) return false;
    cut.headingLines.splice(at, 1);
    cutGlued.splice(at, 1);
    return true;
  };
  for (const heading of facts.headings) tally(out.headings, headingAt(md, glued, heading) >= 0, heading, () => takeCut(heading));
  for (const block of facts.codeBlocks) {
    for (const line of block) tally(out.codeLines, md.allCode.has(line), line, () => cut.allCode.has(line));
    tally(out.codeBlocks, md.fences.some((fence) => block.every((line) => fence.has(line))), block[0] ?? '', () => cut.fences.some((fence) => block.every((line) => fence.has(line))));
  }
  // Compared without word breaks: an icon letter set against a name ("C" + "array_list") splits
  // differently in HTML and in Markdown.
  const share = (text: string, cells: string[]) => cells.filter((cell) => text.includes(cell.replace(/ /g, ''))).length >= TABLE_SHARE * cells.length;
  for (const cells of facts.tables) tally(out.tables, share(md.compact, cells), cells.slice(0, 4).join(' | '), () => share(cut.compact, cells));
  const listed = (text: string, item: string) => text.includes(` ${item} `) || text.includes(` ${item} |`);
  for (const item of facts.listItems) tally(out.listItems, listed(md.listText, item), item, () => listed(cut.listText, item));
  return out;
}

/**
 * The chrome of each raw stored page, by the bench's own detectors, as the page's Markdown with
 * every other line blanked (lines keep their places). A line is chrome when
 *  * chrome.ts flags it (a known pattern, or a prose line repeated across the site), or it is in
 *    an edge block edge-chrome.ts flags at chrome.ts's share (40 % of pages, at least 5); or
 *  * it lies in a chrome section: the section (up to the next heading of its level or above) of a
 *    *repeated heading* — its text a heading on as many of the site's pages as a repeated line must
 *    be on (chrome.ts's threshold, not confined to one folder) — that holds at least one flagged
 *    line and no line the detectors judge and let pass (a prose line of ≥ 3 words, a table row, a
 *    code line: code and tables are never chrome). In such a section a heading is chrome only
 *    when it is repeated itself: a heading of the page's own is never chrome. A subsection of
 *    it whose every heading and prose line is verbatim on at least `minPages` pages (not confined
 *    to one folder) is an inherited copy (a blanket impl only some types get) and counts as
 *    flagged: a copy on 8 pages is not the page's own text, even below the 40 % share.
 * rustdoc's "Blanket Implementations" (the same impls, headings and one-line docs on every type
 * page) is such a section; a heading above one page's own text is not.
 */
export function chromeParts(pages: ChromePage[], options: { siteNames?: string[] } = {}): string[] {
  const { perPage, repeated, threshold, siteUrls, minPages } = chromeFindings(pages, options);
  // Edge blocks at chrome.ts's share (40 %), not the edge metric's half: one definition of chrome
  // for everything this function marks (a letter bar atop every index page of a site is chrome
  // whether the index pages are 40 % or 60 % of it).
  const edges = edgeChromeLines(pages, { share: CHROME_SHARE });
  const parsed = pages.map((page) => classifyLines(page.markdown));
  const headingKey = (text: string) => words(text);
  const headingUrls = new Map<string, string[]>();
  for (const [i, lines] of parsed.entries()) {
    for (const key of new Set(lines.filter((l) => l.kind === 'heading').map((l) => headingKey(l.text)).filter(Boolean))) {
      headingUrls.set(key, [...(headingUrls.get(key) ?? []), pages[i]?.url ?? '']);
    }
  }
  const repeatedHeadings = new Set([...headingUrls].filter(([, urls]) => urls.length >= threshold && !confined(urls, siteUrls, minPages)).map(([key]) => key));
  // Inherited: a heading or prose line verbatim on at least `minPages` pages, not confined to one folder.
  const inheritedHeadings = new Set([...headingUrls].filter(([, urls]) => urls.length >= minPages && !confined(urls, siteUrls, minPages)).map(([key]) => key));
  const lineUrls = new Map<string, string[]>();
  for (const [i, findings] of perPage.entries()) for (const key of findings.candidates.keys()) lineUrls.set(key, [...(lineUrls.get(key) ?? []), pages[i]?.url ?? '']);
  const inheritedLines = new Set([...lineUrls].filter(([, urls]) => urls.length >= minPages && !confined(urls, siteUrls, minPages)).map(([key]) => key));
  return parsed.map((lines, i) => {
    const findings = perPage[i];
    const flagged = new Set<number>(edges[i] ?? []);
    for (const f of findings?.found ?? []) flagged.add(f.index);
    for (const [key, at] of findings?.candidates ?? []) if (repeated.has(key)) for (const index of at) flagged.add(index);
    const judged = (index: number) => {
      const l = lines[index];
      return l !== undefined && (l.kind === 'code' || (l.kind === 'text' && (/^\s*\|/.test(l.raw) || proseWords(l.raw).length >= 3)));
    };
    const isRepeated = (index: number) => {
      const l = lines[index];
      return l?.kind === 'heading' && repeatedHeadings.has(headingKey(l.text));
    };
    const sectionEnd = (start: number, level: number) => {
      let end = start + 1;
      while (end < lines.length && !(lines[end]?.kind === 'heading' && (lines[end]?.level ?? 0) <= level)) end++;
      return end;
    };
    // Inherited subsections: inside a repeated heading's section, a subsection whose headings and
    // judged lines are each verbatim on several pages (a blanket impl's docs that only some types
    // get) is the same copy on every page it is on; it counts as flagged, so the section can be.
    const lineKeyAt = new Map<number, string>();
    for (const [key, at] of findings?.candidates ?? []) for (const index of at) lineKeyAt.set(index, key);
    for (const [start, head] of lines.entries()) {
      if (!isRepeated(start)) continue;
      const end = sectionEnd(start, head.level);
      for (let sub = start + 1; sub < end; sub++) {
        const h = lines[sub];
        if (h?.kind !== 'heading' || !inheritedHeadings.has(headingKey(h.text))) continue;
        const subEnd = Math.min(end, sectionEnd(sub, h.level));
        let copied = true;
        for (let j = sub + 1; j < subEnd && copied; j++) {
          const l = lines[j];
          if (flagged.has(j) || l === undefined) continue;
          if (l.kind === 'heading') copied = inheritedHeadings.has(headingKey(l.text));
          else if (judged(j)) copied = l.kind === 'text' && inheritedLines.has(lineKeyAt.get(j) ?? '');
        }
        if (!copied) continue;
        for (let j = sub; j < subEnd; j++) flagged.add(j);
        sub = subEnd - 1;
      }
    }
    const chrome = new Set(flagged);
    for (const [start, head] of lines.entries()) {
      if (!isRepeated(start)) continue;
      const end = sectionEnd(start, head.level);
      let any = false;
      let clean = true;
      for (let j = start + 1; j < end && clean; j++) {
        if (flagged.has(j)) any = true;
        else if (judged(j)) clean = false;
      }
      if (!any || !clean) continue;
      for (let j = start; j < end; j++) if (lines[j]?.kind !== 'heading' || isRepeated(j) || flagged.has(j)) chrome.add(j);
    }
    return lines.map((l, index) => (chrome.has(index) ? l.raw : '')).join('\n');
  });
}

export interface KeptMetricSummary {
  total: number;
  kept: number;
  /** Left out of `total`: lost, and chrome by the bench's own detectors (see `chromeParts`). */
  dropped: number;
  /** A few of them, for the report. */
  droppedAs: string[];
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
    let dropped = 0;
    const droppedAs = new Set<string>();
    for (const p of pages) {
      total += p.kept[metric].total;
      kept += p.kept[metric].kept;
      dropped += p.kept[metric].dropped;
      for (const what of p.kept[metric].droppedAs) if (droppedAs.size < keepWorst) droppedAs.add(what);
    }
    const worst = pages
      .filter((p) => p.kept[metric].kept < p.kept[metric].total)
      .sort((a, b) => b.kept[metric].total - b.kept[metric].kept - (a.kept[metric].total - a.kept[metric].kept) || a.url.localeCompare(b.url))
      .slice(0, keepWorst)
      .map((p) => ({ url: p.url, kept: p.kept[metric].kept, total: p.kept[metric].total, lost: p.kept[metric].lost }));
    summary[metric] = { total, kept, dropped, droppedAs: [...droppedAs], ratio: total ? kept / total : null, worst };
  }
  return summary;
}
