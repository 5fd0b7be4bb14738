/**
 * Metric 3 — pages with theme chrome in their Markdown.
 *
 * A page has chrome when one of its lines outside code is
 *  * matched by a known chrome pattern (CHROME_PATTERNS, each with a kind), or
 *  * a *repeated line*: a non-heading, non-table prose line of ≥ 3 words that, with link targets
 *    removed (`[Edit](a.md)` and `[Edit](b.md)` are the same line) and whitespace collapsed, occurs
 *    on ≥ 40 % of the site's pages and on at least 5 of them. This needs no knowledge of the
 *    generator: text a theme puts on every page is chrome whatever it says.
 *
 * Headings are left out of the repetition test ("## Parameters" is legitimately on every API page);
 * the heading chrome that matters (a site-title H1 that is a link) has its own pattern.
 * Pages titled like copyright/license/legal pages are exempt from the copyright-footer pattern:
 * on those pages the copyright line is the content. Where the page's source Markdown is known, a
 * line whose words occur in that order in the source is content the author wrote, not chrome
 * (Node's "> Stability: 2 - Stable" is on most pages, and in their sources).
 *
 * A repeated line whose pages all sit in one folder, while at least `minPages` of the site's pages
 * sit outside it, belongs to that part of the site: the author's note on every page of a subtree
 * (cryptography's "Hazardous Materials" warning, written as `.. hazmat::` in each source of
 * /hazmat/ and on none of the other pages) is content a reader of any one of those pages needs. A
 * theme's frame is on pages whatever their folder (see `confined`).
 */
import { classifyLines, proseWords, stripLinkTargets, wordTokens } from './markdown';
import { nameCore } from './titles';

export type ChromeKind =
  | 'site-title'
  | 'nav-bar'
  | 'pager'
  | 'footer'
  | 'edit-link'
  | 'version-banner'
  | 'cookie-notice'
  | 'skip-link'
  | 'theme-control'
  | 'repeated';

interface LineContext {
  heading: boolean;
  /** Heading level (0 for prose). */
  level: number;
  /** Cores (see nameCore) of the site's names. */
  siteNames: string[];
  /** The site's names as written (see exactTitle), for plain title headings. */
  siteTitles: string[];
  /** The page is titled with the site's name (the home page): its name heading is its own. */
  pageIsSite: boolean;
  /** Headings on the page at this heading's level (0 for prose). */
  sameLevelHeadings: number;
  /** Among the page's last 5 content lines (where footers sit). */
  atEnd: boolean;
}

interface Pattern {
  kind: ChromeKind;
  test: (line: string, at: LineContext) => boolean;
}

