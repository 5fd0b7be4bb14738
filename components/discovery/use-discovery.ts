import { useLiveQuery } from 'dexie-react-hooks';
import { db, type DiscoveredFileRecord, type DiscoveryJob } from '@/lib/store/db';
import { isKind, jobsNewestFirst } from '@/lib/store/queries';

export interface DiscoveryState {
  /** A run in progress, if any. */
  running?: DiscoveryJob;
  /** The run whose results are shown: the newest finished one, else the one running. */
  shown?: DiscoveryJob;
  rows: DiscoveredFileRecord[];
  loaded: boolean;
}

/**
 * Discovery state for a site, straight from Dexie. While a re-run is going, the
 * previous results stay on screen; the first-ever run fills in live.
 */
export function useDiscovery(origin: string): DiscoveryState {
  const jobs = useLiveQuery(
    () => jobsNewestFirst(db, origin).filter(isKind('discovery')).toArray(),
    [origin],
  );
  const running = jobs?.find((j) => j.state === 'running');
  const shown = jobs?.find((j) => j.state === 'done') ?? running ?? jobs?.[0];
  const rows = useLiveQuery(() => (shown ? db.discovered.where('jobId').equals(shown.id).toArray() : []), [shown?.id]);
  return { running, shown, rows: rows ?? [], loaded: jobs !== undefined && rows !== undefined };
}
