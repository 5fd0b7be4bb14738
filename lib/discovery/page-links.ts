/**
 * The links a web page declares about itself that discovery follows (llms.txt spec v2): its
 * llms.txt (`rel="describedby"`), its Markdown twin (`rel="alternate" type="text/markdown"`) and
 * its sitemap, as `<link>` elements in the HTML head or in the HTTP `Link` header.
 *
 * Runs in Node and in the MV3 service worker, which has no `DOMParser`: HTML goes through linkedom.
 */
import { parseHTML } from 'linkedom';

/** The relations discovery follows; `markdown` stands for `alternate` with a Markdown type. */
export type PageLinkRel = 'describedby' | 'markdown' | 'sitemap';

/** One link a page declares about itself. */
export interface PageLink {
  rel: PageLinkRel;
  /** Absolute http(s) URL. */
  url: string;
  /** The declared media type as written (trimmed); absent when none was given. */
  type?: string;
  /** Where it was declared: a `<link>` element or the HTTP `Link` header. */
  from: 'html' | 'header';
}

/** One link of an HTTP `Link` header (RFC 8288). */
export interface LinkHeaderEntry {
  /** Absolute URL of the target. */
  url: string;
  /** Relation types, lower-cased; empty when the link has no `rel`. */
  rel: string[];
  type?: string;
}

// Pages can be several MB but only the head matters. Past this many characters of head (without
// comments, scripts and styles) parsing stops: `<link>` elements sit near the top, and linkedom's
// cost grows with its input. It also bounds the work on pages with no `</head>` or `<body>`.
const MAX_HEAD_CHARS = 512 * 1024;
// What ends the head, and what is dropped on the way: comments and raw-text elements can contain
// `</head>` or `<body>` as text (inline scripts often do) and never declare a link.
const HEAD_SCAN = /<!--|<(script|style|title|textarea|template)[\s/>]|<\/head[\s>]|<body[\s/>]/gi;
const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown']);

