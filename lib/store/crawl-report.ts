/**
 * What the command line reports of a finished crawl that it could not store: the queue rows that
 * failed or were skipped, with their reasons.
 */
import type { FrontierRecord, FrontierState } from './db';
import * as memCrawlReport from './memory/crawl-report';
import { skippedBlockRows } from './link-blocks';
import { inMemory, type Store } from './store';

/**
 * The crawl's queue rows in these states, by state then key. One `equals` read per state, not one
 * `anyOf` cursor: a cursor over a key thousands of rows share (every skipped link has the same
 * [jobId+state]) costs fake-indexeddb a rescan per step, and it was most of the CLI's CPU on a
 * 526-page site (bench figures in the commit), while a plain read is one pass anywhere.
 */
export async function queueRowsIn(store: Store, jobId: string, states: readonly FrontierState[]): Promise<FrontierRecord[]> {
  const rows = await rowsIn(store, jobId, states);
  if (!states.includes('skipped')) return rows;
  const inBlocks = await skippedBlockRows(store, jobId);
  if (inBlocks.length === 0) return rows;
  // Blocks of skipped links stand for rows: they take their place by state, then key (code units, as IndexedDB orders keys).
  const byKey = (a: FrontierRecord, b: FrontierRecord) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const ordered = [...new Set(states)].sort();
  return ordered.flatMap((state) => {
    const inState = rows.filter((r) => r.state === state);
    return state === 'skipped' ? [...inState, ...inBlocks].sort(byKey) : inState;
  });
}

function rowsIn(store: Store, jobId: string, states: readonly FrontierState[]): Promise<FrontierRecord[]> {
  if (inMemory(store)) return memCrawlReport.queueRowsIn(store, jobId, states);
  const db = store;
  const ordered = [...new Set(states)].sort();
  return Promise.all(ordered.map((state) => db.frontier.where('[jobId+state]').equals([jobId, state]).toArray())).then((each) => each.flat());
}
