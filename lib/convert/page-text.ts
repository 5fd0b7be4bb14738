/** The page's title and description, chosen from what the head and the content offer. */
import { holdsText, namesOf, normalizeSpace, tagOf, truncateOnWord, walkElements } from './walk';

const TITLE_SEPARATORS = [' — ', ' – ', ' | ', ' - ', ' · ', ' » ', ' :: '];
const MAX_TITLE = 300;
const MAX_DESCRIPTION = 300;
// A first paragraph shorter than this is a label ("Source code: Lib/os.py", "Stability: 2").
const MIN_PARAGRAPH_CHARS = 60;
const MIN_PARAGRAPH_WORDS = 8;
// Paragraphs in these are asides, quotes or data, not the page's summary.
const NOT_SUMMARY = new Set(['blockquote', 'aside', 'table', 'figure', 'figcaption', 'li', 'dd', 'dt', 'nav', 'header', 'footer']);
// Callouts are not the summary either, whatever element they are built from.
const CALLOUT_NAMES = /admonition|callout|alert|warning|note|deprecated|version(?:added|changed)/;
const SECTION_MARKS = /(?<![\s¶#§])[\s¶#§]+$/;

// localeCompare with options builds a collator on every call (measured as 0.5 % of a conversion);
// one made ahead compares the same way.
const ACCENT_COLLATOR = new Intl.Collator(undefined, { sensitivity: 'accent' });

function sameName(a: string, b: string): boolean {
  return ACCENT_COLLATOR.compare(a, b) === 0;
}

/**
 * Removes a trailing " — Site" (or " | Site", " - Site", …) when "Site" is one of the names the
 * page gives its site. Never strips on a guess: "Foo - Bar" keeps "Bar" unless Bar is the site.
 */
export function stripSiteSuffix(title: string, siteNames: string[]): string {
  for (const separator of TITLE_SEPARATORS) {
    const at = title.lastIndexOf(separator);
    if (at <= 0) continue;
    const suffix = title.slice(at + separator.length).trim();
    if (siteNames.some((name) => sameName(name, suffix))) return title.slice(0, at).trim();
  }
  return title;
}

/** "getting-started.html" → "Getting started"; the host name for a site root. */
export function titleFromUrl(pageUrl: string): string {
  try {
    const url = new URL(pageUrl);
    const segments = url.pathname.split('/').filter(Boolean);
    const last = segments.at(-1);
    if (!last) return url.hostname;
    let name = last;
    try {
      name = decodeURIComponent(last);
    } catch {
      // A malformed escape is shown as written.
    }
    name = normalizeSpace(name.replace(/\.(?:html?|php|aspx?|jsp|md|mdx|txt)$/i, '').replace(/[-_+]+/g, ' '));
    return name ? name.charAt(0).toUpperCase() + name.slice(1) : url.hostname;
  } catch {
    return '';
  }
}

/** The title chain: `<title>` (site suffix removed) → first h1 → last path segment. */
export function chooseTitle(headTitle: string | undefined, h1: string | undefined, pageUrl: string, siteNames: string[]): string {
  const fromHead = headTitle ? stripSiteSuffix(headTitle, siteNames) : '';
  const heading = normalizeSpace(h1).replace(SECTION_MARKS, '');
  const title = fromHead || heading || titleFromUrl(pageUrl);
  return truncateOnWord(title, MAX_TITLE);
}

/** Text of the first h1 in `root`, without permalink marks. */
export function firstHeading(root: Element): string | undefined {
  const h1 = root.querySelector('h1');
  const text = normalizeSpace(h1?.textContent).replace(SECTION_MARKS, '');
  return text || undefined;
}

/**
 * The page's lead: the first paragraph of cleaned content that reads like a summary, trimmed to
 * about 300 chars. Labels ("Source code: Lib/os.py") and legal lines are passed over; a lead that
 * introduces what follows ("It can be accessed using:") is still the lead, made to read alone. The
 * lead comes before the page's first member: a signature or a definition line with its own
 * anchor ends the search, for what follows it is that member's text.
 *
 * A page with no such paragraph is described, in this order, by a short sentence before its
 * members ("Commonly used character parsers."), by the prose of a list item when its content is
 * a list of prose (a changelog), else by what it contains ("Covers: Declarations, Efficiency
 * Tips."): the entries of the first list of links or table, the contents a chapter page opens with.
 */
export function summaryParagraph(root: Element, definitions: Set<Element> = new Set(), pageUrl?: string): string | undefined {
  const here = pageUrl?.split('#')[0];
  let summary: string | undefined;
  let short: string | undefined;
  let item: string | undefined;
  let introduced: string | undefined;
  let done = false;
  let opened = false;
  // The level of the page's own heading (its h1, or the first heading when the page has none above).
  let top = 0;
  let sectioned = false;
  // Whether a paragraph came before: a brief after a declaration is the page's first prose.
  let prose = false;
  walkElements(root, (element) => {
    if (summary || done) return 'skip';
    const tag = tagOf(element);
    // The page's own header (Docusaurus' `<header><h1>` inside the article) holds its title too.
    const level = /^h[1-6]$/.test(tag) ? Number(tag.charAt(1)) : 0;
    if (tag === 'header' && element.querySelector('h1')) top ||= 1;
    top ||= level;
    // A section heading (any level under the page's own heading) after an opening that reads alone ends
    // the lead: that sentence is the page's, the text below the heading its section's ("Thank you
    // for considering contributing to Flask!", not "## Support questions: Please don't use…").
    if (opened && top && level > top) {
      done = true;
      return 'skip';
    }
    if (top && level > top) sectioned = true;
    // A member's entry (its name as a heading over the code declaring it: Javadoc's and
    // rustdoc's methods) starts the page's members: what follows is that member's text.
    if (/^h[2-6]$/.test(tag) && isMemberEntry(element)) {
      done = true;
      return 'skip';
    }
    if (tag === 'li' && item === undefined && !CALLOUT_NAMES.test(namesOf(element))) item = proseItem(element);
    if ((NOT_SUMMARY.has(tag) && !(tag === 'li' && isLayoutItem(element))) || tag === 'pre' || CALLOUT_NAMES.test(namesOf(element))) return 'skip';
    // The page's index of its members (TypeDoc's row of links to them): the members follow, and
    // a paragraph of theirs is not the page's lead.
    if (isMemberIndex(element, here)) {
      done = true;
      return 'skip';
    }
    if (tag !== 'p' && !isTextBlock(element)) {
      // Text a block holds before its first block inside is its first paragraph (Javadoc's
      // `<div class="block">The Connection interface is… <p>To start a session…</p></div>`).
      const run = tag === 'div' ? leadingRun(element) : '';
      const words = run.split(' ').length;
      if (run.length >= MIN_PARAGRAPH_CHARS && words >= MIN_PARAGRAPH_WORDS && !isWeakDescription(run)) summary = run;
      else if (run) {
        short ??= shortSentence(run);
        opened ||= short !== undefined && !isWeakDescription(short);
      }
      return undefined;
    }
    const whole = normalizeSpace(proseOf(element, here));
    let text = withoutReadMore(element, whole, here);
    const first = !prose;
    prose = true;
    // A definition's signature starts the page's members: what follows is a member's text.
    if (definitions.has(element) || isSignature(text, proseOutsideCode(element))) {
      done = true;
      return 'skip';
    }
    // A brief that points to the page's own details is the page's summary by what it says of
    // itself, however short ("Core json-c API. Start here. More...").
    if (text !== whole && !isWeakDescription(text)) {
      summary = text;
      return 'skip';
    }
    // The rest of a sentence an example broke ("… by typing", example, "at the prompt. …") is
    // read with its start below; on its own it begins mid-sentence.
    if (continuesAfterExample(element, text)) return 'skip';
    text = sentenceAcrossExample(element, text, here) ?? text;
    const words = text.split(' ').length;
    // A short lead that introduces a list or an example is read with it ("…a variety of tools: …";
    // "Rust divides keywords into three categories: strict, reserved, weak").
    const introduces = words >= MIN_DESCRIPTION_WORDS && /[:：]$/.test(text);
    if ((text.length < MIN_PARAGRAPH_CHARS || words < MIN_PARAGRAPH_WORDS) && !introduces) {
      short ??= shortSentence(text) ?? (first ? briefAfterDeclaration(element, text) : undefined);
      opened ||= short !== undefined && !isWeakDescription(short);
      return 'skip';
    }
    if (!isWeakDescription(text)) summary = text;
    else if (words < MIN_PARAGRAPH_WORDS) {
      // A lead too short for a paragraph is read with a list or the sections it introduces, and
      // gives way to a paragraph that reads alone before the page's first section. Read with an
      // example or a definition list ("…the following event: todo-defined(app, node)") it would
      // name a member.
      const read = leadThatIntroduces(text, element);
      introduced ??= read;
      opened ||= read !== undefined;
      // On a page with no lead before its sections, the first section's opening read with what it
      // introduces is the page's; a paragraph further into that section is about its example.
      done = read !== undefined && sectioned;
    } else {
      summary = leadThatIntroduces(text, element);
      introduced ??= summary === undefined ? leadWithExample(text, element) : undefined;
    }
    return 'skip';
  });
  const lead = summary ?? introduced ?? (short && !isWeakDescription(short) ? short : undefined) ?? item;
  if (lead !== undefined) return trimToSentence(lead);
  const contents = contentsOf(root, here);
  const declared = declaration(root);
  if (!contents) return declared?.text && !isWeakDescription(declared.text) ? truncateOnWord(declared.text, MAX_DESCRIPTION) : undefined;
  // A lead too short to stand alone ("Debugging helpers.") says more with what the page holds;
  // a page with neither says what it declares before it, whatever the number of its members
  // ("Interface Options. Covers: …"), as its other descriptions of declarations do.
  const covers = `${short ? `${short} ` : declared ? `${declared.kind} ${declared.name}. ` : ''}Covers: ${contents}.`;
  if (!isWeakDescription(covers)) return truncateOnWord(covers, MAX_DESCRIPTION);
  // Contents too few to stand alone ("Covers: Cleaner, Safelist.") are read with the page's own
  // heading ("Hierarchy For Package org.jsoup.safety").
  const own = ownHeading(root);
  const heading = own ? normalizeSpace(textWithBreaks(own)).replace(SECTION_MARKS, '') : '';
  const headed = `${heading.replace(/[.:]$/, '')}. Covers: ${contents}.`;
  return heading && !short && !declared && !isWeakDescription(headed) ? truncateOnWord(headed, MAX_DESCRIPTION) : undefined;
}

// A declaration read as a description is one line of about this length at most.
const MAX_DECLARATION = 160;

/**
 * What a page with no prose declares, read from its heading and the line under it. The heading
 * names the kind and the name ("Type Alias HookEvent", "Function createOption"); the first block
 * after it, one line starting with that name (after a keyword), is the declaration. The
 * description is the kind and name with what the name is declared as ("Type Alias HookEvent,
 * declared as "a" | "b"."), or, for a
 * declaration with parameters, the kind and name with the parts the headings under it list
 * ("Function createOption. Parameters: flags, description. Returns Option."): a call written out
 * is a signature, not a description.
 */
function declaration(root: Element): { kind: string; name: string; text?: string } | undefined {
  const h1 = ownHeading(root);
  if (!h1) return undefined;
  const heading = normalizeSpace(h1.textContent).replace(SECTION_MARKS, '');
  const found = declarationLine(root, h1);
  if (!found) return undefined;
  const { line, text } = found;
  if (!text || text.length > MAX_DECLARATION || /[.!?]\s/.test(text)) return undefined;
  // Annotations or decorators before the declaration ("@Documented @Retention(CLASS) public
  // @interface NonnullByDefault") are what it is marked with, not its name.
  const { annotations, bare } = splitAnnotations(text);
  // The declared name is the first word of the line the heading ends its kind with ("Class
  // Evaluator.IsNthChild" over "public static final class Evaluator.IsNthChild extends …").
  let name: string | undefined;
  let kind = '';
  for (const match of bare.matchAll(/[\p{L}_$][\p{L}\p{N}_$.]*/gu)) {
    const word = match[0].replace(/\.$/, '');
    const at = heading.lastIndexOf(` ${word}`);
    // The heading ends with the name, its type parameters or a kind badge ("Variable program Const"):
    // a word inside it ("Hierarchy For Package org.jsoup") is no declared name.
    if (at <= 0 || !/^(?:$|[<([]|\s+\p{Lu}\p{Ll}*$)/u.test(heading.slice(at + 1 + word.length))) continue;
    name = word;
    kind = heading.slice(0, at).trim();
    break;
  }
  // The kind is a word or two of its own ("Type Alias", "Interface"), not a sentence.
  if (!name || !kind || kind.split(' ').length > 3 || !/^\p{Lu}/u.test(kind)) return undefined;
  const rest = bare.slice(bare.indexOf(name) + name.length).trim();
  // A body of members ("interface Options { … }") is read from the page's index of them.
  if (rest.includes('{')) return { kind, name };
  // "name: type" or "name = type" says what the name is declared as, read as words.
  // A union written one member a line opens with a bar ("| "a" | "b"").
  const as = /^[:=]\s*(?:\|\s*)?(\S.*)$/.exec(rest)?.[1];
  if (as) return { kind, name, text: `${kind} ${name}, declared as ${as}.` };
  if (!rest.startsWith('(')) return annotations.length ? { kind, name, text: `${kind} ${name}, annotated ${annotations.join(', ')}.` } : { kind, name };
  const parts: string[] = [];
  for (const part of line.parentElement?.querySelectorAll('h3, h4, h5, h6') ?? []) {
    if (parts.length >= MAX_LIST_ITEMS) break;
    const title = normalizeSpace(part.textContent).replace(SECTION_MARKS, '');
    const list = nextShown(part);
    if (list && /^(?:ul|ol)$/.test(tagOf(list))) {
      // Each item names a part before its type ("flags: string"); a badge before it ("Optional") is no name.
      const names = [...list.children].map((item) => (normalizeSpace(spacedText(item)).split(':')[0] ?? '').trim().split(' ').at(-1) ?? '').filter(Boolean);
      if (names.length) parts.push(`${title}: ${names.join(', ')}`);
    } else if (title) parts.push(title);
  }
  return parts.length ? { kind, name, text: `${kind} ${name}. ${parts.join('. ')}.` } : { kind, name };
}

/**
 * The annotations or decorators a declaration line opens with ("@Name", with its arguments when it
 * has some), and the line without them. Read a character at a time: the arguments may nest.
 * Java's "@interface" is the keyword of an annotation type, not an annotation.
 */
function splitAnnotations(text: string): { annotations: string[]; bare: string } {
  const annotations: string[] = [];
  let bare = '';
  let at = 0;
  while (at < text.length) {
    const start = at;
    if (text[at] === '@' && (at === 0 || text[at - 1] === ' ') && !text.startsWith('@interface', at)) {
      at++;
      while (at < text.length && /[\p{L}\p{N}_$.]/u.test(text[at] ?? '')) at++;
      if (text[at] === '(') {
        let depth = 0;
        for (; at < text.length; at++) {
          if (text[at] === '(') depth++;
          else if (text[at] === ')' && --depth === 0) {
            at++;
            break;
          }
        }
      }
      if (at - start > 1 && (at === text.length || text[at] === ' ')) {
        annotations.push(text.slice(start, at));
        continue;
      }
      at = start;
    }
    bare += text[at];
    at++;
  }
  return { annotations, bare: normalizeSpace(bare) };
}

/** The page's own heading: its h1, else its first heading when none above it is of a higher level (Javadoc's h2 title). */
function ownHeading(root: Element): Element | undefined {
  const h1 = root.querySelector('h1');
  if (h1) return h1;
  const headings = [...root.querySelectorAll('h2, h3, h4, h5, h6')];
  const first = headings[0];
  return first && headings.every((heading) => tagOf(heading) >= tagOf(first)) ? first : undefined;
}

/**
 * The line under the page's heading that declares what the page documents: the first thing shown
 * after the heading, passing over wrappers, rules, labelled facts ("Enclosing class:") and a tree
 * of supertypes, before any prose or other heading. A heading that shares its block with inline
 * text (TypeDoc's signature block holding the title moved into it) is followed by that text.
 */
function declarationLine(root: Element, heading: Element): { line: Element; text: string } | undefined {
  const sibling = heading.nextSibling;
  if (heading.parentElement && sibling && !(sibling.nodeType === 1 && (BLOCK_CHILDREN.has(tagOf(sibling as Element)) || tagOf(sibling as Element) === 'li'))) {
    let text = '';
    for (let node: Node | null = sibling; node; node = node.nextSibling) {
      if (node.nodeType === 1 && (BLOCK_CHILDREN.has(tagOf(node as Element)) || tagOf(node as Element) === 'li')) break;
      text += node.textContent ?? '';
    }
    if (normalizeSpace(text)) return { line: heading.parentElement, text: normalizeSpace(text) };
  }
  let passed = false;
  let stop = false;
  let found: Element | undefined;
  walkElements(root, (element) => {
    if (found || stop) return 'skip';
    if (element === heading) {
      passed = true;
      return 'skip';
    }
    if (!passed) return undefined;
    const tag = tagOf(element);
    if (!holdsText(element)) return 'skip';
    if (/^(?:h[1-6]|p|table|blockquote)$/.test(tag) || isTextBlock(element) || (tag === 'div' && leadingRun(element))) {
      stop = true;
      return 'skip';
    }
    // A list lays out the declaration only when its items hold blocks of the page (Javadoc's blockList).
    if (/^(?:ul|ol|dl)$/.test(tag)) return [...element.children].some(isLayoutItem) ? undefined : 'skip';
    if (tag === 'pre' || !hasBlockInside(element)) {
      found = element;
      return 'skip';
    }
    return undefined;
  });
  return found ? { line: found, text: normalizeSpace(found.textContent) } : undefined;
}

/** The text of `element` with a line break read as a space ("Uses of Package<br>org.jsoup"). */
function textWithBreaks(element: Element): string {
  let out = '';
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 3) out += node.textContent ?? '';
    else if (node.nodeType === 1) out += tagOf(node as Element) === 'br' ? ' ' : textWithBreaks(node as Element);
  }
  return out;
}

/** The text of `element` with its elements set apart (a badge written against a name: "Optional" + "description"). */
function spacedText(element: Element): string {
  let out = '';
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 3) out += node.textContent ?? '';
    else if (node.nodeType === 1) out += ` ${spacedText(node as Element)} `;
  }
  return out;
}

