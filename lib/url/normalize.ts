/**
 * URL normalization for the crawl frontier: one spelling per page, so a page
 * linked as `/docs/#intro`, `/docs?utm_source=x` and `/docs/` is fetched once.
 *
 * Policy, and why:
 * - Paths stay case-sensitive. Many servers (nginx/Apache on Linux, S3, GitHub
 *   Pages) treat `/API.html` and `/api.html` as different files; lowercasing
 *   would invent URLs that 404. Only the scheme and host are case-folded (URL does it).
 * - Duplicate slashes are kept. `/a//b` is a different URL to the server and
 *   some routes embed URLs in paths (`/proxy/https://…`); collapsing would fetch
 *   a URL no page linked. Servers that fold them usually redirect, and the
 *   crawler dedupes on the final URL.
 * - Query parameters keep their original order and spelling; only tracking
 *   parameters are dropped (see {@link dedupeKey} for the dedupe tradeoff).
 * - Percent-encoding follows RFC 3986 §6.2.2: hex digits upper-cased and
 *   unreserved characters (`A-Z a-z 0-9 - . _ ~`) decoded; reserved ones such as
 *   `%2F` stay encoded because decoding them changes the path's meaning.
 */

/**
 * Query parameters that only track where a click came from. Entries ending in
 * `*` are prefixes. Deliberately absent: `ref` (GitHub uses `?ref=branch`),
 * `source`, `lang`, `v` — they select content on some sites.
 */
export const TRACKING_PARAMS: readonly string[] = [
  'utm_*', 'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid', 'twclid', 'ttclid',
  'li_fat_id', 'mc_cid', 'mc_eid', '_ga', '_gl', 'yclid', 'ref_src', 'igshid', '_hsenc', '_hsmi',
  'mkt_tok', 'vero_id', 'oly_anon_id', 'oly_enc_id', 'srsltid',
];

const TRACKING_EXACT = new Set(TRACKING_PARAMS.filter((p) => !p.endsWith('*')));
const TRACKING_PREFIXES = TRACKING_PARAMS.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));

/** True when a query parameter name (decoded, any case) is a tracking parameter. */
export function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING_EXACT.has(lower) || TRACKING_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** Options of {@link normalizeUrl}. */
export interface NormalizeOptions {
  /**
   * Keep a hash route (`#/guide/intro`, `#!/guide/intro`) as part of the page's address. Only for
   * sites known to route by hash (docsify, hash-routed single-page apps: see lib/render/): on every
   * other site a fragment is a place in the page and is dropped.
   */
  keepHashRoute?: boolean;
}

/** Normalized absolute URL for crawling, or why it is skipped (plain words shown to users). */
export function normalizeUrl(raw: string, base?: string, options: NormalizeOptions = {}): { url: string } | { skip: string } {
  const normalized = normalizeParsed(raw, base, options);
  return 'skip' in normalized ? normalized : { url: normalized.parsed.href };
}

/** {@link normalizeUrl}, giving the parsed URL: its `href` is the normalized URL. */
export function normalizeParsed(raw: string, base?: string, options: NormalizeOptions = {}): { parsed: URL } | { skip: string } {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return { skip: 'Not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { skip: `Not a web link (${url.protocol})` };
  }
  if (!url.hostname) return { skip: 'Not a valid URL' };
  // Each setter re-serializes the URL, so only parts that are there get set: most links have
  // no fragment, credentials, escapes or query (a page with 100,000 links paid for all four).
  if (url.href.includes('#')) url.hash = options.keepHashRoute ? hashRoute(url.hash) : '';
  // fetch() refuses URLs with credentials; the page is the same without them,
  // and the user's browser session supplies any login.
  if (url.username || url.password) {
    url.username = '';
    url.password = '';
  }
  if (url.pathname.includes('%')) url.pathname = normalizePercent(url.pathname);
  // Past the fragment (gone, or a hash route without its query), a "?" can only start the query.
  if (url.href.includes('?')) {
    // Filtering the raw `a=b` pieces (not URLSearchParams) keeps every other
    // parameter byte for byte: URLSearchParams would rewrite `a` to `a=` and
    // `%20` to `+`, which some servers read differently.
    const kept = url.search
      .slice(1)
      .split('&')
      .filter((pair) => pair !== '' && !isTrackingParam(decodeName(pair)));
    url.search = kept.length ? normalizePercent(kept.join('&')) : '';
  }
  return { parsed: url };
}

