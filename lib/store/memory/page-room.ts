/**
 * The memory body of page-room.ts: the room is kept on the store and checked by the memory bodies
 * that add pages, before they write anything, as the Dexie middleware refuses the write.
 */
import type { PageRecord } from '../db';
import type { MemoryStore } from './store';

export function limitPageRoom(store: MemoryStore, room: () => number | undefined): void {
  store.pageRoom = room;
}

/** Throws QuotaExceededError when writing `pages` would hold more new pages than the room allows. */
export function checkRoom(store: MemoryStore, pages: readonly PageRecord[]): void {
  const limit = store.pageRoom();
  if (limit === undefined) return;
  let held = 0;
  for (const rows of store.pages.values()) held += rows.size;
  // Only new pages take room: a put that rewrites a held page does not.
  const added = pages.filter((p) => !store.pages.get(p.jobId)?.has(p.key)).length;
  if (added > 0 && held + added > limit) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
}