/** Whether a block holds another block (it is a wrapper, not a line). */
function hasBlockInside(element: Element): boolean {
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) if (BLOCK_CHILDREN.has(tagOf(child)) || tagOf(child) === 'li') return true;
  return false;
}

// Elements that lay out blocks: a `div` holding one of them is a container, not a paragraph.
const BLOCK_CHILDREN = new Set(['p', 'div', 'ul', 'ol', 'dl', 'table', 'pre', 'blockquote', 'section', 'article', 'aside', 'nav', 'header', 'footer', 'figure', 'form', 'details', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * A `div` of running text is a paragraph whatever element the generator wrote it with (Javadoc's
 * `<div class="block">A HTML Document.</div>`): text of its own and no block inside.
 */
function isTextBlock(element: Element): boolean {
  if (tagOf(element) !== 'div') return false;
  let text = false;
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 3) text ||= /[\p{L}\p{N}]/u.test(node.textContent ?? '');
    else if (node.nodeType === 1 && BLOCK_CHILDREN.has(tagOf(node as Element))) return false;
  }
  return text;
}

/** The text a block holds directly before its first block inside, when some of it is its own (not only inside elements). */
function leadingRun(element: Element): string {
  let out = '';
  let own = false;
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 3) {
      own ||= /[\p{L}\p{N}]/u.test(node.textContent ?? '');
      out += node.textContent ?? '';
    } else if (node.nodeType === 1) {
      if (BLOCK_CHILDREN.has(tagOf(node as Element))) break;
      out += node.textContent ?? '';
    }
  }
  return own ? normalizeSpace(out) : '';
}

