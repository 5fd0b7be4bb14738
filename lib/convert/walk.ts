/**
 * Small DOM helpers shared by the conversion steps. They walk forward only
 * (`firstElementChild` / `nextElementSibling`): in linkedom the backward accessors scan sibling
 * lists and made a whole-page walk ten times slower.
 */
import { isSpaceCode } from '../whitespace';

/** What a visitor wants done with the element it was shown. */
export type Visit = void | 'skip' | 'remove';

/**
 * Visits every element under `root` (not `root` itself) in document order. The visitor may
 * return `'skip'` to leave the element's subtree unvisited, or `'remove'` to detach it; it may
 * also replace or detach the element itself (then it must return `'skip'`), but not touch what
 * follows it.
 * Iterative, because garbage input can nest deeper than the call stack.
 */
export function walkElements(root: Element, visit: (element: Element) => Visit): void {
  let node: Element | null = root.firstElementChild;
  while (node) {
    // Taken before the visit, which may detach or replace the element.
    const sibling = node.nextElementSibling;
    const parent = node.parentElement;
    const action = visit(node);
    let next = action ? null : node.firstElementChild;
    if (!next) next = sibling ?? (parent && parent !== root ? nextOutside(parent, root) : null);
    if (action === 'remove') node.remove();
    node = next;
  }
}

/** The next element in document order that is not inside `element`, staying within `root`. */
function nextOutside(element: Element, root: Element): Element | null {
  for (let current: Element | null = element; current && current !== root; current = current.parentElement) {
    const sibling = current.nextElementSibling;
    if (sibling) return sibling;
  }
  return null;
}

// Each name lower-cased once: `toLowerCase` builds a new string per call even when nothing changes,
// and the conversion asks every element's tag in each of its passes. Kept for this many names;
// a page of invented tag names beyond that is lower-cased per call.
const LOWER_NAMES = new Map<string, string>();
const MAX_LOWER_NAMES = 500;

/** Lower-case tag name (`div`, `svg`), the same for HTML and foreign elements in both parsers. */
export function tagOf(element: Element): string {
  const name = element.localName;
  let lower = LOWER_NAMES.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (LOWER_NAMES.size < MAX_LOWER_NAMES) LOWER_NAMES.set(name, lower);
  }
  return lower;
}

// The browser's Element, in realms that have one (extension pages, offscreen documents).
const NativeElement = (globalThis as { Element?: typeof Element }).Element;

/**
 * The `class` attribute as written. linkedom answers `getAttribute('class')` by building a token
 * set on first use and joining it on every call, which cost a fifth of the steps that read names;
 * its attribute node holds the value as written, which is also what the browser returns.
 */
export function classOf(element: Element): string | null {
  if (NativeElement && element instanceof NativeElement) return element.getAttribute('class');
  return element.getAttributeNode('class')?.value ?? null;
}

/** The element's `id` and `class` attributes as one lower-case string, for name patterns. */
export function namesOf(element: Element): string {
  const id = element.getAttribute('id');
  const cls = classOf(element);
  if (!id) return cls ? cls.toLowerCase() : '';
  return cls ? `${id} ${cls}`.toLowerCase() : id.toLowerCase();
}

/** Whether `text` has a run of whitespace longer than `max`: one pass, no string built. */
export function hasSpaceRunOver(text: string, max: number): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (!isSpaceCode(text.charCodeAt(i))) run = 0;
    else if (++run > max) return true;
  }
  return false;
}

/** Collapses runs of whitespace to one space and trims. Meant for short strings (titles, links). */
export function normalizeSpace(text: string | null | undefined): string {
  return text ? text.replace(/\s+/g, ' ').trim() : '';
}

/**
 * Whether `element`'s `textContent` holds anything but whitespace: `!!normalizeSpace(element.textContent)`
 * without building the text. linkedom joins the whole subtree's text into a new string, so asking
 * this of each wrapper down a page copied the page's text once per level; here the walk stops at
 * the first text or CDATA node that is not blank.
 */
export function holdsText(element: Element): boolean {
  let node: Node | null = element.firstChild;
  while (node) {
    const type: number = node.nodeType;
    if ((type === 3 || type === 4) && /\S/.test((node as CharacterData).data)) return true;
    node = (type === 1 ? node.firstChild : null) ?? nextAfter(node, element);
  }
  return false;
}

/** The node after `node` and everything inside it, in document order within `root`; null past its end. */
export function nextAfter(node: Node, root: Node): Node | null {
  let current: Node | null = node;
  // Leaving `node` and every ancestor that has no next sibling, up to `root`.
  while (current && current !== root && !current.nextSibling) current = current.parentNode;
  return current && current !== root ? current.nextSibling : null;
}

/** Length of an element's text, the cheap measure used to compare containers. */
export function textLength(element: Element): number {
  return element.textContent?.length ?? 0;
}

/**
 * {@link textLength} of `root` and of each of `elements` (all inside `root`). linkedom builds
 * `textContent` by walking the subtree and joining its text into a new string, so measuring nested
 * containers one by one walked the page once per container; here one walk counts characters and
 * each element's length is the count between entering and leaving it. The browser's own
 * `textContent` is native code, cheaper than a walk through its bindings: used there as it is.
 */
export function textLengths(root: Element, elements: Iterable<Element>): Map<Element, number> {
  const lengths = new Map<Element, number>();
  if (NativeElement && root instanceof NativeElement) {
    lengths.set(root, textLength(root));
    for (const element of elements) lengths.set(element, textLength(element));
    return lengths;
  }
  const wanted = new Set(elements);
  // Characters counted so far, and where each wanted element started.
  let count = 0;
  const started = new Map<Node, number>();
  let node: Node | null = root;
  while (node) {
    const type: number = node.nodeType;
    // Text and CDATA sections: what textContent joins.
    if (type === 3 || type === 4) count += (node as CharacterData).data.length;
    const child: Node | null = type === 1 ? node.firstChild : null;
    if (child) {
      if (wanted.has(node as Element)) started.set(node, count);
      node = child;
      continue;
    }
    if (type === 1 && wanted.has(node as Element)) lengths.set(node as Element, 0);
    // Leaving `node` and every ancestor that has no next sibling, up to the root.
    let current: Node | null = node;
    node = null;
    while (current && current !== root) {
      const next: Node | null = current.nextSibling;
      if (next) {
        node = next;
        break;
      }
      current = current.parentNode;
      const start = current ? started.get(current) : undefined;
      if (current && start !== undefined) lengths.set(current as Element, count - start);
    }
  }
  lengths.set(root, count);
  return lengths;
}

/**
 * Shortens `text` to at most about `max` characters, cutting at a word boundary and marking the
 * cut with an ellipsis.
 */
export function truncateOnWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  // A single enormous word (a URL, a hash) is cut mid-word rather than dropped.
  const end = space > max * 0.6 ? space : max;
  return `${cut.slice(0, end).replace(/(?<![\s,;:.–—-])[\s,;:.–—-]+$/, '')}…`;
}