const NAV_WORDS = /^(?:«|‹|←|<)?\s*(?:home|index|general index|modules|module index|table of contents|contents|next|next page|next topic|previous|previous page|previous topic|prev|up|search|top|toc)\s*(?:»|›|→|>)?$/i;
/** Link text without its target and wrapping, for matching: "[« previous](a.html)" → "« previous". */
const plain = (s: string) => stripLinkTargets(s).replace(/\]\(\)/g, '').replace(/[[\]*_`]/g, '').replace(/\s+/g, ' ').trim();

/**
 * A heading's words as written, for telling the site's name from a sentence about it: case, accents,
 * emphasis and spacing aside, punctuation counts ("## … structlog?" on structlog's "Why …" page
 * asks a question; "# The Embedded Rust Book" is the menu's title).
 */
const exactTitle = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

/** A line of ≥ 3 short items joined by " | " (not a table row), at least one a navigation word. */
function isNavBar(line: string): boolean {
  if (/^\s*\|/.test(line)) return false;
  const items = plain(line).split(/\s+\|\s+/).map((s) => s.trim()).filter(Boolean);
  return items.length >= 3 && items.every((s) => s.split(' ').length <= 5) && items.some((s) => NAV_WORDS.test(s));
}

/** "« previous | up | next »", "Previous: Foo Next: Bar", "← Prev Next →", a lone "Next page" link. */
function isPager(line: string): boolean {
  const text = plain(line);
  if (/^(?:«|‹|←|<)?\s*(?:previous|prev)\b.*\bnext\b/i.test(text) && text.split(' ').length <= 25) return true;
  if (/^(?:«|‹|←)\s*\S.*(?:»|›|→)$/.test(text) && text.split(' ').length <= 25 && /\|/.test(text)) return true;
  // A lone pager label counts when it is a link, carries an arrow, or is capitalized like a button:
  // a lower-case "next" alone on a line is a term (Python's 2to3 fixer list), not a pager.
  const lone = /^(?:«|‹|←|<)?\s*(?:previous|prev|next)(?:\s+(?:page|topic|chapter|section|article))?\s*(?:»|›|→|>)?$/i;
  if (!lone.test(text)) return false;
  return /\]\(/.test(line) || /[«‹←»›→]/.test(text) || /^(?:Previous|Prev|Next|PREVIOUS|NEXT)\b/.test(text);
}

export const CHROME_PATTERNS: Pattern[] = [
  // The site's title as a heading: "# [Project documentation](index.html)" — a heading that is only
  // a link to another page (no #fragment) at H1, or at any level (llms-full.txt demotes page
  // headings) when the link text is the site's name — or a plain heading that is exactly the site's
  // name, beside another heading of its level, on a page not itself called that (mdBook's menu title
  // "# The Embedded Rust Book" above "# macOS"; not "## Python 3.0" in a What's New). A heading
  // linking to its own #anchor is a permalink: metric 4 (headings.ts). Lower headings linking
  // elsewhere can be a hub page's cards.
  {
    kind: 'site-title',
    test: (line, at) => {
      if (!at.heading) return false;
      const link = /^\s{0,3}#{1,6}\s+\[([^\]]+)\]\((?![^)]*#)[^)]*\)\s*$/.exec(line);
      if (link) return at.level === 1 || at.siteNames.includes(nameCore(link[1] ?? ''));
      const text = exactTitle(line.replace(/^\s{0,3}#{1,6}\s+/, ''));
      return !at.pageIsSite && at.sameLevelHeadings > 1 && text !== '' && at.siteTitles.includes(text);
    },
  },
  { kind: 'pager', test: (line, at) => !at.heading && isPager(line) },
  { kind: 'nav-bar', test: (line, at) => !at.heading && isNavBar(line) },
  {
    kind: 'footer',
    test: (line, at) => {
      const text = plain(line);
      // "Last updated" is a footer only at the foot: at the top of a page it is the page's own date line.
      if (at.atEnd && (/^last (?:updated|modified|changed)(?: on| at)?\s*[:\s]/i.test(`${text} `) || /^page last (?:updated|modified)/i.test(text))) return true;
      // A copyright line is a footer at the foot; at the top it is the file's own header (Doxygen).
      if (at.atEnd && (/^©\s*copyright\b/i.test(text) || /^(?:copyright\s*)?(?:©|\(c\)|&copy;)\s*(?:copyright\s*)?\d{4}/i.test(text))) return true;
      // At the start of the line: "If true, “Created using Sphinx” is shown in the footer" is Sphinx's own docs.
      return (/^created using \[?sphinx/i.test(text) && text.split(' ').length <= 25)
        || /^(?:built|made|created|generated|powered|documentation built|site built)\s+(?:with|using|by)\b.*\b(?:sphinx|mkdocs|material|docusaurus|vitepress|starlight|astro|mdbook|doxygen|javadoc|asciidoc|asciidoctor|read the docs|hugo|jekyll|docsify|gitbook|furo)\b/i.test(text);
    },
  },
  { kind: 'edit-link', test: (line) => /\b(?:edit this page|edit on github|edit on gitlab|edit page on|view page source|show source|view source on github|improve this (?:page|doc)|suggest an edit|open an issue on this page)\b/i.test(plain(line)) && plain(line).split(' ').length <= 12 },
  {
    kind: 'version-banner',
    test: (line) => /\byou(?:'re| are) (?:viewing|reading|looking at) (?:the )?(?:documentation for )?(?:an? )?(?:old|older|outdated|unreleased|development|legacy|previous)\b/i.test(line)
      || /\bthis is (?:the )?documentation for .{0,60}\b(?:unreleased|no longer (?:actively )?maintained|not the latest|development version|older version|outdated)/i.test(line)
      || /\b(?:this (?:document|page|documentation) (?:is|was) (?:for|written for) (?:an? )?(?:old|older|outdated|unreleased|development) version)/i.test(line)
      || /\bfor (?:up-to-date|the latest) documentation, see the latest version\b/i.test(line)
      || /\bsee (?:the )?(?:latest|current|stable) version\b.{0,40}$/i.test(plain(line)) && plain(line).split(' ').length <= 20,
  },
  {
    kind: 'cookie-notice',
    test: (line) => {
      const text = plain(line);
      return text.split(' ').length <= 40 && /\b(?:this (?:web)?site uses cookies|we use cookies|(?:^|\[)accept (?:all )?cookies|cookie (?:settings|preferences|consent)|manage cookies)\b/i.test(text);
    },
  },
  { kind: 'skip-link', test: (line) => /^\[?\s*skip to (?:main )?(?:content|navigation|main|search)\b/i.test(plain(line)) },
  {
    kind: 'theme-control',
    test: (line, at) => {
      const text = plain(line).replace(/^#+\s*/, '');
      // Multi-word controls only: a single word ("Menu", "Appearance", "Search") is too often a real term or heading.
      return /^(?:back to top|toggle (?:navigation|theme|sidebar|menu|dark mode)|on this page|was this (?:page )?helpful\??|copy to clipboard|search\s*(?:ctrl|⌘|cmd)\s*\+?\s*k|return to top|main navigation|theme auto light dark|auto light dark|light dark system)$/i.test(text)
        && (!at.heading || /^on this page$/i.test(text));
    },
  },
];

export interface ChromePage {
  key: string;
  url: string;
  title: string;
  markdown: string;
  /** The page's source Markdown, when known. */
  source?: string;
}

/** The text's words (link targets left out) as one space-joined string with spaces at both ends. */
const wordString = (text: string) => ` ${wordTokens(stripLinkTargets(text)).join(' ')} `;

export interface ChromeLine {
  kind: ChromeKind;
  /** The line as found (link targets stripped for repeated lines). */
  line: string;
  /** Pages it occurs on. */
  pages: number;
  example: string;
}

export interface ChromeResult {
  pages: number;
  /** Pages with chrome of each kind. */
  byKind: Partial<Record<ChromeKind, number>>;
  /** The most widespread offending lines, most pages first. */
  top: ChromeLine[];
  /** Keys of the pages with chrome. */
  keys: string[];
}

/** The URL's folder: its path up to and with the last "/". */
const folderOf = (url: string) => {
  try {
    return new URL(url).pathname.replace(/[^/]*$/, '');
  } catch {
    return '/';
  }
};

/**
 * Whether `urls` (the pages a block repeats on) all sit in one folder below the site's top while at
 * least `minOutside` of `siteUrls` sit outside it: the block is that part's, not the site frame's.
 */
export function confined(urls: string[], siteUrls: string[], minOutside: number): boolean {
  if (urls.length === 0) return false;
  const folders = urls.map(folderOf);
  let common = folders[0] as string;
  for (const folder of folders) while (!folder.startsWith(common)) common = common.replace(/[^/]*\/$/, '');
  const outside = siteUrls.filter((url) => !folderOf(url).startsWith(common)).length;
  return outside >= minOutside;
}

const LEGAL = /copyright|licen[cs]e|legal|terms of use|trademark/i;
/** Lines compared for repetition: link targets stripped, whitespace collapsed, list markers dropped. */
export const repetitionKey = (line: string) => stripLinkTargets(line).replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').replace(/\s+/g, ' ').trim();

/** The detector's per-page findings (pattern lines and repetition candidates, with their line numbers) and the repeated lines. */
export function chromeFindings(pages: ChromePage[], options: { share?: number; minPages?: number; siteNames?: string[] }) {
  const siteNames = (options.siteNames ?? []).map(nameCore).filter(Boolean);
  const siteTitles = (options.siteNames ?? []).map(exactTitle).filter(Boolean);
  const share = options.share ?? 0.4;
  const minPages = options.minPages ?? 5;
  const perPage = pages.map((page) => {
    const found: { kind: ChromeKind; line: string; index: number }[] = [];
    // Repetition candidates, each with the (0-based) lines it is on.
    const candidates = new Map<string, number[]>();
    const legal = LEGAL.test(page.title);
    const pageIsSite = siteNames.includes(nameCore(page.title));
    const source = page.source === undefined ? null : wordString(page.source);
    const content = classifyLines(page.markdown).filter((l) => l.kind === 'text' || l.kind === 'heading');
    const endFrom = content.length - 5;
    const perLevel = new Map<number, number>();
    for (const l of content) if (l.kind === 'heading') perLevel.set(l.level, (perLevel.get(l.level) ?? 0) + 1);
    for (const [position, line] of content.entries()) {
      if (source !== null) {
        const words = wordString(line.raw);
        if (words.trim() && source.includes(words)) continue;
      }
      const heading = line.kind === 'heading';
      for (const pattern of CHROME_PATTERNS) {
        if (pattern.kind === 'footer' && legal) continue;
        if (pattern.test(line.raw, { heading, level: line.level, siteNames, siteTitles, pageIsSite, sameLevelHeadings: perLevel.get(line.level) ?? 0, atEnd: position >= endFrom })) {
          found.push({ kind: pattern.kind, line: line.raw.trim(), index: line.index });
          break;
        }
      }
      if (!heading && !/^\s*\|/.test(line.raw) && proseWords(line.raw).length >= 3) {
        const key = repetitionKey(line.raw);
        candidates.set(key, [...(candidates.get(key) ?? []), line.index]);
      }
    }
    return { page, found, candidates };
  });

  const counts = new Map<string, number>();
  for (const { candidates } of perPage) for (const c of candidates.keys()) counts.set(c, (counts.get(c) ?? 0) + 1);
  const threshold = Math.max(minPages, Math.ceil(share * pages.length));
  const siteUrls = pages.map((p) => p.url);
  const urlsOf = (line: string) => perPage.filter(({ candidates }) => candidates.has(line)).map(({ page }) => page.url);
  const repeated = new Set([...counts].filter(([line, n]) => n >= threshold && !confined(urlsOf(line), siteUrls, minPages)).map(([line]) => line));
  return { perPage, repeated, threshold, siteUrls, minPages };
}

/** Metric 3 over a site's pages. */
export function chromeLines(pages: ChromePage[], options: { share?: number; minPages?: number; keepTop?: number; siteNames?: string[] } = {}): ChromeResult {
  const keepTop = options.keepTop ?? 12;
  const { perPage, repeated } = chromeFindings(pages, options);

  const byKind: Partial<Record<ChromeKind, number>> = {};
  const lines = new Map<string, ChromeLine>();
  const keys: string[] = [];
  for (const { page, found, candidates } of perPage) {
    const all: { kind: ChromeKind; line: string }[] = [...found];
    for (const c of candidates.keys()) if (repeated.has(c) && !found.some((f) => repetitionKey(f.line) === c)) all.push({ kind: 'repeated', line: c });
    if (all.length === 0) continue;
    keys.push(page.key);
    for (const kind of new Set(all.map((f) => f.kind))) byKind[kind] = (byKind[kind] ?? 0) + 1;
    const seen = new Set<string>();
    for (const f of all) {
      const id = `${f.kind}\u0000${repetitionKey(f.line)}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const entry = lines.get(id) ?? { kind: f.kind, line: repetitionKey(f.line), pages: 0, example: page.url };
      entry.pages += 1;
      lines.set(id, entry);
    }
  }
  return { pages: keys.length, byKind, top: [...lines.values()].sort((a, b) => b.pages - a.pages).slice(0, keepTop), keys };
}
