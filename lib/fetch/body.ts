/**
 * A fetched body as the crawler reads it: its media type, its charset (BOM, header, <meta>),
 * whether it is binary whatever its label says, and whether plain text is really Markdown.
 */
/** The media type without parameters, lower-case; '' when the server sent none. */
export function mimeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** An HTML body as it travels to the converter: its bytes and the Content-Type they came with, decoded there by {@link decodeBody}. */
export interface HtmlBody {
  bytes: Uint8Array;
  contentType: string;
}

/**
 * Bytes to text. Order (as in the HTML spec, simplified): a BOM, the
 * Content-Type charset, for HTML a `<meta charset>` or `<meta http-equiv>` in the
 * first 2 KB, else UTF-8. Unknown labels fall back to UTF-8 rather than failing the page.
 */
export function decodeBody(bytes: Uint8Array, contentType: string, sniffMeta: boolean): string {
  const decoder = decoderFor(bytes, contentType, sniffMeta);
  const text = decoder.decode(bytes);
  return decoder.encoding === 'windows-1252' ? fixWindows1252(text) : text;
}

/**
 * The start of what {@link decodeBody} returns, at least `chars` characters of it (or all of it):
 * read in 4 KB steps with a streaming decoder, which holds back a character cut at a step's end,
 * so the text is exactly the decoded body's beginning.
 */
export function decodeHead(bytes: Uint8Array, contentType: string, sniffMeta: boolean, chars: number): string {
  const decoder = decoderFor(bytes, contentType, sniffMeta);
  let text = '';
  for (let at = 0; at < bytes.byteLength && text.length < chars; at += HEAD_STEP) {
    text += decoder.decode(bytes.subarray(at, at + HEAD_STEP), { stream: true });
  }
  if (text.length < chars) text += decoder.decode();
  return decoder.encoding === 'windows-1252' ? fixWindows1252(text) : text;
}

/**
 * Whether {@link decodeBody}'s text is whitespace only (`text.trim() === ''`), reading only as far
 * as the first other character: a page's first 4 KB, as a rule. The windows-1252 fix maps C1
 * controls to printable characters, and neither is whitespace, so the check needs no fix.
 */
export function isBlankBody(bytes: Uint8Array, contentType: string, sniffMeta: boolean): boolean {
  const decoder = decoderFor(bytes, contentType, sniffMeta);
  for (let at = 0; at < bytes.byteLength; at += HEAD_STEP) {
    if (/\S/.test(decoder.decode(bytes.subarray(at, at + HEAD_STEP), { stream: true }))) return false;
  }
  // A character cut off at the end decodes to U+FFFD here, as it does in decodeBody.
  return !/\S/.test(decoder.decode());
}

const HEAD_STEP = 4096;

function decoderFor(bytes: Uint8Array, contentType: string, sniffMeta: boolean): TextDecoder {
  const label = bomCharset(bytes) ?? charsetParam(contentType) ?? (sniffMeta ? metaCharset(bytes) : null) ?? 'utf-8';
  try {
    return new TextDecoder(label);
  } catch {
    return new TextDecoder('utf-8');
  }
}

// WHATWG index-windows-1252 for bytes 0x80–0x9F. Node ≤ 22 decodes windows-1252 (and
// its aliases latin1, iso-8859-1, ascii) as Latin-1 there (nodejs/node#56542), turning
// “smart quotes” and € into C1 controls. Browsers get it right, so this is a no-op there.
const CP1252_HIGH = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8DŽ\x8F\x90‘’“”•–—˜™š›œ\x9DžŸ';

function fixWindows1252(text: string): string {
  return text.replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
}

function bomCharset(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

function charsetParam(contentType: string): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return match?.[1] ?? null;
}

// One pattern covers both <meta charset="x"> and <meta http-equiv=… content="text/html; charset=x">.
const META_CHARSET = /<meta\b[^<>]*?charset\s*=\s*(?:["']\s*)?([\w.:-]+)/i;

function metaCharset(bytes: Uint8Array): string | null {
  // Every charset a meta tag can name is ASCII-compatible, so a latin1 view of the head is enough to read it.
  const head = new TextDecoder('windows-1252').decode(bytes.subarray(0, 2048));
  const label = META_CHARSET.exec(head)?.[1]?.toLowerCase() ?? null;
  // HTML spec: a meta claiming UTF-16 was read as ASCII, so it must mean UTF-8.
  return label?.startsWith('utf-16') ? 'utf-8' : label;
}

const MAGIC: number[][] = [
  [0x25, 0x50, 0x44, 0x46], // %PDF
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0x50, 0x4b, 0x03, 0x04], // zip (also docx, epub, jar)
  [0x1f, 0x8b], // gzip file (Content-Encoding was already undone by fetch)
  [0x77, 0x4f, 0x46, 0x32], // wOF2
  [0x77, 0x4f, 0x46, 0x46], // wOFF
];

/** True when the bytes start like a binary file, whatever the server claimed. */
export function sniffBinary(bytes: Uint8Array): boolean {
  return MAGIC.some((magic) => magic.every((byte, i) => bytes[i] === byte));
}

const ATX_HEADING = /^#{1,6}[ \t]+\S/m;
const MD_LINK = /\[[^[\]\n]+\]\((?:[^()\s]|\([^()\s]*\))+(?:\s+"[^"\n]*")?\)/;

/** An ATX heading or a Markdown link in the first 4 KB: text/plain that is really Markdown. */
export function looksLikeMarkdown(text: string): boolean {
  const head = text.slice(0, 4096);
  return ATX_HEADING.test(head) || MD_LINK.test(head);
}
