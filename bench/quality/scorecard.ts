/**
 * One site's scorecard from what the product generated (pure: no I/O), and the table printed for
 * many sites. Column definitions are in the metric modules; `SiteScore` holds each metric's full
 * result (the JSON keeps the offending examples), `tableRow` the figure shown.
 */
import { chromeLines, type ChromeResult } from './chrome';
import { descriptionQuality, summaryQuality, type DescriptionsResult, type SummaryResult } from './descriptions';
import { fullDuplication, type DuplicationResult } from './duplication';
import { cleanSource, sourceF1, type F1Result } from './f1';
import { multipleH1, permalinkHeadings, type MultiH1Result, type PermalinkResult } from './headings';
import { aggregatePages, nonDocPages, type NonDocResult } from './non-doc';
import { ROOT_SECTION } from '../../lib/generate/sections';
import { sectionAgreement, type SectionAgreement } from './sections';
import { splitLlmsFull } from './llms-full';
import { nameCore, presentedNames, siteNamePart, titlesWithSiteName, type TitlesResult } from './titles';
import { edgeChrome, type EdgeChromeResult } from './edge-chrome';
import { chromeParts, KEPT_METRICS, keptCounts, keptSummary, type KeptMetric, type KeptSummary } from './kept';
import { leadDescriptionQuality, type LeadDescriptionsResult } from './lead-descriptions';
import { nestedNames, type NestedNamesResult } from './nested-names';
import { pageH1, siteHeadings, words, type PageFacts } from './page-facts';
import { sectionOrder, type SectionOrder } from './section-order';
import { titleH1Agreement, type TitleH1Result } from './title-h1';

export interface ScoredEntry {
  key: string;
  title: string;
  /** The link in llms.txt (a Markdown twin when there is one). */
  url: string;
  /** The page it stands for. */
  pageUrl: string;
  description?: string;
}

/** What the generator produced: GeneratedOutput's fields the scorecard reads. */
export interface ScoredOutput {
  title: string;
  summary?: string;
  llmsTxt: string;
  llmsFullTxt: string;
  sections: { name: string; optional: boolean; entries: ScoredEntry[] }[];
}

export interface ScoredPage {
  key: string;
  finalUrl: string;
  title: string;
  markdown: string;
  /** 'markdown' when the crawler took the page's Markdown twin (then the source scores nothing). */
  format: 'markdown' | 'html';
  /** The page's source Markdown, when the site's sources are known. */
  source?: string;
  /**
   * The page as Scout serves it (preview, search, describer, exports): `markdown` without the
   * chrome its generated version learned (lib/output/served-page.ts), read with the model the
   * version kept, never learned again here. Absent: served as stored.
   */
  served?: string;
}

export interface ScoreInput {
  siteName: string;
  topSections: string[];
  /** Stored pages of the crawl (state 'stored'). */
  pages: ScoredPage[];
  output: ScoredOutput;
  /** The site's root and start page URLs (their titles may be "Name: tagline"). */
  homeUrls?: string[];
  /** Shingle sampling for the aggregate detector (1 = every shingle; see aggregatePages). */
  shingleSample?: number;
  /**
   * What each page's own HTML says (page-facts.ts), by page key, for the invariants that need no
   * ground truth; pages taken from a Markdown twin have none.
   */
  facts?: Map<string, PageFacts>;
  /** The layout's files (root first), for the nested-file names. */
  files?: { path: string; title: string; depth: number; text: string }[];
}

/** The invariants of issue #32, each measured against the pages' own HTML or the site's structure. */
export interface Invariants {
  /** Pages whose HTML was read (converted pages: a Markdown twin has no HTML to hold it to). */
  pages: number;
  /** 1: headings, code blocks, code lines, tables and list items of the main content kept (kept.ts). */
  kept: KeptSummary;
  /** The same over the raw stored Markdown: what the converter kept, before serving cuts the site's frame. */
  keptRawStored: KeptSummary;
  /** 2: blocks at the top or bottom of most pages (edge-chrome.ts): in llms-full.txt's page bodies, the pages as served, and the raw stored Markdown. */
  edgeChrome: ByPlace<EdgeChromeResult>;
  /** 3: entry titles against their pages' H1 (title-h1.ts). */
  titleH1: TitleH1Result;
  /** 4: descriptions that echo the title, add the site name, come from a member or are a signature (lead-descriptions.ts). */
  leadDescriptions: LeadDescriptionsResult;
  /** 6: the sections' order against the site's table of contents (section-order.ts). */
  sectionOrder: SectionOrder;
  /** 7: nested files and groups without a name from the site's structure (nested-names.ts); null without the layout. */
  nestedNames: NestedNamesResult | null;
}

