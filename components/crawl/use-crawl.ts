import { useLiveQuery } from 'dexie-react-hooks';
import { db, type FrontierRecord, type FrontierState, type JobRecord } from '@/lib/db';

/** The site's newest crawl job (running, paused or finished), live. */
export function useLatestCrawl(origin: string): JobRecord | undefined | null {
  // useLiveQuery says "still loading" with undefined, so "no crawl yet" must be null.
  return useLiveQuery(
    async () => (await db.jobs.where('[origin+createdAt]').between([origin, 0], [origin, Infinity]).reverse().filter((j) => j.kind === 'crawl').first()) ?? null,
    [origin],
  );
}

export type PageFilter = 'all' | FrontierState;

/**
 * One window of the crawl's URL list, for a virtualized list: a count and the
 * rows in view, each from an index, so 10 000 URLs cost what 50 do.
 */
export function useFrontierWindow(jobId: string, filter: PageFilter, offset: number, limit: number): { total: number; rows: FrontierRecord[] } {
  const total = useLiveQuery(
    () => (filter === 'all' ? db.frontier.where('[jobId+seq]').between([jobId, 0], [jobId, Infinity]).count() : db.frontier.where('[jobId+state]').equals([jobId, filter]).count()),
    [jobId, filter],
  );
  const rows = useLiveQuery(
    () =>
      (filter === 'all'
        ? db.frontier.where('[jobId+seq]').between([jobId, 0], [jobId, Infinity])
        : db.frontier.where('[jobId+state+depth+seq]').between([jobId, filter, 0, 0], [jobId, filter, Infinity, Infinity])
      )
        .offset(offset)
        .limit(limit)
        .toArray(),
    [jobId, filter, offset, limit],
  );
  return { total: total ?? 0, rows: rows ?? [] };
}
