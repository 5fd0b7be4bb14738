/**
 * HTML → Markdown with one turndown service per module (rules are stateless; the one per-call
 * setting, the heading shift, is set and reset around each synchronous conversion). Rules: ATX
 * headings, `-` bullets, fenced code with the language found during cleaning, GFM tables,
 * absolute links (made so by the cleaner), empty links dropped.
 */
import { strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';
import { LANGUAGE_ATTRIBUTE } from './code-blocks';
import { escapeMarkdownText } from './escape';
import { indexRules } from './rule-index';
import { tableRules } from './tables';
import { hasSpaceRunOver, nextAfter } from './walk';

function trimNewlines(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '\n') start++;
  while (end > start && text[end - 1] === '\n') end--;
  return text.slice(start, end);
}

/** A fence longer than any backtick run at the start of a code line. */
function fenceFor(code: string): string {
  let longest = 0;
  for (const match of code.matchAll(/^ {0,3}(`{3,})/gm)) longest = Math.max(longest, match[1]?.length ?? 0);
  return '`'.repeat(Math.max(3, longest + 1));
}

// Items are numbered by position; turndown recomputes `parent.children` per item (quadratic).
// Both per-list caches are plain Maps cleared after each conversion (see elementToMarkdown).
const itemIndexes = new Map<object, Map<object, number>>();
function itemIndex(list: Element, item: Element): number {
  let indexes = itemIndexes.get(list);
  if (!indexes) {
    indexes = new Map();
    let i = 0;
    for (let child = list.firstElementChild; child; child = child.nextElementSibling) indexes.set(child, i++);
    itemIndexes.set(list, indexes);
  }
  return indexes.get(item) ?? 0;
}

/** Whether any element under `root` is a heading: one forward pass, stopping at the first. */
function holdsHeading(root: Element): boolean {
  const stack: Element[] = [];
  for (let child = root.firstElementChild; child; child = child.nextElementSibling) stack.push(child);
  while (stack.length) {
    const element = stack.pop() as Element;
    if (/^h[1-6]$/i.test(element.localName)) return true;
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) stack.push(child);
  }
  return false;
}

// Blocks that are not an item's own line: what a list item's marker line can never hold.
const NOT_OWN_LINE = new Set(['ul', 'ol', 'table', 'pre', 'dl']);

/** Whether an item has text outside nested lists, tables, code and definition lists: a line of its own. */
function hasOwnLine(item: Element): boolean {
  const stack: Node[] = [];
  for (let child = item.firstChild; child; child = child.nextSibling) stack.push(child);
  while (stack.length) {
    const node = stack.pop() as Node;
    if (node.nodeType === 3) {
      if ((node.nodeValue ?? '').trim() !== '') return true;
      continue;
    }
    if (node.nodeType !== 1 || NOT_OWN_LINE.has((node as Element).localName.toLowerCase())) continue;
    for (let child = node.firstChild; child; child = child.nextSibling) stack.push(child);
  }
  return false;
}

// Per list: whether it is layout, decided once per list.
// Cleared after each conversion (see elementToMarkdown): a module-level WeakMap keyed by
// linkedom elements measured as a slowdown that grew with every page converted.
const layoutLists = new Map<object, boolean>();

/**
 * A list is page layout when its items hold headings (Javadoc's blockList: one item per summary
 * table or member) and no other item is a line of text. A list of text items stays a list when
 * one of them holds a heading deep inside (DocBook puts a "Warning" box, titled by an h3, in a
 * list item): otherwise every item of it would lose its bullet.
 */
function isLayoutList(list: Element): boolean {
  let layout = layoutLists.get(list);
  if (layout === undefined) {
    let headed = false;
    let textItem = false;
    for (let item = list.firstElementChild; item && !textItem; item = item.nextElementSibling) {
      if (item.nodeName !== 'LI') continue;
      if (holdsHeading(item)) headed = true;
      else textItem = hasOwnLine(item);
    }
    layout = headed && !textItem;
    layoutLists.set(list, layout);
  }
  return layout;
}

function createService(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    fence: '```',
    emDelimiter: '_',
    strongDelimiter: '**',
    hr: '---',
    linkStyle: 'inlined',
  });
  service.escape = escapeMarkdownText;
  service.use([strikethrough, taskListItems]);
  tableRules(service);
  // Rules added later take precedence over turndown's built-ins.
  service.addRule('fencedCode', {
    filter: 'pre',
    replacement: (_content, node) => {
      // The cleaner reduced the block to its text; nothing inside was Markdown-escaped.
      const code = trimNewlines((node.textContent ?? '').trimEnd());
      if (!code) return '';
      const fence = fenceFor(code);
      return `\n\n${fence}${node.getAttribute(LANGUAGE_ATTRIBUTE) ?? ''}\n${code}\n${fence}\n\n`;
    },
  });
  service.addRule('heading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      // Permalink marks that survived as text ("Install ¶") are not part of the heading.
      const oneLine = content.replace(/(?<!\s)\s*\n\s*/g, ' ').trim();
      const text = stripHeadingMarks(oneLine);
      if (!text) return '';
      let level = Math.max(1, Number(node.nodeName.charAt(1)) - headingShift);
      // One H1 per page: it is the page's title in llms-full.txt and for agents. Themes that put
      // every section in an h1 (or the site's name above the page's) get the later ones as H2.
      if (level === 1 && seenH1) level = 2;
      if (level === 1) seenH1 = true;
      return `\n\n${'#'.repeat(level)} ${text}\n\n`;
    },
  });
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const parent = node.parentElement;
      // Items that hold headings are page layout (Javadoc's blockList), not a list: no bullets.
      if (parent && isLayoutList(parent)) return `\n\n${trimNewlines(content)}\n\n`;
      let prefix = '- ';
      if (parent?.nodeName === 'OL') {
        const start = Number.parseInt(parent.getAttribute('start') ?? '1', 10);
        prefix = `${(Number.isFinite(start) ? start : 1) + itemIndex(parent, node)}. `;
      }
      const body = trimNewlines(content) + (content.endsWith('\n') ? '\n' : '');
      return prefix + body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`) + (node.nextSibling ? '\n' : '');
    },
  });
  service.addRule('link', {
    filter: 'a',
    replacement: (content, node) => {
      // Block content inside a link (cards) cannot sit in link text; keep it on one line.
      const text = content.includes('\n') ? content.replace(/(?<!\s)\s*\n\s*(?:#+ )?/g, ' ').trim() : content.trim();
      if (!text) return '';
      const href = node.getAttribute('href');
      return href ? `[${text}](${href.replace(/[()<> ]/g, encodeURIComponent)})` : text;
    },
  });
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const alt = (node.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim().replace(/[[\]\\]/g, '\\$&');
      const src = node.getAttribute('src');
      return src ? `![${alt}](${src.replace(/[()<> ]/g, encodeURIComponent)})` : alt;
    },
  });
  service.addRule('details', {
    filter: ['details', 'summary'],
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });
  indexRules(service);
  return service;
}

// Levels to lift every heading by during the current (synchronous) conversion; see elementToMarkdown.
let headingShift = 0;
// Whether the current conversion has written its H1.
let seenH1 = false;
// Permalink marks that themes leave in heading text (zero-width characters included).
const MARKS = new Set(['¶', '§', '🔗', '⚓', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff']);
const isSpace = (ch: string): boolean => /\s/.test(ch);

/**
 * The text without the permalink marks at its end: any run of marks (each may follow spaces) and
 * of `#` (each after a space: "C#" is a name, "Install #" a permalink). Walked from the end, once: as one regular expression the
 * alternatives overlap (U+FEFF is both a space and a mark) and backtrack exponentially.
 */