/** A figure in llms-full.txt, in the pages as served, and in the raw stored Markdown (see SiteScore.chrome). */
export interface ByPlace<T> {
  full: T;
  served: T;
  rawStored: T;
}

/** Where a figure was counted, in words for the report. */
export const PLACE_LABEL: Record<keyof ByPlace<unknown>, string> = { full: 'llms-full.txt', served: 'the pages as served', rawStored: 'the raw stored Markdown' };

export interface SiteScore {
  /**
   * The generated H1 against the name the site gives itself: it matches when the H1's core (see
   * nameCore: no versions, no "documentation") holds the name's core as whole words — "Python 3.11.2
   * documentation" holds "Python", "Flask Documentation (2.2.x)" holds "Flask" — and not when the H1
   * fell back to the host name or to a page heading ("SYNOPSIS").
   */
  h1: { text: string; siteName: string; matches: boolean };
  /** The site names the titles were checked against: siteName, the H1 and the ones the site presents (see titles.ts). */
  names: string[];
  pagesStored: number;
  pagesListed: number;
  /** The llms.txt outline: each H2 with its entry count. */
  outline: { name: string; optional: boolean; entries: number }[];
  /** Pages in Optional, and listed pages llms-full.txt leaves out (the generator's aggregates), as URLs. */
  optionalPages: string[];
  notInFull: string[];
  titles: TitlesResult;
  /**
   * Chrome and permalinks in three places: `full` — each page's body as llms-full.txt gives it
   * (after whatever the generator strips; aggregates it leaves out are not there), `served` — each
   * listed page as Scout serves it (what the preview, search, describer and exports get),
   * `rawStored` — the page record as the crawl stored it, which nothing serves, for transparency.
   */
  chrome: ByPlace<ChromeResult>;
  permalinks: ByPlace<PermalinkResult>;
  /** Counted in the served Markdown: llms-full.txt demotes every page heading below H2. */
  multiH1: MultiH1Result;
  nonDoc: NonDocResult;
  aggregatesAnywhere: { url: string; contains: number }[];
  /**
   * llms-full.txt duplication, and — where the sources of the pages in it are known — the same
   * measure over those sources (cleaned) in the same order: what the authors repeated themselves
   * (npm's command pages each quote their options from the config page). The excess is the product's.
   */
  duplication: DuplicationResult & { sources: { share: number; pages: number } | null };
  sections: SectionAgreement & { generated: string[]; truth: string[] };
  descriptions: DescriptionsResult;
  llmsTxtChars: number;
  llmsFullChars: number;
  summary: SummaryResult;
  f1: F1Result;
  invariants: Invariants;
}

/**
 * See SiteScore.h1. Also false when the H1 carries markup (`<tt>json-c</tt>`, `**x**`) or is a page
 * title with the site name as a separable part ("Overview (jsoup Java HTML Parser 1.15.3 API)").
 */
