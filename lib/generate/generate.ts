/**
 * llms.txt and llms-full.txt from crawled pages, deterministically (no model involved): the same
 * pages, navigation and curation always give the same bytes, so versions can be diffed.
 */
import { isWeakDescription, titleFromUrl } from '../convert/page-text';
import { markdownDescription } from '../crawl/markdown-meta';
import { dedupeKey } from '../url/normalize';
import { pageKeys, readingOrder } from './page-order';
import { demoteHeadings } from './demote-headings';
import { bodyTokensOf, renderLlmsFull, renderLlmsTxt, type BodyTokens, type FileHead, type FullPage } from './render';
import { learnBoilerplate } from './boilerplate';
import { classifyPages } from './page-class';
import { cachedCountFits } from './render';
import { isSecondaryPage, supersededTest } from './secondary';
import { affixesOf, repeatsTitle, titleCleaner, titleOrHeading } from './site-titles';
import { contentsTree, groupByIndexHeadings } from './sections-index';
import { baseDirectory, groupByNav, groupByPath, mergeTinyGroups, ROOT_SECTION, startDirectory, startPageLabels, type PageGroup } from './sections';
import { namesMore, namesWithin, rootPage, siteName, siteSummary, startPage } from './site-name';
import { firstHeadingText, headingLine, oneLine } from './text';
import { countTokens } from '../tokens';
import type { Curation, GeneratedOutput, GenerateInput, LlmsEntry, LlmsSectionModel, SourcePage } from './types';

// A description on this many pages is the site's boilerplate ("Documentation for Foo"), not the page's.
const BOILERPLATE_PAGES = 3;

/** The link target: the Markdown twin the page's content came from, else the page. */
function entryUrl(page: SourcePage): string {
  return page.format === 'markdown' && page.twinUrl ? page.twinUrl : page.finalUrl;
}

const descriptionKey = (text: string | undefined): string => oneLine(text).toLowerCase();

function boilerplate(pages: SourcePage[]): Set<string> {
  const counts = new Map<string, number>();
  for (const page of pages) {
    const key = descriptionKey(page.description);
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, count]) => count >= BOILERPLATE_PAGES).map(([key]) => key));
}

/** Titles (lower-cased) that more than one page has. */
function sharedTitles(pages: SourcePage[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const page of pages) {
    const key = oneLine(page.title).toLowerCase();
    if (seen.has(key)) shared.add(key);
    seen.add(key);
  }
  return shared;
}

/**
 * The page's title; when several pages share it, the page's own first heading if that says more
 * (Sphinx titles all 28 pages of its general index "Index"; their headings say "Index – A", …).
 */
function entryTitle(page: SourcePage, shared: Set<string>): string {
  const title = headingLine(page.title, titleFromUrl(page.finalUrl));
  if (!shared.has(oneLine(page.title).toLowerCase())) return title;
  const heading = firstHeadingText(page.markdown);
  return heading !== '' && heading.toLowerCase() !== title.toLowerCase() ? headingLine(heading, title) : title;
}

/**
 * Applies the user's section order and names. The Optional section is not among `groups`: it
 * always comes last and keeps its name, because parsers recognise it by that exact name.
 */