/**
 * A heading that names one member, over a code block declaring it: the block's first line holds
 * the name as a word of its own, after a type or before its parameters ("public boolean
 * hasInputStream()" under "hasInputStream").
 */
function isMemberEntry(heading: Element): boolean {
  const name = normalizeSpace(heading.textContent).replace(SECTION_MARKS, '');
  if (!name || name.includes(' ')) return false;
  let next = nextShown(heading);
  while (next && tagOf(next) !== 'pre' && next.childElementCount === 1) next = next.firstElementChild;
  if (!next || tagOf(next) !== 'pre') return false;
  // Javadoc writes a zero-width space between a name and its parameters.
  const first = ((next.textContent ?? '').split('\n').find((line) => line.trim()) ?? '').replaceAll('\u200b', '').trim();
  for (let at = first.indexOf(name); at !== -1; at = first.indexOf(name, at + 1)) {
    const rest = first.slice(at + name.length);
    if (/[\w$]/.test(first.charAt(at - 1)) || /^[\w$]/.test(rest)) continue;
    if (at > 0 || rest.trimStart().startsWith('(')) return true;
  }
  return false;
}

/**
 * A list item that lays out the page's blocks rather than being an item of a list: it holds a
 * heading, a table, a code block or a rule (Javadoc writes its whole class header and member
 * summaries into `<ul class="blockList"><li>`).
 */
