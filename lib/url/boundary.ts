/**
 * Where a site's documentation is, as opposed to the company website around it: the hosts and
 * folders the docs live in, inferred before a crawl from the evidence the site gives (the start
 * page's place, its navigation tree, canonical link, the llms.txt files found and the URLs they
 * cover, the sitemaps), and the default scope of a crawl (`docs`).
 */

import { isSameSite, registrableDomain } from './site';
import { describeVariant, otherVariant, variantSegments } from './variants';

/** One place the documentation lives: an origin and a folder under it (the path ends with `/`). */
export interface DocsRoot {
  origin: string;
  path: string;
}

/** The documentation's boundary, with the evidence for it in words. */
export interface DocsBoundary {
  roots: DocsRoot[];
  /** What the boundary was inferred from, one line per piece of evidence, for the user. */
  why: string[];
  /** The documentation's own name when it has one ("Acme documentation"), not the company's. */
  name?: string;
  /** Page URLs the docs' own navigation lists (fragment-free): the template pages are compared with. */
  nav: string[];
  /** URLs the site's sitemaps and llms.txt files list, inside the boundary and outside it. */
  listed: { inside: number; outside: number; fromSitemaps: boolean; fromLlms: boolean };
  /**
   * Parts inside a root that are not the docs: a translation the start page names (hreflang), the
   * parts of a host the site's menus link and the docs' sidebar never does (its blog beside docs at
   * the host's root). `path` is a folder (ends with `/`) or one page; `reason` is the skip reason.
   */
  excluded?: Array<DocsRoot & { reason: string }>;
}

/** What the boundary is inferred from: plain data, gathered by lib/crawl/plan.ts. */
export interface BoundaryEvidence {
  startUrl: string;
  /** Where the start page ended after redirects. */
  finalUrl?: string;
  /** The start page's canonical link. */
  canonical?: string;
  /** The start page's navigation tree (lib/convert/nav-links.ts), in order. */
  nav: Array<{ url: string; title: string; depth: number }>;
  /** The start page's title and the site name it gives (og:site_name and the like). */
  title?: string;
  siteName?: string;
  /** The llms.txt-family files discovery found, each with its H1 and the URLs it links. */
  llms: Array<{ url: string; title?: string; links: string[] }>;
  /** The page URLs the site's sitemaps list. */
  sitemapUrls: string[];
  /** The start page's translations (`hreflang` links and alternates). */
  alternates?: Array<{ url: string; lang: string }>;
  /** The start page's links outside its docs navigation and its content: the site's header, menus and footer. */
  chromeLinks?: string[];
}

/** The share of a host's links a folder must hold to be the docs' folder there: a few outliers (a "Home" link) do not widen it. */
const MAIN_SHARE = 0.8;
/** Links outside the main folder that share a folder of their own this many times make it a root too (a second tree). */
const GROUP_MIN = 3;
/** Fewer links than this on the start host are no evidence of where the docs' folder is. */
const NAV_MIN = 3;

/**
 * Where the documentation is, from the evidence the site gives (see the module comment). Pure.
 * Never narrower than the docs: losing docs pages costs more than crawling a few extra, which the
 * crawl's page-level checks then tell apart. Roots are origin + folder; the start page is always
 * inside one.
 */