function curate(groups: PageGroup[], curation: Curation): PageGroup[] {
  const wanted = (curation.sectionOrder ?? []).filter((id, index, all) => all.indexOf(id) === index);
  const rank = (group: PageGroup): number => {
    const at = wanted.indexOf(group.id);
    return at < 0 ? wanted.length : at;
  };
  // Array.prototype.sort is stable: groups the order does not mention keep their place after.
  // Names stay unique, and no other section is called Optional: the reference parser keeps
  // sections in a dict by name, so a repeated name would lose the first section's links.
  const taken = new Set(['optional']);
  return [...groups]
    .sort((a, b) => rank(a) - rank(b))
    .map((group) => {
      const wantedName = headingLine(curation.renames?.[group.id] ?? '', group.name);
      let name = wantedName;
      for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${wantedName} (${n})`;
      taken.add(name.toLowerCase());
      return { ...group, name };
    });
}

/**
 * What the pages call the docs says it better than the boundary's name (read from the start page
 * alone) when that name is only the start of it (the company's og:site_name "Acme", where the titles
 * say "Acme 4.2 documentation"), the same name spelt otherwise, or the name with a tagline at
 * one end ("npm - a JavaScript package manager | npm Docs" where every title ends "| npm Docs").
 */
function pagesSayBetter(found: string, docsName: string): boolean {
  const name = found.toLowerCase();
  const { prefix, suffix } = affixesOf(docsName);
  return namesMore(found, docsName) || docsName.toLowerCase() === name || [prefix, suffix].some((part) => part?.toLowerCase() === name);
}

// A root group this small is only the landing page; the site's own tree has no place for it.
const LANDING_PAGES = 1;

/**
 * With sections from the site's navigation, a root group that holds only the landing page would
 * be a section named after the site with one entry: the page leads the first section instead.
 */
function foldLandingPage(groups: PageGroup[]): PageGroup[] {
  const root = groups.find((group) => group.root);
  const first = groups.find((group) => !group.root);
  if (!root || !first || root.pages.length > LANDING_PAGES) return groups;
  return groups.filter((group) => group !== root).map((group) => (group === first ? { ...group, pages: [...root.pages, ...group.pages] } : group));
}

/**
 * Generates both files and the section model behind them, from the stored pages only (duplicates,
 * removed, empty and excluded pages are left out, and so are pages that are not documentation unless
 * the user brought them back; the model lists those with why). The H1 is the documentation's own
 * name when the crawl's boundary found one, else what the pages call the site. Sections follow the site's navigation when it covers
 * most pages, else its top-level directories; secondary pages (changelogs, legal, indexes, old
 * versions) go to `## Optional`, last. Pages are ordered as a reader meets them from the start
 * page (see `readingOrder`). Never reads the clock: the date comes from `generatedAt`.
 */
export function generateOutputs(input: GenerateInput): GeneratedOutput {
  const curation = input.curation ?? {};
  const excluded = new Set(curation.excluded ?? []);
  const included = new Set(curation.included ?? []);
  const readable = input.pages.filter((page) => page.state === 'stored' && !page.empty);
  // Pages the evidence says are not documentation (a blog post, a forum thread…) stay out, and out
  // of the name and summary too, unless the user brought them back in the Review.
  const raw = readable.filter((page) => !excluded.has(page.key) && (!page.notDocs || included.has(page.key)));
  // What the site calls itself is read from the titles as the pages give them; then the site's
  // frame is taken off every page: its name from titles, its repeated chrome from the Markdown.
  const found = siteName(raw, input.startUrl, input.docsHome, input.llmsName);
  const docsName = oneLine(input.docsName);
  // The boundary's name is read off the start page's title alone: where the pages show it to be
  // the wider whole the docs belong to ("proc_macro - Rust"), the pages' own name is the docs'.
  const site = docsName && (found.fromHost || !(pagesSayBetter(found.name, docsName) || namesWithin(found, docsName))) ? { name: docsName, fromHost: false } : found;
  const siteNames = [site, found].flatMap((name) => (name.fromHost ? [] : [name.name]));
  const cleanTitle = titleCleaner(raw.map((page) => page.title), siteNames);
  const stripChrome = learnBoilerplate(raw.map((page) => page.markdown));
  // A title that is only a node or file name, or names less than the heading, gives way to it.
  const stored = raw.map((page) => {
    const markdown = stripChrome(page.markdown);
    return { ...page, title: titleOrHeading(cleanTitle(page.title), firstHeadingText(markdown), siteNames, page.finalUrl || page.url), markdown };
  });
  // Two stored pages behind one link (a page and its redirect target) would list it twice.
  const links = new Set<string>();
  const pages = readingOrder(stored, input.startUrl).filter((page) => {
    const key = dedupeKey(entryUrl(page));
    if (links.has(key)) return false;
    links.add(key);
    return true;
  });

  const head: FileHead = { title: headingLine(site.name, 'Documentation') };
  const summary = oneLine(input.summary) || siteSummary(pages, input.startUrl, input.docsHome);
  if (summary) head.summary = summary;
  // The site's ungrouped top pages: the site gives them no group name, and repeating the H1 as an H2
  // says nothing, so they take the name llmstxt.org's own example gives its main links.
  const rootName = ROOT_SECTION;

  // The home and start pages are never pushed to Optional by a guess, whatever they are called.
  const keep = new Set([rootPage(pages, input.startUrl, input.docsHome), rootPage(pages, input.startUrl), startPage(pages, input.startUrl)]);
  const forced = new Set(curation.optional ?? []);
  const base = baseDirectory(pages, input.startUrl);
  // Source listings and all-in-one pages are not documentation in their own right.
  const classes = classifyPages(pages);
  const superseded = supersededTest(pages, base);
  // What the site's own navigation lists is documentation by its position, whatever it is called.
  const navKeys = new Set((input.nav ?? []).filter((item) => item.url !== '').map((item) => dedupeKey(item.url)));
  const inNav = (page: SourcePage): boolean => pageKeys(page).some((key) => navKeys.has(key));
  const optional = new Set(pages.filter((page) =>
    forced.has(page.key) || (!keep.has(page) && (classes.has(page) || isSecondaryPage(page, base, inNav(page)) || superseded(page.finalUrl)))));
  const main = pages.filter((page) => !optional.has(page));
  // The site's navigation; else the start page's contents tree (a module index), else an index
  // page whose headings group links to most pages (an API reference's "Structs", "Functions").
  const byFolder = () => groupByPath(main, base, rootName, startPageLabels(startPage(pages, input.startUrl)), startDirectory(input.startUrl));
  const byNav = groupByNav(main, input.nav, rootName) ?? groupByNav(main, contentsTree(startPage(pages, input.startUrl)), rootName) ?? groupByIndexHeadings(main, rootName, byFolder());
  const grouped = (byNav ? foldLandingPage(byNav) : byFolder())
    .map((group) => (group.name === rootName ? group : { ...group, name: cleanTitle(group.name) }));
  const groups = curate(mergeTinyGroups(grouped), curation);

  const common = boilerplate(pages);
  const rawTitles = new Map(raw.map((page) => [page.key, page.title]));
  const shared = sharedTitles(pages);
  // One tokenization per page: an entry's tokens are what its page adds to llms-full.txt (its body
  // under that title), which is also the piece renderLlmsFull sums. Kept on the page by the caller.
  const bodyCounts = new Map<string, BodyTokens>();
  const countBody = input.countTokens ?? countTokens;
  const bodyTokens = (page: SourcePage, title: string): number => {
    const counted = cachedCountFits(page.fullTokens, title, page.markdown)
      ? page.fullTokens
      : bodyTokensOf(title, page.markdown, countBody(`${demoteHeadings(page.markdown, title)}\n\n`));
    bodyCounts.set(page.key, counted);
    return counted.count;
  };
  const toEntry = (page: SourcePage): LlmsEntry => {
    const title = entryTitle(page, shared);
    const entry: LlmsEntry = {
      key: page.key,
      title,
      url: entryUrl(page),
      pageUrl: page.finalUrl,
      tokens: bodyTokens(page, title),
    };
    // Boilerplate, weak text and descriptions that only repeat the title tell a reader nothing;
    // then the page's own first paragraph may, else no description at all.
    const useful = (text: string | undefined): text is string =>
      !!text && !common.has(text.toLowerCase()) && !repeatsTitle(text, [entry.title, rawTitles.get(page.key) ?? ''], siteNames) && !isWeakDescription(text);
    const description = [oneLine(page.description), oneLine(markdownDescription(page.markdown))].find(useful);
    if (description) entry.description = description;
    return entry;
  };
  const toSection = (id: string, name: string, isOptional: boolean, grouped: SourcePage[]): LlmsSectionModel => {
    const entries = grouped.map(toEntry);
    return { id, name, optional: isOptional, entries, tokens: entries.reduce((sum, entry) => sum + entry.tokens, 0) };
  };
  const sections = groups.map((group) => toSection(group.id, group.name, false, group.pages)).filter((s) => s.entries.length > 0);
  const optionalPages = pages.filter((page) => optional.has(page));
  if (optionalPages.length > 0) sections.push(toSection('optional', 'Optional', true, optionalPages));

  const listed = sections.reduce((sum, section) => sum + section.entries.length, 0);
  let origin = input.startUrl;
  try {
    origin = new URL(input.startUrl).origin;
  } catch {
    // Keep the start URL as given; the paragraph still says where the pages came from.
  }
  const date = input.generatedAt.toISOString().slice(0, 10);
  const details = `Generated by llms.txt Scout from ${listed} ${listed === 1 ? 'page' : 'pages'} of ${origin} on ${date}.`;
  const llmsTxt = renderLlmsTxt(head, details, sections);

  const byKey = new Map(pages.map((page) => [page.key, page]));
  const fullPages: FullPage[] = [];
  for (const section of sections) {
    if (section.optional && curation.fullWithoutOptional) continue;
    for (const entry of section.entries) {
      const page = byKey.get(entry.key);
      // An aggregate repeats the pages listed beside it: in llms-full.txt it would double them.
      if (page && classes.get(page) !== 'aggregate') fullPages.push({ key: page.key, title: entry.title, url: entry.pageUrl, markdown: page.markdown, bodyTokens: bodyCounts.get(page.key) });
    }
  }
  const full = renderLlmsFull(head, fullPages, countTokens);
  const llmsFullTxt = full.text;
  const notDocs = readable
    .filter((page) => page.notDocs)
    .map((page) => ({ key: page.key, title: headingLine(cleanTitle(page.title), titleFromUrl(page.finalUrl)), url: page.finalUrl, reason: oneLine(page.notDocs), included: included.has(page.key) && !excluded.has(page.key) }))
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return {
    ...head,
    details,
    sections,
    notDocs,
    llmsTxt,
    llmsFullTxt,
    tokens: { llmsTxt: countTokens(llmsTxt), llmsFullTxt: full.tokens },
    fullTokens: bodyCounts,
  };
}
