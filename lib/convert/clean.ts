/**
 * Removes page chrome from the main-content container and prepares what remains for Markdown:
 * link and image URLs made absolute, code blocks reduced to text plus language.
 */
import { boundedMemo } from '../bounded-memo';
import { normalizeCodeBlock } from './code-blocks';
import { removeNavigationBars } from './nav-bars';
import { absolutizeImage, rewriteLink, separateAdjacentPhrases } from './rewrite';
import type { HrefCache } from './urls';
import { classOf, namesOf, normalizeSpace, tagOf, textLength, walkElements } from './walk';

// Never content, whatever their names say.
const ALWAYS_REMOVE = new Set([
  'script', 'style', 'noscript', 'template', 'iframe', 'frame', 'object', 'embed', 'canvas',
  'button', 'input', 'select', 'textarea', 'svg', 'link', 'meta', 'dialog',
  // Head elements end up in the body of head-less pages and fragments.
  'title', 'base', 'head',
]);
// Page structure that is chrome by definition (aside and header have exceptions below).
const CHROME_TAGS = new Set(['nav', 'footer']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'menubar', 'toolbar']);
// Class and id names of chrome, matched as whole hyphen/underscore-separated words.
const CHROME_NAMES = new RegExp(
  '(?:^|[\\s_-])(?:' +
    [
      'breadcrumbs?', 'pagination(?:-nav)?', 'pager', 'prev-?next', 'page-?nav(?:igation)?',
      'cookie[a-z0-9]*', 'consent', 'gdpr', 'skip-?(?:link|to-content|nav)', 'skiplink',
      'copy-?(?:button|btn|code|to-clipboard)', 'copybutton', 'clipboard[a-z0-9]*',
      'headerlink', 'header-?anchor', 'heading-?anchor', 'hash-?link', 'anchorjs-link', 'permalink',
      'edit-?(?:this-?page|page|link|on-github|button)', 'sidebar', 'toc', 'table-of-contents',
      'linenos?', 'line-numbers-rows', 'sr-only', 'visually-?hidden', 'screen-reader-text',
    ].join('|') +
    ')(?:$|[\\s_-])',
);
// Asides that carry content: footnotes (Sphinx 5+ renders them as <aside>), notes, admonitions.
const CONTENT_ASIDE = /footnote|note|admonition|callout|tip|warning|topic/;
const CONTENT_ASIDE_ROLES = new Set(['note', 'doc-footnote', 'doc-endnotes', 'doc-note']);
// Docusaurus writes its heading permalinks as a zero-width space.
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/g;
const PERMALINK_TEXT = new Set(['', '¶', '#', '§', '🔗', '⚓', '∞']);
const EDIT_LINK_TEXT =
  /^(?:edit (?:this )?(?:page|doc(?:ument)?|file)?(?: on (?:github|gitlab|bitbucket))?|edit on (?:github|gitlab|bitbucket)|view (?:page )?source|improve this (?:page|doc)|suggest an? edit|show source)$/i;
// A link whose whole text is "source" goes to the member's source listing (rustdoc's "source",
// Sphinx viewcode's "[source]"): the listing is a page of its own, the link a control beside the member.
const SOURCE_LINK_TEXT = /^\[?(?:source|src)\]?$/i;
// The label of a control that only opens or closes what it sits on ("Expand description", "Show
// more"): a widget's caption, shown while the content is hidden. A summary that names its content
// ("Example: …", "Note") is a title and stays.
const TOGGLE_LABEL = /^[[(]?[+−-]?\s*(?:expand|collapse|show|hide|toggle)(?: (?:all|more|less|details?|description|contents?|code|everything))?[\])]?$/i;
const MAX_CHROME_LINK_TEXT = 64;
const SKIP_LINK_TEXT = /^skip to |^skip navigation/i;
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;
const HEADING = /^h[1-6]$/;
// A guarded removal is cancelled when the element holds more than this share of the content:
// names like "has-sidebar" sit on layout wrappers too, and some pages hide content until JS runs.
const GUARD_SHARE = 0.5;