/**
 * The key two URLs share when they are the same page: trailing-slash variants
 * folded ("/docs/" ≡ "/docs"), except the root.
 *
 * Query parameters are NOT sorted: `?a=1&b=2` and `?b=2&a=1` get different keys.
 * Sorting would merge them, but a server may read order (repeated keys, signed
 * URLs), and wrongly merging loses a page silently while wrongly splitting
 * only costs one extra fetch; sites link from templates, so the order rarely varies.
 */
export function dedupeKey(url: string): string {
  // A hash route still on the URL was kept on purpose (normalizeUrl drops it otherwise): it names a page.
  const normalized = normalizeUrl(url, undefined, { keepHashRoute: true });
  return 'url' in normalized ? keyOfNormalized(normalized.url) : url;
}

/**
 * {@link dedupeKey} of a URL that normalizeUrl returned (normalizing is idempotent, so only the
 * trailing slash is left to fold), without parsing it again: the crawl keys every link it finds,
 * and a page with 100,000 links spent half a second normalizing them twice.
 */
export function keyOfNormalized(href: string): string {
  const pathStart = href.indexOf('/', href.indexOf('//') + 2);
  if (pathStart < 0) return href;
  let pathEnd = href.length;
  for (const mark of ['?', '#']) {
    const at = href.indexOf(mark, pathStart);
    if (at >= 0 && at < pathEnd) pathEnd = at;
  }
  return pathEnd - pathStart > 1 && href[pathEnd - 1] === '/' ? href.slice(0, pathEnd - 1) + href.slice(pathEnd) : href;
}

/**
 * The page-naming part of a fragment: `#/guide/intro` and `#!/guide/intro` are routes; `#setup`
 * is an anchor (dropped). The route's own query is dropped too: docsify puts the heading anchor
 * there (`#/guide?id=setup`), other routers search or filter state, never another page. The home
 * route (`#/`, `#!/`) is the page without a fragment, so `/` and `/#/` share one key.
 */
export function hashRoute(hash: string): string {
  const match = /^#(!?)(\/[^?]*)/.exec(hash);
  if (!match?.[2] || match[2] === '/') return '';
  return `#${match[1] ?? ''}${normalizePercent(match[2])}`;
}

const BINARY_EXTENSIONS = new Set([
  // images (SVG is text and the fetcher skips it by content type)
  'png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'bmp', 'ico', 'tif', 'tiff', 'heic', 'psd',
  // documents
  'pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'epub',
  // archives and packages
  'zip', 'gz', 'tgz', 'bz2', 'xz', 'zst', '7z', 'rar', 'tar', 'jar', 'war', 'whl', 'deb', 'rpm', 'apk', 'nupkg',
  // audio and video
  'mp3', 'mp4', 'm4a', 'm4v', 'wav', 'ogg', 'oga', 'ogv', 'webm', 'mov', 'avi', 'mkv', 'flac', 'aac', 'wmv',
  // fonts
  'woff', 'woff2', 'ttf', 'otf', 'eot',
  // executables and disk images
  'exe', 'dmg', 'msi', 'pkg', 'bin', 'iso', 'img', 'dll', 'so', 'dylib', 'wasm',
]);

const COMPOUND_EXTENSIONS = ['tar.gz', 'tar.bz2', 'tar.xz', 'tar.zst'];

/**
 * "Binary file (.pdf)" when the URL's last path segment has a binary file
 * extension, else null. Lets the crawler skip downloads without a request;
 * URLs like `/download?file=x.pdf` are left to the fetcher's content-type check.
 */
export function binaryExtensionReason(url: string | URL): string | null {
  let pathname: string;
  try {
    pathname = typeof url === 'string' ? new URL(url).pathname : url.pathname;
  } catch {
    return null;
  }
  const name = safeDecode(pathname.slice(pathname.lastIndexOf('/') + 1)).toLowerCase();
  const compound = COMPOUND_EXTENSIONS.find((ext) => name.endsWith(`.${ext}`));
  if (compound) return `Binary file (.${compound})`;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  const ext = name.slice(dot + 1);
  return BINARY_EXTENSIONS.has(ext) ? `Binary file (.${ext})` : null;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Upper-cases percent-escape hex and decodes escapes of unreserved characters (RFC 3986 §6.2.2). */
function normalizePercent(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_match, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

function decodeName(pair: string): string {
  const eq = pair.indexOf('=');
  return safeDecode((eq === -1 ? pair : pair.slice(0, eq)).replaceAll('+', ' '));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
