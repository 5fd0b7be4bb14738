/**
 * Removes page chrome from the main-content container and prepares what remains for Markdown:
 * link and image URLs made absolute, code blocks reduced to text plus language.
 */
import { normalizeCodeBlock } from './code-blocks';
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
      'cookie\\w*', 'consent', 'gdpr', 'skip-?(?:link|to-content|nav)', 'skiplink',
      'copy-?(?:button|btn|code|to-clipboard)', 'copybutton', 'clipboard\\w*',
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
    return !(role && CONTENT_ASIDE_ROLES.has(role)) && !CONTENT_ASIDE.test(namesOf(element));
  }
  if (tag === 'a') {
    const raw = element.textContent ?? '';
    // Permalinks, skip links and edit links are all short; most links need no closer look.
    if (raw.length > MAX_CHROME_LINK_TEXT) return false;
    const href = element.getAttribute('href') ?? '';
    const text = normalizeSpace(raw);
    if (href.startsWith('#') && (PERMALINK_TEXT.has(text.replace(INVISIBLE, '')) && !element.querySelector('img'))) return true;
    if (href.startsWith('#') && SKIP_LINK_TEXT.test(text)) return true;
    return EDIT_LINK_TEXT.test(text);
  }
  return false;
}

/** Whether an element looks like chrome by its names, hiding or kind; subject to the size guard. */
function isLikelyChrome(element: Element, tag: string): boolean {
  if (tag === 'form') return true;
  // A site header; an article's own <header> holds its title and stays.
  if (tag === 'header' && !hasHeading(element)) return true;
  if (element.hasAttribute('hidden') || element.getAttribute('aria-hidden') === 'true') return true;
  const style = element.getAttribute('style');
  if (style && HIDDEN_STYLE.test(style)) return true;
  return CHROME_NAMES.test(namesOf(element));
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

/**
 * Heading permalinks that wrap the heading's text (mdBook's `<h1><a class="header" href="#x">`,
 * many themes' `<a class="anchor" href="#x">`): the text stays, the link to itself goes, so the
 * Markdown heading is plain ("# What Is Ownership?", not "# [What Is Ownership?](…#x)"). Links to
 * other pages inside a heading are content ("## [fs.readFile](fs.html#…)") and stay.
 */
function unwrapSelfLinks(heading: Element): void {
  for (const anchor of [...heading.getElementsByTagName('a')]) {
    if (!(anchor.getAttribute('href') ?? '').startsWith('#')) continue;
    if (PERMALINK_TEXT.has(normalizeSpace(anchor.textContent).replace(INVISIBLE, ''))) anchor.remove();
    else anchor.replaceWith(...anchor.childNodes);
  }
}

const PARENT_LANGUAGE = /(?:^|\s)language-([\w+#.-]+)/i;

/**
 * The language name a theme prints above a code block (VitePress: `<div class="language-bash">
 * <span class="lang">bash</span><pre>`). The fence carries the language; as text it would be a
 * stray "bash" paragraph before every block.
 */
function isLanguageLabel(element: Element): boolean {
  if (element.nextElementSibling?.localName.toLowerCase() !== 'pre') return false;
  const language = PARENT_LANGUAGE.exec((element.parentElement && classOf(element.parentElement)) ?? '')?.[1];
  return language !== undefined && normalizeSpace(element.textContent).toLowerCase() === language.toLowerCase();
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
  walkElements(root, (element) => {
    const tag = tagOf(element);
    if (ALWAYS_REMOVE.has(tag) || isStructuralChrome(element, tag)) return 'remove';
    if (isLikelyChrome(element, tag)) {
      if (rootLength < 0) rootLength = textLength(root);
      if (textLength(element) <= GUARD_SHARE * rootLength) return 'remove';
    }
    if (isLanguageLabel(element)) return 'remove';
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
        separateAdjacentPhrases(element);
        return undefined;
      default:
        if (HEADING.test(tag)) {
          topHeading = Math.min(topHeading, Number(tag.charAt(1)));
          unwrapSelfLinks(element);
        }
        return undefined;
    }
  });
  return { topHeading };
}

// Elements whose text is never page text; removed document-wide before any text is measured
// (a framework's inline JSON can outweigh the article).
const NEVER_TEXT = new Set(['script', 'style', 'template', 'noscript']);

/** Removes scripts, styles, templates and noscript fallbacks from the whole document. */
export function pruneNonText(root: Element): void {
  walkElements(root, (element) => (NEVER_TEXT.has(tagOf(element)) ? 'remove' : tagOf(element) === 'svg' ? 'skip' : undefined));
}
