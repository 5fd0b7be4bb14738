/**
 * A crawl's stored pages (`pages`, keyed by job and frontier key): written by the crawl's page
 * writer in batches, read by the panel's preview. Page counts and a job's pages in one state are
 * in queries.ts, where every caller asks them the same way.
 */
import type { PageRecord, ScoutDb } from './db';

/** The page a crawl stored for this frontier key (any state), if any. */
export function pageByKey(db: ScoutDb, jobId: string, key: string): Promise<PageRecord | undefined> {
  return db.pages.get([jobId, key]);
}
