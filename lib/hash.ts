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
 * the text is encoded a stretch at a time, between the whitespace runs that fold, into one buffer
 * kept for the next page. Folding and encoding every page's Markdown as two new copies of it were
 * a tenth of the crawl's service worker time (bench/profile.ts on the Python docs).
 */
export async function contentFingerprint(text: string): Promise<string> {
  const bytes = foldedUtf8(text);
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whitespace that does not stay as it is: a run of two or more, or one that is not a plain space. */
const FOLDS = /\s{2,}|[^\S ]/g;
const encoder = new TextEncoder();
let scratch: Uint8Array<ArrayBuffer> = new Uint8Array(1 << 16);
/** A buffer this big serves one page and is then let go: a huge page's would stay for nothing. */
const KEEP_BYTES = 4 << 20;

/** `text.replace(/\s+/g, ' ').trim()` as UTF-8 (a view of the shared scratch buffer, valid until the next call). */
export function foldedUtf8(text: string): Uint8Array<ArrayBuffer> {
  // UTF-8 takes at most three bytes per UTF-16 unit (a surrogate pair: four for two).
  const need = 3 * text.length;
  const buffer = need <= scratch.length ? scratch : new Uint8Array(need);
  if (buffer !== scratch && need <= KEEP_BYTES) scratch = buffer;
  let written = 0;
  const put = (from: number, to: number) => {
    if (to > from) written += encoder.encodeInto(text.slice(from, to), buffer.subarray(written)).written;
  };
  // Leading and trailing whitespace goes (trim); every inner run becomes one space.
  let start = 0;
  while (start < text.length && /\s/.test(text[start] as string)) start++;
  let end = text.length;
  while (end > start && /\s/.test(text[end - 1] as string)) end--;
  FOLDS.lastIndex = start;
  let from = start;
  for (let m = FOLDS.exec(text); m !== null && m.index < end; m = FOLDS.exec(text)) {
    put(from, m.index);
    buffer[written++] = 0x20;
    from = m.index + m[0].length;
  }
  put(from, end);
  return buffer.subarray(0, written);
}
