/** The memory bodies of ../sites.ts (same names, same answers). */
import type { SiteRecord } from '../db';
import { applyChanges, compareStrings, copy, type MemoryStore } from './store';

export async function siteByOrigin(store: MemoryStore, origin: string): Promise<SiteRecord | undefined> {
  return copy(store.sites.get(origin));
}

export async function upsertSite(store: MemoryStore, origin: string, next: (existing: SiteRecord | undefined) => SiteRecord): Promise<SiteRecord> {
  const row = next(copy(store.sites.get(origin)));
  store.sites.set(row.origin, copy(row));
  return row;
}

export async function updateSite(store: MemoryStore, origin: string, changes: Partial<Omit<SiteRecord, 'origin'>>): Promise<number> {
  const row = store.sites.get(origin);
  if (!row) return 0;
  store.sites.set(origin, applyChanges(copy(row), changes));
  return 1;
}

export async function allSites(store: MemoryStore): Promise<SiteRecord[]> {
  return [...store.sites.values()].sort((a, b) => compareStrings(a.origin, b.origin)).map(copy);
}
