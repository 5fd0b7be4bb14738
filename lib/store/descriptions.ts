/**
 * AI-written descriptions (`descriptions`), keyed by what they describe (a page's content
 * fingerprint, or a site's summary) with the provider and prompt version: a cache that outlives
 * crawls, so a page whose text did not change is never described twice.
 */
import type { ScoutDb } from './db';

/** The text kept under `key`, if any. */
export async function descriptionText(db: ScoutDb, key: string): Promise<string | undefined> {
  return (await db.descriptions.get(key))?.text;
}

/** The texts kept under these keys, in order (undefined where none is). */
export async function descriptionTexts(db: ScoutDb, keys: string[]): Promise<Array<string | undefined>> {
  return (await db.descriptions.bulkGet(keys)).map((row) => row?.text);
}

/** Keeps `text` under `key` (replacing what was there), stamped now. */
export async function keepDescription(db: ScoutDb, key: string, text: string): Promise<void> {
  await db.descriptions.put({ key, text, createdAt: Date.now() });
}
