/**
 * A fetched body as the crawler reads it: its media type, its charset (BOM, header, <meta>),
 * whether it is binary whatever its label says, and whether plain text is really Markdown.
 */
/** The media type without parameters, lower-case; '' when the server sent none. */
export function mimeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * Bytes to text. Order (as in the HTML spec, simplified): a BOM, the
 * Content-Type charset, for HTML a `<meta charset>` or `<meta http-equiv>` in the
 * first 2 KB, else UTF-8. Unknown labels fall back to UTF-8 rather than failing the page.
 */
export function decodeBody(bytes: Uint8Array, contentType: string, sniffMeta: boolean): string {
  const label = bomCharset(bytes) ?? charsetParam(contentType) ?? (sniffMeta ? metaCharset(bytes) : null) ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  const text = decoder.decode(bytes);
  return decoder.encoding === 'windows-1252' ? fixWindows1252(text) : text;
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
