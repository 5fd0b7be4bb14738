/**
 * Navigation bars at the top or bottom of a page's content, whatever builds them: a GNU Texinfo
 * node bar ("Next: Reentrant C Scanners, Previous: Performance, Up: flex [Contents][Index]"),
 * "« Previous | Contents | Next »", a row of breadcrumbs. Told by shape, not by names: a short
 * inline block at the very edge of the content made of links to other pages, separators and
 * labels ("Next:"), with at most one other word. Lists are never bars (an index page's list of
 * links is its content), nor is a block that is all of the content.
 */
import { normalizeSpace, tagOf } from './walk';

// A bar is short; a paragraph of prose with links is longer than this or has other words.
const MAX_BAR_CHARS = 400;
// Words outside links that are neither labels nor separators: "Install" at the end of breadcrumbs.
const MAX_OTHER_WORDS = 1;
// Blocks that are content by their kind, never a bar, and that no bar holds.
const CONTENT_BLOCKS = new Set(['ul', 'ol', 'dl', 'li', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'figure', 'img', 'form', 'table']);
// Elements a bar can be, or be wrapped in.
const BAR_TAGS = new Set(['p', 'div', 'span', 'section', 'header', 'center', 'small']);
const WRAPPERS = new Set(['div', 'section', 'article', 'main']);
const MAX_DEPTH = 6;
const MAX_BAR_ELEMENTS = 60;
// Characters that separate links in a bar: punctuation, brackets, arrows, bullets.
const SEPARATORS = /[\s\p{P}\p{S}]+/gu;
// Separators that only navigation uses (a sentence's own punctuation does not count): arrows,
// chevrons, guillemets, bars, bullets, brackets.
const NAV_SEPARATOR = /[|«»‹›<>←→↑↓⇐⇒⟵⟶·•/[\]]/u;

/** Whether there is a non-blank text node under `node`: stops at the first one. */
function hasText(node: Node): boolean {
  const stack: Node[] = [node];
  for (let current = stack.pop(); current; current = stack.pop()) {
    if (current.nodeType === 3) {
      if (/\S/.test(current.nodeValue ?? '')) return true;
      continue;
    }
    for (let child = current.firstChild; child; child = child.nextSibling) stack.push(child);
  }
  return false;
}

/** The first (or last) child that is an element with text, or undefined when a text node with words comes first. */
function edgeChild(parent: Element, last: boolean): Element | undefined {
  for (let node = last ? parent.lastChild : parent.firstChild; node; node = last ? node.previousSibling : node.nextSibling) {
    if (node.nodeType === 3) {
      if (hasText(node)) return undefined;
      continue;
    }
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    if (tagOf(element) === 'hr' || tagOf(element) === 'br' || !hasText(element)) continue;
    return element;
  }
  return undefined;
}

/**
 * The block's links, when it is small and holds only inline content (no list, heading, code or
 * other content block); undefined otherwise. Bounded: a bar has a few dozen elements at most.
 */
function inlineLinks(block: Element): Element[] | undefined {
  const links: Element[] = [];
  let count = 0;
  const stack: Element[] = [block];
  for (let element = stack.pop(); element; element = stack.pop()) {
    if (++count > MAX_BAR_ELEMENTS || (element !== block && CONTENT_BLOCKS.has(tagOf(element)))) return undefined;
    if (tagOf(element) === 'a') links.push(element);
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) stack.push(child);
  }
  return links;
}

/** Whether the block reads as a navigation bar: links to other pages, labels and separators. */
export function isBar(block: Element, pageUrl: string | undefined): boolean {
  if (!BAR_TAGS.has(tagOf(block))) return false;
  const anchors = inlineLinks(block);
  if (!anchors) return false;
  const text = normalizeSpace(block.textContent);
  if (!text || text.length > MAX_BAR_CHARS) return false;
  const links = anchors.filter((a) => {
    const href = a.getAttribute('href');
    if (!href || href.startsWith('#') || !hasText(a)) return false;
    // A link to a place on this same page is a table of contents, not a way to another page.
    return !pageUrl || href.split('#')[0] !== pageUrl.split('#')[0];
  });
  if (!links.length) return false;
  // What is outside the links: labels ("Next:"), separators, and at most one other word. Read off
  // the text nodes, not by cutting each link's text out of the block's: "Up: Debugging" would
  // otherwise be cut out of "Next: Debugging Aids" and leave "Aids" behind. A link to this same
  // page ("[Contents]" on the contents page) is neither a way elsewhere nor a word.
  const outside = textOutsideLinks(block);
  // A label is one word and a colon: "Next:", "Up:".
  const labelled = outside.replace(/(?<![\p{L}\p{N}])\p{L}[\p{L}\p{N}]{0,15}:/gu, ' ');
  const hasLabel = labelled !== outside;
  const words = labelled.split(SEPARATORS).filter((word) => /[\p{L}\p{N}]/u.test(word));
  // Labels and words together make a sentence ("Note: see X"), not a bar.
  if (words.length > (hasLabel ? 0 : MAX_OTHER_WORDS)) return false;
  // One link alone is a bar only with a label or a separator to say so ("Next: X", "X »").
  return links.length >= 2 || hasLabel || NAV_SEPARATOR.test(outside);
}

/** The block's text outside its links (elements `a` with an `href`), as one line. */
function textOutsideLinks(block: Element): string {
  const parts: string[] = [];
  const stack: Node[] = [block];
  for (let current = stack.pop(); current; current = stack.pop()) {
    if (current.nodeType === 3) {
      parts.push(current.nodeValue ?? '');
      continue;
    }
    if (current.nodeType !== 1) continue;
    const element = current as Element;
    if (element !== block && tagOf(element) === 'a' && element.hasAttribute('href')) {
      parts.push(' ');
      continue;
    }
    // Children go on the stack last first, so the text comes off it in reading order.
    const children: Node[] = [];
    for (let child = element.firstChild; child; child = child.nextSibling) children.push(child);
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as Node);
  }
  return normalizeSpace(parts.join(''));
}

/** Whether `root` has words outside `part`. */
function hasTextBesides(root: Element, part: Element): boolean {
  const stack: Node[] = [root];
  for (let current = stack.pop(); current; current = stack.pop()) {
    if (current === part) continue;
    if (current.nodeType === 3) {
      if (/[\p{L}\p{N}]/u.test(current.nodeValue ?? '')) return true;
      continue;
    }
    for (let child = current.firstChild; child; child = child.nextSibling) stack.push(child);
  }
  return false;
}

/** Removes an `<hr>` that sat between a removed bar and the content. */
function dropRule(next: Element | null): void {
  if (next && tagOf(next) === 'hr') next.remove();
}

/**
 * Removes a navigation bar from the top and from the bottom of `root`, looking through wrappers
 * at the edge (Texinfo: `div.chapter-level-extent > div.nav-panel > p`). `pageUrl` tells links
 * to this page's own sections from links to other pages.
 */
export function removeNavigationBars(root: Element, pageUrl: string | undefined): void {
  for (const last of [false, true]) {
    let parent: Element = root;
    for (let depth = 0; depth < MAX_DEPTH; depth++) {
      const edge = edgeChild(parent, last);
      if (!edge) break;
      if (isBar(edge, pageUrl)) {
        // A bar is never the whole content: something must stay besides it.
        if (!hasTextBesides(root, edge)) break;
        const next = last ? edge.previousElementSibling : edge.nextElementSibling;
        edge.remove();
        dropRule(next);
        break;
      }
      if (!WRAPPERS.has(tagOf(edge))) break;
      parent = edge;
    }
  }
}
