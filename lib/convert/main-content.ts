/**
 * Finds the element that holds a page's main content. Docs themes mark it in well-known ways;
 * the most specific marked container that still holds most of the text wins, else `<body>`.
 */
import { boundedMemo } from '../bounded-memo';
import { isBar } from './nav-bars';
import { classOf, tagOf, textLengths, walkElements } from './walk';

// Tier 1: containers of specific docs generators. Tier 2: the HTML semantics for main content.
// Tier 3: the usual generic names. A lower tier is only consulted when no higher one qualifies.
const THEME_IDS = new Set([
  'apicontent', // Node.js API docs
  'main-content', // rustdoc and many others
  'content-area', // Mintlify
  'docs-content',
]);
const THEME_CLASSES = new Set([
  'md-content', // MkDocs Material
  'theme-doc-markdown', // Docusaurus
  'vp-doc', // VitePress
  'markdown-body', // GitHub-rendered Markdown
  'markdown-section', // GitBook (legacy)
  'main-page-content', // MDN
  'td-content', // Docsy
  'bd-article', // PyData Sphinx theme
  'sl-markdown-content', // Starlight
  'devsite-article-body', // Google developer docs
  'contentcontainer', // Javadoc (pre-HTML5)
  'docs-content',
  'doc-content',
]);
const BLOCKS = new Set(['div', 'article', 'section', 'main']);
const GENERIC_NAMES = new Set(['content', 'main', 'main-content', 'page-content']);

// The share of the body's text a candidate needs, per tier: a marked docs container is trusted
// even beside a large sidebar; generic names must prove themselves.
const MIN_SHARE = [0, 0.05, 0.15, 0.25];
// Among candidates of a tier, the ones holding at least this share of the largest one's text
// "hold most of the text"; the smallest of those is the most specific.
const HOLDS_MOST = 0.6;

// What a class attribute says for tierOf, as bits: a theme's class, `body`, `markdown`, a generic name.
const THEME_CLASS = 1;
const BODY_CLASS = 2;
const MARKDOWN_CLASS = 4;
const GENERIC_CLASS = 8;
// Pages repeat a few hundred class attributes over thousands of elements (a highlighter's `n`,
// `p`, `o`): each is read once. Kept up to this many, then started afresh.
const MAX_CLASS_ENTRIES = 2000;

const bitsOf = boundedMemo(MAX_CLASS_ENTRIES, (cls: string): number => {
  let bits = 0;
  for (const name of cls.toLowerCase().split(/\s+/)) {
    if (THEME_CLASSES.has(name)) bits |= THEME_CLASS;
    if (name === 'body') bits |= BODY_CLASS;
    if (name === 'markdown') bits |= MARKDOWN_CLASS;
    if (GENERIC_NAMES.has(name)) bits |= GENERIC_CLASS;
  }
  return bits;
});

function tierOf(element: Element): number {
  const tag = tagOf(element);
  // Without attributes only the tag speaks; asked of every element of the page, most of which have none.
  if (!element.hasAttributes()) return tag === 'main' || tag === 'article' ? 2 : 0;
  const id = element.getAttribute('id')?.toLowerCase();
  const cls = classOf(element);
  const classes = cls ? bitsOf(cls) : 0;
  if ((id && THEME_IDS.has(id)) || classes & THEME_CLASS) return 1;
  // Sphinx's basic theme: <div class="body" role="main">.
  // Docusaurus (and others) mark the rendered Markdown with a plain "markdown" class.
  if ((tag === 'div' && classes & BODY_CLASS) || (classes & MARKDOWN_CLASS && BLOCKS.has(tag))) return 1;
  if (tag === 'main' || tag === 'article' || element.getAttribute('role') === 'main') return 2;
  if ((id && GENERIC_NAMES.has(id)) || classes & GENERIC_CLASS) return 3;
  return 0;
}

interface Candidate {
  element: Element;
  tier: number;
  length: number;
}

/**
 * The main-content container of `body` (or `body` itself). `title` (the page's `<title>`) finds
 * the content of an unmarked theme whose page is too short for its prose to outweigh the frame.
 */
