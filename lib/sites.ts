import type { ScoutDb, SiteRecord } from './store/db';
import { siteInfo } from './url/site';

/**
 * Records that the user opened Scout on a page: creates the site row on first
 * visit and bumps its counters after. Runs in one transaction so two panels
 * opening at once cannot lose an increment.
 */
export async function recordSiteOpened(db: ScoutDb, pageUrl: string, now = Date.now()): Promise<SiteRecord> {
  const info = siteInfo(pageUrl);
  return db.transaction('rw', db.sites, async () => {
    const existing = await db.sites.get(info.origin);
    const next: SiteRecord = existing
      ? { ...existing, lastOpenedAt: now, openCount: existing.openCount + 1 }
      : { origin: info.origin, host: info.host, site: info.site, firstOpenedAt: now, lastOpenedAt: now, openCount: 1 };
    await db.sites.put(next);
    return next;
  });
}
