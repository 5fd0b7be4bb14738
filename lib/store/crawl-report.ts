/**
 * What the command line reports of a finished crawl that it could not store: the queue rows that
 * failed or were skipped, with their reasons.
 */
import type { FrontierRecord, FrontierState } from './db';
import * as memCrawlReport from './memory/crawl-report';
import { inMemory, type Store } from './store';

/**
 * The crawl's queue rows in these states, by state then key. One `equals` read per state, not one
 * `anyOf` cursor: a cursor over a key thousands of rows share (every skipped link has the same
 * [jobId+state]) costs fake-indexeddb a rescan per step, and it was most of the CLI's CPU on a
 * 526-page site (bench figures in the commit), while a plain read is one pass anywhere.
 */
export async function queueRowsIn(store: Store, jobId: string, states: readonly FrontierState[]): Promise<FrontierRecord[]> {
  if (inMemory(store)) return memCrawlReport.queueRowsIn(store, jobId, states);
  const db = store;
  const ordered = [...new Set(states)].sort();
  const each = await Promise.all(ordered.map((state) => db.frontier.where('[jobId+state]').equals([jobId, state]).toArray()));
  return each.flat();
}