export function findMainContent(body: Element, title?: string): Element {
  const candidates: Candidate[] = [];
  walkElements(body, (element) => {
    const tier = tierOf(element);
    if (tier) candidates.push({ element, tier, length: 0 });
    // Navigation and page chrome never hold the main content.
    const tag = tagOf(element);
    return tag === 'nav' || tag === 'footer' || tag === 'svg' ? 'skip' : undefined;
  });
  if (!candidates.length) return densestBlock(body, title);
  const lengths = textLengths(body, candidates.map((c) => c.element));
  const bodyLength = lengths.get(body) ?? 0;
  for (const candidate of candidates) candidate.length = lengths.get(candidate.element) ?? 0;

  for (let tier = 1; tier <= 3; tier++) {
    const minimum = Math.max(1, (MIN_SHARE[tier] ?? 1) * bodyLength);
    const inTier = candidates.filter((c) => c.tier === tier && c.length >= minimum);
    if (!inTier.length) continue;
    const largest = Math.max(...inTier.map((c) => c.length));
    const holders = inTier.filter((c) => c.length >= HOLDS_MOST * largest);
    // Smallest wins; at equal size (main > article, same text) the inner one is more specific.
    const pick = holders.reduce((a, b) => (b.length < a.length || (b.length === a.length && a.element.contains(b.element)) ? b : a));
    // Several disjoint holders (a list of articles) mean no single one is the page's content.
    if (holders.every((c) => c === pick || c.element.contains(pick.element))) return pick.element;
  }
  return densestBlock(body, title);
}

// A block holding at least this share of the page's prose (text outside links) is its content.
const PROSE_SHARE = 0.7;
const DENSITY_BLOCKS = new Set(['div', 'section', 'article', 'main', 'td']);
// A form's controls and their labels are the page's settings ("Member Visibility: Protected,
// Inherited"; a theme picker), not its prose.
const CONTROLS = new Set(['form', 'label', 'select', 'option', 'button', 'textarea', 'input']);