export function h1HoldsName(h1: string, siteName: string, presented: string[] = []): boolean {
  const name = nameCore(siteName);
  if (name === '' || !` ${nameCore(h1)} `.includes(` ${name} `)) return false;
  if (/<\/?[a-z][^>]*>|[`*[\]]/i.test(h1)) return false;
  return siteNamePart(h1, [siteName, ...presented]) === null;
}

export function scoreSite(input: ScoreInput): SiteScore {
  const { output } = input;
  const byKey = new Map(input.pages.map((p) => [p.key, p]));
  const entries = output.sections.flatMap((s) => s.entries.map((e) => ({ ...e, optional: s.optional })));
  // Per-page metrics read every page the outputs list (= the bodies of llms-full.txt) as Scout
  // serves it; the chrome figures also read the raw stored record.
  const listedAs = (text: (page: ScoredPage) => string) => entries.flatMap((e) => {
    const page = byKey.get(e.key);
    return page ? [{ key: e.key, url: e.pageUrl, title: e.title, markdown: text(page), ...(page.source === undefined ? {} : { source: page.source }) }] : [];
  });
  const listed = listedAs(servedText);
  const rawListed = listedAs((page) => page.markdown);
  const byUrl = new Map(listed.map((p) => [p.url, p]));
  const bodies = splitLlmsFull(output.llmsFullTxt).flatMap((b) => {
    const page = byUrl.get(b.url);
    return page ? [{ ...page, markdown: b.body }] : [];
  });
  const aggregates = aggregatePages(listed, { sample: input.shingleSample ?? 1 });
  const urlOf = new Map(listed.map((p) => [p.key, p.url]));
  const presented = presentedNames(input.pages.map((p) => p.title), [input.siteName, output.title]);
  const names = [...new Set([input.siteName, output.title, ...presented])];
  const withSource = bodies.filter((b) => b.source !== undefined);
  const sourceDuplication = withSource.length ? fullDuplication(withSource.map((b) => cleanSource(b.source ?? '')).join('\n\n')).share : null;
  // The site's ungrouped top pages ("Docs") have no group name in its navigation to agree with.
  const generated = output.sections.filter((s) => !s.optional && s.name !== ROOT_SECTION).map((s) => s.name);
  const facts = input.facts ?? new Map<string, PageFacts>();
  // What the bench's own chrome detectors call chrome in each raw stored page (over every stored
  // page, as the kept ratios are): lost from there, an item is dropped as chrome, not lost.
  const chromeOf = new Map<string, string>();
  const chromeText = chromeParts(input.pages.map((p) => ({ key: p.key, url: p.finalUrl, title: p.title, markdown: p.markdown, ...(p.source === undefined ? {} : { source: p.source }) })), { siteNames: names });
  for (const [i, p] of input.pages.entries()) chromeOf.set(p.key, chromeText[i] ?? '');
  const keptOf = (text: (page: ScoredPage) => string) => input.pages.flatMap((p) => {
    const f = p.format === 'html' ? facts.get(p.key) : undefined;
    return f ? [{ url: p.finalUrl, kept: keptCounts(f, text(p), chromeOf.get(p.key)) }] : [];
  });
  const keptPages = keptOf(servedText);
  const invariants: Invariants = {
    pages: keptPages.length,
    kept: keptSummary(keptPages),
    keptRawStored: keptSummary(keptOf((page) => page.markdown)),
    edgeChrome: { full: edgeChrome(bodies), served: edgeChrome(listed), rawStored: edgeChrome(rawListed) },
    titleH1: (() => {
      const site = siteHeadings([...facts.values()].map((f) => f.h1Candidates));
      // An H1 that is only the site's name (TypeDoc's module index and class hierarchy, both
      // "commander") names the site, not the page: such a page is counted as one without a heading.
      const home = new Set(input.homeUrls ?? []);
      const siteWords = new Set(names.map((name) => words(name)).filter(Boolean));
      return titleH1Agreement(entries.map((e) => {
        const f = facts.get(e.key);
        const h1 = f ? pageH1(f.h1Candidates, site) : undefined;
        return { url: e.pageUrl, title: e.title, h1: h1 && !home.has(e.pageUrl) && siteWords.has(words(h1)) ? null : h1 };
      }));
    })(),
    leadDescriptions: leadDescriptionQuality(entries.map((e) => {
      const f = facts.get(e.key);
      return { title: e.title, url: e.pageUrl, description: e.description, optional: e.optional, ...(f ? { facts: f } : {}) };
    }), names),
    sectionOrder: sectionOrder(generated, input.topSections),
    nestedNames: input.files ? nestedNames(input.files) : null,
  };
  return {
    invariants,
    h1: { text: output.title, siteName: input.siteName, matches: h1HoldsName(output.title, input.siteName, presented) },
    names,
    pagesStored: input.pages.length,
    pagesListed: entries.length,
    outline: output.sections.map((sec) => ({ name: sec.name, optional: sec.optional, entries: sec.entries.length })),
    optionalPages: entries.filter((e) => e.optional).map((e) => e.pageUrl),
    notInFull: (() => {
      const inFull = new Set(bodies.map((b) => b.url));
      return listed.filter((p) => !inFull.has(p.url)).map((p) => p.url);
    })(),
    titles: titlesWithSiteName(output.sections.map((s) => ({ name: s.name, optional: s.optional, entries: s.entries.map((e) => ({ title: e.title, url: e.pageUrl })) })), names, 10, input.homeUrls ?? []),
    chrome: { full: chromeLines(bodies, { siteNames: names }), served: chromeLines(listed, { siteNames: names }), rawStored: chromeLines(rawListed, { siteNames: names }) },
    permalinks: { full: permalinkHeadings(bodies), served: permalinkHeadings(listed), rawStored: permalinkHeadings(rawListed) },
    multiH1: multipleH1(listed),
    nonDoc: nonDocPages(entries.map((e) => ({ key: e.key, title: e.title, url: e.pageUrl, optional: e.optional })), aggregates),
    aggregatesAnywhere: aggregates.map((a) => ({ url: urlOf.get(a.key) ?? a.key, contains: a.contains })),
    duplication: { ...fullDuplication(output.llmsFullTxt), sources: sourceDuplication === null ? null : { share: sourceDuplication, pages: withSource.length } },
    sections: { ...sectionAgreement(generated, input.topSections), generated, truth: input.topSections },
    descriptions: descriptionQuality(entries.map((e) => ({ title: e.title, url: e.pageUrl, description: e.description, optional: e.optional }))),
    llmsTxtChars: output.llmsTxt.length,
    llmsFullChars: output.llmsFullTxt.length,
    summary: summaryQuality(output.summary),
    // Pages taken from a Markdown twin are their own source: only converted pages say anything.
    f1: sourceF1(input.pages.flatMap((p) => (p.source !== undefined && p.format === 'html' ? [{ url: p.finalUrl, markdown: servedText(p), source: p.source }] : []))),
  };
}

const servedText = (page: ScoredPage): string => page.served ?? page.markdown;

export const TABLE_HEADER = [
  'site', 'family', 'pages', 'time s', 'H1 = name', 'titles w/ name', 'chrome pages full / served / raw stored', 'permalink hdgs full / served / raw stored', '>1 H1 pages',
  'non-doc main', 'full dup %', 'sections J', 'described %', 'weak desc', 'llms.txt chars', 'summary', 'F1 med / min', 'text F1 med / min',
  'hdgs kept %', 'code blocks %', 'code lines %', 'tables %', 'list items %', 'edge chrome blocks full / served / raw stored', 'title = H1 %', 'weak lead desc', 'section order', 'unnamed nested',
];

const pct = (x: number | null) => (x === null ? 'n/a' : (x * 100).toFixed(1));
const fix = (x: number | null, digits = 3) => (x === null || Number.isNaN(x) ? 'n/a' : x.toFixed(digits));

/** The figures shown in the table, in TABLE_HEADER's order. */
export function tableRow(id: string, family: string, seconds: number, s: SiteScore): string[] {
  return [
    id,
    family,
    String(s.pagesStored),
    seconds.toFixed(1),
    s.h1.matches ? 'yes' : 'no',
    String(s.titles.count),
    `${s.chrome.full.pages} / ${s.chrome.served.pages} / ${s.chrome.rawStored.pages}`,
    `${s.permalinks.full.headings} / ${s.permalinks.served.headings} / ${s.permalinks.rawStored.headings}`,
    String(s.multiH1.pages),
    String(s.nonDoc.outsideOptional),
    s.duplication.sources ? `${pct(s.duplication.share)} (src ${pct(s.duplication.sources.share)})` : pct(s.duplication.share),
    fix(s.sections.jaccard, 2),
    pct(s.descriptions.share),
    String(s.descriptions.weak),
    String(s.llmsTxtChars),
    s.summary.weak ? `weak (${s.summary.weak})` : 'ok',
    s.f1.pages ? `${fix(s.f1.median)} / ${fix(s.f1.min)}` : 'n/a',
    s.f1.pages ? `${fix(s.f1.textMedian)} / ${fix(s.f1.textMin)}` : 'n/a',
    ...KEPT_METRICS.map((m) => keptCell(s.invariants.kept, m, s.invariants.keptRawStored)),
    `${s.invariants.edgeChrome.full.blocks} / ${s.invariants.edgeChrome.served.blocks} / ${s.invariants.edgeChrome.rawStored.blocks}`,
    pct(s.invariants.titleH1.share),
    String(s.invariants.leadDescriptions.weak),
    fix(s.invariants.sectionOrder.score, 2),
    s.invariants.nestedNames ? `${s.invariants.nestedNames.unnamed} (${s.invariants.nestedNames.files} files)` : 'n/a',
  ];
}

/** A kept ratio with two decimals, never rounded up to 100 when something was lost. */
function keptCell(kept: KeptSummary, metric: KeptMetric, raw?: KeptSummary): string {
  const k = kept[metric];
  if (k.ratio === null) return 'n/a';
  const cell = (ratio: number) => (Math.floor(ratio * 10000) / 100).toFixed(2);
  // Served text is what is scored; where serving cut what the converter kept, the raw figure too,
  // and what was left out of the ratio as chrome (kept.ts's chromeParts), so nothing is hidden.
  const r = raw?.[metric].ratio;
  const notes = [
    ...(r !== undefined && r !== null && r !== k.ratio ? [`raw ${cell(r)}`] : []),
    ...(k.dropped ? [`${k.dropped} dropped as chrome`] : []),
  ];
  return notes.length ? `${cell(k.ratio)} (${notes.join('; ')})` : cell(k.ratio);
}

const KEPT_LABEL: Record<KeptMetric, string> = { headings: 'headings', codeBlocks: 'code blocks', codeLines: 'code lines', tables: 'tables', listItems: 'list items' };

/** The invariants' offenders of one site, as Markdown bullet lines for the report. */
export function invariantOffenders(s: SiteScore, url: (u: string) => string = (u) => u): string[] {
  const inv = s.invariants;
  const out: string[] = [];
  const short = (t: string, n = 110) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);
  const add = (label: string, lines: string[]) => {
    if (lines.length) out.push(`* ${label}`, ...lines.map((l) => `  * ${l}`));
  };
  for (const metric of KEPT_METRICS) {
    const k = inv.kept[metric];
    if (k.kept < k.total) add(`${KEPT_LABEL[metric]} kept ${k.kept} of ${k.total} over ${inv.pages} pages; worst pages:`, k.worst.map((w) => `${url(w.url)} ${w.kept}/${w.total}, lost: ${w.lost.map((l) => `\`${short(l.replace(/`/g, "'"), 70)}\``).join(', ')}`));
    if (k.dropped) add(`${KEPT_LABEL[metric]} dropped as chrome (out of the ratio): ${k.dropped}, e.g.:`, [k.droppedAs.map((l) => `\`${short(l.replace(/`/g, "'"), 70)}\``).join(', ')]);
  }
  for (const where of ['full', 'served', 'rawStored'] as const) {
    const e = inv.edgeChrome[where];
    add(`blocks at the top or bottom of most pages in ${PLACE_LABEL[where]} (${e.blocks}, on ${e.pages} pages):`, e.top.map((b) => `${b.where}, ${b.pages} pages: \`${short(b.block.replace(/`/g, "'"))}\` (e.g. ${url(b.example)})`));
  }
  const t = inv.titleH1;
  if (t.agree < t.pages) add(`titles that disagree with the page's H1 (${t.pages - t.agree} of ${t.pages}${t.noH1 ? `; ${t.noH1} pages without a heading` : ''}):`, t.examples.slice(0, 6).map((e) => `“${short(e.title, 60)}” vs H1 “${short(e.h1, 80)}” (${url(e.url)})`));
  const d = inv.leadDescriptions;
  add(`weak descriptions by the lead test (${d.weak} of ${d.checked}: ${Object.entries(d.byReason).map(([k, n]) => `${k} ${n}`).join(', ')}):`, d.examples.slice(0, 8).map((e) => `${e.reason}: “${short(e.title, 50)}” → “${short(e.description)}”`));
  if (inv.sectionOrder.inversions.length) add(`sections out of the site's order (score ${fix(inv.sectionOrder.score, 2)} over ${inv.sectionOrder.shared} shared):`, inv.sectionOrder.inversions);
  if (inv.nestedNames?.unnamed) add(`nested files or groups without a name (${inv.nestedNames.unnamed}):`, inv.nestedNames.examples.map((e) => `${e.where} “${e.name}” (${e.reason}) in ${e.path}`));
  return out;
}

/** A Markdown table (also what is printed). */
export function markdownTable(header: string[], rows: string[][]): string {
  const cell = (c: string) => c.replace(/\|/g, '\\|');
  return [
    `| ${header.map(cell).join(' | ')} |`,
    `|${header.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}
