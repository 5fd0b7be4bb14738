import { useLiveQuery } from 'dexie-react-hooks';
import { db, type DiscoveredFileRecord, type DiscoveryJob } from '@/lib/store/db';
import { findingsOfRun } from '@/lib/store/discovered';
import { jobsOfKind } from '@/lib/store/jobs';

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
  const jobs = useLiveQuery(() => jobsOfKind(db, origin, 'discovery'), [origin]);
  const running = jobs?.find((j) => j.state === 'running');
  const shown = jobs?.find((j) => j.state === 'done') ?? running ?? jobs?.[0];
  const rows = useLiveQuery(() => (shown ? findingsOfRun(db, shown.id) : []), [shown?.id]);
  return { running, shown, rows: rows ?? [], loaded: jobs !== undefined && rows !== undefined };
}
