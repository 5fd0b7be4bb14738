/**
 * Markdown escaping for text nodes. Turndown's default escapes every `_`, `*`, `[` and `]`, which
 * turns prose like `snake_case` or `a[0]` into `snake\_case` and `a\[0\]`. CommonMark does not
 * need most of that: `_` inside a word never starts emphasis, a lone `[` is literal, `\` only
 * escapes punctuation. Escaping only what could change the rendering keeps text readable for the
 * people and models that read the Markdown raw.
 */

const WORD = /[\p{L}\p{N}]/u;
const PUNCTUATION = /[!-/:-@[-`{-~]/;
const SPECIAL = /[\\*_`<\]]/g;
// Block syntax that only counts at the start of a line. After whitespace collapsing a text node
// holds no newline, so only its start can begin a line. `=` only matters as a whole setext underline.
const LINE_START = /^(\s*)(#{1,6}(?=\s|$)|>|[-+](?=\s)|=+(?=\s*$)|~~~|(\d+)([.)])(?=\s))/;

function escapeChar(char: string, index: number, text: string): string {
  // Read within the string: an index past either end makes V8 drop the optimized code.
  const before = index > 0 ? (text[index - 1] as string) : '';
  const after = index + 1 < text.length ? (text[index + 1] as string) : '';
  switch (char) {
    case '\\':
      return PUNCTUATION.test(after) ? '\\\\' : '\\';
    case '_':
      // Intraword underscores never open or close emphasis.
      return WORD.test(before) && WORD.test(after) ? '_' : '\\_';
    case '*':
      // Surrounded by spaces (2 * 3) it cannot be a delimiter either.
      return /\s/.test(before) && /\s/.test(after) ? '*' : '\\*';
    case '<':
      // Only `<` that could start an HTML tag, comment or autolink.
      return /[A-Za-z/!?]/.test(after) ? '\\<' : '<';
    case ']':
      // Only `]` that could close a link or a reference definition.
      return after === '(' || after === '[' || after === ':' ? '\\]' : ']';
    default:
      return `\\${char}`;
  }
}

/** Escapes a text node's content for Markdown. */
export function escapeMarkdownText(text: string): string {
  const escaped = text.replace(SPECIAL, escapeChar);
  // Text that starts with a letter (most) cannot start with block syntax or with space before it.
  if (escaped.length === 0) return escaped;
  const first = escaped.charCodeAt(0) | 0x20;
  if (first >= 0x61 && first <= 0x7a) return escaped;
  return escaped.replace(LINE_START, (_match, space: string, marker: string, digits?: string, dot?: string) =>
    digits !== undefined && dot !== undefined ? `${space}${digits}\\${dot}` : `${space}\\${marker}`,
  );
}
