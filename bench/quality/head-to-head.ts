/**
 * Head to head with a generator's own llms.txt (#32): the same figures for any pair of files
 * (llms.txt and llms-full.txt), whoever wrote them — Scout, or a generator's plugin built into the
 * same site (scripts/build-matrix.sh keeps the plugin's files out of the served site). Pure: the
 * caller reads the files and the site's sources.
 *
 *  * pages listed — distinct served pages the llms.txt links to (any section, Optional included;
 *    `.md` twins, `index` and `.html` spellings mapped back to the page they stand for);
 *  * sections — each link's section is the nearest heading above it (H2 or deeper: a plugin that
 *    writes `## Table of Contents` then `### Group` is read by its groups), compared with the site's
 *    own top-level navigation by `sectionAgreement` (Jaccard of normalized names);
 *  * order — of the sections that match a navigation group, the share that follow the navigation's
 *    order (the longest increasing run of their navigation positions, over how many matched);
 *  * described — page entries outside Optional with notes (`- [title](url): notes`) that describe
 *    the page. Notes the scorecard calls weak (descriptions.ts: the title echoed, as "Argument
 *    class" for the page Argument; fewer than 4 words; a copyright or version note…) say nothing
 *    the title does not: they count as none, and are counted apart (weak notes);
 *  * headings kept — the source Markdown's headings found as headings in llms-full.txt. Counted
 *    per site as multisets of normalized heading texts (a heading is kept as many times as
 *    llms-full.txt has it, at most as many times as the sources do): the plugins' full files do
 *    not all name each page's URL, so pages cannot be told apart the same way in every file;
 *  * root size — characters of llms.txt.
 */
import { parseLlmsTxt } from '../../lib/discovery/parse-llms-txt';
import { ROOT_SECTION } from '../../lib/generate/sections';
import { weakReason } from './descriptions';
import { headings } from './markdown';
import { normalizeSectionName, sectionAgreement } from './sections';

export interface HeadToHeadInput {
  llmsTxt: string;
  /** '' when the file has no llms-full.txt. */
  llmsFullTxt: string;
  /** URL paths of the served pages, as in MatrixSite.sources ('/docs/fs', '/fs/', '/'). */
  servedPaths: string[];
  /** The hosts the files may name for the site (the built-for host, the crawl's host:port). Relative links always count. */
  hosts: string[];
  /** The site's top-level navigation group names, in order (MatrixSite.topSections). */
  topSections: string[];
  /** The source Markdown of each served page (the ground truth of its headings). */
  sources: string[];
}

export interface HeadToHeadFigures {
  pagesListed: number;
  pagesServed: number;
  /** Served pages the llms.txt does not link to (paths). */
  unlisted: string[];
  sections: string[];
  jaccard: number | null;
  extra: string[];
  missing: string[];
  /** Share of matched sections in navigation order; null with fewer than two matched. */
  order: number | null;
  /** Page entries outside Optional, those with notes that are not weak, and those with weak notes. */
  entries: number;
  described: number;
  describedShare: number | null;
  weak: number;
  /** Source headings, and those llms-full.txt keeps; share null without sources. */
  sourceHeadings: number;
  headingsKept: number;
  headingsShare: number | null;
  /** Source headings most often missing from llms-full.txt (normalized text, times missing). */
  headingsLost: { text: string; missing: number }[];
  rootChars: number;
  fullChars: number;
}

/**
 * The served page a link stands for: its path as written, without a `.md` twin's extension,
 * with or without `/`, `index`, `.html`. Null for links to anything else (another host, a file).
 */
export function servedPageOf(url: string, served: ReadonlySet<string>, hosts: readonly string[]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://relative.invalid/');
  } catch {
    return null;
  }
  if (parsed.host !== 'relative.invalid' && !hosts.includes(parsed.host)) return null;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    path = parsed.pathname;
  }
  const bare = path.replace(/\.md$/, '').replace(/\.html?$/, '');
  const folder = bare.replace(/\/index$/, '/');
  const candidates = [path, bare, folder, `${folder.replace(/\/$/, '')}/`, folder.replace(/(.)\/$/, '$1'), `${bare}.html`, `${folder}index.html`];
  return candidates.find((c) => served.has(c)) ?? null;
}

