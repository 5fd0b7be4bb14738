/**
 * Is a crawled page documentation, or another part of the website around it (a blog post, a
 * forum thread, a marketing page)? Decided by evidence any site gives, never by words in its URL
 * or title:
 * - **what the page says it is**: schema.org JSON-LD types, `og:type` article with a publication
 *   time, a forum engine as its generator, a feed whose folder holds the page;
 * - **place**: outside the documentation's roots (possible only in a scope wider than the docs);
 * - **template**: the docs' pages carry the docs' navigation; a page whose own navigation tree
 *   shares (almost) none of it, neither its links nor the sections they lie in, is another part
 *   of the site.
 * A page the docs' navigation or an llms.txt lists, and the start page, are documentation by the
 * site's own word. Weak evidence (a dated article, a feed) counts only on a page that does not
 * carry the docs' navigation: documentation generators date pages too (Hugo marks every page an
 * `og:type` article with its date).
 */
import type { PageTypeSignals } from '../convert/metadata';
import type { DocsBoundary } from '../url/boundary';
import { dedupeKey } from '../url/normalize';
import { outsideBoundary } from '../url/scope';

/** What is known of one crawled page. */
export interface PageEvidence {
  url: string;
  /** Where it ended after redirects. */
  finalUrl?: string;
  /** The start page, or a page an llms.txt file lists: the site calls it documentation. */
  listed: boolean;
  /** The page's own navigation tree (lib/convert/nav-links.ts). */
  nav: ReadonlyArray<{ url: string }>;
  pageType?: PageTypeSignals;
}

/** The crawl's side of the judgement: its boundary, with the docs' navigation keyed once. */
export interface NotDocsContext {
  boundary?: DocsBoundary;
  /** Dedupe keys of the docs' navigation (boundary.nav): a page these list is documentation. */
  navKeys: ReadonlySet<string>;
  /**
   * The same by the root they lie in (`origin + path`): what the template of a page under that
   * root is compared with. An API reference on a host of its own has its own sidebar.
   */
  templateKeys: ReadonlyMap<string, ReadonlySet<string>>;
  /** The sections (first folders below a root) the docs' navigation covers. */
  sections: ReadonlySet<string>;
}

/** A docs navigation shorter than this is too little to compare a page's template with. */
const MIN_DOCS_NAV = 6;
/** A page's navigation tree with fewer page links than this is not judged by template. */
const MIN_PAGE_NAV = 3;
/** "Almost none": a company header shared with the docs may link the docs' home, and little else. */
const MAX_SHARED = 1;

/** The types that say "not documentation" on their own, with the words for each. */
const STRONG_TYPES: Record<string, string> = {
  BlogPosting: 'A blog post',
  LiveBlogPosting: 'A blog post',
  Blog: 'A blog',
  NewsArticle: 'A news article',
  DiscussionForumPosting: 'A forum thread',
  SocialMediaPosting: 'A social media post',
  QAPage: 'A question-and-answer thread',
  JobPosting: 'A job offer',
  Product: 'A product page',
  ProductGroup: 'A product page',
  Offer: 'An offer',
  AggregateOffer: 'An offer',
  Event: 'An event page',
  ProfilePage: 'A profile page',
};

// Forum software that names itself in `<meta name="generator">`; its pages are threads, lists of threads and profiles.
const FORUM_ENGINES = /^(?:discourse|vbulletin|phpbb|mybb|xenforo|flarum|nodebb|invision|simple machines|discuz|bbpress)\b/i;
// Blogging platforms: weak evidence (a few host docs too).
const BLOG_ENGINES = /^(?:ghost|blogger)\b/i;

/** Prepares the crawl's side once: the docs' navigation as dedupe keys and the sections it covers. */
export function notDocsContext(boundary: DocsBoundary | undefined): NotDocsContext {
  const navKeys = new Set<string>();
  const templateKeys = new Map<string, Set<string>>();
  const sections = new Set<string>();
  for (const url of boundary?.nav ?? []) {
    const key = dedupeKey(url);
    navKeys.add(key);
    // A start page's sidebar may list only other sites (other versions, the project's wiki): those say nothing of the docs' template.
    const place = boundary ? placeOf(boundary, url) : undefined;
    if (!boundary || !place) continue;
    const keys = templateKeys.get(place.rootId) ?? new Set<string>();
    templateKeys.set(place.rootId, keys.add(key));
    const section = sectionOf(boundary, url);
    if (section) sections.add(section);
  }
  return { boundary, navKeys, templateKeys, sections };
}

/** Why the page is not documentation, in plain words, or null when it is (or nothing says otherwise). */
export function judgeNotDocs(page: PageEvidence, context: NotDocsContext): string | null {
  const { boundary, navKeys } = context;
  if (page.listed || navKeys.has(dedupeKey(page.url)) || (page.finalUrl && navKeys.has(dedupeKey(page.finalUrl)))) return null;
  const outside = boundary ? placeReason(boundary, page) : null;
  if (outside) return outside;
  const strong = strongReason(page.pageType);
  if (strong) return strong;
  const template = carriesDocsNav(page, context);
  if (template === 'yes' || template === 'unknown') return null;
  const weak = weakReason(page);
  if (weak) return weak;
  return template === 'no' ? "Has none of the documentation's navigation" : null;
}

