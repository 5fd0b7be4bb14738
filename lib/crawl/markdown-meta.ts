/**
 * Title, description and links of a page that arrived as Markdown (a twin, or a
 * server that negotiated text/markdown), where there is no HTML to read them from.
 *
 * The page is untrusted and can be megabytes: every pattern here is linear in its input (a
 * Markdown link's text cannot hold `[`, its target cannot hold an unpaired `(`; headings and
 * front matter are read line by line), so no page can make one backtrack for long (#28).
 */
import { isSignature, isWeakDescription } from '../convert/page-text';

const FRONT_MATTER = /^---\r?\n[\s\S]*?\r?\n---\r?\n/;
// `[text](target)` and `![alt](src)`: the target may hold one level of parentheses (Wikipedia's
// `Foo_(bar)`). Replaced by its text.
const MIN_SENTENCE_WORDS = 8;
const LINK = /!?\[([^[\]]*)\]\((?:[^()]|\([^()]*\))*\)/g;

/** `# Title`, `# Title #` (CommonMark's closing run) → `Title`; anything else → ''. */
function h1Text(line: string): string {
  if (!/^#\s/.test(line)) return '';
  const text = line.slice(1).trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === 0) return '';
  return end < text.length && /\s/.test(text[end - 1] ?? '') ? text.slice(0, end).trim() : text;
}

/** `title: "Foo"` in front matter → `Foo`. */
function frontMatterTitle(fm: string): string | undefined {
  for (const line of fm.split('\n')) {
    if (!line.startsWith('title:')) continue;
    let value = line.slice('title:'.length).trim();
    if (value.length > 1 && (value[0] === '"' || value[0] === "'")) value = value.slice(1);
    if (value.length > 1 && (value.endsWith('"') || value.endsWith("'"))) value = value.slice(0, -1);
    if (value) return value;
  }
  return undefined;
}

