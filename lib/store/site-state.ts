/**
 * A site's rows read out whole and put back whole, for the command line's saved crawl state
 * (lib/headless/crawl-state.ts saves them beside a docs folder so a later `scout generate
 * --refresh` can re-check the crawl). Which rows make a site's state is decided here; the file
 * format, its checks and compression are the caller's.
 */
import type { ArtifactRecord } from './db';
import * as memSiteState from './memory/site-state';
import { inMemory, type Store } from './store';
import type { SiteRows } from './records/crawl-store';

export type { SiteRows };

/**
 * The site's rows around one crawl: the site, its jobs (of crawls only `crawlId`), that crawl's
 * stored and removed pages, the site's plans and discovery findings, every AI description (they
 * are keyed by content, not site) and the given artifacts.
 */
export async function readSiteRows(store: Store, origin: string, crawlId: string, artifacts: ArtifactRecord[]): Promise<SiteRows> {
  if (inMemory(store)) return memSiteState.readSiteRows(store, origin, crawlId, artifacts);
  const db = store;
  const [sites, jobs, stored, removed, plans, discovered, descriptions] = await Promise.all([
    db.sites.where('origin').equals(origin).toArray(),
    db.jobs.where('origin').equals(origin).toArray(),
    db.pages.where('[jobId+state]').equals([crawlId, 'stored']).toArray(),
    db.pages.where('[jobId+state]').equals([crawlId, 'removed']).toArray(),
    db.plans.where('origin').equals(origin).toArray(),
    db.discovered.where('origin').equals(origin).toArray(),
    db.descriptions.toArray(),
  ]);
  return { sites, jobs: jobs.filter((j) => j.kind !== 'crawl' || j.id === crawlId), pages: [...stored, ...removed], plans, discovered, descriptions, artifacts };
}

/** Puts saved rows into `db` (a new, empty database), all or none. */
export async function putSiteRows(store: Store, rows: SiteRows): Promise<void> {
  if (inMemory(store)) return memSiteState.putSiteRows(store, rows);
  const db = store;
  await db.transaction('rw', [db.sites, db.jobs, db.pages, db.plans, db.discovered, db.descriptions, db.artifacts], async () => {
    await db.sites.bulkPut(rows.sites);
    await db.jobs.bulkPut(rows.jobs);
    await db.pages.bulkPut(rows.pages);
    await db.plans.bulkPut(rows.plans);
    await db.discovered.bulkPut(rows.discovered);
    await db.descriptions.bulkPut(rows.descriptions);
    await db.artifacts.bulkPut(rows.artifacts);
  });
}
