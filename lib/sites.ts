import type { SiteRecord } from './store/db';
import type { Store } from './store/store';
import { upsertSite } from './store/sites';
import { siteInfo } from './url/site';

/**
 * Records that the user opened Scout on a page: creates the site row on first
 * visit and bumps its counters after. Runs in one transaction so two panels
 * opening at once cannot lose an increment.
 */
export async function recordSiteOpened(db: Store, pageUrl: string, now = Date.now()): Promise<SiteRecord> {
  const info = siteInfo(pageUrl);
  return upsertSite(db, info.origin, (existing) =>
    existing
      ? { ...existing, lastOpenedAt: now, openCount: existing.openCount + 1 }
      : { origin: info.origin, host: info.host, site: info.site, firstOpenedAt: now, lastOpenedAt: now, openCount: 1 },
  );
}