function isLayoutItem(item: Element): boolean {
  // A walk, as `querySelector('h1, …, hr')` would (template contents passed over): the selector
  // list lower-cased each element's name once per alternative, for every item of every list.
  let found = false;
  walkElements(item, (element) => {
    if (found) return 'skip';
    const tag = tagOf(element);
    if (LAYOUT_TAGS.has(tag)) found = true;
    return found || tag === 'template' ? 'skip' : undefined;
  });
  return found;
}
const LAYOUT_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'pre', 'hr']);

/** Whether a link leads to a place on this page (`#…`, or this page's URL with a fragment, as cleaning writes it). */
function linksHere(link: Element, here: string | undefined): boolean {
  const href = link.getAttribute('href') ?? '';
  const hash = href.indexOf('#');
  return hash === 0 || (hash > 0 && href.slice(0, hash) === here);
}

/**
 * A footnote's mark in running text ("[1]", a superscript "1"): the DPUB role `doc-noteref`, a
 * footnote-reference class (Sphinx, mdBook, pandoc, Python-Markdown), remark's
 * `data-footnote-ref`, or a superscript holding nothing but a short link to this page.
 */
function isNoteRef(element: Element, here: string | undefined): boolean {
  if (element.getAttribute('role') === 'doc-noteref' || element.hasAttribute('data-footnote-ref')) return true;
  if (/(?:^|[\s_-])(?:footnote-?ref(?:erence)?|noteref)(?:$|[\s_-])/i.test(element.getAttribute('class') ?? '')) return true;
  if (tagOf(element) !== 'sup' || element.children.length !== 1) return false;
  const link = element.firstElementChild as Element;
  return tagOf(link) === 'a' && linksHere(link, here) && /^\[?[\p{L}\p{N}]{1,4}\]?$/u.test(normalizeSpace(element.textContent));
}

/**
 * The text a reader reads as the paragraph, footnote marks left out: a description that ends
 * "…run-time.1 Semantic rules…" or starts "to the shell. [1] Since…" shows the mark as a word.
 */
function proseOf(element: Element, here: string | undefined): string {
  if (!element.querySelector('a, sup')) return element.textContent ?? '';
  let out = '';
  // The spaces around a mark are the mark's when closing punctuation follows it ("JavaScript [1] ).").
  let dropped = false;
  const read = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        let text = child.textContent ?? '';
        if (dropped && /^\s*[)\]}.,;:!?]/.test(text)) {
          out = out.trimEnd();
          text = text.trimStart();
        }
        if (text) dropped = false;
        out += text;
      } else if (child.nodeType === 1) {
        if (isNoteRef(child as Element, here)) dropped = true;
        else read(child);
      }
    }
  };
  read(element);
  return out;
}

/**
 * The paragraph's text without a closing link to further down the same page after its last
 * sentence ("A convenience header… More..."): a pointer to the page's own details is not part of
 * what it says.
 */
function withoutReadMore(paragraph: Element, text: string, here: string | undefined): string {
  let last: Node | null = paragraph.lastChild;
  while (last && last.nodeType === 3 && !(last.textContent ?? '').trim()) last = last.previousSibling;
  if (last?.nodeType !== 1 || tagOf(last as Element) !== 'a' || !linksHere(last as Element, here)) return text;
  const label = normalizeSpace(last.textContent);
  // A permalink mark ("#", "¶") is no pointer to read on; cleaning takes it away. The link stands
  // after a finished sentence: one that ends a sentence ("… see Options") is the sentence's.
  if (!/\p{L}/u.test(label) || !text.endsWith(label)) return text;
  const before = text.slice(0, -label.length).trimEnd();
  return /[.!?]$/.test(before) ? before : text;
}

/** A block of nothing but links to places on this page (`#…`, or made absolute by cleaning), one or more. */
function isMemberIndex(element: Element, here: string | undefined): boolean {
  const children = [...element.children];
  if (!children.length) return false;
  for (const child of children) if (tagOf(child) !== 'a' || !linksHere(child, here)) return false;
  for (let node = element.firstChild; node; node = node.nextSibling) if (node.nodeType === 3 && (node.textContent ?? '').trim()) return false;
  return true;
}