export function inferBoundary(evidence: BoundaryEvidence): DocsBoundary {
  const start = webUrl(evidence.finalUrl) ?? webUrl(evidence.startUrl);
  if (!start) throw new Error(`The start page is not a web address: ${evidence.startUrl}`);
  const roots = new RootSet();
  const why: string[] = [];
  const variant = variantFolder(start);
  const sameSite = (url: URL) => isSameSite(url.hostname, start.hostname);

  // 1. The most specific llms.txt whose folder holds the start page (spec v2: it covers the URLs under its folder).
  const covering = coveringLlms(evidence.llms, start);
  if (covering) {
    const folder = clampToVariant(folderOf(covering.file.pathname), variant);
    roots.add(start.origin, folder);
    why.push(`llms.txt at ${display(covering.file)} covers ${start.host}${folder}`);
    for (const [origin, urls] of byOrigin(covering.links.map(webUrl).filter((u): u is URL => u !== null && sameSite(u)))) {
      if (origin === start.origin) continue;
      const host = hostRoots(urls, origin);
      for (const folder of host.folders) roots.add(origin, folder);
      if (host.folders.length) why.push(`Its llms.txt links ${count(urls.length, 'page')} on ${new URL(origin).host}${host.folders[0]}, so that is part of the docs too`);
    }
  }

  // 2. The start page's docs navigation tree, per host.
  const navUrls = dedupe(evidence.nav.map((n) => webUrl(n.url)).filter((u): u is URL => u !== null));
  const navSameSite = navUrls.filter(sameSite);
  const groups = byOrigin(navSameSite);
  const onStart = groups.get(start.origin) ?? [];
  if (onStart.length >= NAV_MIN) {
    const main = deepestFolder(onStart, MAIN_SHARE);
    const folder = variant && (main.startsWith(variant) || variant.startsWith(main)) ? variant : main;
    roots.add(start.origin, folder);
    const under = onStart.filter((u) => under_(u, folder)).length;
    why.push(
      under === onStart.length
        ? `The docs' sidebar links ${count(onStart.length, 'page')}, all under ${start.host}${folder}`
        : `The docs' sidebar links ${count(onStart.length, 'page')} on ${start.host}, ${under} of them under ${start.host}${folder}`,
    );
    const rest = onStart.filter((u) => !roots.covers(u) && otherVariant(start.href, u.href) === null);
    for (const group of outlierGroups(rest, folder)) {
      roots.add(start.origin, group.folder);
      why.push(`The sidebar also links ${count(group.count, 'page')} under ${start.host}${group.folder}`);
    }
    const left = onStart.filter((u) => !roots.covers(u) && otherVariant(start.href, u.href) === null);
    if (left.length) why.push(`${count(left.length, 'sidebar link')} elsewhere on ${start.host} left out (${left.slice(0, 3).map(display).join(', ')}${left.length > 3 ? ', …' : ''})`);
  }
  for (const [origin, urls] of groups) {
    if (origin === start.origin) continue;
    const host = hostRoots(urls, origin);
    for (const folder of host.folders) roots.add(origin, folder);
    const name = new URL(origin).host;
    if (host.folders.length) why.push(`The sidebar links ${count(urls.length, 'page')} on ${name}${host.folders[0]}: part of the docs`);
    else why.push(`The sidebar's link to ${display(urls[0] as URL)} (the company's home, not the docs) left out`);
  }

  // 3. The start page's own place: its version and language folder, else its host (the fallback).
  if (!covering && onStart.length < NAV_MIN) {
    const folder = variant ?? '/';
    roots.add(start.origin, folder);
    why.push(variant ? `No sidebar or llms.txt says where the docs end: the crawl keeps to ${start.host}${folder}` : `No sidebar or llms.txt says where the docs end: the crawl keeps to ${start.host}`);
  }
  if (!roots.covers(start)) {
    const folder = variant ?? folderOf(start.pathname);
    roots.add(start.origin, folder);
    why.push(`The start page's folder ${start.host}${folder} is included`);
  }
  if (variant) why.push(`Other versions and languages are left out (the start page is in ${describeVariant(start.href)})`);

  const languages = translations(evidence.alternates ?? [], start, roots);
  const taken = languages.flatMap((left) => left.parts.map((part) => part.path));
  const excluded = [...languages, ...(covering ? [] : menuOnlyParts(evidence.chromeLinks ?? [], onStart, start, roots, taken))];
  for (const part of excluded) why.push(part.why);

  // 4. A canonical address elsewhere on the site: the same docs, served from there.
  const canonical = webUrl(evidence.canonical);
  if (canonical && sameSite(canonical) && !roots.covers(canonical)) {
    const folder = variantFolder(canonical) ?? folderOf(canonical.pathname);
    roots.add(canonical.origin, folder);
    why.push(`The start page names ${display(canonical)} as its address (canonical link): ${canonical.host}${folder} is included`);
  }

  const boundary: DocsBoundary = { roots: roots.list(), why, nav: navUrls.map((u) => u.href), listed: { inside: 0, outside: 0, fromSitemaps: evidence.sitemapUrls.length > 0, fromLlms: false } };
  if (excluded.length) boundary.excluded = excluded.flatMap((left) => left.parts.map((part) => ({ origin: start.origin, ...part })));
  const name = covering?.title?.trim() || nameFromTitle(evidence.title, evidence.siteName);
  if (name) boundary.name = name;
  const listed = new Set<string>(evidence.sitemapUrls);
  for (const file of evidence.llms) for (const link of file.links) listed.add(link);
  boundary.listed.fromLlms = evidence.llms.some((f) => f.links.length > 0);
  for (const raw of listed) {
    const url = webUrl(raw);
    if (!url) continue;
    if (outsideBoundary(boundary, url) === null && otherVariant(start.href, url.href) === null) boundary.listed.inside++;
    else boundary.listed.outside++;
  }
  return boundary;
}