/** `href` resolved against `base`, or null when unusable or not http(s) (javascript:, data:, …). */
function resolveHttp(href: string, base: string | URL | undefined): string | null {
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** HTML `rel` values are space-separated, ASCII case-insensitive tokens. */
function relTokens(value: string): string[] {
  return value.toLowerCase().split(/[\t\n\f\r ]+/).filter((token) => token !== '');
}

/** The followed relations a link carries; one element can carry several (`rel="alternate describedby"`). */
function relationsOf(rels: string[], type: string | undefined): PageLinkRel[] {
  const found: PageLinkRel[] = [];
  if (rels.includes('describedby')) found.push('describedby');
  // Only the media type's essence counts: `text/markdown; charset=utf-8` is Markdown too.
  const essence = (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (rels.includes('alternate') && MARKDOWN_TYPES.has(essence)) found.push('markdown');
  if (rels.includes('sitemap')) found.push('sitemap');
  return found;
}

/**
 * The document up to the end of its head, without comments and script/style contents: inline
 * scripts and styles of several hundred KB are common in heads and would otherwise dominate
 * linkedom's time or push the links past the size cap.
 */
function headOf(html: string): string {
  const scan = new RegExp(HEAD_SCAN.source, HEAD_SCAN.flags);
  let kept = '';
  let from = 0;
  for (let match = scan.exec(html); match !== null; match = scan.exec(html)) {
    kept += html.slice(from, match.index);
    if (kept.length >= MAX_HEAD_CHARS) break;
    const rawText = match[1]?.toLowerCase();
    if (match[0] !== '<!--' && rawText === undefined) return kept; // `</head>` or `<body>`.
    const closer = rawText === undefined ? /-->/g : new RegExp(`</${rawText}[\\s>]`, 'gi');
    closer.lastIndex = scan.lastIndex;
    if (closer.exec(html) === null) return kept; // Unterminated: the rest is its content.
    from = closer.lastIndex;
    scan.lastIndex = closer.lastIndex;
  }
  if (kept.length < MAX_HEAD_CHARS) kept += html.slice(from, from + MAX_HEAD_CHARS - kept.length);
  return kept.slice(0, MAX_HEAD_CHARS);
}

/**
 * An attribute by its lower-case name. linkedom keeps names as written (`HREF`) and its
 * `getAttribute` is case-sensitive, unlike browsers, which lower-case HTML attribute names.
 */
function attr(element: Element, name: string): string | null {
  for (const attribute of Array.from(element.attributes)) {
    if (attribute.name.toLowerCase() === name) return attribute.value;
  }
  return null;
}

/** The `<link>` elements of the head, with hrefs resolved against `<base href>` or the page URL. */
function htmlLinks(pageUrl: string, html: string): Omit<PageLink, 'from'>[] {
  let document: Document;
  try {
    // Without an <html> element linkedom leaves documentElement empty (and document.head throws).
    ({ document } = parseHTML(`<html>${headOf(html)}</html>`));
  } catch {
    return [];
  }
  // HTML: the first <base> with an href sets the document base; an unusable one is ignored.
  const baseElement = Array.from(document.querySelectorAll('base')).find((el) => attr(el, 'href') !== null);
  const baseHref = baseElement ? attr(baseElement, 'href') : null;
  const base = (baseHref !== null ? resolveHttp(baseHref, pageUrl) : null) ?? resolveHttp(pageUrl, undefined) ?? undefined;
  const found: Omit<PageLink, 'from'>[] = [];
  for (const element of Array.from(document.querySelectorAll('link'))) {
    const href = attr(element, 'href');
    // An empty href points back at the page itself: nothing to follow.
    if (href === null || href.trim() === '') continue;
    const type = attr(element, 'type')?.trim() || undefined;
    const relations = relationsOf(relTokens(attr(element, 'rel') ?? ''), type);
    const url = relations.length > 0 ? resolveHttp(href, base) : null;
    if (url === null) continue;
    for (const rel of relations) found.push(type === undefined ? { rel, url } : { rel, url, type });
  }
  return found;
}

/**
 * Spec v2 links a page declares: `<link rel="describedby">` (its llms.txt),
 * `<link rel="alternate" type="text/markdown">` (its Markdown twin) and `<link rel="sitemap">`,
 * from the HTML head and from the HTTP `Link` header.
 *
 * HTML hrefs resolve against `<base href>` when present, else the page URL; header targets resolve
 * against the page URL only (RFC 8288 §3.2: a base URI in the body does not apply). Results are
 * deduped by rel + URL, keeping the HTML one when both declare it; only http(s) URLs are kept.
 * Only the head is parsed (up to `</head>`, else a size cap), so multi-MB pages stay cheap.
 * Never throws.
 */
export function findPageLinks(pageUrl: string, html: string, linkHeader: string | null): PageLink[] {
  const links: PageLink[] = [];
  const seen = new Set<string>();
  const add = (link: PageLink): void => {
    const key = `${link.rel} ${link.url}`;
    if (seen.has(key)) return;
    seen.add(key);
    links.push(link);
  };
  if (typeof html === 'string' && html !== '') {
    for (const link of htmlLinks(pageUrl, html)) add({ ...link, from: 'html' });
  }
  if (typeof linkHeader === 'string') {
    for (const entry of parseLinkHeader(linkHeader, pageUrl)) {
      const url = resolveHttp(entry.url, undefined);
      if (url === null) continue;
      for (const rel of relationsOf(entry.rel, entry.type)) {
        add(entry.type === undefined ? { rel, url, from: 'header' } : { rel, url, type: entry.type, from: 'header' });
      }
    }
  }
  return links;
}

/**
 * Parses an RFC 8288 `Link` header value (several headers joined with `, ` are fine) into entries:
 * `<url>; rel="a b"; type="text/markdown", <url2>; rel=next`. Handles quoted parameters with
 * escapes, commas inside quotes and angle brackets, several space-separated relation types and
 * case-insensitive parameter names. Targets resolve against `baseUrl`; unresolvable ones and
 * malformed parts are skipped. Never throws.
 */
export function parseLinkHeader(value: string, baseUrl: string): LinkHeaderEntry[] {
  const entries: LinkHeaderEntry[] = [];
  if (typeof value !== 'string') return entries;
  let base: URL | undefined;
  try {
    base = new URL(baseUrl);
  } catch {
    // Relative targets are then skipped; absolute ones still parse.
  }
  const n = value.length;
  let i = 0;
  const isSpace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
  const skipSpace = (): void => {
    while (i < n && isSpace(value.charAt(i))) i++;
  };
  const readQuoted = (): string => {
    let out = '';
    for (i++; i < n; i++) {
      const ch = value.charAt(i);
      if (ch === '"') {
        i++;
        break;
      }
      out += ch === '\\' && i + 1 < n ? value.charAt(++i) : ch;
    }
    return out;
  };
  const readToken = (): string => {
    const start = i;
    while (i < n && !';,'.includes(value.charAt(i)) && !isSpace(value.charAt(i))) i++;
    return value.slice(start, i);
  };
  // Skips a malformed part up to the comma that ends its link, not one inside quotes or <…>.
  const skipToComma = (): void => {
    while (i < n && value.charAt(i) !== ',') {
      if (value.charAt(i) === '"') readQuoted();
      else if (value.charAt(i) === '<') i = value.includes('>', i) ? value.indexOf('>', i) + 1 : n;
      else i++;
    }
  };
  while (i < n) {
    while (i < n && (isSpace(value.charAt(i)) || value.charAt(i) === ',')) i++;
    if (i >= n) break;
    if (value.charAt(i) !== '<') {
      skipToComma();
      continue;
    }
    const close = value.indexOf('>', i + 1);
    if (close < 0) break;
    const target = value.slice(i + 1, close).trim();
    i = close + 1;
    const params = new Map<string, string>();
    for (;;) {
      skipSpace();
      if (i >= n || value.charAt(i) === ',') break;
      if (value.charAt(i) !== ';') {
        skipToComma();
        break;
      }
      i++;
      skipSpace();
      const nameStart = i;
      while (i < n && !'=;,'.includes(value.charAt(i)) && !isSpace(value.charAt(i))) i++;
      const name = value.slice(nameStart, i).toLowerCase();
      skipSpace();
      let paramValue = '';
      if (value.charAt(i) === '=') {
        i++;
        skipSpace();
        paramValue = value.charAt(i) === '"' ? readQuoted() : readToken();
      }
      // RFC 8288 §3.3: a rel after the first must be ignored; other repeated params are treated alike.
      if (name !== '' && !params.has(name)) params.set(name, paramValue);
    }
    let url: string;
    try {
      url = new URL(target, base).href;
    } catch {
      continue;
    }
    const type = params.get('type')?.trim();
    const entry: LinkHeaderEntry = { url, rel: relTokens(params.get('rel') ?? '') };
    if (type) entry.type = type;
    entries.push(entry);
  }
  return entries;
}