/** Whether an element is chrome whatever its size (structure, roles, permalinks, edit links). */
function isStructuralChrome(element: Element, tag: string): boolean {
  if (CHROME_TAGS.has(tag)) return true;
  const role = element.getAttribute('role');
  if (role && CHROME_ROLES.has(role)) return true;
  if (tag === 'aside') {
    return !(role && CONTENT_ASIDE_ROLES.has(role)) && !CONTENT_ASIDE.test(namesOf(element)) && !isMarginalNote(element);
  }
  if (tag === 'a') {
    const raw = element.textContent ?? '';
    // Permalinks, skip links and edit links are all short; most links need no closer look.
    if (raw.length > MAX_CHROME_LINK_TEXT) return false;
    const href = element.getAttribute('href') ?? '';
    const text = normalizeSpace(raw);
    if (href.startsWith('#') && (PERMALINK_TEXT.has(text.replace(INVISIBLE, '')) && !element.querySelector('img'))) return true;
    if (href.startsWith('#') && SKIP_LINK_TEXT.test(text)) return true;
    return EDIT_LINK_TEXT.test(text) || isSourceControl(element, text);
  }
  if (tag === 'summary') return TOGGLE_LABEL.test(normalizeSpace(element.textContent));
  return false;
}

/**
 * A "source" link set beside a member's signature, not one said in a sentence ("get the source"),
 * a name in code ("see `source` below") or a word of a table cell (Haddock's instance rows).
 */
function isSourceControl(anchor: Element, text: string): boolean {
  return SOURCE_LINK_TEXT.test(text) && !anchor.querySelector('code') && !anchor.closest('p, li, td, th');
}

// Whether a class attribute names chrome, tested once per distinct value: a page repeats a few
// hundred class attributes over thousands of elements, and the pattern tries every position.
const MAX_CLASS_ENTRIES = 2000;
const namesChrome = boundedMemo(MAX_CLASS_ENTRIES, (cls: string): boolean => CHROME_NAMES.test(cls.toLowerCase()));

/** Whether an element looks like chrome by its names, hiding or kind; subject to the size guard. */
function isLikelyChrome(element: Element, tag: string): boolean {
  if (tag === 'form') return true;
  // A site header; an article's own <header> holds its title and stays.
  if (tag === 'header' && !hasHeading(element)) return true;
  // The rest reads attributes, which most content elements (p, li, em, code) have none of.
  if (!element.hasAttributes()) return false;
  if (element.hasAttribute('hidden')) return true;
  // aria-hidden marks decoration (icons, permalink marks), which never holds a heading; a theme
  // that sets it on a heading's wrapper still shows the heading.
  if (element.getAttribute('aria-hidden') === 'true' && !hasHeading(element)) return true;
  const style = element.getAttribute('style');
  if (style && HIDDEN_STYLE.test(style)) return true;
  const cls = classOf(element);
  if (cls && namesChrome(cls)) return !isMenuOfPages(element, cls.toLowerCase()) && !wrapsHeading(element, cls.toLowerCase());
  const id = element.getAttribute('id');
  return !!id && CHROME_NAMES.test(id.toLowerCase()) && !namesItsHeading(element, id) && !isMenuOfPages(element, id.toLowerCase());
}

// Names of heading permalinks. An element so named that holds a heading is the heading's wrapper
// (`<div class="heading-anchor-wrapper"><h2>…</h2><a href="#…">#</a></div>`), not the permalink.
const PERMALINK_NAME = /(?:^|[\s_-])(?:headerlink|header-?anchor|heading-?anchor|hash-?link|anchorjs-link|permalink|anchor)(?=$|[\s_-])/;
const PERMALINK_NAMES = /(?:^|[\s_-])(?:headerlink|header-?anchor|heading-?anchor|hash-?link|anchorjs-link|permalink|anchor)(?=$|[\s_-])/g;

function wrapsHeading(element: Element, names: string): boolean {
  return PERMALINK_NAME.test(names) && !CHROME_NAMES.test(names.replace(PERMALINK_NAMES, ' ')) && hasHeading(element);
}

const TOC_NAME = /(?:^|[\s_-])(?:toc|table-of-contents)(?=$|[\s_-])/;
const TOC_NAMES = /(?:^|[\s_-])(?:toc|table-of-contents)(?=$|[\s_-])/g;