/** Trimmed to about 300 chars at the end of a sentence where one ends far enough in, else on a word. */
function trimToSentence(text: string): string {
  if (text.length <= MAX_DESCRIPTION) return text;
  let end = -1;
  for (const match of text.slice(0, MAX_DESCRIPTION + 1).matchAll(SENTENCE_END)) end = match.index + 1;
  return end >= MAX_DESCRIPTION / 2 ? text.slice(0, end) : truncateOnWord(text, MAX_DESCRIPTION);
}

/** A complete sentence too short for a lead paragraph; not a label ("Since: 6.0.0", "Source code: x.py"). */
function shortSentence(text: string): string | undefined {
  if (!/[.!?]$/.test(text) || /^[^\s:]+(?:\s[^\s:]+)?:\s/.test(text) || !/^["“‘(]?[\p{Lu}\d]/u.test(text)) return undefined;
  return text;
}

/**
 * The page's first text, right after a code block, when short: the brief under the page's
 * declaration, however it is cased or stopped (Javadoc's "Common methods for Requests and
 * Responses", "css-compatible Evaluator for :eq (css :nth-child)"). A label ("Since: 1.2") or
 * what isWeakDescription refuses is none.
 */
function briefAfterDeclaration(paragraph: Element, text: string): string | undefined {
  let before = paragraph.previousElementSibling;
  while (before && !normalizeSpace(before.textContent)) before = before.previousElementSibling;
  if (!before || (tagOf(before) !== 'pre' && !(before.children.length === 1 && before.querySelector('pre'))) || isWeakDescription(text)) return undefined;
  return /^[^\s:]+(?:\s[^\s:]+)?:\s/.test(text) ? undefined : text;
}

/** A list item that is prose: sentences of its own words, not a link or a label. Its first sentences. */
function proseItem(item: Element): string | undefined {
  // An item holding blocks (a table, a nested list, a heading) is a container of its own, not prose.
  if (item.querySelector('table, ul, ol, dl, pre, h1, h2, h3, h4, h5, h6, blockquote')) return undefined;
  const text = normalizeSpace(item.textContent);
  if (text.length < MIN_PARAGRAPH_CHARS || text.split(' ').length < MIN_PARAGRAPH_WORDS || !/[.!?]/.test(text)) return undefined;
  if (wordCount(proseOutsideCode(item)) < 0.6 * wordCount(text)) return undefined;
  if (isWeakDescription(text) || isSignature(text, proseOutsideCode(item))) return undefined;
  return text;
}

/** The next sibling that shows something: index anchors and empty wrappers are passed over. */
function nextShown(element: Element): Element | null {
  let next = element.nextElementSibling;
  while (next && !normalizeSpace(next.textContent) && !next.querySelector('img')) next = next.nextElementSibling;
  return next;
}

// An example short enough to be read as part of a sentence ("typing `mit-scheme` at the prompt").
const MAX_INLINE_EXAMPLE = 80;

/** The one-line code of an example block (`pre`, or a wrapper of one `pre`), else undefined. */
function oneLineExample(element: Element | null): string | undefined {
  if (!element) return undefined;
  const pre = tagOf(element) === 'pre' ? element : element.querySelectorAll('pre').length === 1 && !element.querySelector('p') ? element.querySelector('pre') : null;
  const code = (pre?.textContent ?? '').trim();
  return code && !code.includes('\n') && code.length <= MAX_INLINE_EXAMPLE ? code : undefined;
}

const ENDS_SENTENCE = /[.!?:：…]$/;
const ENDS_CLAUSE = /[.!?…]$/;

/**
 * Words that carry a sentence on, never start one: after "… by typing the command:" and an
 * example, "to the shell." or "at the prompt." continues it, where a name in lower case starts a
 * new one ("reStructuredText is great…").
 */
const CARRIES_ON = /^(?:to|at|in|on|into|from|with|and|or|then|which|where|as|for|followed)\b/;

/** Whether the text after an example continues the sentence the text before it, ending `before`, broke. */
function carriesOn(before: string, after: string): boolean {
  if (!/^\p{Ll}/u.test(after)) return false;
  if (!ENDS_SENTENCE.test(before)) return true;
  return !ENDS_CLAUSE.test(before) && CARRIES_ON.test(after);
}

/**
 * A paragraph that begins in lower case right after an example that broke a sentence: the
 * paragraph before the example stops with no mark ("… by typing"), or with a colon when the
 * paragraph goes on with a word that carries a sentence on ("… the command:", example, "to the
 * shell."). After a finished sentence ("… like this:") a lower-case start is a name
 * ("reStructuredText is great…").
 */
function continuesAfterExample(paragraph: Element, text: string): boolean {
  if (!/^\p{Ll}/u.test(text)) return false;
  const parent = paragraph.parentElement;
  if (!parent) return false;
  let before: Element | null = null;
  let start: Element | null = null;
  for (let child = parent.firstElementChild; child && child !== paragraph; child = child.nextElementSibling) {
    if (!normalizeSpace(child.textContent)) continue;
    start = before;
    before = child;
  }
  if (!before || !start || (tagOf(before) !== 'pre' && !before.querySelector('pre'))) return false;
  return tagOf(start) === 'p' && carriesOn(normalizeSpace(start.textContent), text);
}

/** "Scheme is invoked by typing" + a one-line example + "at the prompt. …" read as one text. */
function sentenceAcrossExample(paragraph: Element, text: string, here: string | undefined): string | undefined {
  if (ENDS_CLAUSE.test(text)) return undefined;
  const example = nextShown(paragraph);
  const code = oneLineExample(example);
  const rest = code && example ? nextShown(example) : null;
  if (!code || !rest || tagOf(rest) !== 'p') return undefined;
  const after = normalizeSpace(proseOf(rest, here));
  return carriesOn(text, after) ? `${text} ${code} ${after}` : undefined;
}

// Entries of a contents list or table named in a description, and the length of each.
const MAX_CONTENTS = 6;
const MAX_CONTENTS_ENTRY = 60;
const MIN_CONTENTS = 2;

/**
 * What a page without prose holds, read from what opens its content (before any paragraph of
 * prose or definition list of members): the entries of its first list whose items open with a link
 * (a chapter's contents, a synopsis of members), of its first definition list of such terms (a
 * DocBook contents) or of its first table of three rows or more (an
 * index, a table of commands), read from the row's header cell or else its first cell with text.
 * An alphabet bar ("A B C … All") names nothing; numbered sub-entries ("1 (Function)") repeat the
 * entry above them. Tables of the page's own members (a row linking to the member's place below)
 * are read together, each named by the heading above it when there is one ("Covers: Request
 * (Constructor Summary); cookie, header (Method Summary)"): one group of a class's members may be
 * a single constructor. A definition list of labelled facts ("Enclosing class:") is the page's
 * header, passed over.
 */
function contentsOf(root: Element, here?: string): string | undefined {
  let found: string[] | undefined;
  let stop = false;
  const groups: { label?: string; names: string[] }[] = [];
  let tree: string[] | undefined;
  let label: string | undefined;
  const memberCount = () => groups.reduce((sum, group) => sum + group.names.length, 0);
  walkElements(root, (element) => {
    if (found || stop || memberCount() >= MAX_CONTENTS) return 'skip';
    const tag = tagOf(element);
    if (tag === 'nav' || tag === 'header' || tag === 'footer' || tag === 'pre') return 'skip';
    // Contents open the page: after prose or a member's definition, a list or table is the member's.
    const prose = tag === 'p' || isTextBlock(element) ? normalizeSpace(element.textContent) : tag === 'div' ? leadingRun(element) : '';
    // A sentence introducing what follows ("Here are the data structures:") opens the contents.
    if (prose.split(' ').length >= MIN_DESCRIPTION_WORDS && !/[:：]$/.test(prose)) stop = true;
    if (stop) return 'skip';
    if (/^h[2-6]$/.test(tag)) {
      label = normalizeSpace(element.textContent).replace(SECTION_MARKS, '') || undefined;
      return 'skip';
    }
    // The page's index of its members (TypeDoc's row of links under "Properties").
    // An index under no heading of its own (a jump bar of letters or of the page's sections) names nothing.
    if (isMemberIndex(element, here)) {
      const names = [...new Set([...element.children].map((link) => normalizeSpace(link.textContent)).filter((name) => [...name].length > 1))];
      if (names.length && label) groups.push({ label, names });
      label = undefined;
      return 'skip';
    }
    let entries: string[] = [];
    if (tag === 'ul' || tag === 'ol') {
      const items = [...element.children].filter((child) => tagOf(child) === 'li');
      // A list that lays out the page's blocks (Javadoc's `<ul class="blockList">`) is read through.
      if (items.some(isLayoutItem)) return undefined;
      if (groups.length || !items.length) return 'skip';
      const top = items.every(opensWithLink) ? items.map((li) => normalizeSpace(li.querySelector('a')?.textContent)) : [];
      if (top.length >= MIN_CONTENTS || !element.querySelector('ul, ol')) {
        if (!top.length) return 'skip';
        entries = top;
      } else {
        // A tree with fewer entries at its top (a class hierarchy, whose labels may be plain text:
        // "java.lang.Object") is named by the entries that link, in it and in the trees right after it.
        const trees = [element];
        for (let more = nextShown(element); more && /^(?:ul|ol)$/.test(tagOf(more)); more = nextShown(more)) trees.push(more);
        // Read only when nothing else names the page: a class page's chain of supertypes has this shape too.
        tree ??= trees.flatMap((tree) => [...tree.querySelectorAll('li')].filter(opensWithLink)).map((li) => normalizeSpace(li.querySelector('a')?.textContent));
        return 'skip';
      }
    } else if (tag === 'dl') {
      const terms = [...element.children].filter((child) => tagOf(child) === 'dt');
      // Labelled facts about the page ("All Implemented Interfaces:", "Author:") are its header.
      if (terms.length && terms.every((dt) => /[:：]$/.test(normalizeSpace(dt.textContent)))) return 'skip';
      // A contents of terms (DocBook's `<dl class="toc"><dt><a>1. Introduction</a></dt>`).
      if (groups.length || !terms.length || !terms.every(opensWithLink)) {
        stop = true;
        return 'skip';
      }
      entries = terms.map((dt) => normalizeSpace(dt.querySelector('a')?.textContent));
    } else if (tag === 'table') {
      // A row of header cells only is the table's head; a header cell beside data (`<th
      // scope="row">`) names its row.
      const rows = [...element.querySelectorAll('tr')].filter((row) => row.querySelector('td'));
      // A table of the page's own members (a type, then the member's name linking to its place
      // below) is named by those links: the type in the first cell is code, not a topic, and a
      // row without such a link is a group's label or a member's note.
      const members = rows.map((row) => [...row.querySelectorAll('a[href]')].find((link) => linksHere(link, here)));
      // A bar of letters linking to the page's places ("Jump to: A B C") names nothing.
      const names = [...new Set(members.flatMap((link) => (link ? [normalizeSpace(link.textContent)] : [])).filter((name) => [...name].length > 1))];
      // Three members or more name the page alone; fewer are one group of several (a class's
      // one constructor, then its methods).
      if (members.filter(Boolean).length >= 3 && !groups.length) entries = members.flatMap((link) => (link ? [normalizeSpace(link.textContent)] : []));
      else if (names.length) {
        groups.push({ label, names });
        label = undefined;
        return 'skip';
      } else {
        // Rows of header cells only (a table's head, a module's facts) name nothing.
        const data = rows.filter((row) => !row.querySelector('th'));
        if (groups.length || data.length < 3) return 'skip';
        entries = data.map((row) => normalizeSpace([...row.children].map((cell) => cell.textContent ?? '').find((cell) => normalizeSpace(cell))));
      }
    } else return undefined;
    // A section number ("2.1.", "A.") is the entry's place, not its name.
    // A tree's fold mark ("▼ build") is no part of the name either.
    entries = entries.map(entryName);
    const named = [...new Set(entries.filter((entry) => /^[^\d\s]/u.test(entry) && [...entry].length > 1))];
    if (named.length >= MIN_CONTENTS && entries.filter((entry) => [...entry].length <= 1).length * 2 < entries.length) {
      found = named.slice(0, MAX_CONTENTS).map(shortEntry);
    }
    return 'skip';
  });
  if (found) return found.join(', ');
  if (!groups.length) {
    const named = [...new Set((tree ?? []).map(entryName).filter((entry) => /^[^\d\s]/u.test(entry) && [...entry].length > 1))];
    return named.length >= MIN_CONTENTS ? named.slice(0, MAX_CONTENTS).map(shortEntry).join(', ') : undefined;
  }
  let room = MAX_CONTENTS;
  const parts: string[] = [];
  for (const group of groups) {
    if (room <= 0) break;
    const names = group.names.slice(0, room).map(shortEntry);
    room -= names.length;
    parts.push(`${names.join(', ')}${group.label ? ` (${group.label})` : ''}`);
  }
  // A single member with no group to name it says too little to be read as the page's contents.
  return parts.length > 1 || groups[0]?.label || (groups[0]?.names.length ?? 0) >= MIN_CONTENTS ? parts.join('; ') : undefined;
}

function entryName(entry: string): string {
  return entry.replace(/[:;,.]$/, '').trimEnd().replace(/^(?:\d+|\p{Lu})(?:\.\d+)*\.\s+/u, '').replace(/^\p{So}+\s*/u, '');
}

function shortEntry(entry: string): string {
  return entry.length > MAX_CONTENTS_ENTRY ? truncateOnWord(entry, MAX_CONTENTS_ENTRY) : entry;
}

/** Whether a list item opens with a link (after any keyword: "class Chunk where"), as a contents entry does. */
function opensWithLink(item: Element): boolean {
  const link = item.querySelector('a[href]');
  // A link in a nested list is that list's entry, not this item's name.
  if (!link || link.closest('li, dt') !== item) return false;
  const text = normalizeSpace(item.textContent);
  const before = text.indexOf(normalizeSpace(link.textContent));
  // A qualifier written against the link is part of its name ("org.jsoup.helper." + DataUtil).
  return before >= 0 && (before <= 12 || /^\S+[.:/]$/.test(text.slice(0, before)));
}

// What a signature is written with, outside its links: Haskell's `::`, arrows, a parameter list
// right after a name. A bar's "[(dir)]" is a link's text and no mark.
const SIGNATURE_MARKS = /::|->|=>|[\p{L}\p{N}_]\(/u;
// Words a signature spells outside its links and code (parameter names, the member's own name)
// are under this share of its words; prose is mostly its own words.
const SIGNATURE_OWN_WORDS = 0.4;
const wordCount = (text: string): number => text.match(/\p{L}[\p{L}\p{N}_]+/gu)?.length ?? 0;

/**
 * Whether a block is a definition's signature rather than prose ("newline :: (MonadParsec e s m,
 * Token s ~ Char) => m (Token s) Source"): written with signature marks, and most of its words are
 * links to types or code. `own` is the block's text outside links and code.
 */
export function isSignature(text: string, own: string): boolean {
  if (!SIGNATURE_MARKS.test(own)) return false;
  const all = wordCount(text);
  return all > 0 && wordCount(own) < SIGNATURE_OWN_WORDS * all;
}

/**
 * The paragraphs of `root` that are a member's definition line: each holds its own anchor target
 * and a link to it (Haddock's `<p class="src"><a id="v:dbg">dbg</a> … <a href="#v:dbg">#</a></p>`).
 * Read before cleaning, which takes such self-links away as permalink marks.
 */
export function definitionLines(root: Element): Set<Element> {
  const out = new Set<Element>();
  // One walk for the paragraphs and one per paragraph for its ids and links: three selector
  // queries per paragraph measured as 2 % of a conversion. Template contents are passed over, as
  // querySelectorAll does.
  walkElements(root, (paragraph) => {
    const tag = tagOf(paragraph);
    if (tag === 'template') return 'skip';
    if (tag !== 'p') return undefined;
    const own = paragraph.getAttribute('id');
    // Made on the first id or link: most paragraphs have neither.
    let ids: Set<string> | undefined;
    if (own) ids = new Set([own]);
    let links: string[] | undefined;
    // linkedom does not close a <p> at a block as a browser does: a paragraph may hold another.
    let holdsParagraph = false;
    walkElements(paragraph, (element) => {
      const inner = tagOf(element);
      if (inner === 'p') holdsParagraph = true;
      const id = element.getAttribute('id');
      if (id !== null) (ids ??= new Set()).add(id);
      if (inner === 'a') {
        const href = element.getAttribute('href');
        if (href !== null) (links ??= []).push(href);
      }
      return inner === 'template' ? 'skip' : undefined;
    });
    if (ids && links) {
      for (const href of links) {
        const hash = href.indexOf('#');
        if (hash >= 0 && ids.has(decodeFragment(href.slice(hash + 1)))) {
          out.add(paragraph);
          break;
        }
      }
    }
    // The walk above saw everything inside; only a paragraph in it needs a visit of its own.
    return holdsParagraph ? undefined : 'skip';
  });
  return out;
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** The text of `element` outside links to somewhere and code. */
function proseOutsideCode(element: Element): string {
  let out = '';
  const visit = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) out += child.textContent ?? '';
      else if (child.nodeType === 1) {
        const tag = tagOf(child as Element);
        if (tag === 'code' || (tag === 'a' && (child as Element).hasAttribute('href'))) out += ' ';
        else visit(child);
      }
    }
  };
  visit(element);
  return out;
}

// Where a sentence ends: its mark, before the next one's capital, digit or quote.
const SENTENCE_END = /[.!?](?=\s+["“‘(]?[\p{Lu}\d])/gu;
const MAX_LIST_ITEMS = 6;

/**
 * A lead paragraph that only introduces what follows, made to read alone: the sentences before
 * the introducing one ("The path module provides utilities for working with paths. It can be
 * accessed using:" → its first sentence), else, when a list follows, the lead with the list's
 * items ("Tally reads three kinds of input: words, lines, records"). Undefined when it is weak
 * for another reason (a copyright line, a version note) or cannot stand alone.
 */
function leadThatIntroduces(text: string, paragraph: Element): string | undefined {
  if (!/[:：]$/.test(text) && !INTRODUCES.test(text)) return undefined;
  let cut = -1;
  for (const match of text.matchAll(SENTENCE_END)) cut = match.index + 1;
  const before = cut > 0 ? text.slice(0, cut) : '';
  if ((before.length >= MIN_PARAGRAPH_CHARS || before.split(' ').length >= MIN_PARAGRAPH_WORDS) && !isWeakDescription(before)) return before;
  const next = listAfter(paragraph);
  if (next && /^(?:ul|ol)$/.test(tagOf(next))) return leadWithItems(text, next);
  return leadWithSections(text, paragraph);
}

/**
 * A lead that introduces the sections after it ("…there are several options:", then "Stack
 * Overflow", "File an Issue") read with their headings: the headings of one level that follow it
 * as siblings, or open the sibling blocks that follow it (Sphinx's `<section><h2>`).
 */
function leadWithSections(text: string, paragraph: Element): string | undefined {
  if (!/[:：]$/.test(text)) return undefined;
  const names: string[] = [];
  let level = 0;
  for (let next = paragraph.nextElementSibling; next && names.length < MAX_LIST_ITEMS; next = next.nextElementSibling) {
    const heading = /^h[2-6]$/.test(tagOf(next)) ? next : next.firstElementChild && /^h[2-6]$/.test(tagOf(next.firstElementChild)) ? next.firstElementChild : null;
    if (!heading) {
      // Something other than a section right after the lead: it introduces that, not sections.
      if (!level) return undefined;
      continue;
    }
    const at = Number(tagOf(heading).charAt(1));
    level ||= at;
    if (at < level) break;
    const name = normalizeSpace(heading.textContent).replace(SECTION_MARKS, '');
    // A letter heading of an index ("- a -") names nothing.
    if (at === level && /\p{L}{2}/u.test(name)) names.push(name.length > 60 ? truncateOnWord(name, 60) : name);
  }
  if (names.length < 2) return undefined;
  const joined = `${text.replace(/[:：]$/, '').trimEnd()}: ${names.join(', ')}`;
  return isWeakDescription(joined) ? undefined : joined;
}

/** The block after a paragraph; a list in a wrapper of its own (DocBook's `<div class="itemizedlist"><ul>`) is that list. */
function listAfter(paragraph: Element): Element | null {
  let next = nextShown(paragraph);
  while (next && next.childElementCount === 1 && tagOf(next) === 'div') next = next.firstElementChild;
  return next;
}

/**
 * An introducing lead read with the one-line example or the definition list it introduces ("start
 * Scheme with these options: mit-scheme --edit"; "…the restart procedure: restart [k]"). Taken
 * only when no paragraph before the members reads alone, which says more than a bare example.
 */
function leadWithExample(text: string, paragraph: Element): string | undefined {
  if (!/[:：]$/.test(text)) return undefined;
  const next = listAfter(paragraph);
  const code = oneLineExample(nextShown(paragraph));
  const lead = text.replace(/[:：]$/, '').trimEnd();
  if (code) return isWeakDescription(`${lead}: ${code}`) ? undefined : `${lead}: ${code}`;
  return next && tagOf(next) === 'dl' ? leadWithItems(text, next) : undefined;
}

/** "Lead: item, item, item" from a list's items or a definition list's terms. */
function leadWithItems(text: string, next: Element): string | undefined {
  const lead = text.replace(/[:：]$/, '').trimEnd();
  const items: string[] = [];
  // A definition list is named by its terms, each without the category it is labelled with ("procedure: restart").
  const wanted = tagOf(next) === 'dl' ? 'dt' : 'li';
  // One definition list after another (Sphinx writes one per directive) are read as one.
  const lists = [next];
  for (let more = nextShown(next); wanted === 'dt' && more && tagOf(more) === 'dl'; more = nextShown(more)) lists.push(more);
  const children = lists.flatMap((list) => [...list.children]);
  for (const item of children) {
    if (items.length >= MAX_LIST_ITEMS) break;
    if (tagOf(item) !== wanted) continue;
    let line = normalizeSpace(item.textContent).replace(SECTION_MARKS, '');
    // An item that is prose is named by its first sentence ("Shell scripts. You might…" → "Shell scripts").
    const end = line.search(/[.!?](?=\s+["“‘(]?[\p{Lu}\d])/u);
    if (end > 0) line = line.slice(0, end);
    while (/[.;,:]$/.test(line)) line = line.slice(0, -1);
    if (wanted === 'dt') line = line.replace(/^\p{L}+:\s+/u, '');
    if (line) items.push(line.length > 60 ? truncateOnWord(line, 60) : line);
  }
  if (!items.length) return undefined;
  const joined = `${lead}: ${items.join(', ')}`;
  return isWeakDescription(joined) ? undefined : joined;
}

// Text that is about the page's legal status, history or layout rather than its subject.
const WEAK_START = /^(?:©|\(c\)\s|copyright\b|see also\b|(?:new|changed|added|removed) in (?:version\b|v?\d)|deprecated (?:since|in)\b|version (?:added|changed)\b|note:|warning:|caution:|important:|tip:|source code:|stability:|previous topic\b|next topic\b|table of contents\b|on this page\b|last (?:updated|modified)\b|edit (?:this|on)\b)/i;
// A sentence that only leads into what follows, or continues the one before it.
const INTRODUCES = /\b(?:the following(?: \w+){0,3}|as follows|below)[.:]?$|^(?:then|next|also|finally|however|and|but|or|so|now)\b/i;
const WEAK_ANYWHERE = /all rights reserved|licensed under the |\bcopyright\s+(?:©|\(c\)|\d{4})/i;
// One sentence that only points elsewhere ("For information about terms used in this document
// see: terminology"): it says where to read, not what the page is.
const POINTS_FROM = /^for (?:more |further )?(?:information|details|help)\b/i;
const POINTS_TO = /\b(?:see|refer to)\b/i;
const pointsElsewhere = (text: string): boolean => POINTS_FROM.test(text) && POINTS_TO.test(text) && !/[.!?]/.test(text.slice(0, -1));
const MIN_DESCRIPTION_WORDS = 4;

/**
 * Whether `text` is a poor description of a page: a copyright or licence line, a version note,
 * a sentence that only points elsewhere ("See also …", "For details see …"), a label, or a sentence that only introduces what follows ("…, for
 * example:"). No description beats one of these.
 */
export function isWeakDescription(text: string | undefined): boolean {
  const clean = normalizeSpace(text);
  // A mark standing alone ("About Ends in .", "Parse — a") is no word.
  const words = clean.split(' ').filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (words.length < MIN_DESCRIPTION_WORDS) return true;
  if (/[:：]$/.test(clean) || INTRODUCES.test(clean)) return true;
  // A row of labels ("All Methods Static Methods Concrete Methods", "A B C D E F") is a tab bar.
  if (!/[.!?…)]$/.test(clean) && words.every((word) => !/\p{Ll}/u.test(word.replace(/^[^\p{L}\p{N}]+/u, '').charAt(0)))) return true;
  return WEAK_START.test(clean) || WEAK_ANYWHERE.test(clean) || pointsElsewhere(clean);
}

/**
 * Whether a meta description only repeats the page's `<title>` (Texinfo writes
 * `<meta name="description" content="Scanner Options (Tally Manual)">` on every node): it says
 * nothing the title does not, and the page's lead says more.
 */
export function echoesTitle(description: string, headTitle: string | undefined): boolean {
  const plain = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  const title = plain(headTitle ?? '');
  return title !== '' && title.includes(plain(description));
}

/** A description from meta tags, trimmed like the paragraph fallback. */
export function trimDescription(text: string | undefined): string | undefined {
  const clean = normalizeSpace(text);
  return clean ? truncateOnWord(clean, MAX_DESCRIPTION) : undefined;
}
