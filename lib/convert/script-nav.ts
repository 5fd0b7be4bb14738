/**
 * Navigation a script builds from data (Doxygen's tab bar from menudata.js, menus drawn from a
 * `var menu = {…}` file): the page's HTML holds no links to the site's sections, only a script that
 * fills an empty element. The data is read as data — the script's object or array literals are
 * parsed as JSON5, never run — and a tree of entries that each have a label and a page URL is the
 * site's navigation, by shape: whatever the keys are called, an entry is an object with one string
 * that is a label, one that resolves to a page of the site, and optionally an array of such
 * entries (its children).
 */
import JSON5 from 'json5';
import type { NavLink } from './nav-tree';
import { normalizeSpace } from './walk';

// Scripts a page loads whose data may be its navigation: a few per page, read on the start page only.
export const MAX_NAV_SCRIPTS = 8;
// A navigation data file is small; a library is not navigation.
export const MAX_NAV_SCRIPT_CHARS = 512 * 1024;
// Fewer entries than this is a menu of a widget, not the site's navigation.
const MIN_ENTRIES = 3;
const MAX_LABEL_CHARS = 80;

/** The same-site scripts a document loads (`<script src>`), in document order, at most MAX_NAV_SCRIPTS. */
export function scriptSources(document: Document, baseUrl: string | undefined, pageUrl: string): string[] {
  const origin = safeOrigin(pageUrl);
  const out: string[] = [];
  for (const script of document.getElementsByTagName('script')) {
    const src = script.getAttribute('src');
    if (!src) continue;
    let url: URL;
    try {
      url = new URL(src, baseUrl ?? pageUrl);
    } catch {
      continue;
    }
    if (url.origin !== origin || !/^https?:$/.test(url.protocol)) continue;
    url.hash = '';
    if (!out.includes(url.href)) out.push(url.href);
    if (out.length >= MAX_NAV_SCRIPTS) break;
  }
  return out;
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The balanced literal starting at `start` (`{` or `[`), strings skipped; undefined if it never closes. */
function literalAt(text: string, start: number): string | undefined {
  let depth = 0;
  let quote = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return undefined;
}

/** Every object or array literal assigned in the script (`x = {…}`, `x: [...]` at the top). */
function dataLiterals(text: string): unknown[] {
  const out: unknown[] = [];
  const assignment = /(?:^|[^=!<>])=\s*([[{])/g;
  let match: RegExpExecArray | null;
  while ((match = assignment.exec(text))) {
    const start = match.index + match[0].length - 1;
    const literal = literalAt(text, start);
    if (!literal) break;
    try {
      out.push(JSON5.parse(literal));
    } catch {
      // Code, not data: nothing to read.
    }
    assignment.lastIndex = start + literal.length;
  }
  return out;
}

interface Entry {
  title: string;
  url: string;
  children: Entry[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string that reads as a link target: no spaces, a path or a file name. */
function looksLikeHref(value: string): boolean {
  return value.length > 0 && !/\s/.test(value) && (/[/#]/.test(value) || /\.[a-z0-9]{2,5}(?:[?#]|$)/i.test(value));
}

/** One object as an entry: a label, a page URL, its children; undefined when it is not shaped so. */
function entryOf(value: unknown, base: string): Entry | undefined {
  if (!isRecord(value)) return undefined;
  let title: string | undefined;
  let url: string | undefined;
  const children: Entry[] = [];
  for (const field of Object.values(value)) {
    if (typeof field === 'string') {
      if (url === undefined && looksLikeHref(field)) {
        try {
          url = new URL(field, base).href;
        } catch {
          // Not a URL after all.
        }
      } else if (title === undefined) {
        const text = normalizeSpace(field);
        if (text && text.length <= MAX_LABEL_CHARS) title = text;
      }
    } else if (Array.isArray(field)) {
      for (const child of field) {
        const entry = entryOf(child, base);
        if (entry) children.push(entry);
      }
    }
  }
  if (title === undefined || (url === undefined && children.length === 0)) return undefined;
  return { title, url: url ?? '', children };
}

/** The entries of a literal: its array of entries, or the children of its root object. */
function entriesOf(value: unknown, base: string): Entry[] {
  const list = Array.isArray(value) ? value : isRecord(value) ? Object.values(value).find(Array.isArray) ?? [] : [];
  return list.map((item) => entryOf(item, base)).filter((entry): entry is Entry => entry !== undefined);
}

/**
 * The navigation tree in a script's data, resolved against the page that loads it; [] when the
 * script holds no tree of at least MIN_ENTRIES links to pages of the page's site. A URL seen
 * before (a tab that opens its own first child, a letter of an index at `page#index_a`) is not
 * listed again; its children keep their place.
 */
export function navFromScript(text: string, pageUrl: string): NavLink[] {
  if (text.length > MAX_NAV_SCRIPT_CHARS) return [];
  const origin = safeOrigin(pageUrl);
  let best: NavLink[] = [];
  for (const literal of dataLiterals(text)) {
    const links: NavLink[] = [];
    const seen = new Set<string>();
    const walk = (entries: Entry[], depth: number) => {
      for (const entry of entries) {
        let url = '';
        if (entry.url) {
          const parsed = new URL(entry.url);
          if (parsed.origin !== origin) continue;
          parsed.hash = '';
          url = parsed.href;
        }
        if (url && seen.has(url)) {
          walk(entry.children, depth);
          continue;
        }
        if (url) seen.add(url);
        links.push({ title: entry.title, url, depth });
        walk(entry.children, depth + 1);
      }
    };
    walk(entriesOf(literal, pageUrl), 0);
    if (seen.size >= MIN_ENTRIES && links.length > best.length) best = links;
  }
  return best;
}