/**
 * A contents list named like a page's table of contents that leads to other pages rather than to
 * places on this one (Texinfo's mini-toc of a chapter's sections), or one entry of it (Texinfo's
 * start page names each link of its whole contents `toc-…`): a menu of pages, which on an index
 * page, a manual's start page, is the content itself.
 */
function isMenuOfPages(element: Element, names: string): boolean {
  if (!TOC_NAME.test(names)) return false;
  if (CHROME_NAMES.test(names.replace(TOC_NAMES, ' '))) return false;
  let toPages = 0;
  let toPlaces = 0;
  const anchors = tagOf(element) === 'a' ? [element] : element.getElementsByTagName('a');
  for (const anchor of anchors) {
    const href = anchor.getAttribute('href');
    if (href === null) continue;
    if (href.startsWith('#')) toPlaces++;
    else toPages++;
  }
  return toPages > 0 && toPages >= toPlaces;
}

const alphanumeric = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Whether `id` is the anchor of the element's own heading: generators derive a section's id from
 * its title (`<section id="cookies"><h2>Cookies`), so a section about cookies, sidebars or a table
 * of contents carries a chrome-sounding id and is still content.
 */
function namesItsHeading(element: Element, id: string): boolean {
  if (HEADING.test(tagOf(element))) return true;
  const heading = element.querySelector('h1, h2, h3, h4, h5, h6');
  if (!heading) return false;
  const slug = alphanumeric(id);
  const title = alphanumeric(heading.textContent ?? '');
  return slug.length > 0 && title.length > 0 && (title.startsWith(slug) || slug.startsWith(title));
}

// A note in the margin of a member: a line or two, a few links ("Inherited from Base.code",
// "Defined in typings/index.d.ts:625": TypeDoc's notes on each member, which its own Markdown
// output keeps too). A sidebar has more links, or headings, or navigation.
const MAX_NOTE_CHARS = 200;
const MAX_NOTE_LINKS = 3;

/** A short aside without headings, navigation or a list of links: part of what it sits beside, not a sidebar. */
function isMarginalNote(element: Element): boolean {
  const text = normalizeSpace(element.textContent ?? '');
  if (!text || text.length > MAX_NOTE_CHARS) return false;
  if (element.getElementsByTagName('a').length > MAX_NOTE_LINKS || element.getElementsByTagName('nav').length > 0) return false;
  return !hasHeading(element);
}

function hasHeading(element: Element): boolean {
  let found = false;
  walkElements(element, (child) => {
    if (found) return 'skip';
    if (HEADING.test(tagOf(child))) found = true;
    return undefined;
  });
  return found;
}

// Letters or digits: what makes text words rather than a permalink mark or an icon's name.
const WORDS = /[\p{L}\p{N}]/u;
const hasWords = (text: string | null | undefined): boolean => WORDS.test((text ?? '').replace(INVISIBLE, ''));

/** The fragment of an href (`#x`, `page.html#x`, `https://…/page/#x`), or ''. */
function fragmentOf(href: string): string {
  const at = href.indexOf('#');
  if (at < 0) return '';
  try {
    return decodeURIComponent(href.slice(at + 1));
  } catch {
    return href.slice(at + 1);
  }
}

/** The ids a link to this heading can name: its own, its descendants', and its section's when the section opens with it. */
function headingIds(heading: Element): Set<string> {
  const ids = new Set<string>();
  const add = (element: Element | null): void => {
    const id = element?.getAttribute('id');
    if (id) ids.add(id);
  };
  add(heading);
  for (const element of heading.querySelectorAll('[id]')) add(element);
  const parent = heading.parentElement;
  if (parent && parent.firstElementChild === heading) add(parent);
  return ids;
}

/** Whether a link points at the heading it decorates: `#x`, or any path ending in `#x` where x is the heading's id. */
function isSelfLink(anchor: Element, ids: Set<string>): boolean {
  const href = anchor.getAttribute('href');
  if (href === null) return false;
  if (href.startsWith('#')) return true;
  const fragment = fragmentOf(href);
  return fragment !== '' && ids.has(fragment);
}