/** The first H1, else front-matter `title:`, else null. */
export function markdownTitle(markdown: string): string | null {
  const fm = FRONT_MATTER.exec(markdown)?.[0];
  const fmTitle = fm ? frontMatterTitle(fm) : undefined;
  let h1 = '';
  for (const line of markdown.replace(FRONT_MATTER, '').split('\n')) {
    h1 = h1Text(line);
    if (h1) break;
  }
  return h1.replace(LINK, '$1').replace(/[`*_]/g, '').trim() || fmTitle || null;
}

/**
 * The first prose paragraph (not a heading, list, quote, table, code or HTML) before any member's
 * signature, trimmed to ~300 chars. A paragraph that begins in lower case right after a code block
 * is the rest of a sentence the example broke, never a lead. A page with no prose before its end
 * is described by what it holds: its first list whose items are links, or line of links (an index
 * of members, named with the heading above it: "Covers: a, b (Properties)."), ("Covers: A, B, C.");
 * so is a page that opens with its own declaration.
 *
 * A lead too short for a paragraph ("Base combining (and, or) evaluator.": a sentence of four
 * words or more) is the page's when nothing longer comes before the page's sections: a heading
 * after it, or a member's declaration (a heading whose code block below declares that name, as
 * Javadoc and rustdoc write each method), ends the search. A paragraph that is only code and links
 * (a list of inherited methods or implemented interfaces) is the page's names, never its lead.
 */
export function markdownDescription(markdown: string): string | undefined {
  // Code blocks are kept as a mark of where they were, for the paragraph after them, and their
  // text in order, to tell a member's declaration.
  const codes: string[] = [];
  const body = markdown.replace(FRONT_MATTER, '').replace(/```[\s\S]*?```/g, (code) => {
    codes.push(code);
    return '\n\n```\n\n';
  });
  let afterCode = false;
  let contents: string[] | undefined;
  let group: string | undefined;
  // After the page's own declaration only its index of members may still describe it.
  let declared = false;
  let short: string | undefined;
  // The name a heading just passed gives, while nothing but a code block has followed it.
  let heading: string | undefined;
  for (const block of body.split(/\n\s*\n/)) {
    const text = block.trim();
    if (!text) continue;
    const followsCode = afterCode;
    afterCode = text === '```';
    const named = heading;
    heading = undefined;
    // A member's entry begins (its name, then its declaration): nothing from here is the page's.
    if (afterCode && declares(codes.shift() ?? '', named)) break;
    if (!contents) {
      const listed = linkList(text);
      contents = listed ?? memberIndex(text, declared ? 1 : 2);
      // An index of members under the heading that names their kind ("Properties") says so.
      if (contents && !listed && named) group = named;
    }
    if (text.startsWith('#')) {
      // The page's sections begin: a short lead before them is the page's.
      if (short !== undefined) break;
      heading = headingName(text);
      continue;
    }
    if (/^([-*+]\s|\d+\.\s|>|\||<|!\[|```|~~~)/.test(text)) continue;
    if (!declared && isDeclaration(text)) {
      declared = true;
      continue;
    }
    // The page's index of its members: what follows is the members' own text.
    if (memberIndex(text, declared ? 1 : 2)) {
      declared = true;
      continue;
    }
    const own = text.replace(LINK, ' ').replace(/`[^`]*`/g, ' ');
    // Names in code and links, and nothing said of them: an inherited-methods or interfaces list.
    const namesOnly = (own.match(/\p{L}{2,}/gu)?.length ?? 0) < 2;
    const plain = text.replace(LINK, '$1').replace(/[`*_]/g, '').replace(/\\(.)/g, '$1').replace(/\s+/g, ' ');
    if (text.length < 40) {
      if (!declared && !namesOnly && !(followsCode && /^\p{Ll}/u.test(plain))) short ??= shortLead(plain);
      continue;
    }
    // A declaration on one line is code, not a lead; the text after it may describe what it declares.
    if (isCodeLine(plain)) continue;
    // A member's signature: the page's lead, if any, came before it; what follows is the member's.
    if (declared) break;
    if (isSignature(plain, own)) return short;
    if (namesOnly) continue;
    if (followsCode && /^\p{Ll}/u.test(plain)) continue;
    // A few words with no sentence in them are a label or a declaration ("class Chunk where Source"),
    // or at most a short lead ("Evaluator for any / all element matching").
    if (!/[.!?…]/.test(plain) && plain.split(' ').length < MIN_SENTENCE_WORDS) {
      short ??= shortLead(plain);
      continue;
    }
    // A copyright line, a version note or a sentence introducing a list is no description.
    if (isWeakDescription(plain)) continue;
    return trimLead(plain);
  }
  return short ?? (contents ? `Covers: ${contents.join(', ')}${group ? ` (${group})` : ''}.` : undefined);
}

/**
 * A few words that can stand as a lead ("HTML document structure nodes.", Javadoc's unpunctuated
 * "Evaluator for tag name"): opening with a capital; not a label ("Since: 1.2"), nor what
 * isWeakDescription refuses (under four words, a row of capitalised labels, a line ending in a colon).
 */
function shortLead(plain: string): string | undefined {
  if (!/^["“‘(]?[\p{Lu}\d]/u.test(plain) || /^[^\s:]+(?:\s[^\s:]+)?:\s/.test(plain)) return undefined;
  return isWeakDescription(plain) ? undefined : plain;
}

/** A heading's text as a name: links, code and emphasis marks and escapes taken off (`PUBLIC_KEY` keeps its underscore). */
function headingName(line: string): string {
  let i = 0;
  while (line[i] === '#') i++;
  return line.slice(i).replace(LINK, '$1').replace(/[`*]/g, '').replace(/\\(.)/g, '$1').trim();
}

/**
 * Whether a code block declares `name`: its first line holds it as a whole word, after the words
 * that qualify it or before its parameters (`public boolean matches(Element root)` under "matches",
 * `public static final String PUBLIC_KEY` under "PUBLIC_KEY") — not as the command a line starts
 * with (`pip install tally` under "pip"). A one-word heading over code declaring it is a member's
 * entry, and what follows is the member's text.
 */
function declares(code: string, name: string | undefined): boolean {
  if (!name || name.includes(' ')) return false;
  // The block starts with its fence line (```java): the declaration is the first line after it.
  // Javadoc writes a zero-width space between a name and its parameters.
  const first = (code.split('\n').slice(1).find((line) => line.trim()) ?? '').replaceAll('\u200b', '').trim();
  for (let at = first.indexOf(name); at !== -1; at = first.indexOf(name, at + 1)) {
    const before = first.charAt(at - 1);
    const rest = first.slice(at + name.length);
    if (/[\w$]/.test(before) || /^[\w$]/.test(rest)) continue;
    if (at > 0 || rest.trimStart().startsWith('(')) return true;
  }
  return false;
}

const MAX_LEAD = 300;
// Where a sentence ends: its mark, before the next one's capital, digit or quote.
const SENTENCE_END = /[.!?](?=\s+["“‘(]?[\p{Lu}\d])/gu;

/** About 300 chars, ending at a sentence where one ends far enough in, else at the last word that fits. */
function trimLead(plain: string): string {
  if (plain.length <= MAX_LEAD) return plain;
  const head = plain.slice(0, MAX_LEAD + 1);
  let end = -1;
  for (const match of head.matchAll(SENTENCE_END)) end = match.index + 1;
  if (end >= MAX_LEAD / 2) return plain.slice(0, end);
  return `${withoutLastWord(plain.slice(0, MAX_LEAD))}…`;
}

/** `text` without its last, cut word and the spaces before it (unchanged when it is one word); read without a pattern, which backtracked on runs of spaces. */
function withoutLastWord(text: string): string {
  let i = text.length;
  while (i > 0 && !/\s/.test(text[i - 1] ?? '')) i--;
  return i === 0 ? text : text.slice(0, i).trimEnd();
}

// Entries of a contents list named in a description.
const MAX_CONTENTS = 6;
// `- [Text](target)` opening a list item; the text cannot hold brackets, so the match is linear.
const LINK_ITEM = /^[-*+]\s+\[([^[\]\n]{2,80})\]\(/;

/** The line without its trailing spaces and Markdown line-break backslashes (a loop: a pattern would be quadratic). */
function trimCodeEnd(line: string): string {
  let end = line.length;
  while (end > 0 && /[\\\s]/.test(line.charAt(end - 1))) end--;
  return line.slice(0, end);
}

/**
 * A declaration written as a paragraph of lines (TypeDoc's "interface Options {", "  name: string;",
 * "}"): braces open and close it and every line ends as code does, never as a sentence.
 */
function isDeclaration(block: string): boolean {
  const lines = block.split('\n').map(trimCodeEnd).filter(Boolean);
  if (lines.length < 2 || !/\{$/.test(lines[0] ?? '') || !/^\}/.test(lines[lines.length - 1] ?? '')) return false;
  return lines.slice(1, -1).every((line) => /[;,{}]$/.test(line));
}

// One call with its parameters and an optional return type ("new Option(flags: string): Option"),
// or a name given a union of types ("Source: | 'default' | 'env' | undefined").
const CALL_LINE = /^(?:[\w$]+ ){0,2}[\w$.]+(?:<[^<>]*>)?\((?:[^()]|\([^()]*\))*\)(?:\s*(?::|=>|->)[^()]*)?$/u;
const UNION_LINE = /^[\w$]+(?:<[^<>]*>)?: [^.!?]*\| /u;

function isCodeLine(plain: string): boolean {
  return !/[.!?]\s+\p{Lu}/u.test(plain) && (CALL_LINE.test(plain) || UNION_LINE.test(plain));
}

// An index of the page's members written as one line of links to places on it
// ("[args](…#args) [commands](…#commands)"); a line of badges links to other pages.
const INDEX_LINE = /^(?:\[([^[\]\n]{1,80})\]\([^()\s#]*#[^()\s]*\)[ \t]*)+$/;
const INDEX_LINK = /\[([^[\]\n]{1,80})\]\(([^()\s#]*)#/g;

/** The link texts of a paragraph that is nothing but `least` links or more to places on one page, else undefined. */
function memberIndex(block: string, least: number): string[] | undefined {
  if (block.includes('\n') || !INDEX_LINE.test(block)) return undefined;
  const links = [...block.matchAll(INDEX_LINK)];
  if (new Set(links.map((match) => match[2])).size !== 1) return undefined;
  const names = [...new Set(links.map((match) => (match[1] ?? '').replace(/[`*_]/g, '').trim()).filter(Boolean))];
  return names.length >= least ? names.slice(0, MAX_CONTENTS) : undefined;
}

/** The entries of a list whose every item opens with a link (a page's contents), else undefined. */
function linkList(block: string): string[] | undefined {
  const items = block.split('\n').filter((line) => /^[-*+]\s/.test(line));
  if (items.length < 2 || items.length !== block.split('\n').filter((line) => line.trim() && !/^\s/.test(line)).length) return undefined;
  const names: string[] = [];
  for (const item of items) {
    const name = LINK_ITEM.exec(item)?.[1]?.replace(/[`*_]/g, '').trim();
    if (!name) return undefined;
    if (names.length < MAX_CONTENTS && !names.includes(name)) names.push(name);
  }
  return names;
}

/** Link targets in Markdown ([text](url), <https://…> autolinks), resolved against the page URL. */
export function markdownLinks(markdown: string, baseUrl: string): string[] {
  const out: string[] = [];
  // `](target)`, `](<target>)`, `](target "title")`; the target may hold one level of parentheses.
  // The optional `<` is read before the target (which cannot start with one) so that no two
  // quantifiers can share the same characters.
  const patterns = [
    /\]\(\s*<?((?:[^()\s<>]|\([^()\s]*\))+)>?(?:\s+"[^"()]*")?\s*\)/g,
    /<(https?:\/\/[^<>\s]+)>/g,
  ];
  for (const re of patterns) {
    for (const m of markdown.matchAll(re)) {
      const target = m[1];
      if (!target) continue;
      try {
        out.push(new URL(target, baseUrl).href);
      } catch {
        // Not a URL (e.g. a footnote marker); nothing to follow.
      }
    }
  }
  return out;
}
