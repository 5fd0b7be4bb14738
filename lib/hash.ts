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
 */
export async function contentFingerprint(text: string): Promise<string> {
  const folded = text.replace(/\s+/g, ' ').trim();
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(folded));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
