import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { db, type CrawlJob, type FrontierRecord, type FrontierState, type JobKind, type JobOf } from '@/lib/store/db';
import { frontierWindow } from '@/lib/crawl/frontier-view';
import { latestJob } from '@/lib/store/queries';

/** The site's newest job of one kind (running, paused or finished), live. */
export function useLatestJob<K extends JobKind>(origin: string, kind: K): JobOf<K> | undefined | null {
  // useLiveQuery says "still loading" with undefined, so "no job yet" must be null.
  return useLiveQuery(
    async () => (await latestJob(db, origin, kind)) ?? null,
    [origin, kind],
  );
}

/** The site's newest crawl job, live. */
export const useLatestCrawl = (origin: string) => useLatestJob(origin, 'crawl');

export type PageFilter = 'all' | FrontierState;

/**
 * One window of the crawl's URL list, for a virtualized list: the rows in view,
 * read from an index, so 10 000 URLs cost what 50 do. Not a live query: the
 * window is re-read when the job's counters move (at most 4 times a second),
 * because re-running queries on every commit competed with the crawl's own
 * writes. The total comes from the same counters.
 */
export function useFrontierWindow(job: CrawlJob, filter: PageFilter, offset: number, limit: number): { total: number; rows: FrontierRecord[] } {
  const c = job.counters;
  const total = (filter === 'all' ? c.discovered : c[filter]) ?? 0;
  const version = `${c.discovered}:${c.done}:${c.failed}:${c.skipped}:${c.pending}:${job.state}`;
  const [rows, setRows] = useState<FrontierRecord[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the trigger: the window is re-read when the counters move.
  useEffect(() => {
    let live = true;
    // Rows and the link blocks' unclaimed URLs (lib/crawl/link-blocks.ts): the list holds what the counters count.
    void frontierWindow(db, job.id, filter, offset, limit).then((r) => live && setRows(r));
    return () => {
      live = false;
    };
  }, [job.id, filter, offset, limit, version]);
  return { total, rows };
}
