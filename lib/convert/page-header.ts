/**
 * The page header kept whatever builds the navigation. A theme that marks nothing leaves the
 * content container to a measure of prose, and on an API page one member group can hold most of
 * it: the chosen block then starts below the page's H1, and the class's own description (the
 * page's lead), its summary tables and the other groups are lost. The content never starts below
 * the page's H1 when the H1 and what lies between it and the container are not navigation.
 */
import { tagOf } from './walk';

// Elements whose text is the site's navigation or furniture, wherever they stand.
const CHROME = new Set(['nav', 'aside', 'footer', 'script', 'style', 'template', 'noscript', 'svg']);
// Text the widened container would add around the content, outside the header, may be this share
// of the content's own text before it must prove it is prose rather than links.
const SMALL_AROUND = 0.1;
// Text above the H1 up to this length is a label row, not part of the page (a breadcrumb's last step is plain text).
const SHORT_ABOVE = 200;

/**
 * A link to another page, as navigation is made of. A link to a fragment (an index of the page's
 * own members, a reference to a type's entry elsewhere) is part of the reference's text.
 */
function isPageLink(element: Element): boolean {
  const href = element.getAttribute('href');
  return tagOf(element) === 'a' && href !== null && !href.includes('#');
}

interface Measure {
  prose: number;
  links: number;
}

function isChrome(element: Element): boolean {
  const role = element.getAttribute('role');
  return CHROME.has(tagOf(element)) || role === 'navigation' || role === 'search';
}

const HEADING = /^h([1-6])$/;

/** The highest heading level (1 for h1) inside `root`, 7 when it has none. */
function topLevelIn(root: Element): number {
  let top = 7;
  for (const heading of root.querySelectorAll('h1, h2, h3, h4, h5, h6')) top = Math.min(top, Number(tagOf(heading).slice(1)));
  return top;
}

/**
 * The page's heading before `main` in document order, outside navigation: its one H1; on a page
 * with no H1 at all (gtk-doc's reference pages open with an h2), the first heading before the
 * container when it is of the container's own top level or higher. Undefined otherwise.
 */
function pageHeadingBefore(body: Element, main: Element): Element | undefined {
  const found: Element[] = [];
  let reached = false;
  const visit = (element: Element): void => {
    for (let child = element.firstElementChild; child && !reached; child = child.nextElementSibling) {
      if (child === main) {
        reached = true;
        return;
      }
      if (isChrome(child)) continue;
      if (HEADING.test(tagOf(child))) found.push(child);
      else visit(child);
    }
  };
  visit(body);
  if (!reached) return undefined;
  const h1s = found.filter((heading) => tagOf(heading) === 'h1');
  if (h1s.length) return h1s.length === 1 ? h1s[0] : undefined;
  const first = found[0];
  if (!first || body.querySelector('h1')) return undefined;
  return Number(tagOf(first).slice(1)) <= topLevelIn(main) ? first : undefined;
}

/**
 * Text of `root` split by where it stands against `h1` and `main` (both inside `root`): before the
 * H1, between the H1 and the container, after the container; link text is text of links to other
 * pages. The H1 and the container themselves are not counted, nor is navigation.
 */
function measureAround(root: Element, h1: Element, main: Element): [Measure, Measure, Measure] {
  const parts: [Measure, Measure, Measure] = [{ prose: 0, links: 0 }, { prose: 0, links: 0 }, { prose: 0, links: 0 }];
  let part = 0;
  const visit = (node: Node, inLink: boolean): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const length = (child.textContent ?? '').trim().length;
        const into = parts[part] as Measure;
        if (inLink) into.links += length;
        else into.prose += length;
        continue;
      }
      if (child.nodeType !== 1) continue;
      const element = child as Element;
      if (element === h1) {
        part = 1;
        continue;
      }
      if (element === main) {
        part = 2;
        continue;
      }
      if (isChrome(element)) continue;
      visit(element, inLink || isPageLink(element));
    }
  };
  visit(root, false);
  return parts;
}

/**
 * The container that holds `main` and the page's H1 above it, when `main` starts below that H1 with
 * prose between them (a lead, a summary) and the rest the wider container adds is not navigation;
 * else `main` itself; a breadcrumb or label row before the H1 in it is removed. Never the whole body: an H1 only the body shares with the content is the
 * site's banner, not the page's header.
 */
export function widenToPageHeader(body: Element, main: Element): Element {
  try {
    return widen(body, main);
  } catch {
    // Garbage nested deeper than the stack: the container as chosen.
    return main;
  }
}

function widen(body: Element, main: Element): Element {
  if (main === body || main.querySelector('h1')) return main;
  const h1 = pageHeadingBefore(body, main);
  if (!h1) return main;
  let common = main.parentElement;
  while (common && !common.contains(h1)) common = common.parentElement;
  if (!common || common === body || common === body.parentElement || !body.contains(common)) return main;
  // A heading in a header or banner is the site's (Node's "Node.js v18 documentation", which its
  // <title> also holds); headingAbove alone may bring it in.
  if (h1.closest('header, [role=banner]')) return main;
  const [before, between, after] = measureAround(common, h1, main);
  if (between.prose === 0) {
    // Only the heading above the container. An H1 (Starlight's title panel) headingAbove moves
    // in; the first heading of a page with no H1 (Javadoc's "Class Evaluator.IsNthChild" in a
    // header block of its own) is moved in here, or the page loses its title and the kind of
    // thing it documents. Nothing else of the header comes with it: a package label above it.
    if (tagOf(h1) !== 'h1' && between.links === 0) main.insertBefore(h1, main.firstChild);
    return main;
  }
  const content = (main.textContent ?? '').length;
  const aroundProse = before.prose + after.prose;
  const aroundLinks = before.links + after.links;
  // Links around the content that outweigh its prose are navigation the wider block would take in.
  if (aroundLinks > aroundProse && aroundLinks + aroundProse > SMALL_AROUND * content) return main;
  if (between.links > between.prose) return main;
  // What stands before the H1 in the wider block, when it is short or mostly links, is a
  // breadcrumb or a badge row: the page starts at its H1.
  if (before.links >= before.prose || before.links + before.prose <= SHORT_ABOVE) for (const element of elementsBefore(common, h1)) element.remove();
  return common;
}

/** The elements inside `root` that come wholly before `target` (its ancestors' earlier siblings). */
function elementsBefore(root: Element, target: Element): Element[] {
  const out: Element[] = [];
  for (let node: Element | null = target; node && node !== root; node = node.parentElement) {
    for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) out.push(sibling);
  }
  return out;
}