/**
 * A heading keeps its text; only its decoration goes: permalinks before or after the text (`#`,
 * ¶, §, 🔗, an icon, an empty or aria-hidden link), links to itself (unwrapped, so the Markdown
 * heading is plain: "# What Is Ownership?", not "# [What Is Ownership?](…#x)"), and hidden or
 * chrome-named parts as long as words remain. Links to other pages inside a heading are content
 * ("## [fs.readFile](fs.html#…)") and stay. The heading's subtree is finished here.
 */
function cleanHeading(heading: Element, rewrite: (anchor: Element) => void, baseUrl: string | undefined): void {
  const ids = headingIds(heading);
  for (const anchor of [...heading.getElementsByTagName('a')]) {
    if (!anchor.parentNode) continue;
    const self = isSelfLink(anchor, ids);
    const decorative = self || anchor.getAttribute('aria-hidden') === 'true';
    const mark = PERMALINK_TEXT.has(normalizeSpace(anchor.textContent).replace(INVISIBLE, '')) && !anchor.querySelector('img[alt]');
    // A mark is decoration only beside the heading's own text ("::" or "#" alone is the heading).
    if (decorative && mark && /\S/.test(textWithout(heading, anchor))) anchor.remove();
    else if (decorative) anchor.replaceWith(...anchor.childNodes);
  }
  separateHeadingBadge(heading);
  walkElements(heading, (element) => {
    const tag = tagOf(element);
    if (ALWAYS_REMOVE.has(tag)) return 'remove';
    const hidden = element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('hidden') || CHROME_NAMES.test(namesOf(element));
    // Hidden parts go as long as the heading keeps its words (or, without words, some text).
    const rest = textWithout(heading, element);
    if (hidden && (hasWords(rest) || (!hasWords(element.textContent) && /\S/.test(rest)))) return 'remove';
    if (tag === 'a') rewrite(element);
    else if (tag === 'img') absolutizeImage(element, baseUrl);
    return undefined;
  });
}

/** A link that goes somewhere (a card to another page), not a permalink or decoration. */
function isLinkToOtherContent(anchor: Element): boolean {
  const href = anchor.getAttribute('href');
  return !!href && !href.startsWith('#') && anchor.getAttribute('aria-hidden') !== 'true' && !isSiblingPermalink(anchor) && !CHROME_NAMES.test(namesOf(anchor));
}

/**
 * Markdown cannot put a heading inside a link, and the link's text would flatten it. A link that
 * holds a heading gives way: its content stays in place and, when it goes to another page (a
 * card), the first heading links there instead ("### [Guide](guide.html)").
 */
function keepHeadingOutOfLink(anchor: Element): void {
  if (!anchor.parentNode) return;
  const href = anchor.getAttribute('href');
  const heading = anchor.querySelector('h1, h2, h3, h4, h5, h6');
  if (href && heading && !heading.querySelector('a')) {
    const link = anchor.ownerDocument.createElement('a');
    link.setAttribute('href', href);
    link.append(...heading.childNodes);
    heading.append(link);
  }
  anchor.replaceWith(...anchor.childNodes);
}

/** The text of `root` without `part`'s. */
function textWithout(root: Element, part: Element): string {
  const all = root.textContent ?? '';
  const own = part.textContent ?? '';
  const at = all.indexOf(own);
  return at < 0 ? all : all.slice(0, at) + all.slice(at + own.length);
}

/**
 * A link next to a heading that points at it (Starlight: `<div><h2 id="x">…</h2><a href="#x">`),
 * or a self-link holding only marks: the heading's decoration, outside the heading element.
 */
function isSiblingPermalink(anchor: Element): boolean {
  const parent = anchor.parentElement;
  if (!parent) return false;
  // Asked of every link: most sit among no heading, and their fragment need not be decoded.
  let fragment: string | undefined;
  for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
    if (child === anchor || !HEADING.test(tagOf(child))) continue;
    fragment ??= fragmentOf(anchor.getAttribute('href') ?? '');
    if (!fragment) return false;
    if (headingIds(child).has(fragment)) return true;
  }
  return false;
}

