/** The memory bodies of site-state.ts. */
import type { ArtifactRecord } from '../db';
import type { SiteRows } from '../records/crawl-store';
import { checkRoom } from './page-room';
import { pagesOf } from './queries';
import { compareStrings, copy, type MemoryStore } from './store';

/** Each table's rows in the order its index gives them (primary key order within one origin). */
export async function readSiteRows(store: MemoryStore, origin: string, crawlId: string, artifacts: ArtifactRecord[]): Promise<SiteRows> {
  const site = store.sites.get(origin);
  const jobs = [...store.jobs.values()].filter((j) => j.origin === origin && (j.kind !== 'crawl' || j.id === crawlId)).sort((a, b) => compareStrings(a.id, b.id));
  return {
    sites: site ? [copy(site)] : [],
    jobs: jobs.map(copy),
    pages: [...pagesOf(store, crawlId, 'stored'), ...pagesOf(store, crawlId, 'removed')],
    plans: [...store.plans.values()].filter((p) => p.origin === origin).sort((a, b) => compareStrings(a.startUrl, b.startUrl)).map(copy),
    discovered: [...store.discovered.values()].filter((d) => d.origin === origin).sort((a, b) => (a.id ?? 0) - (b.id ?? 0)).map(copy),
    descriptions: [...store.descriptions.values()].sort((a, b) => compareStrings(a.key, b.key)).map(copy),
    artifacts,
  };
}

/** All or none: the page room, the one check that can refuse, runs before the first write. */
export async function putSiteRows(store: MemoryStore, rows: SiteRows): Promise<void> {
  checkRoom(store, rows.pages);
  for (const site of rows.sites) store.sites.set(site.origin, copy(site));
  for (const job of rows.jobs) store.jobs.set(job.id, copy(job));
  for (const page of rows.pages) store.pages.rowsOf(page.jobId).set(page.key, copy(page));
  for (const plan of rows.plans) store.plans.set(plan.startUrl, copy(plan));
  for (const found of rows.discovered) {
    const id = found.id ?? store.nextId('discovered');
    store.sawId('discovered', id);
    store.discovered.set(id, { ...copy(found), id });
  }
  for (const d of rows.descriptions) store.descriptions.set(d.key, copy(d));
  for (const artifact of rows.artifacts) {
    const id = artifact.id ?? store.nextId('artifacts');
    store.sawId('artifacts', id);
    store.artifacts.set(id, { ...copy(artifact), id });
  }
}
