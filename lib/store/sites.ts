/**
 * The sites the user opened Scout on (`sites`, keyed by origin): when and how often, and the
 * per-site choices kept with them (curation, refresh schedule).
 */
import type { SiteRecord } from './db';
import * as memSites from './memory/sites';
import { inMemory, type Store } from './store';

/** The site's row, if Scout was ever opened on it. */
export function siteByOrigin(store: Store, origin: string): Promise<SiteRecord | undefined> {
  if (inMemory(store)) return memSites.siteByOrigin(store, origin);
  const db = store;
  return db.sites.get(origin);
}

/**
 * Creates or updates the site's row from what is stored now, in one read-and-write: `next` gets
 * the stored row (undefined on the first visit) and answers the row to keep. Two panels opening
 * at once cannot lose an increment.
 */
export function upsertSite(store: Store, origin: string, next: (existing: SiteRecord | undefined) => SiteRecord): Promise<SiteRecord> {
  if (inMemory(store)) return memSites.upsertSite(store, origin, next);
  const db = store;
  return db.transaction('rw', db.sites, async () => {
    const row = next(await db.sites.get(origin));
    await db.sites.put(row);
    return row;
  });
}

/** Writes some of a site's fields (its curation, its refresh settings); answers 0 when it has no row. */
export function updateSite(store: Store, origin: string, changes: Partial<Omit<SiteRecord, 'origin'>>): Promise<number> {
  if (inMemory(store)) return memSites.updateSite(store, origin, changes);
  const db = store;
  return db.sites.update(origin, changes);
}

/** Every site Scout was opened on (the schedule looks for due refreshes among them). */
export function allSites(store: Store): Promise<SiteRecord[]> {
  if (inMemory(store)) return memSites.allSites(store);
  const db = store;
  return db.sites.toArray();
}
