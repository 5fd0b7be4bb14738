/**
 * AI-written descriptions (`descriptions`), keyed by what they describe (a page's content
 * fingerprint, or a site's summary) with the provider and prompt version: a cache that outlives
 * crawls, so a page whose text did not change is never described twice.
 */
import * as memDescriptions from './memory/descriptions';
import { inMemory, type Store } from './store';

/** The text kept under `key`, if any. */
export async function descriptionText(store: Store, key: string): Promise<string | undefined> {
  if (inMemory(store)) return memDescriptions.descriptionText(store, key);
  const db = store;
  return (await db.descriptions.get(key))?.text;
}

/** The texts kept under these keys, in order (undefined where none is). */
export async function descriptionTexts(store: Store, keys: string[]): Promise<Array<string | undefined>> {
  if (inMemory(store)) return memDescriptions.descriptionTexts(store, keys);
  const db = store;
  return (await db.descriptions.bulkGet(keys)).map((row) => row?.text);
}

/** Keeps `text` under `key` (replacing what was there), stamped now. */
export async function keepDescription(store: Store, key: string, text: string): Promise<void> {
  if (inMemory(store)) return memDescriptions.keepDescription(store, key, text);
  const db = store;
  await db.descriptions.put({ key, text, createdAt: Date.now() });
}