function stripHeadingMarks(text: string): string {
  let end = text.length;
  for (;;) {
    // The last character, whole when it is a surrogate pair (🔗).
    const low = text.charCodeAt(end - 1);
    const ch = low >= 0xdc00 && low <= 0xdfff && end >= 2 ? text.slice(end - 2, end) : text.slice(end - 1, end);
    if (MARKS.has(ch)) {
      end -= ch.length;
    } else if (ch === '#' && end >= 2 && isSpace(text[end - 2] ?? '')) {
      end -= 1;
    } else {
      return text.slice(0, end);
    }
    // Spaces before a mark, or the (required) spaces before a `#`, go with it.
    while (end > 0 && isSpace(text[end - 1] ?? '')) end--;
  }
}
const service = createService();

// Turndown's own clean-up patterns (its trailing-whitespace strip, its edge-whitespace split) try
// every position of a run of spaces, so a page of long runs (no-break spaces survive its folding;
// <pre> keeps every space) costs the square of their length. A longer run carries no text and is
// cut to this many characters before conversion.
const MAX_SPACE_RUN = 200;

/** Cuts every run of whitespace in `root`'s text to MAX_SPACE_RUN characters. */
function capSpaceRuns(root: Node): void {
  // Down and across by the node's own links: a stack of every node of the content was garbage.
  let node: Node | null = root;
  while (node) {
    const isText: boolean = node.nodeType === 3;
    if (isText) {
      const text = node.nodeValue ?? '';
      // The replacement below calls back for every run (every space between two words) and
      // builds a new string; a long text is first scanned for a run worth cutting.
      if (text.length > MAX_SPACE_RUN && hasSpaceRunOver(text, MAX_SPACE_RUN)) {
        const capped = text.replace(/\s+/g, (run) => (run.length > MAX_SPACE_RUN ? run.slice(0, MAX_SPACE_RUN) : run));
        if (capped.length !== text.length) node.nodeValue = capped;
      }
    }
    node = (isText ? null : node.firstChild) ?? nextAfter(node, root);
  }
}

