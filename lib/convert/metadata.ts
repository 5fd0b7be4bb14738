/**
 * Page metadata from the document head: title, descriptions, site-name signals, language,
 * canonical URL, `<base href>`, Markdown alternates, and what kind of page it says it is.
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
  /** What the page says it is (a blog post, a forum thread…), when it says anything: lib/crawl/not-docs.ts judges it. */
  pageType?: PageTypeSignals;
}

/**
 * What a page declares about its own kind, as plain data (it travels back from a conversion
 * worker). Only what is cheap to read: the head's meta and link elements and the JSON-LD scripts.
 */
export interface PageTypeSignals {
  /** schema.org types of the page's JSON-LD items (top level and `@graph`), each with whether it gives a `datePublished`. */
  schema?: Array<{ type: string; dated: boolean }>;
  /** `og:type`, lower-cased. */
  ogType?: string;
  /** `article:published_time` is given. */
  publishedTime?: boolean;
  /** `<meta name="generator">`: the software that made the page. */
  generator?: string;
  /** RSS and Atom feeds the page links as alternates (absolute URLs). */
  feeds?: string[];
}

const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown']);
const FEED_TYPES = new Set(['application/rss+xml', 'application/atom+xml']);
// JSON-LD is read within these bounds: a page's structured data is a few kilobytes in a few scripts.
const MAX_JSON_LD_SCRIPTS = 8;
const MAX_JSON_LD_CHARS = 100_000;
const MAX_SCHEMA_ITEMS = 20;

/** Reads the head (and, for fragments that carry head elements in their body, the whole document). */
export function readHeadMetadata(document: Document, pageUrl: string): HeadMetadata {
  const elements: Element[] = [];
  const jsonLd: Element[] = [];
  const collect = (element: Element) => {
    const tag = tagOf(element);
    if (tag === 'title' || tag === 'meta' || tag === 'link' || tag === 'base') elements.push(element);
    else if (tag === 'script' && isJsonLd(element)) jsonLd.push(element);
    // Inline SVG has its own <title>; it never names the page.
    return tag === 'svg' ? 'skip' : undefined;
  };
  if (document.head) walkElements(document.head, collect);
  // A wrapped fragment or a head-less page keeps these in the body; only then is it worth a walk.
  const body = document.body;
  if (body && !elements.some((e) => tagOf(e) === 'title')) {
    walkElements(body, collect);
  } else if (body) {
    // Structured data sits in the head or at the body's top level; a walk of the whole body for
    // it cost more than the rest of this step (1.6 ms a page on the Python docs).
    for (let child = body.firstElementChild; child; child = child.nextElementSibling) if (tagOf(child) === 'script' && isJsonLd(child)) jsonLd.push(child);
  }

  const base = elements.find((e) => tagOf(e) === 'base' && e.hasAttribute('href'));
  const baseUrl = absoluteUrl(base?.getAttribute('href'), pageUrl)?.href ?? absoluteUrl(pageUrl, undefined)?.href;
  const meta: HeadMetadata = { baseUrl, markdownAlternates: [] };
  const alternates = new Set<string>();
  const feeds = new Set<string>();
  const signals: PageTypeSignals = {};

  for (const element of elements) {
    const tag = tagOf(element);
    if (tag === 'title') {
      meta.title ??= normalizeSpace(element.textContent) || undefined;
    } else if (tag === 'meta') {
      readMeta(element, meta, signals);
    } else if (tag === 'link') {
      const rels = (element.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
      const href = element.getAttribute('href');
      if (rels.includes('canonical') && meta.canonical === undefined) {
        // Offline copies carry file:// canonicals (Debian's Python docs do); a crawler cannot use them.
        const url = absoluteUrl(href, baseUrl);
        if (url && isHttp(url)) meta.canonical = url.href;
      } else if (rels.includes('alternate')) {
        const type = (element.getAttribute('type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
        const url = MARKDOWN_TYPES.has(type) || FEED_TYPES.has(type) ? linkTarget(href, baseUrl) : undefined;
        if (url) (FEED_TYPES.has(type) ? feeds : alternates).add(url);
      } else if (rels.includes('search') && /opensearchdescription/i.test(element.getAttribute('type') ?? '')) {
        meta.openSearchTitle ??= openSearchSiteName(element.getAttribute('title'));
      }
    }
  }
  meta.markdownAlternates = [...alternates];
  if (feeds.size) signals.feeds = [...feeds];
  const schema = readJsonLdTypes(jsonLd);
  if (schema.length) signals.schema = schema;
  if (Object.keys(signals).length) meta.pageType = signals;
  const lang = normalizeSpace(document.documentElement?.getAttribute('lang') ?? document.documentElement?.getAttribute('xml:lang'));
  if (lang) meta.lang = lang;
  return meta;
}

function readMeta(element: Element, meta: HeadMetadata, signals: PageTypeSignals): void {
  const key = (element.getAttribute('name') ?? element.getAttribute('property') ?? '').trim().toLowerCase();
  if (!key) return;
  const content = normalizeSpace(element.getAttribute('content'));
  if (!content) return;
  if (key === 'description') meta.description ??= content;
  else if (key === 'og:description') meta.ogDescription ??= content;
  else if (key === 'og:site_name') meta.ogSiteName ??= content;
  else if (key === 'application-name') meta.applicationName ??= content;
  else if (key === 'og:type') signals.ogType ??= content.toLowerCase();
  else if (key === 'article:published_time') signals.publishedTime = true;
  else if (key === 'generator') signals.generator ??= content.slice(0, 200);
}

/**
 * The schema.org types the page's JSON-LD declares. The scripts are parsed as JSON, never run;
 * one that is not valid JSON says nothing. Only top-level items and a `@graph`'s items count:
 * nested ones (an article's publisher, a page's breadcrumb) describe something else.
 */
function readJsonLdTypes(scripts: Element[]): Array<{ type: string; dated: boolean }> {
  const found: Array<{ type: string; dated: boolean }> = [];
  for (const script of scripts.slice(0, MAX_JSON_LD_SCRIPTS)) {
    const text = script.textContent ?? '';
    if (text.length > MAX_JSON_LD_CHARS) continue;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      continue;
    }
    const items = Array.isArray(data) ? data : [data];
    for (const item of items) {
      if (!isObject(item)) continue;
      const graph = item['@graph'];
      for (const node of Array.isArray(graph) ? [item, ...graph] : [item]) {
        if (!isObject(node) || found.length >= MAX_SCHEMA_ITEMS) continue;
        const dated = typeof node.datePublished === 'string' && node.datePublished.trim() !== '';
        for (const type of typesOf(node['@type'])) found.push({ type, dated });
      }
    }
  }
  return found;
}

function isJsonLd(script: Element): boolean {
  return (script.getAttribute('type') ?? '').trim().toLowerCase() === 'application/ld+json';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `"BlogPosting"`, `["Article", "BlogPosting"]` or `"https://schema.org/BlogPosting"` → bare type names. */
function typesOf(value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  const names: string[] = [];
  for (const v of values) {
    if (typeof v !== 'string') continue;
    const name = v.slice(Math.max(v.lastIndexOf('/'), v.lastIndexOf(':')) + 1).trim();
    if (name && names.length < 4) names.push(name);
  }
  return names;
}

/** Sphinx titles its OpenSearch link "Search within <project> documentation"; others use the bare site name. */
function openSearchSiteName(title: string | null): string | undefined {
  const name = normalizeSpace(title).replace(/^search within\s+/i, '').replace(/(?<!\s)\s+search$/i, '');
  return name || undefined;
}
