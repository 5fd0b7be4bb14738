/** The memory body of crawl-report.ts. */
import type { FrontierRecord, FrontierState } from '../db';
import { compareStrings, copy, type MemoryStore } from './store';

/** The rows in these states, by state then key, as one [jobId+state] read per state gives them. */
export async function queueRowsIn(store: MemoryStore, jobId: string, states: readonly FrontierState[]): Promise<FrontierRecord[]> {
  const rows = store.frontier.get(jobId);
  if (!rows) return [];
  return [...new Set(states)].sort().flatMap((state) => [...rows.inState(state)].sort((a, b) => compareStrings(a.key, b.key)).map(copy));
}
