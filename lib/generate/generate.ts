/**
 * llms.txt and llms-full.txt from crawled pages, deterministically (no model involved): the same
 * pages, navigation and curation always give the same bytes, so versions can be diffed.
 */
import { isWeakDescription, titleFromUrl } from '../convert/page-text';
import { markdownDescription } from '../crawl/markdown-meta';
import { dedupeKey } from '../url/normalize';
import { pageKeys, readingOrder } from './page-order';
import { demoteHeadings } from './demote-headings';
import { bodyTokensOf, renderLlmsFull, renderLlmsTxt, type BodyTokens, type FileHead, type FullPage, type RenderedFull } from './render';
import { chromeStripper, generatedPages, learnChrome } from './boilerplate';
import { classifyPages } from './page-class';
import { cachedCountFits } from './render';
import { isSecondaryPage, supersededTest } from './secondary';
import { affixesOf, repeatsTitle, titleCleaner, titleOrHeading } from './site-titles';
import { contentsList, contentsTree, groupByIndexHeadings } from './sections-index';
import { baseDirectory, groupByContentsList, groupByNav, groupByPath, mergeTinyGroups, ROOT_SECTION, startDirectory, startPageLabels, type PageGroup } from './sections';
import { namesMore, namesWithin, rootPage, siteName, siteSummary, startPage } from './site-name';
import { firstHeadingText, headingLine, oneLine, wordKey } from './text';
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

// A description's first characters, to find the repeated blocks it may be the start of.
const PREFIX = 24;
// A block on this share of the site's pages (and on BOILERPLATE_PAGES at least) is the site's.
const REPEATED_SHARE = 0.1;

/**
 * A test for text the site repeats: a block of Markdown (a paragraph, an item) found on a tenth
 * of the site's pages (three at least) is the site's (a "Generated on … by doxygen" footer the
 * converter kept on a few pages, a notice every module page carries), not one page's
 * description. A description cut short is tested as the start of such a block.
 */
function repeatedText(pages: SourcePage[]): { (text: string): boolean; strip(markdown: string): string } {
  const counts = new Map<string, number>();
  // Only the counts are kept: every page's block keys together are about the size of the site's
  // Markdown, and `strip` is asked about the few pages whose own descriptions fail.
  const blockKeys = (markdown: string): string[] => markdown.split(/\n\s*\n/).map(wordKey);
  for (const page of pages) {
    for (const key of new Set(blockKeys(page.markdown))) if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  // A reference repeats a member's or a class's brief in its indexes (three pages or four of
  // hundreds); a site's frame is on a share of all its pages.
  const threshold = Math.max(BOILERPLATE_PAGES, Math.ceil(REPEATED_SHARE * pages.length));
  const exact = new Set<string>();
  const byPrefix = new Map<string, string[]>();
  for (const [key, count] of counts) {
    if (count < threshold) continue;
    exact.add(key);
    const prefix = key.slice(0, PREFIX);
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), key]);
  }
  const test = (text: string): boolean => {
    const key = wordKey(text.replace(/…$/, ''));
    if (!key || exact.has(key)) return !!key;
    return key.length >= PREFIX && (byPrefix.get(key.slice(0, PREFIX)) ?? []).some((block) => block.startsWith(key));
  };
  /** The Markdown without the blocks the site repeats. */
  const strip = (markdown: string): string => {
    const blocks = markdown.split(/\n\s*\n/);
    const keys = blockKeys(markdown);
    const own = blocks.filter((_, i) => !exact.has(keys[i] as string));
    return own.length === blocks.length ? markdown : own.join('\n\n');
  };
  return Object.assign(test, { strip });
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

// An index letter ("- a -", "A", "[J]"): one letter or digit in punctuation names no page alone.
const LETTER_MARK = /^[^\p{L}\p{N}]*([\p{L}\p{N}])[^\p{L}\p{N}]*$/u;

/**
 * The page's title; when several pages share it, the page's own first heading if that says more
 * (Sphinx titles all 28 pages of its general index "Index"; their headings say "Index – A", …),
 * or the title with the letter a heading that is an index letter names ("Globals" over "- j -":
 * "Globals – j"). A title that is only an index letter is the page's path in words.
 */
