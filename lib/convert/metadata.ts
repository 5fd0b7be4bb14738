/**
 * Page metadata from the document head: title, descriptions, site-name signals, language,
 * canonical URL, `<base href>` and Markdown alternates.
 */
import { absoluteUrl, isHttp, linkTarget } from './urls';
import { normalizeSpace, tagOf, walkElements } from './walk';

/** What the head says about a page. URLs are absolute. */
export interface HeadMetadata {
  /** The URL relative references resolve against: `<base href>` if usable, else the page URL. */
  baseUrl: string | undefined;
  title?: string;
  description?: string;
  ogDescription?: string;
  ogSiteName?: string;
  applicationName?: string;
  /** The title of the page's OpenSearch description link, which names the site's search. */
  openSearchTitle?: string;
  lang?: string;
  canonical?: string;
  markdownAlternates: string[];
}

const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown']);

/** Reads the head (and, for fragments that carry head elements in their body, the whole document). */
export function readHeadMetadata(document: Document, pageUrl: string): HeadMetadata {
  const elements: Element[] = [];
  const collect = (element: Element) => {
    const tag = tagOf(element);
    if (tag === 'title' || tag === 'meta' || tag === 'link' || tag === 'base') elements.push(element);
    // Inline SVG has its own <title>; it never names the page.
    return tag === 'svg' ? 'skip' : undefined;
  };
  if (document.head) walkElements(document.head, collect);
  // A wrapped fragment or a head-less page keeps these in the body; only then is it worth a walk.
  if (!elements.some((e) => tagOf(e) === 'title') && document.body) walkElements(document.body, collect);

  const base = elements.find((e) => tagOf(e) === 'base' && e.hasAttribute('href'));
  const baseUrl = absoluteUrl(base?.getAttribute('href'), pageUrl)?.href ?? absoluteUrl(pageUrl, undefined)?.href;
  const meta: HeadMetadata = { baseUrl, markdownAlternates: [] };
  const alternates = new Set<string>();

  for (const element of elements) {
    const tag = tagOf(element);
    if (tag === 'title') {
      meta.title ??= normalizeSpace(element.textContent) || undefined;
    } else if (tag === 'meta') {
      readMeta(element, meta);
    } else if (tag === 'link') {
      const rels = (element.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
      const href = element.getAttribute('href');
      if (rels.includes('canonical') && meta.canonical === undefined) {
        // Offline copies carry file:// canonicals (Debian's Python docs do); a crawler cannot use them.
        const url = absoluteUrl(href, baseUrl);
        if (url && isHttp(url)) meta.canonical = url.href;
      } else if (rels.includes('alternate')) {
        const type = (element.getAttribute('type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
        const url = MARKDOWN_TYPES.has(type) ? linkTarget(href, baseUrl) : undefined;
        if (url) alternates.add(url);
      } else if (rels.includes('search') && /opensearchdescription/i.test(element.getAttribute('type') ?? '')) {
        meta.openSearchTitle ??= openSearchSiteName(element.getAttribute('title'));
      }
    }
  }
  meta.markdownAlternates = [...alternates];
  const lang = normalizeSpace(document.documentElement?.getAttribute('lang') ?? document.documentElement?.getAttribute('xml:lang'));
  if (lang) meta.lang = lang;
  return meta;
}

function readMeta(element: Element, meta: HeadMetadata): void {
  const key = (element.getAttribute('name') ?? element.getAttribute('property') ?? '').trim().toLowerCase();
  if (!key) return;
  const content = normalizeSpace(element.getAttribute('content'));
  if (!content) return;
  if (key === 'description') meta.description ??= content;
  else if (key === 'og:description') meta.ogDescription ??= content;
  else if (key === 'og:site_name') meta.ogSiteName ??= content;
  else if (key === 'application-name') meta.applicationName ??= content;
}

/** Sphinx titles its OpenSearch link "Search within <project> documentation"; others use the bare site name. */
function openSearchSiteName(title: string | null): string | undefined {
  const name = normalizeSpace(title).replace(/^search within\s+/i, '').replace(/(?<!\s)\s+search$/i, '');
  return name || undefined;
}
