/**
 * A short, stable fingerprint of a text (FNV-1a, 32 bits, with its length), synchronous and cheap:
 * it keys cached token counts, which must follow the text itself, not its title or length.
 */
export function textFingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${text.length.toString(36)}.${(hash >>> 0).toString(36)}`;
}

/**
 * Fingerprint of a page's text for duplicate detection: whitespace folded so
 * reformatting alone is not a change. SHA-256 via Web Crypto, which both the
 * service worker and Node provide.
 *
 * The digest is of `text.replace(/\s+/g, ' ').trim()` as UTF-8, but that string is never made:
 * the text is encoded once into one buffer kept for the next page, and the whitespace is folded
 * there, in place. Folding the string first and encoding the result made two copies of every
 * page's Markdown; encoding it a stretch at a time between the runs that fold cost a native call
 * per line (bench/profile.ts on the Python docs).
 */
export async function contentFingerprint(text: string): Promise<string> {
  const bytes = foldedUtf8(text);
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const encoder = new TextEncoder();
let scratch: Uint8Array<ArrayBuffer> = new Uint8Array(1 << 16);
/** A buffer this big serves one page and is then let go: a huge page's would stay for nothing. */
const KEEP_BYTES = 4 << 20;

/** `text.replace(/\s+/g, ' ').trim()` as UTF-8 (a view of the shared scratch buffer, valid until the next call). */
export function foldedUtf8(text: string): Uint8Array<ArrayBuffer> {
  // UTF-8 takes at most three bytes per UTF-16 unit (a surrogate pair: four for two).
  const need = 3 * text.length;
  const bytes = need <= scratch.length ? scratch : new Uint8Array(need);
  if (bytes !== scratch && need <= KEEP_BYTES) scratch = bytes;
  const length = encoder.encodeInto(text, bytes).written;
  // Folding only shortens, so the folded text is written over the encoded one, never ahead of it.
  let written = 0;
  let read = 0;
  while (read < length) {
    const byte = bytes[read] as number;
    // Most bytes are printable ASCII or inside a character that is not whitespace.
    if (byte > 0x20 && byte < 0xc2) {
      bytes[written++] = byte;
      read++;
      continue;
    }
    const space = spaceAt(bytes, read, length);
    if (space === 0) {
      bytes[written++] = byte;
      read++;
      continue;
    }
    // A run of whitespace: one space between two words, none at either end (trim).
    read += space;
    for (let more = spaceAt(bytes, read, length); more > 0; more = spaceAt(bytes, read, length)) read += more;
    if (written > 0 && read < length) bytes[written++] = 0x20;
  }
  return bytes.subarray(0, written);
}

/**
 * How many bytes of whitespace, as JavaScript's `\s` (and `trim`) define it, start at `at` in
 * UTF-8: 0 when none. ASCII tab to carriage return and space; U+00A0; U+1680; U+2000–U+200A;
 * U+2028, U+2029, U+202F, U+205F; U+3000; U+FEFF.
 */
function spaceAt(bytes: Uint8Array, at: number, length: number): number {
  if (at >= length) return 0;
  const b0 = bytes[at] as number;
  if (b0 <= 0x20) return b0 === 0x20 || (b0 >= 0x09 && b0 <= 0x0d) ? 1 : 0;
  if (b0 < 0xc2 || at + 1 >= length) return 0;
  const b1 = bytes[at + 1] as number;
  if (b0 === 0xc2) return b1 === 0xa0 ? 2 : 0;
  if (at + 2 >= length) return 0;
  const b2 = bytes[at + 2] as number;
  if (b0 === 0xe2) return (b1 === 0x80 && (b2 <= 0x8a || b2 === 0xa8 || b2 === 0xa9 || b2 === 0xaf)) || (b1 === 0x81 && b2 === 0x9f) ? 3 : 0;
  if (b0 === 0xe1) return b1 === 0x9a && b2 === 0x80 ? 3 : 0;
  if (b0 === 0xe3) return b1 === 0x80 && b2 === 0x80 ? 3 : 0;
  if (b0 === 0xef) return b1 === 0xbb && b2 === 0xbf ? 3 : 0;
  return 0;
}