function entryTitle(page: SourcePage, shared: Set<string>): string {
  const fromUrl = titleFromUrl(page.finalUrl);
  const title = headingLine(page.title, fromUrl);
  if (LETTER_MARK.test(title)) return fromUrl;
  if (!shared.has(oneLine(page.title).toLowerCase())) return title;
  const heading = firstHeadingText(page.markdown);
  // An index's letter may come under a line of its own ("Here is a list of all functions…").
  const letter = LETTER_MARK.exec(firstHeadingText(/^#{1,6} +[^\n]+/m.exec(page.markdown)?.[0].replace(/^#+/, '#') ?? ''))?.[1];
  if (letter) return `${title} – ${letter}`;
  return heading !== '' && heading.toLowerCase() !== title.toLowerCase() ? headingLine(heading, title) : title;
}

/**
 * The words of a page's path that tell it from its siblings: its last segment (its folder's for an
 * index page), or the folder above when that segment only says the title again.
 */
function pathWords(pageUrl: string, title: string): string {
  try {
    const segments = new URL(pageUrl).pathname.split('/').filter(Boolean);
    if (/^(?:index|readme)(?:\.\w+)?$/i.test(segments.at(-1) ?? '')) segments.pop();
    // The site's root says nothing its title does not.
    if (!segments.length) return '';
    const words = (segment: string) => titleFromUrl(new URL(`/${segment}`, pageUrl).href);
    const last = words(segments.at(-1) ?? '');
    return last.toLowerCase() === title.toLowerCase() && segments.length > 1 ? words(segments.at(-2) ?? '') : last;
  } catch {
    return '';
  }
}

/**
 * Every page's entry title, told apart where several entries would still read the same ("Globals"
 * on eight index pages): by the page's path in words when that names the title ("Globals enum")
 * or the title is the site's name, else the title with them ("Overview – Cli"). Pages whose
 * paths say nothing more (the site's root) keep the title.
 */
function entryTitles(pages: SourcePage[], shared: Set<string>, siteNames: string[]): Map<string, string> {
  const names = new Set(siteNames.map((name) => name.toLowerCase()));
  const titles = new Map(pages.map((page) => [page.key, entryTitle(page, shared)]));
  const byTitle = new Map<string, SourcePage[]>();
  for (const page of pages) {
    const key = (titles.get(page.key) ?? '').toLowerCase();
    byTitle.set(key, [...(byTitle.get(key) ?? []), page]);
  }
  for (const same of byTitle.values()) {
    if (same.length < 2) continue;
    for (const page of same) {
      const title = titles.get(page.key) ?? '';
      const base = title.replace(/ – [\p{L}\p{N}]$/u, '');
      const words = pathWords(page.finalUrl, base);
      if (!words || [title, base].some((name) => name.toLowerCase() === words.toLowerCase())) continue;
      // The site's name said again adds nothing to the path's words ("commander" over modules.html: "Modules").
      titles.set(page.key, words.toLowerCase().startsWith(base.toLowerCase()) || names.has(base.toLowerCase()) ? words : `${base} – ${words}`);
    }
  }
  return titles;
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
 * What the site's name needs of a page's Markdown as crawled (`SourcePage.crawledHeading`): the
 * `# heading` line it opens with, or '' (`firstHeadingText` reads the same from either).
 */
export function crawledHeading(markdown: string): string {
  return /^\s*# +[^\n]+/.exec(markdown)?.[0] ?? '';
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
  return generateWithFull(input).output;
}

/**
 * `generateOutputs`, with llms-full.txt as `renderLlmsFull` made it (its pieces, index and bodies):
 * what lays out the files and stores the text without reading the text whole.
 */
export function generateWithFull(input: GenerateInput): { output: GeneratedOutput; full: RenderedFull } {
  const curation = input.curation ?? {};
  const excluded = new Set(curation.excluded ?? []);
  const included = new Set(curation.included ?? []);
  const readable = input.pages.filter((page) => page.state === 'stored' && !page.empty);
  const raw = generatedPages(input.pages, curation);
  // What the site calls itself is read from the titles as the pages give them; then the site's
  // frame is taken off every page: its name from titles, its repeated chrome from the Markdown.
  // A caller that stripped the pages itself kept the heading each page opened with, all the name needs.
  const found = siteName(input.chrome ? raw.map((page) => ({ ...page, markdown: page.crawledHeading ?? '' })) : raw, input.startUrl, input.docsHome, input.llmsName);
  const docsName = oneLine(input.docsName);
  // The boundary's name is read off the start page's title alone: where the pages show it to be
  // the wider whole the docs belong to ("proc_macro - Rust"), the pages' own name is the docs'.
  const site = docsName && (found.fromHost || !(pagesSayBetter(found.name, docsName) || namesWithin(found, docsName))) ? { name: docsName, fromHost: false } : found;
  const siteNames = [site, found].flatMap((name) => (name.fromHost ? [] : [name.name]));
  const cleanTitle = titleCleaner(raw.map((page) => page.title), siteNames);
  const chrome = input.chrome ?? learnChrome(raw.map((page) => page.markdown));
  const stripChrome = input.chrome ? (markdown: string) => markdown : chromeStripper(chrome);
  // A title that is only a node or file name, or names less than the heading, gives way to it.
  const stored = raw.map(({ crawledHeading: _, ...page }) => {
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
  // Where the folders name under two sections (a manual in one folder), the start page's own
  // contents list, even of one level, is the only outline left.
  const fewFolders = (): boolean => byFolder().filter((group) => !group.root).length < 2;
  const start = startPage(pages, input.startUrl);
  const byNav = groupByNav(main, input.nav, rootName, start) ?? groupByNav(main, contentsTree(start), rootName, start) ?? groupByIndexHeadings(main, rootName, byFolder(), start) ??
    (fewFolders() ? groupByContentsList(main, contentsList(start), rootName, start) : undefined);
  const grouped = (byNav ? foldLandingPage(byNav) : byFolder())
    .map((group) => (group.name === rootName ? group : { ...group, name: cleanTitle(group.name) }));
  const groups = curate(mergeTinyGroups(grouped), curation);

  const common = boilerplate(pages);
  const repeated = repeatedText(pages);
  const rawTitles = new Map(raw.map((page) => [page.key, page.title]));
  const titles = entryTitles(pages, sharedTitles(pages), siteNames);
  // One tokenization per page: an entry's tokens are what its page adds to llms-full.txt (its body
  // under that title), which is also the piece renderLlmsFull sums. Kept on the page by the caller.
  const bodyCounts = new Map<string, BodyTokens>();
  // The body a page's count was made of (its Markdown with headings demoted) is the one
  // llms-full.txt holds under the same title: renderLlmsFull takes it rather than make it again.
  // Every body is held by the rendered file in the end, so keeping them until then costs no more.
  const demoted = new Map<string, string>();
  const countBody = input.countTokens ?? countTokens;
  const bodyTokens = (page: SourcePage, title: string): number => {
    let counted: BodyTokens;
    if (cachedCountFits(page.fullTokens, title, page.markdown)) counted = page.fullTokens;
    else {
      const body = demoteHeadings(page.markdown, title);
      demoted.set(page.key, body);
      counted = bodyTokensOf(title, page.markdown, countBody(`${body}\n\n`));
    }
    bodyCounts.set(page.key, counted);
    return counted.count;
  };
  const toEntry = (page: SourcePage): LlmsEntry => {
    const title = titles.get(page.key) ?? entryTitle(page, new Set());
    const entry: LlmsEntry = {
      key: page.key,
      title,
      url: entryUrl(page),
      pageUrl: page.finalUrl,
      tokens: bodyTokens(page, title),
    };
    // Boilerplate (a description or a block many pages share), weak text and descriptions that
    // only repeat the title tell a reader nothing;
    // then the page's own first paragraph may, else no description at all.
    const useful = (text: string | undefined): text is string =>
      !!text && !common.has(text.toLowerCase()) && !repeated(text) && !repeatsTitle(text, [entry.title, rawTitles.get(page.key) ?? ''], siteNames) && !isWeakDescription(text);
    // Failing both, the page's first paragraph once the blocks the site repeats are set aside (a
    // notice on every module page opens each of them).
    const candidates = function* (): Generator<string> {
      yield oneLine(page.description);
      yield oneLine(markdownDescription(page.markdown));
      const own = repeated.strip(page.markdown);
      if (own !== page.markdown) yield oneLine(markdownDescription(own));
    };
    // The first useful one, in order: a later candidate is made only when the earlier ones fail.
    for (const candidate of candidates()) {
      if (!useful(candidate)) continue;
      entry.description = candidate;
      break;
    }
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
      if (!page || classes.get(page) === 'aggregate') continue;
      // The count was made (or found to fit) in this run for this very title and Markdown.
      const counted = bodyCounts.get(page.key);
      const body = demoted.get(page.key);
      fullPages.push({ key: page.key, title: entry.title, url: entry.pageUrl, link: entry.url, markdown: page.markdown, ...(body !== undefined ? { body } : {}), ...(counted ? { bodyCount: counted.count } : {}) });
    }
  }
  const full = renderLlmsFull(head, fullPages, countTokens);
  const llmsFullTxt = full.text;
  const notDocs = readable
    .filter((page) => page.notDocs)
    .map((page) => ({ key: page.key, title: headingLine(cleanTitle(page.title), titleFromUrl(page.finalUrl)), url: page.finalUrl, reason: oneLine(page.notDocs), included: included.has(page.key) && !excluded.has(page.key) }))
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  const output: GeneratedOutput = {
    ...head,
    details,
    sections,
    notDocs,
    llmsTxt,
    llmsFullTxt,
    tokens: { llmsTxt: countTokens(llmsTxt), llmsFullTxt: full.tokens },
    fullTokens: bodyCounts,
    chrome,
  };
  return { output, full };
}