/**
 * Whether the page carries the docs' navigation: 'yes', 'no', 'no-tree' (the page has no
 * navigation tree of its own, so only weak evidence is left to judge it by) or 'unknown' (the docs' navigation in the page's root is too short to compare
 * with: nothing but strong evidence counts).
 * A tree sharing two of the docs' navigation links carries it; so does one whose links lie mostly
 * in the sections (first folders) the docs' navigation covers: Sphinx's sidebar shows only the
 * open section's pages, and a section's index its own contents, which the start page's tree may
 * not list one by one.
 */
function carriesDocsNav(page: PageEvidence, context: NotDocsContext): 'yes' | 'no' | 'no-tree' | 'unknown' {
  const { boundary, templateKeys, sections } = context;
  const place = boundary ? (placeOf(boundary, page.url) ?? (page.finalUrl ? placeOf(boundary, page.finalUrl) : undefined)) : undefined;
  const docsNav = place ? templateKeys.get(place.rootId) : undefined;
  if (!boundary || !docsNav || docsNav.size < MIN_DOCS_NAV) return 'unknown';
  const keys = new Map<string, string>();
  for (const link of page.nav) if (link.url) keys.set(dedupeKey(link.url), link.url);
  if (keys.size < MIN_PAGE_NAV) return 'no-tree';
  let shared = 0;
  let inSections = 0;
  for (const [key, url] of keys) {
    if (docsNav.has(key) && ++shared > MAX_SHARED) return 'yes';
    const section = sectionOf(boundary, url);
    if (section && sections.has(section)) inSections++;
  }
  return inSections * 2 >= keys.size ? 'yes' : 'no';
}

/** The boundary root a URL lies under (the longest), or undefined. */
function placeOf(boundary: DocsBoundary, raw: string): { url: URL; root: string; rootId: string } | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  let root: string | undefined;
  for (const r of boundary.roots) if (r.origin === url.origin && path.startsWith(r.path) && (!root || r.path.length > root.length)) root = r.path;
  return root === undefined ? undefined : { url, root, rootId: `${url.origin}${root}` };
}

/** The first folder below the URL's root (`https://docs.acme.test/guide/`), or null for a page directly in the root. */
function sectionOf(boundary: DocsBoundary, raw: string): string | null {
  const place = placeOf(boundary, raw);
  if (!place) return null;
  const rest = place.url.pathname.slice(place.root.length);
  const slash = rest.indexOf('/');
  return slash > 0 ? `${place.url.origin}${place.root}${rest.slice(0, slash + 1)}` : null;
}

function placeReason(boundary: DocsBoundary, page: PageEvidence): string | null {
  if (boundary.roots.length === 0) return null;
  const urls = [page.url, page.finalUrl].filter((u): u is string => !!u);
  let reason: string | null = null;
  for (const raw of urls) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    reason = outsideBoundary(boundary, url);
    if (!reason) return null;
  }
  return reason;
}

function strongReason(signals: PageTypeSignals | undefined): string | null {
  if (!signals) return null;
  for (const { type } of signals.schema ?? []) {
    const words = STRONG_TYPES[type];
    if (words) return `${words} (schema.org ${type})`;
  }
  const engine = signals.generator ? FORUM_ENGINES.exec(signals.generator) : null;
  if (engine) return `A forum page (made with ${signals.generator?.slice(0, engine[0].length)})`;
  return null;
}

function weakReason(page: PageEvidence): string | null {
  const signals = page.pageType;
  if (!signals) return null;
  if (signals.schema?.some((s) => s.type === 'Article' && s.dated)) return 'A dated article (schema.org Article with datePublished)';
  if (signals.ogType === 'article' && signals.publishedTime) return 'A dated article (og:type article with article:published_time)';
  const engine = signals.generator ? BLOG_ENGINES.exec(signals.generator) : null;
  if (engine) return `A blog page (made with ${signals.generator?.slice(0, engine[0].length)})`;
  const feed = feedHolding(page.url, signals.feeds ?? []);
  if (feed) return `A page of posts with a feed (${feed})`;
  return null;
}

/**
 * A feed in a folder (not the host's root) that holds the page: the page is the feed's listing or
 * one of its posts. A feed the site links from every page sits elsewhere and says nothing of this one.
 */
function feedHolding(pageUrl: string, feeds: string[]): string | null {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    return null;
  }
  for (const raw of feeds) {
    let feed: URL;
    try {
      feed = new URL(raw);
    } catch {
      continue;
    }
    const folder = feed.pathname.slice(0, feed.pathname.lastIndexOf('/') + 1);
    if (feed.origin === page.origin && folder.length > 1 && `${page.pathname}/`.startsWith(folder)) return `${feed.host}${feed.pathname}`;
  }
  return null;
}
