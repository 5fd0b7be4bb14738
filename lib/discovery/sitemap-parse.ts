/**
 * Reading one XML sitemap (sitemaps.org 0.9), or the plain-text one-URL-a-line form: pure, no
 * fetching (the crawl of an index tree is sitemap.ts).
 *
 * Parsing is a small linear scanner, not a DOM: a 50 000-URL sitemap is ~10 MB, which linkedom
 * would turn into ~200 000 nodes and seconds of work, while the scanner reads it in tens of
 * milliseconds. It still does what matters for correctness: comments, CDATA, the five XML
 * entities and character references, namespace prefixes (`<sm:urlset>`), and it only takes a
 * `<loc>` that is a direct child of `<url>` / `<sitemap>`, so `<image:loc>` and
 * `<video:content_loc>` of the image and video extensions are never mistaken for pages.
 */
/** One sitemap file as parsed. */
export interface SitemapFile {
  url: string;
  /** 'invalid' also for files that were never read (missing, error, not followed). */
  kind: 'urlset' | 'index' | 'invalid';
  /** Page URLs (`<url><loc>`) of a urlset, absolute, in file order. */
  urls: string[];
  /** Child sitemap URLs (`<sitemap><loc>`) of an index, absolute, in file order. */
  children: string[];
  /** `<loc>` values skipped because they are relative or not http(s) URLs (the protocol requires absolute ones). */
  skipped: number;
  /** Entries counted but not kept, past the `limit` scanSitemap was given: the file lists `urls` (or `children`) plus these. */
  more?: number;
  /** Why the file is not a sitemap, in plain words. */
  error?: string;
}