/** Null when the URL is under one of the boundary's roots and not in a part left out, else why not, naming the folder it is in. */
export function outsideBoundary(boundary: DocsBoundary, url: URL): string | null {
  const left = boundary.excluded?.find((part) => part.origin === url.origin && (part.path.endsWith('/') ? underFolder(url.pathname, part.path) : url.pathname === part.path || url.pathname === `${part.path}/`));
  if (left) return left.reason;
  if (boundary.roots.some((root) => root.origin === url.origin && underFolder(url.pathname, root.path))) return null;
  return `Outside the documentation (${url.host}${topFolder(url.pathname)})`;
}

/** `/blog/post-1` → `/blog/`; `/pricing` → `/`: the folder a skip reason names, so reasons group by part of the site. */
function topFolder(pathname: string): string {
  const next = pathname.indexOf('/', 1);
  return next === -1 ? '/' : pathname.slice(0, next + 1);
}

/** True when `pathname` is `folder` or below it; `/docs/guide` (no slash) counts as the folder `/docs/guide/`. */
function underFolder(pathname: string, folder: string): boolean {
  const path = pathname.endsWith('/') ? pathname : `${pathname}/`;
  return path.startsWith(folder);
}

const under_ = (url: URL, folder: string) => underFolder(url.pathname, folder);

/** The folder a page sits in: `/docs/guide/intro.html` → `/docs/guide/`, `/docs/` → `/docs/`. */
function folderOf(pathname: string): string {
  return pathname.slice(0, pathname.lastIndexOf('/') + 1) || '/';
}

/** The start page's version/language folder: `/en/stable/guide/x.html` → `/en/stable/`; null without one. */
function variantFolder(url: URL): string | null {
  const segments = variantSegments(url.href);
  const last = segments[segments.length - 1];
  if (!last) return null;
  return `/${url.pathname.split('/').slice(1, last.index + 2).join('/')}/`;
}

/** A folder at or above the version folder becomes the version folder: never wider, into other versions. */
function clampToVariant(folder: string, variant: string | null): string {
  return variant?.startsWith(folder) ? variant : folder;
}

/**
 * The deepest folder holding at least `share` of the URLs. Folders nest, so with a share over a
 * half at most one folder per depth qualifies.
 */
function deepestFolder(urls: URL[], share: number): string {
  const counts = new Map<string, number>();
  for (const url of urls) {
    const folder = folderOf(url.pathname);
    for (let i = folder.indexOf('/'); i !== -1; i = folder.indexOf('/', i + 1)) {
      const prefix = folder.slice(0, i + 1);
      counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
    }
  }
  let best = '/';
  for (const [folder, n] of counts) if (n >= share * urls.length && folder.length > best.length) best = folder;
  return best;
}

/**
 * Links outside `main` that cluster in a folder of their own (a second tree beside the main one,
 * `/docs/api/` beside `/docs/guide/`), at least GROUP_MIN of them. A page that sits in a folder
 * above `main` (a "Home" link to `/`) is no folder of its own: such links never widen a root.
 */
