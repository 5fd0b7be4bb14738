/** The memory bodies of ../descriptions.ts (same names, same answers). */
import type { MemoryStore } from './store';

export async function descriptionText(store: MemoryStore, key: string): Promise<string | undefined> {
  return store.descriptions.get(key)?.text;
}

export async function descriptionTexts(store: MemoryStore, keys: string[]): Promise<Array<string | undefined>> {
  return keys.map((key) => store.descriptions.get(key)?.text);
}

export async function keepDescription(store: MemoryStore, key: string, text: string): Promise<void> {
  store.descriptions.set(key, { key, text, createdAt: Date.now() });
}