// A block opened by the page's title heading needs this share of the prose to be taken as the content.
const TITLED_SHARE = 0.2;
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const squash = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The outermost block below `body` that opens with a heading saying the page's title (no text
 * before it in the block): a short page's content beside a footer line or a pager of similar
 * length (DocBook's "Last updated …" under a one-line appendix).
 */
function titledBlock(body: Element, title: string): Element | undefined {
  const wanted = squash(title);
  if (!wanted) return undefined;
  let heading: Element | undefined;
  walkElements(body, (element) => {
    if (heading) return 'skip';
    const tag = tagOf(element);
    if (tag === 'nav' || tag === 'footer' || tag === 'header' || tag === 'aside') return 'skip';
    if (!HEADINGS.has(tag)) return undefined;
    const text = squash(element.textContent);
    // The title may add the site's name after the heading's words ("Intro — Project").
    if (text && (text === wanted || wanted.startsWith(`${text} `))) heading = element;
    return 'skip';
  });
  if (!heading) return undefined;
  let best: Element | undefined;
  for (let node: Element | null = heading.parentElement; node && node !== body; node = node.parentElement) {
    const before = node.textContent ?? '';
    const at = before.indexOf(heading.textContent ?? '');
    if (at < 0 || before.slice(0, at).trim() !== '') break;
    if (DENSITY_BLOCKS.has(tagOf(node))) best = node;
  }
  return best;
}

/**
 * For themes that mark nothing: the smallest block that holds most of the page's prose — text
 * outside links, so a sidebar or header full of links never wins — else the block the page's
 * title heading opens when the body or a block beside that heading won and it holds a fair share
 * of the prose, else `<body>`.
 */
function densestBlock(body: Element, title?: string): Element {
  const best = proseBlock(body, title, false);
  // A navigation bar's labels and separators ("Next: …, Previous: …, Up: …") are not prose, yet on
  // a page whose content is a heading and a list of links they outweigh it and the bar wins. When
  // the block chosen is such a bar, choose again without bars.
  return isBarBlock(best) ? proseBlock(body, title, true) : best;
}

/** A block that is a navigation bar, or holds only one. */
function isBarBlock(block: Element): boolean {
  const only = block.childElementCount === 1 ? block.firstElementChild : null;
  return isBar(block, undefined) || (only !== null && !/\S/.test(textOutside(block, only)) && isBar(only, undefined));
}

/** The text of `block` outside its child `child`. */
function textOutside(block: Element, child: Element): string {
  let text = '';
  for (let node = block.firstChild; node; node = node.nextSibling) if (node !== child) text += node.textContent ?? '';
  return text;
}

function proseBlock(body: Element, title: string | undefined, skipBars: boolean): Element {
  const prose = new Map<Element, number>();
  const measure = (element: Element): number => {
    const tag = tagOf(element);
    if (tag === 'a' || tag === 'nav' || tag === 'footer' || tag === 'header' || tag === 'aside' || CONTROLS.has(tag)) return 0;
    if (skipBars && tag === 'p' && isBar(element, undefined)) return 0;
    // A closed <details> shows only its summary until opened (a settings panel folded away).
    const closed = tag === 'details' && !element.hasAttribute('open');
    let total = 0;
    for (let node = element.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 3 && !closed) total += (node.textContent ?? '').trim().length;
      else if (node.nodeType === 1 && (!closed || tagOf(node as Element) === 'summary')) total += measure(node as Element);
    }
    if (DENSITY_BLOCKS.has(tag)) prose.set(element, total);
    return total;
  };
  let all = 0;
  try {
    all = measure(body);
  } catch {
    // Garbage nested deeper than the stack: no block to choose.
    return body;
  }
  if (all === 0) return body;
  let best: Element = body;
  let bestLength = Number.POSITIVE_INFINITY;
  for (const [element, length] of prose) {
    if (length >= PROSE_SHARE * all && length < bestLength) {
      best = element;
      bestLength = length;
    }
  }
  if (title === undefined) return best;
  const titled = titledBlock(body, title);
  if (!titled || (prose.get(titled) ?? 0) < TITLED_SHARE * all) return best;
  // The body, or a block beside the title's (a footer line longer than a title-only page), is not
  // the page's content; a block inside or around the titled one is.
  return best === body || (!best.contains(titled) && !titled.contains(best)) ? titled : best;
}

const OUTSIDE_CONTENT = new Set(['nav', 'aside', 'footer']);

/**
 * The page's own H1 when the theme puts it above the content container rather than in it
 * (Starlight: the title in one panel, the rendered Markdown in the next). Only when the content
 * has no H1 and exactly one H1 comes before it, outside navigation, that is not the site's name;
 * one in a page header must also be in the page's `<title>` (a site banner's H1 is not).
 */
export function headingAbove(body: Element, main: Element, siteNames: string[], headTitle: string | undefined): Element | undefined {
  if (main === body || main.querySelector('h1')) return undefined;
  const found: Element[] = [];
  let reached = false;
  walkElements(body, (element) => {
    if (reached) return 'skip';
    if (element === main) {
      reached = true;
      return 'skip';
    }
    const tag = tagOf(element);
    const role = element.getAttribute('role');
    if (OUTSIDE_CONTENT.has(tag) || role === 'navigation' || role === 'search' || tag === 'svg') return 'skip';
    if (tag === 'h1') found.push(element);
    return tag === 'h1' ? 'skip' : undefined;
  });
  const h1 = found[0];
  if (!reached || found.length !== 1 || !h1) return undefined;
  const text = h1.textContent?.replace(/\s+/g, ' ').trim().toLowerCase() ?? '';
  if (!/[\p{L}\p{N}]/u.test(text) || siteNames.some((name) => name.trim().toLowerCase() === text)) return undefined;
  if (h1.closest('header, [role=banner]') && !headTitle?.replace(/\s+/g, ' ').toLowerCase().includes(text)) return undefined;
  return h1;
}
