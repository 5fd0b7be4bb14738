/**
 * Rewrites applied to content elements while cleaning: absolute link and image URLs, and a few
 * generator habits that read badly once CSS is gone.
 */
import { absoluteUrl, type HrefCache, isHttp, linkTarget } from './urls';
import { classOf, type Visit } from './walk';

/**
 * Node.js's doc generator links every parameter type (`<a class="type">&lt;string&gt;</a>`),
 * mostly to MDN's pages on JavaScript primitives: ~8 000 links in its API docs, each adding a
 * dozen URL tokens to say "string". The type name alone says it (the Markdown sources write
 * `{string}`), so these links are reduced to their text.
 */
function isTypeAnnotation(anchor: Element): boolean {
  if (classOf(anchor) !== 'type') return false;
  const text = anchor.textContent ?? '';
  return text.startsWith('<') && text.endsWith('>');
}

/** Makes an image's source absolute (http(s) only), preferring a lazy loader's real source. */
export function absolutizeImage(img: Element, baseUrl: string | undefined): void {
  const src = img.getAttribute('src');
  // Lazy loaders put a placeholder (often a data: URI) in src and the real image in data-src.
  const lazy = img.getAttribute('data-src') ?? img.getAttribute('data-original');
  const chosen = lazy && (!src || src.startsWith('data:')) ? lazy : src;
  const url = absoluteUrl(chosen, baseUrl);
  // data: images would put kilobytes of base64 into the Markdown; the alt text stands in for them.
  if (url && isHttp(url)) img.setAttribute('src', url.href);
  else img.removeAttribute('src');
}

/**
 * Makes a link's target absolute, or drops the target (keeping the text) when it is not a
 * linkable URL (`javascript:`, garbage). Type annotations lose their link altogether.
 * `targets` remembers each href's target across the anchors of one page; `pages` holds the page
 * URLs the page's other steps already resolved, which are the targets of hrefs without a fragment.
 */
export function rewriteLink(anchor: Element, baseUrl: string | undefined, targets = new Map<string, string | undefined>(), pages?: HrefCache): Visit {
  if (isTypeAnnotation(anchor)) {
    anchor.replaceWith(anchor.textContent ?? '');
    return 'skip';
  }
  const href = anchor.getAttribute('href');
  let target = href === null ? undefined : targets.get(href);
  // One lookup for an href seen before; `has` only tells one remembered as unlinkable from a new one.
  if (href !== null && target === undefined && !targets.has(href)) {
    // http(s) and no fragment: the page URL is the Markdown target as well.
    const page = href.includes('#') ? undefined : pages?.get(href);
    if (page) target = page;
    else {
      target = linkTarget(href, baseUrl);
      targets.set(href, target);
    }
  }
  if (target) anchor.setAttribute('href', target);
  else anchor.removeAttribute('href');
  return undefined;
}

/**
 * `<span>Added in: v9.0.0</span><span>Removed in: v12.12.0</span>` (Node.js) shows as two lines
 * through CSS and as "v9.0.0Removed" as text. Two adjacent spans that each hold a phrase (text
 * with a space) get a space between them; spans that split a word, as highlighters do, do not.
 */
export function separateAdjacentPhrases(span: Element): void {
  const next = span.nextSibling;
  if (!next || next.nodeName !== 'SPAN' || !span.parentNode) return;
  const first = span.textContent ?? '';
  const second = next.textContent ?? '';
  if (/\s$/.test(first) || /^\s/.test(second) || !/\S\s+\S/.test(first) || !/\S\s+\S/.test(second)) return;
  span.parentNode.insertBefore(span.ownerDocument.createTextNode(' '), next);
}