/**
 * Blank lines outside code fences are collapsed to one; code keeps its own blank lines.
 * One pass over lines rather than regexes over the whole (possibly multi-megabyte) text.
 */
function tidy(markdown: string): string {
  const out: string[] = [];
  let fence = '';
  let blank = false;
  for (const line of markdown.split('\n')) {
    // Most lines hold no fence; the search for three marks is cheaper than the pattern on each.
    const marker = line.includes('```') || line.includes('~~~') ? /^\s*(`{3,}|~{3,})/.exec(line)?.[1] : undefined;
    if (fence) {
      out.push(line);
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && !line.trim().slice(marker.length)) fence = '';
      continue;
    }
    if (marker) fence = marker;
    // Trailing whitespace goes, except the two spaces of a hard line break (<br>).
    const trimmed = line.trimEnd();
    const isBlank = trimmed === '';
    if (isBlank && (blank || out.length === 0)) continue;
    blank = isBlank;
    out.push(line.length - trimmed.length === 2 && line.endsWith('  ') ? line : trimmed);
  }
  return out.join('\n').trim();
}

/**
 * Converts a cleaned content element to Markdown. The element is consumed: turndown would
 * otherwise deep-clone it first, which measured as costly as the whole conversion on big pages,
 * and the caller's document is a throwaway parsed for this one conversion anyway.
 *
 * `topHeading` is the highest heading level in the content. Content that starts at h2 (its h1
 * is the site's name, outside the content, as in Node.js's docs) is lifted so the page's own
 * title becomes `#`: each page's Markdown then stands alone in llms-full.txt.
 */
export function elementToMarkdown(root: Element, topHeading = 1): string {
  headingShift = topHeading >= 2 && topHeading <= 6 ? topHeading - 1 : 0;
  seenH1 = false;
  // linkedom splits text at every character reference ("0 ", "<", "= x"); escaping works per text
  // node and would take each piece for the start of a line.
  root.normalize();
  capSpaceRuns(root);
  // An own property shadows Node.prototype.cloneNode for this one call.
  Object.defineProperty(root, 'cloneNode', { value: () => root, configurable: true });
  try {
    return tidy(service.turndown(root as HTMLElement));
  } finally {
    layoutLists.clear();
    itemIndexes.clear();
    headingShift = 0;
    Reflect.deleteProperty(root, 'cloneNode');
  }
}
