/**
 * One fetched HTML page → clean Markdown and what the crawler and the llms.txt generator need
 * about it. A pipeline of small steps over one parsed DOM: parse → metadata → links → navigation
 * → main content → clean → Markdown.
 */
import { cleanContent } from './clean';
import type { DomAdapter } from './dom';
import { pruneAndCollectLinks } from './document-links';
import { findMainContent, headingAbove } from './main-content';
import { elementToMarkdown } from './markdown';
import { readHeadMetadata, type PageTypeSignals } from './metadata';
import { findContentsTree, findNavLinks, hasGroups, type NavLink } from './nav-links';
import { widenToPageHeader } from './page-header';
import { scriptSources } from './script-nav';
import { chooseTitle, definitionLines, echoesTitle, firstHeading, isWeakDescription, summaryParagraph, trimDescription } from './page-text';
import type { HrefCache } from './urls';
import { normalizeSpace } from './walk';

export type { NavLink } from './nav-links';

/** A converted page. All URLs are absolute. */
export interface ConvertedPage {
  /** `<title>` without a trailing site name → first h1 → the URL's last path segment, de-slugged. */
  title: string;
  /** Meta description (unless it repeats the title) → og:description → the content's lead paragraph (~300 chars). */
  description?: string;
  /** og:site_name → application-name → the OpenSearch title → the site header's h1. */
  siteName?: string;
  lang?: string;
  /** The canonical URL when it is http(s). */
  canonical?: string;
  /** The main content as Markdown. */
  markdown: string;
  /** Every `<a href>` of the whole document: http(s), fragment removed, deduplicated, in document order. */
  links: string[];
  /** `<link rel="alternate" type="text/markdown">` targets. */
  markdownAlternates: string[];
  /** The site's navigation tree in its own order, when the page has a recognisable one. */
  navLinks: NavLink[];
  /** What the page says it is (JSON-LD types, og:type, generator, feeds), when it says anything. */
  pageType?: PageTypeSignals;
  /**
   * On a start page that shows no navigation tree: the same-site scripts it loads, one of which
   * may hold the navigation as data (script-nav.ts; the crawler fetches and reads them).
   */
  navScripts?: string[];
}

function parseSafely(dom: DomAdapter, html: string): Document | undefined {
  try {
    return dom.parse(html);
  } catch {
    try {
      return dom.parse('');
    } catch {
      return undefined;
    }
  }
}

/** An h1 in the site's header (outside the content) usually names the site: "Node.js v18 documentation". */
function siteHeaderName(body: Element, main: Element): string | undefined {
  if (main === body) return undefined;
  for (const h1 of body.getElementsByTagName('h1')) {
    if (main.contains(h1) || h1.closest('article') || !h1.closest('header, [role=banner]')) continue;
    const text = normalizeSpace(h1.textContent);
    if (text) return text;
  }
  return undefined;
}

function markdownOf(main: Element, topHeading: number): string {
  try {
    return elementToMarkdown(main, topHeading);
  } catch {
    // Turndown recurses per nesting level; absurdly deep garbage can exhaust the stack.
    // Plain text is a better answer than none.
    return normalizeSpace(main.textContent);
  }
}

/** What the caller knows about the page beyond its HTML. */
export interface ConvertOptions {
  /** The crawl's start page: when no sidebar tree has groups, its own contents may be the site's tree. */
  startPage?: boolean;
}

/**
 * Converts one HTML page. Never throws and never executes anything: the HTML is only parsed.
 * `pageUrl` resolves relative URLs (after `<base href>`); `dom` picks the parser.
 */
export function convertHtml(html: string, pageUrl: string, dom: DomAdapter, options: ConvertOptions = {}): ConvertedPage {
  const document = parseSafely(dom, typeof html === 'string' ? html : '');
  const body = document?.body ?? document?.documentElement;
  if (!document || !body) {
    return { title: chooseTitle(undefined, undefined, pageUrl, []), markdown: '', links: [], markdownAlternates: [], navLinks: [] };
  }
  const head = readHeadMetadata(document, pageUrl);
  const scripts = options.startPage ? scriptSources(document, head.baseUrl, pageUrl) : [];
  // Each distinct href is resolved once for all the steps below.
  const hrefs: HrefCache = new Map();
  // Scripts, styles and templates go before any text is measured; the page's links are read on the way.
  const links = pruneAndCollectLinks(document, document.documentElement ?? body, head.baseUrl, hrefs);
  let navLinks = findNavLinks(body, head.baseUrl, hrefs);
  // The page's header and lead stay with its content whatever the theme marks (page-header.ts).
  const main = widenToPageHeader(body, findMainContent(body, head.title));
  if (options.startPage && !hasGroups(navLinks)) navLinks = findContentsTree(main, head.baseUrl, hrefs) ?? navLinks;

  const siteNames = [head.ogSiteName, head.applicationName, head.openSearchTitle].filter((n): n is string => !!n);
  const headerName = siteNames.length ? undefined : siteHeaderName(body, main);
  if (headerName) siteNames.push(headerName);
  // The page's title set above the content container still opens its Markdown.
  const title = headingAbove(body, main, siteNames, head.title);
  if (title) main.insertBefore(title, main.firstChild);

  // Members' definition lines end the search for the lead; cleaning takes their self-links away.
  const definitions = definitionLines(main);
  const { topHeading } = cleanContent(main, head.baseUrl, hrefs);
  const h1 = firstHeading(main) ?? firstHeading(body);
  // A meta description that is a copyright line or a label says less than the first paragraph.
  const meta = [head.description, head.ogDescription].map(trimDescription).find((text) => text !== undefined && !isWeakDescription(text) && !echoesTitle(text, head.title));
  const paragraph = summaryParagraph(main, definitions, head.baseUrl ?? pageUrl);
  // Some generators cut the meta description at the source's first line break (Docusaurus):
  // when the first paragraph goes on from where it stops, the paragraph says it whole.
  const cut = meta?.replace(/(?:…|\.\.\.)$/, '');
  const description = meta !== undefined && paragraph !== undefined && cut !== undefined && paragraph.length > cut.length && paragraph.startsWith(cut) ? paragraph : meta ?? paragraph;
  const page: ConvertedPage = {
    title: chooseTitle(head.title, h1, pageUrl, siteNames),
    markdown: markdownOf(main, topHeading),
    links,
    markdownAlternates: head.markdownAlternates,
    navLinks,
  };
  if (description) page.description = description;
  if (siteNames[0]) page.siteName = siteNames[0];
  if (head.lang) page.lang = head.lang;
  if (head.canonical) page.canonical = head.canonical;
  if (head.pageType) page.pageType = head.pageType;
  if (scripts.length && !navLinks.some((link) => link.url)) page.navScripts = scripts;
  return page;
}
