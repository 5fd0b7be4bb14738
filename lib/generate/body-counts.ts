/**
 * Cached token counts of page bodies in full-text files. A page's body differs from file to file
 * once links are made lean (an anchor link becomes text only in a file holding its target), so a
 * page keeps a few counts, each under the fingerprint of the body it was counted for. Counting is
 * the slow part (the Python docs' llms-full.txt is 4.3 M tokens, about 2 s); with the cache a new
 * generation after a curation change counts only the bodies that changed.
 */
import { bodyFingerprint } from './full-text';
import { countTokens } from '../tokens';
import type { StoredCounts } from '../store/records/generate';

/** Kept on a page row, so the store holds its shape (lib/store/records/generate.ts). */
export type { StoredCounts };

export class BodyCounts {
  private readonly used = new Map<string, StoredCounts>();
  private counted = 0;

  constructor(private readonly stored: Map<string, StoredCounts> = new Map(), private readonly count: (text: string) => number = countTokens) {}

  /** Tokens of `${body}\n\n` for page `key`, from the cache when this body was counted before. */
  get(key: string, body: string): number {
    const f = bodyFingerprint(body);
    const kept = this.used.get(key)?.find((c) => c.f === f) ?? this.stored.get(key)?.find((c) => c.f === f);
    const n = kept?.n ?? this.count(`${body}\n\n`);
    if (!kept) this.counted++;
    const list = this.used.get(key) ?? [];
    if (!list.some((c) => c.f === f)) list.push({ f, n });
    this.used.set(key, list);
    return n;
  }

  /** Seeds a count known from elsewhere (the generator's own count of the page's plain body). */
  seed(key: string, body: string, n: number): void {
    const f = bodyFingerprint(body);
    const list = this.stored.get(key) ?? [];
    if (!list.some((c) => c.f === f)) this.stored.set(key, [...list, { f, n }]);
  }

  /** The counts this run used, per page: what the caller keeps (counts no file needs any more are dropped). */
  kept(): Map<string, StoredCounts> {
    return this.used;
  }

  /** Bodies tokenized in this run (not found in the cache). */
  get misses(): number {
    return this.counted;
  }
}
