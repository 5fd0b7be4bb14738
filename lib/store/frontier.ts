/**
 * A crawl's queue: the `frontier` rows (one per URL, with its state) and the `linkBlocks` records
 * (many links of one page queued as one record, lib/crawl/link-blocks.ts). Owns every read and
 * write of those two tables; lib/crawl/frontier.ts keeps the crawl's in-memory view of them.
 */
import type { ScoutDb } from './db';

/** How many URLs of the job's queue are rows (every state): 0 means it was never seeded. */
export function queuedCount(db: ScoutDb, jobId: string): Promise<number> {
  return db.frontier.where('[jobId+seq]').between([jobId, 0], [jobId, Infinity]).count();
}
