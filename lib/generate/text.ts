/**
 * Small text helpers for writing llms.txt lines: everything that goes on one line is collapsed to
 * one line, link names are made safe for both our parser and the reference parser.
 */

// A space next to another space, or a space other than U+0020: only then does collapsing change the text.
const UNCOLLAPSED = /\s\s|[^\S ]/;

/** Collapses all whitespace (newlines included) to single spaces and trims. */
export function oneLine(text: string | undefined): string {
  const line = text ?? '';
  // Most text is collapsed already: one test, where the replace would copy it once per space.
  return (UNCOLLAPSED.test(line) ? line.replace(/\s+/g, ' ') : line).trim();
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const ASCII_WORD = new Uint8Array(128).map((_, code) => (WORD_CHAR.test(String.fromCharCode(code)) ? 1 : 0));

/**
 * How many code units the character at `i` takes when it is a letter or digit as
 * `/[\p{L}\p{N}]/u` reads it (2 for a surrogate pair), else 0. A reader that steps one unit past
 * a 0 reads a pair's low half next, which alone is no letter either.
 */
export function wordWidthAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 128) return ASCII_WORD[code] as number;
  const point = text.codePointAt(i) as number;
  return WORD_CHAR.test(String.fromCodePoint(point)) ? (point > 0xffff ? 2 : 1) : 0;
}

/**
 * Text as words only, as `text.replace(/\]\([^()\s]*\)/g, ' ').toLowerCase()
 * .replace(/[^\p{L}\p{N}]+/gu, ' ').trim()` gives it: link targets left out, lower-cased, each
 * run of characters that are neither letter nor digit one space, none at either end. That is the
 * lower-cased text's letter-and-digit runs joined by single spaces, read here in one pass that
 * copies only where a separator is not already one space: the repeated-text test keys every
 * block of every page so, and the replace built a string per separator.
 */
export function wordKey(text: string): string {
  const lower = (text.includes('](') ? text.replace(/\]\([^()\s]*\)/g, ' ') : text).toLowerCase();
  // The key is joined once at the end: keys are kept by the thousand (a site's distinct blocks),
  // and one built by appending is a tree of pieces that hold on to the whole lower-cased block.
  const out: string[] = [];
  // The run of words being read that the text already holds as one slice: words one space apart.
  let from = -1;
  let to = -1;
  for (let i = 0; i < lower.length; ) {
    const width = wordWidthAt(lower, i);
    if (width > 0) {
      if (from < 0) from = i;
      else if (to >= 0 && (i !== to + 1 || lower.charCodeAt(to) !== 32)) {
        // A separator other than one space: the slice so far is done.
        out.push(lower.slice(from, to));
        from = i;
      }
      to = -1;
    } else if (from >= 0 && to < 0) to = i;
    i += width || 1;
  }
  if (from >= 0) out.push(lower.slice(from, to < 0 ? lower.length : to));
  return out.join(' ');
}

/** Cuts `text` to at most `max` characters at a word boundary, adding "…" when it was cut. */
export function truncateWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  // A single very long "word" (a URL, a hash) is cut where it is rather than dropped.
  const head = space > max * 0.6 ? cut.slice(0, space) : cut;
  return `${head.replace(/(?<![\s,;:.–—-])[\s,;:.–—-]+$/, '')}…`;
}

/**
 * A page title as Markdown link text. The reference parser reads names with `[^\]]+`, so any `]`
 * (escaped or not) breaks the whole line there; brackets become parentheses instead of escapes.
 * A trailing backslash would escape the closing bracket in CommonMark, so it is doubled.
 */
export function linkText(title: string): string {
  const text = oneLine(title).replace(/\[/g, '(').replace(/\]/g, ')');
  return text.endsWith('\\') ? `${text}\\` : text;
}

/**
 * A URL as a Markdown link target. The reference parser reads targets with `[^\)]+`, and
 * CommonMark ends an unbracketed target at whitespace, so those characters are percent-encoded;
 * `%28`/`%29` name the same resource as `(`/`)` for every server we know of.
 */
export function linkTarget(url: string): string {
  return url.replace(/[()\s<>]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** A heading's text on one line, never empty, and without a trailing `#` run (read as a closing sequence). */
export function headingLine(text: string, fallback: string): string {
  const line = oneLine(text).replace(/(?<!\s)\s*(?<!#)#+$/, '');
  return line === '' ? fallback : line;
}

// Words that stay upper-case in section names made from directory names.
const ACRONYMS = new Set([
  'api', 'cli', 'sdk', 'faq', 'http', 'https', 'url', 'json', 'xml', 'html',
  'css', 'js', 'ui', 'ux', 'id', 'io', 'os', 'sql', 'ai', 'ml', 'llm', 'ci', 'cd', 'aws', 'gcp', 'jwt',
  'tls', 'ssl', 'dns', 'tcp', 'udp', 'ssh', 'csv', 'pdf', 'yaml', 'toml', 'orm', 'gpu', 'cpu', 'rpc', 'grpc',
]);
// Product words with their own spelling.
const SPELLINGS: Record<string, string> = {
  ios: 'iOS', macos: 'macOS', graphql: 'GraphQL', javascript: 'JavaScript', typescript: 'TypeScript',
  github: 'GitHub', gitlab: 'GitLab', howto: 'HOWTO', howtos: 'HOWTOs', oauth: 'OAuth', webassembly: 'WebAssembly',
};
const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'vs', 'with']);

/** "getting-started" → "Getting Started", "api" → "API", "c-api" → "C API", "http_client" → "HTTP Client". */
export function titleCaseSlug(slug: string): string {
  let decoded = slug;
  try {
    decoded = decodeURIComponent(slug);
  } catch {
    // Keep the raw segment: a stray `%` is not worth failing over.
  }
  const words = decoded.split(/[-_.+\s]+/).filter(Boolean);
  return words
    .map((word, index) => {
      const lower = word.toLowerCase();
      const spelled = SPELLINGS[lower];
      if (spelled) return spelled;
      if (ACRONYMS.has(lower)) return lower.toUpperCase();
      // Plurals keep a lower-case s: "apis" → "APIs".
      if (lower.length > 2 && lower.endsWith('s') && ACRONYMS.has(lower.slice(0, -1))) return `${lower.slice(0, -1).toUpperCase()}s`;
      if (index > 0 && SMALL_WORDS.has(lower)) return lower;
      // Words with capitals inside (GraphQL, iOS) are already written the way their authors want.
      if (/[A-Z]/.test(word.slice(1))) return word;
      return (word[0] ?? '').toUpperCase() + word.slice(1);
    })
    .join(' ');
}

/** Lower-case alphanumeric words of a text, for loose name comparisons. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * The text of a Markdown page's first `#` heading as plain text (links, code and emphasis marks
 * removed), or '' when the page does not start with one.
 */
export function firstHeadingText(markdown: string): string {
  const first = /^\s*# +([^\n]+)/.exec(markdown)?.[1] ?? '';
  return oneLine(
    first
      .replace(/!?\[([^[\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
      // One pass, so an escaped `\_` stays a literal underscore instead of reading as emphasis.
      .replace(/\\([!-/:-@[-`{-~])|[`*]|(^|\s)_|_(?=\s|$)/g, (_m, escaped?: string, space?: string) => escaped ?? space ?? '')
      .replace(/(?<!\s)\s+#+$/, ''),
  );
}