/** Heading text as a reader sees it: no Markdown links, code marks, escapes, tags or `{#id}`s. */
export function normalizeHeading(text: string): string {
  return normalizeSectionName(
    text
      .replace(/\s*\{#[^}]*\}\s*$/, '')
      .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
      .replace(/\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/\\([!-/:-@[-`{-~])/g, '$1'),
  );
}

/** Longest strictly increasing subsequence's length (patience sorting). */
export function longestIncreasing(values: number[]): number {
  const tails: number[] = [];
  for (const v of values) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((tails[mid] ?? 0) < v) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = v;
  }
  return tails.length;
}

/** Share of the generated sections (those the navigation has) that come in the navigation's order. */
export function sectionOrder(generated: string[], truth: string[]): number | null {
  const position = new Map(truth.map((n, i) => [normalizeSectionName(n), i] as const));
  const seen = new Set<number>();
  const positions: number[] = [];
  for (const name of generated) {
    const at = position.get(normalizeSectionName(name));
    if (at === undefined || seen.has(at)) continue;
    seen.add(at);
    positions.push(at);
  }
  return positions.length < 2 ? null : longestIncreasing(positions) / positions.length;
}

function counts(texts: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of texts) if (t) out.set(t, (out.get(t) ?? 0) + 1);
  return out;
}

/** The figures for one pair of files. */
export function headToHead(input: HeadToHeadInput): HeadToHeadFigures {
  const served = new Set(input.servedPaths);
  const parsed = parseLlmsTxt(input.llmsTxt, 'http://relative.invalid/llms.txt');
  // Every heading line (H2 and deeper, outside code) with its 1-based line number.
  const heads = headings(input.llmsTxt).filter((h) => h.level >= 2).map((h) => ({ line: h.index + 1, text: h.text.trim() }));
  const sectionOf = (line: number) => heads.filter((h) => h.line < line).at(-1)?.text ?? '';
  const links = [...parsed.detailLinks, ...parsed.links].map((l) => ({ ...l, page: servedPageOf(l.rawUrl, served, input.hosts), section: sectionOf(l.line) }));
  const pageLinks = links.filter((l) => l.page !== null);
  const listed = new Set(pageLinks.map((l) => l.page));

  const sections: string[] = [];
  for (const l of pageLinks) if (l.section && !sections.includes(l.section)) sections.push(l.section);
  // Scout's root group of ungrouped pages has no navigation name to agree with (as in the scorecard).
  const named = sections.filter((s) => s !== ROOT_SECTION);
  const agreement = sectionAgreement(named, input.topSections);

  const entries = pageLinks.filter((l) => !l.optional && l.section.trim().toLowerCase() !== 'optional');
  const notes = entries.map((l) => ({ title: l.name, notes: (l.notes ?? '').trim() })).filter((l) => l.notes !== '');
  const weak = notes.filter((l) => weakReason(l.notes, l.title) !== null).length;
  const described = notes.length - weak;

  const source = counts(input.sources.flatMap((s) => headings(s).map((h) => normalizeHeading(h.text))));
  const full = counts(headings(input.llmsFullTxt).map((h) => normalizeHeading(h.text)));
  let total = 0;
  let kept = 0;
  const lost: { text: string; missing: number }[] = [];
  for (const [text, n] of source) {
    const k = Math.min(n, full.get(text) ?? 0);
    total += n;
    kept += k;
    if (k < n) lost.push({ text, missing: n - k });
  }
  lost.sort((a, b) => b.missing - a.missing || a.text.localeCompare(b.text));

  return {
    pagesListed: listed.size,
    pagesServed: served.size,
    unlisted: input.servedPaths.filter((p) => !listed.has(p)),
    sections: named,
    jaccard: agreement.jaccard,
    extra: agreement.extra,
    missing: agreement.missing,
    order: input.topSections.length ? sectionOrder(named, input.topSections) : null,
    entries: entries.length,
    described,
    describedShare: entries.length ? described / entries.length : null,
    weak,
    sourceHeadings: total,
    headingsKept: kept,
    headingsShare: total ? kept / total : null,
    headingsLost: lost.slice(0, 10),
    rootChars: input.llmsTxt.length,
    fullChars: input.llmsFullTxt.length,
  };
}

export const HEAD_TO_HEAD_HEADER = ['site', 'llms.txt by', 'pages listed', 'sections J', 'section order', 'described %', 'weak notes', 'headings kept in full %', 'root chars'];

const pct = (x: number | null) => (x === null ? 'n/a' : (x * 100).toFixed(1));

/** One table row, in HEAD_TO_HEAD_HEADER's order. */
export function headToHeadRow(id: string, by: string, f: HeadToHeadFigures): string[] {
  return [
    id,
    by,
    `${f.pagesListed} / ${f.pagesServed}`,
    f.jaccard === null ? 'n/a' : f.jaccard.toFixed(2),
    f.order === null ? 'n/a' : f.order.toFixed(2),
    pct(f.describedShare),
    String(f.weak),
    pct(f.headingsShare),
    String(f.rootChars),
  ];
}

/**
 * Where the first file (Scout's) does worse than the second (the generator's), in words: one line
 * per row of the table that is worse. Root size is not a contest (smaller is not better when it
 * lists fewer pages), so it is never a loss.
 */
export function worseRows(scout: HeadToHeadFigures, own: HeadToHeadFigures): string[] {
  const out: string[] = [];
  const less = (a: number | null, b: number | null) => a !== null && b !== null && a < b - 1e-9;
  if (scout.pagesListed < own.pagesListed) out.push(`pages listed: ${scout.pagesListed} against ${own.pagesListed}`);
  if (less(scout.jaccard, own.jaccard) || (scout.jaccard === null && own.jaccard !== null)) out.push(`sections J: ${scout.jaccard?.toFixed(2) ?? 'n/a'} against ${own.jaccard?.toFixed(2)}`);
  if (less(scout.order, own.order)) out.push(`section order: ${scout.order?.toFixed(2)} against ${own.order?.toFixed(2)}`);
  if (less(scout.describedShare, own.describedShare)) out.push(`described: ${pct(scout.describedShare)} % against ${pct(own.describedShare)} %`);
  if (scout.weak > own.weak) out.push(`weak notes: ${scout.weak} against ${own.weak}`);
  if (less(scout.headingsShare, own.headingsShare)) out.push(`headings kept: ${pct(scout.headingsShare)} % against ${pct(own.headingsShare)} %`);
  return out;
}