function outlierGroups(urls: URL[], main: string): Array<{ folder: string; count: number }> {
  const groups = new Map<string, number>();
  for (const url of urls) {
    const folder = folderOf(url.pathname);
    let common = 0;
    for (let i = 0; i < Math.min(folder.length, main.length); i++) {
      if (folder[i] !== main[i]) break;
      if (folder[i] === '/') common = i + 1;
    }
    const next = folder.indexOf('/', common);
    if (next === -1) continue;
    const group = folder.slice(0, next + 1);
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  return [...groups].filter(([, n]) => n >= GROUP_MIN).map(([folder, n]) => ({ folder, count: n }));
}

/**
 * The docs' folders on another host of the site, from the links to it. A few links to the
 * company's own website (the registrable domain or its www host) are its "Home", not a part of
 * the docs; any other host the docs link from their navigation (an API reference on api.) is.
 */
function hostRoots(urls: URL[], origin: string): { folders: string[] } {
  const host = new URL(origin).hostname;
  const domain = registrableDomain(host);
  const companyHome = domain !== null && (host === domain || host === `www.${domain}`);
  if (companyHome && urls.length < GROUP_MIN) return { folders: [] };
  const main = deepestFolder(urls, MAIN_SHARE);
  const folders = [main];
  for (const group of outlierGroups(urls.filter((u) => !under_(u, main)), main)) folders.push(group.folder);
  return { folders };
}

/** A sidebar this long is the docs' whole tree, enough to tell the site's other parts by it. */
const TREE_MIN = 10;

interface LeftOut {
  parts: Array<{ path: string; reason: string }>;
  why: string;
}

/**
 * The translations the start page names (hreflang) that sit in a folder of their own inside a
 * root (`/fr/` beside docs at the host's root): another language, left out as the version and
 * language rules leave out `/ja/` beside `/en/`.
 */
function translations(alternates: Array<{ url: string; lang: string }>, start: URL, roots: RootSet): LeftOut[] {
  const out: LeftOut[] = [];
  const seen = new Set<string>();
  for (const alternate of alternates) {
    const url = webUrl(alternate.url);
    if (!url || url.origin !== start.origin || !roots.covers(url) || alternate.lang.toLowerCase() === 'x-default') continue;
    // The translation's own folder: what its path adds in front of the start page's (`/fr` + `/guides/x`).
    const tail = start.pathname;
    const prefix = url.pathname.endsWith(tail) ? url.pathname.slice(0, url.pathname.length - tail.length + 1) : `/${url.pathname.split('/')[1] ?? ''}/`;
    if (prefix === '/' || prefix === '//' || under_(start, prefix) || seen.has(prefix)) continue;
    seen.add(prefix);
    out.push({ parts: [{ path: prefix, reason: `Another language (${alternate.lang}; the start page's translation is under ${prefix})` }], why: `The ${alternate.lang} translation under ${start.host}${prefix} is left out (another language)` });
  }
  return out;
}

/**
 * Docs at the root of a host often share it with the company's other pages (pricing, a blog,
 * events): the site's menus link those, the docs' sidebar never does. With a sidebar long enough to
 * be the docs' whole tree, a top-level folder the menus link and the sidebar does not is left out,
 * and so is a page at the host's root when the sidebar links none there.
 */
function menuOnlyParts(chrome: string[], sidebar: URL[], start: URL, roots: RootSet, taken: string[]): LeftOut[] {
  if (sidebar.length < TREE_MIN || !roots.list().some((r) => r.origin === start.origin && r.path === '/')) return [];
  const topOf = (url: URL) => {
    const next = url.pathname.indexOf('/', 1);
    return next === -1 ? null : url.pathname.slice(0, next + 1);
  };
  const home = (url: URL) => url.pathname === '/' || url.pathname === '/index.html' || url.pathname === start.pathname;
  const sidebarTops = new Set(sidebar.map(topOf).filter((t): t is string => t !== null));
  const sidebarRootPages = sidebar.some((u) => topOf(u) === null && !home(u));
  const startTop = topOf(start);
  const paths = new Set<string>();
  for (const raw of chrome) {
    const url = webUrl(raw);
    if (!url || url.origin !== start.origin || home(url)) continue;
    const top = topOf(url);
    if (top !== null && taken.includes(top)) continue;
    if (top === null ? !sidebarRootPages : !sidebarTops.has(top) && top !== startTop) paths.add(top ?? url.pathname);
  }
  if (!paths.size) return [];
  const list = [...paths].sort();
  return [
    {
      parts: list.map((path) => ({ path, reason: `Outside the documentation (${start.host}${path}: the site's menus link it, the docs' sidebar does not)` })),
      why: `Left out: ${list.slice(0, 6).join(', ')}${list.length > 6 ? ', …' : ''} on ${start.host}: the site's menus link ${list.length === 1 ? 'it' : 'them'}, the docs' sidebar does not`,
    },
  ];
}

/** The most specific llms.txt-family file on the start page's origin whose folder holds it. */
function coveringLlms(files: BoundaryEvidence['llms'], start: URL): { file: URL; title?: string; links: string[] } | null {
  const covering = coveringFile(files, start);
  const file = webUrl(covering?.url);
  return covering && file ? { file, links: covering.links, ...(covering.title ? { title: covering.title } : {}) } : null;
}

/**
 * Of llms.txt-family files (each by the address it was served from), the one covering `start`:
 * spec v2, a file covers the URLs under its folder on its origin, and the most specific one wins.
 */
export function coveringFile<T extends { url: string }>(files: readonly T[], start: string | URL): T | undefined {
  const page = typeof start === 'string' ? webUrl(start) : start;
  if (!page) return undefined;
  let best: { file: T; folder: string } | undefined;
  for (const f of files) {
    const file = webUrl(f.url);
    if (!file || file.origin !== page.origin) continue;
    const folder = folderOf(file.pathname);
    if (!under_(page, folder) || (best && best.folder.length >= folder.length)) continue;
    best = { file: f, folder };
  }
  return best?.file;
}

/** The docs' own name from the start page's title: the part beside the page's name ("Install — Acme 4.2 documentation" → "Acme 4.2 documentation"). */
export function nameFromTitle(title: string | undefined, siteName: string | undefined): string | undefined {
  const site = siteName?.trim() || undefined;
  const text = title?.trim();
  if (!text) return site;
  const parts = splitTitle(text);
  const mentions = (part: string) => site !== undefined && part.toLowerCase().includes(site.toLowerCase());
  if (parts.length >= 2) {
    const first = parts[0] as string;
    const last = parts[parts.length - 1] as string;
    // The site's part is the one naming the site; most titles put it last ("Page | Site").
    const named = mentions(last) ? last : mentions(first) ? first : last;
    return named.length >= (site?.length ?? 0) ? named : site;
  }
  // A title without a separator names the docs only when it says more than the site's name.
  return mentions(text) && text.length > (site?.length ?? 0) ? text : site;
}

const SEPARATORS = [' — ', ' – ', ' - ', ' | ', ' · ', ' :: ', ' » ', ' : '];

/** A title split at the separator it uses (the first of SEPARATORS found): "A — B — C" → ["A", "B", "C"]. */
function splitTitle(title: string): string[] {
  for (const separator of SEPARATORS) {
    if (title.includes(separator)) return title.split(separator).map((p) => p.trim()).filter(Boolean);
  }
  return [title];
}

/** The roots found so far; one root under another is folded into it. */
class RootSet {
  private roots: DocsRoot[] = [];

  add(origin: string, path: string): void {
    if (this.roots.some((r) => r.origin === origin && path.startsWith(r.path))) return;
    this.roots = this.roots.filter((r) => !(r.origin === origin && r.path.startsWith(path)));
    this.roots.push({ origin, path });
  }

  covers(url: URL): boolean {
    return this.roots.some((r) => r.origin === url.origin && under_(url, r.path));
  }

  list(): DocsRoot[] {
    return [...this.roots];
  }
}

function byOrigin(urls: URL[]): Map<string, URL[]> {
  const map = new Map<string, URL[]>();
  for (const url of urls) {
    const list = map.get(url.origin);
    if (list) list.push(url);
    else map.set(url.origin, [url]);
  }
  return map;
}

function dedupe(urls: URL[]): URL[] {
  const seen = new Set<string>();
  return urls.filter((u) => !seen.has(u.href) && seen.add(u.href));
}

/** An http(s) URL without its fragment, or null. */
function webUrl(raw: string | undefined): URL | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url;
  } catch {
    return null;
  }
}

const display = (url: URL) => `${url.host}${url.pathname}`;
const count = (n: number, word: string) => `${n.toLocaleString('en')} ${n === 1 ? word : `${word}s`}`;