const NOT_SITEMAP = 'Not a sitemap: the XML has no <urlset> or <sitemapindex>';
const NAME = /(\/?)([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)/y;
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The protocol's most entries per file (URLs of a urlset, sitemaps of an index). */
export const MAX_SITEMAP_ENTRIES = 50_000;

/** Parses one sitemap (XML, or the plain-text one-URL-a-line form). Never throws. */
export function parseSitemap(url: string, text: string, limit?: number): SitemapFile {
  return scanSitemap(url, text, limit).file;
}

/**
 * Keeps at most `limit` entries and only counts the rest (`more`): a hostile file may list a
 * million, and each kept one is a string held in memory and, for an index, a file to decide on.
 */
export function scanSitemap(url: string, text: string, limit = MAX_SITEMAP_ENTRIES): { file: SitemapFile; root?: string } {
  const scanner = new SitemapScanner(url, limit);
  scanner.feed(text);
  return scanner.end();
}

/** A tag, comment or `<loc>` text still open after this many characters ends the read: real ones are short. */
const MAX_PENDING = 1024 * 1024;

/**
 * The scanner fed piece by piece as the file arrives, so a 50 MB sitemap is never held whole:
 * what it keeps is the entries, and the few characters of a tag or `<loc>` cut between pieces.
 */
export class SitemapScanner {
  private readonly file: SitemapFile;
  private readonly stack: string[] = [];
  private root: { prefix: string; local: string } | undefined;
  private inEntry = false;
  private entryHasLoc = false;
  // Text and CDATA pieces of the <loc> being read; null outside one.
  private loc: string[] | null = null;
  private carry = '';
  private done = false;
  // Before the root element is met, the file may be the plain-text form: kept for textSitemap.
  private plain: string[] | null = [];
  /** Set when a tag, comment or <loc> text never ended within MAX_PENDING characters. */
  overlong = false;

  constructor(url: string, private readonly limit = MAX_SITEMAP_ENTRIES) {
    this.file = { url, kind: 'invalid', urls: [], children: [], skipped: 0 };
  }

  feed(piece: string): void {
    if (this.done) return;
    this.plain?.push(piece);
    const text = this.carry + piece;
    const at = this.scan(text, false);
    this.carry = at < 0 ? '' : text.slice(at);
    if (this.carry.length > MAX_PENDING) {
      this.overlong = true;
      this.done = true;
    }
  }

  end(): { file: SitemapFile; root?: string } {
    if (!this.done && this.carry) this.scan(this.carry, true);
    this.done = true;
    const { file, root } = this;
    // A <loc> still open at the end of a cut-off file may hold half a URL: it is dropped, not guessed.
    if (!root) return { file: textSitemap(file, (this.plain ?? []).join(''), this.limit) };
    if (file.kind === 'invalid') {
      file.error = root.local.toLowerCase() === 'html' ? 'Not a sitemap: this is an HTML page' : `${NOT_SITEMAP} (its root element is <${root.local}>)`;
    }
    return { file, root: root.local };
  }

  /** Scans `text`; returns where the unread rest starts (it needs more input), or -1 when all is read. */
  private scan(text: string, final: boolean): number {
    const { file, stack } = this;
    let i = 0;
    for (;;) {
      const lt = text.indexOf('<', i);
      if (lt < 0) {
        // Text outside a <loc> is not needed; inside one it waits for its end tag (entities may be cut).
        if (this.loc && !final) return i;
        return -1;
      }
      if (this.loc) this.loc.push(decode(text.slice(i, lt)));
      i = lt;
      if (text[lt + 1] === undefined && !final) return lt;
      if (text[lt + 1] === '!' || text[lt + 1] === '?') {
        // Comments, CDATA, the XML declaration and other processing instructions, DOCTYPE.
        if (!final && lt + 9 > text.length) return lt; // too short yet to tell which
        const [close, skip] = text.startsWith('<!--', lt) ? ['-->', 4] : text.startsWith('<![CDATA[', lt) ? [']]>', 9] : text[lt + 1] === '?' ? ['?>', 2] : ['>', 2];
        const end = text.indexOf(close, lt + skip);
        if (end < 0) return this.stop(final, lt);
        if (this.loc && skip === 9) this.loc.push(text.slice(lt + 9, end));
        i = end + close.length;
        continue;
      }
      NAME.lastIndex = lt + 1;
      const m = NAME.exec(text);
      if (!m) {
        if (!final && lt + 2 >= text.length) return lt; // "</" cut before its name
        i = lt + 1; // a stray '<' in text
        continue;
      }
      const end = tagEnd(text, NAME.lastIndex);
      if (end < 0) return this.stop(final, lt); // a tag that never ends: the file was cut off
      i = end + 1;
      const qname = m[2] ?? '';
      const colon = qname.indexOf(':');
      const prefix = colon < 0 ? '' : qname.slice(0, colon);
      const local = qname.slice(colon + 1);
      if (m[1] === '/') {
        const at = stack.lastIndexOf(qname);
        if (at < 0) continue; // a stray end tag: be lenient, like search engines are
        stack.length = at;
        if (this.loc && stack.length < 3) this.loc = addLoc(file, this.loc, this.limit);
        if (stack.length < 2) this.inEntry = false;
        continue;
      }
      const depth = stack.length;
      const selfClosing = text[end - 1] === '/';
      if (!selfClosing) stack.push(qname);
      if (!this.root) {
        this.root = { prefix, local };
        this.plain = null;
        if (local === 'urlset') file.kind = 'urlset';
        else if (local === 'sitemapindex') file.kind = 'index';
        else return this.stop(true, -1);
      } else if (prefix !== this.root.prefix) {
        // Extension elements (image:, video:, xhtml:) are not ours: skipped.
      } else if (depth === 1 && local === (file.kind === 'index' ? 'sitemap' : 'url')) {
        this.inEntry = true;
        this.entryHasLoc = false;
      } else if (depth === 2 && this.inEntry && local === 'loc' && !this.entryHasLoc && !selfClosing) {
        this.entryHasLoc = true;
        this.loc = [];
      }
    }
  }

  /** Input that cannot be read further: wait for more, or (at the end, or not a sitemap) stop. */
  private stop(final: boolean, at: number): number {
    if (!final) return at;
    this.done = true;
    return -1;
  }
}

function addLoc(file: SitemapFile, parts: string[], limit: number): null {
  const into = file.kind === 'index' ? file.children : file.urls;
  // Past the limit an entry is only counted, unparsed: a million URL parses is the cost to spare.
  if (into.length >= limit) {
    file.more = (file.more ?? 0) + 1;
    return null;
  }
  const value = absolute(parts.join('').trim());
  if (value === null) file.skipped++;
  else into.push(value);
  return null;
}

/** The protocol also allows a UTF-8 text file of absolute URLs, one a line. */
function textSitemap(file: SitemapFile, text: string, limit: number): SitemapFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/).map((l) => l.trim()).filter(Boolean);
  const urls = lines.map(absolute);
  if (urls.length > 0 && urls.every((u) => u !== null)) {
    const kept = urls.slice(0, limit).filter((u) => u !== null);
    return urls.length > limit ? { ...file, kind: 'urlset', urls: kept, more: urls.length - limit } : { ...file, kind: 'urlset', urls: kept };
  }
  return { ...file, error: lines.length === 0 ? 'Not a sitemap: the file is empty' : NOT_SITEMAP };
}

function tagEnd(text: string, from: number): number {
  let quote = '';
  for (let j = from; j < text.length; j++) {
    const c = text[j];
    if (quote) { if (c === quote) quote = ''; }
    else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return j;
  }
  return -1;
}

function decode(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (whole, named: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (named) return NAMED[named] ?? whole;
    const code = dec ? Number(dec) : parseInt(hex ?? '', 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** An absolute http(s) URL, or null: the protocol requires absolute <loc>s. */
export function absolute(value: string): string | null {
  try {
    const url = new URL(value); // no base: relative <loc>s are invalid by the protocol
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
