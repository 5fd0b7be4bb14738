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