const PARENT_LANGUAGE = /(?:^|\s)language-([\w+#.-]+)/i;

/**
 * The language name a theme prints above a code block (VitePress: `<div class="language-bash">
 * <span class="lang">bash</span><pre>`). The fence carries the language; as text it would be a
 * stray "bash" paragraph before every block.
 */
function isLanguageLabel(element: Element): boolean {
  const next = element.nextElementSibling;
  if (!next || tagOf(next) !== 'pre') return false;
  const language = PARENT_LANGUAGE.exec((element.parentElement && classOf(element.parentElement)) ?? '')?.[1];
  return language !== undefined && normalizeSpace(element.textContent).toLowerCase() === language.toLowerCase();
}

// A separator between two controls ("1.0.0 · source"), left dangling when the last one goes.
const TRAILING_SEPARATOR = /\s[·•|]\s*$/;

/** Takes the separator before a removed link away when nothing follows the link. */
function dropDanglingSeparator(anchor: Element): void {
  const next = anchor.nextSibling;
  if (next && !(next.nodeType === 3 && !/\S/.test(next.nodeValue ?? ''))) return;
  const previous = anchor.previousSibling;
  if (previous?.nodeType === 3 && TRAILING_SEPARATOR.test(previous.nodeValue ?? '')) previous.nodeValue = (previous.nodeValue ?? '').replace(TRAILING_SEPARATOR, '');
}

const ONE_LETTER = /^\p{L}$/u;
const ENDS_IN_WORD = /[\p{L}\p{N}]$/u;

/**
 * A single letter set as an icon right before a link (a tree's "C" for class, "S" for struct:
 * `<span class="icon">C</span><a>array_list</a>`), which CSS draws as a badge and text glues to
 * the name ("Carray_list"). It says the entry's kind, so it stays, set apart from the name. A
 * letter that is a word of the sentence has a space before the link or sits after a word with
 * none between.
 */
function isIconLetter(element: Element): boolean {
  const next = element.nextSibling;
  if (next?.nodeType !== 1 || tagOf(next as Element) !== 'a') return false;
  if (!ONE_LETTER.test(element.textContent ?? '') || element.querySelector('a, img')) return false;
  const previous = element.previousSibling;
  return !(previous && previous.nodeType === 3 && ENDS_IN_WORD.test(previous.nodeValue ?? ''));
}

/**
 * A badge set after a heading's name (`<h1>Variable program<code>Const</code></h1>`: a kind or
 * modifier label that CSS draws apart) is glued to the name as text ("programConst"). A word that
 * ends the heading in code directly after a word gets a space; code that starts with punctuation
 * (`Iterator<T>`) or sits inside the text (`` `fold`s ``) stays as it is.
 */
function separateHeadingBadge(heading: Element): void {
  const badge = heading.lastElementChild;
  if (!badge || badge.nextSibling || tagOf(badge) !== 'code' || !/^\p{L}/u.test(badge.textContent ?? '')) return;
  const previous = badge.previousSibling;
  if (previous && previous.nodeType === 3 && ENDS_IN_WORD.test(previous.nodeValue ?? '')) heading.insertBefore(heading.ownerDocument.createTextNode(' '), badge);
}

const READ_MORE = /^(?:read more|continue reading)\s*(?:…|\.{3}|»|›|→)?$/i;
const MAX_EXCERPT_CHARS = 300;

/**
 * A short paragraph that ends in "Read more" linking to a definition on another page (`page#item`)
 * is that definition's excerpt, copied here by the generator (an inherited or implemented member
 * showing the summary of the member it stands for). The text is the other page's, and repeats on
 * every page that inherits it; the member's own heading stays. A "Read more" to a whole page (a
 * blog index's teaser) or to a place on this page is left alone, and so is a definition that goes
 * on to point at details elsewhere ("… must be aligned. [More](layout.html#size).": a glossary's own
 * text, with no truncation link ending it).
 */
function isExcerptOfOtherPage(paragraph: Element, baseUrl: string | undefined): boolean {
  const last = paragraph.lastElementChild;
  if (!last || tagOf(last) !== 'a' || (last.nextSibling?.textContent ?? '').trim() !== '') return false;
  if (!READ_MORE.test(normalizeSpace(last.textContent ?? ''))) return false;
  if (normalizeSpace(paragraph.textContent ?? '').length > MAX_EXCERPT_CHARS) return false;
  const href = last.getAttribute('href') ?? '';
  if (href.startsWith('#') || fragmentOf(href) === '') return false;
  try {
    const target = new URL(href, baseUrl);
    const here = baseUrl ? new URL(baseUrl) : null;
    return !here || `${target.origin}${target.pathname}` !== `${here.origin}${here.pathname}`;
  } catch {
    return false;
  }
}

/** What cleaning learned about the content on the way. */
export interface CleanResult {
  /** The highest heading level present (1 for h1), or 7 when there is no heading. */
  topHeading: number;
}

/**
 * Strips chrome from `root` in place and rewrites what stays for conversion. `baseUrl` resolves
 * relative links and images; unresolvable or script links lose their target and keep their text.
 */
export function cleanContent(root: Element, baseUrl: string | undefined, pages: HrefCache = new Map()): CleanResult {
  let rootLength = -1;
  let topHeading = 7;
  // Content repeats its link targets (a function's every mention); each href is resolved once.
  const targets = new Map<string, string | undefined>();
  // Links around a heading (a card, a permalink wrapped round it): see keepHeadingsOutOfLinks.
  const wrappers: Element[] = [];
  const rewrite = (anchor: Element): void => void rewriteLink(anchor, baseUrl, targets, pages);
  walkElements(root, (element) => {
    const tag = tagOf(element);
    if (HEADING.test(tag)) {
      // Never removed for its names or hiding: a heading is content; its decoration is not.
      topHeading = Math.min(topHeading, Number(tag.charAt(1)));
      cleanHeading(element, rewrite, baseUrl);
      return 'skip';
    }
    if (tag === 'a' && hasHeading(element)) {
      if (isLinkToOtherContent(element)) rewrite(element);
      else element.removeAttribute('href');
      wrappers.push(element);
      return undefined;
    }
    if (ALWAYS_REMOVE.has(tag) || isStructuralChrome(element, tag) || (tag === 'a' && isSiblingPermalink(element))) {
      if (tag === 'a') dropDanglingSeparator(element);
      return 'remove';
    }
    if (isLikelyChrome(element, tag)) {
      if (rootLength < 0) rootLength = textLength(root);
      if (textLength(element) <= GUARD_SHARE * rootLength) return 'remove';
    }
    if (isLanguageLabel(element)) return 'remove';
    if (tag === 'p' && isExcerptOfOtherPage(element, baseUrl)) return 'remove';
    switch (tag) {
      case 'a':
        return rewriteLink(element, baseUrl, targets, pages);
      case 'img':
        absolutizeImage(element, baseUrl);
        return undefined;
      case 'pre':
        normalizeCodeBlock(element);
        return 'skip';
      case 'span':
      case 'i':
        if (isIconLetter(element)) element.after(element.ownerDocument.createTextNode(' '));
        else if (tag === 'span') separateAdjacentPhrases(element);
        return undefined;
      default:
        return undefined;
    }
  });
  for (const anchor of wrappers) keepHeadingOutOfLink(anchor);
  removeNavigationBars(root, baseUrl);
  return { topHeading };
}

// Elements whose text is never page text; removed document-wide before any text is measured
// (a framework's inline JSON can outweigh the article).
const NEVER_TEXT = new Set(['script', 'style', 'template', 'noscript']);

/**
 * Removes scripts, styles, templates and noscript fallbacks from the whole document. `onAnchor`,
 * when given, is shown every `<a>` element that stays, `root` included, in document order: the
 * `getElementsByTagName('a')` of `root` afterwards, without a second walk over the document.
 */
export function pruneNonText(root: Element, onAnchor?: (anchor: Element) => void): void {
  if (!onAnchor) {
    walkElements(root, (element) => (NEVER_TEXT.has(tagOf(element)) ? 'remove' : tagOf(element) === 'svg' ? 'skip' : undefined));
    return;
  }
  // getElementsByTagName matches the name as the parser wrote it (lower case in HTML).
  if (root.localName === 'a') onAnchor(root);
  walkElements(root, (element) => {
    const tag = tagOf(element);
    if (NEVER_TEXT.has(tag)) return 'remove';
    if (tag === 'svg') {
      // Nothing inside an <svg> is removed: its links are all there is to find in it.
      for (const anchor of element.getElementsByTagName('a')) onAnchor(anchor);
      return 'skip';
    }
    if (element.localName === 'a') onAnchor(element);
    return undefined;
  });
}
