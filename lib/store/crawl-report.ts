/**
 * What the command line reports of a finished crawl that it could not store: the queue rows that
 * failed or were skipped, with their reasons.
 */
import type { FrontierRecord, FrontierState, ScoutDb } from './db';

/** The crawl's queue rows in these states, by state then key. */
export function queueRowsIn(db: ScoutDb, jobId: string, states: readonly FrontierState[]): Promise<FrontierRecord[]> {
  return db.frontier
    .where('[jobId+state]')
    .anyOf(states.map((state) => [jobId, state]))
    .toArray();
}
