import type { ScoutDb } from './db';
import { MemoryStore } from './memory/store';

/**
 * Where the engine's records live: IndexedDB through Dexie in the extension (`ScoutDb`), or memory
 * in the CLI (`MemoryStore`). Every repository function of lib/store/ takes a `Store` and has a
 * body for each; nothing outside lib/store/ knows which one it holds.
 */
export type Store = ScoutDb | MemoryStore;

/** Whether the store is the CLI's memory store (each repository function's one branch point). */
export function inMemory(store: Store): store is MemoryStore {
  return store instanceof MemoryStore;
}

export { MemoryStore };
