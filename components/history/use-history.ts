import { useLiveQuery } from 'dexie-react-hooks';
import { db, type ArtifactRecord, type JobRecord, type PageVersionRecord } from '@/lib/db';

const JOBS_SHOWN = 30;

/** The site's jobs, newest first (crawls, refreshes, discovery runs). */
export function useJobs(origin: string): JobRecord[] | undefined {
  return useLiveQuery(() => db.jobs.where('[origin+createdAt]').between([origin, 0], [origin, Infinity]).reverse().limit(JOBS_SHOWN).toArray(), [origin]);
}

/** Stored versions of one output, newest first. */
export function useVersions(origin: string, kind: ArtifactRecord['kind']): ArtifactRecord[] | undefined {
  return useLiveQuery(() => db.artifacts.where('[origin+kind+version]').between([origin, kind, 0], [origin, kind, Infinity]).reverse().toArray(), [origin, kind]);
}

/** What a refresh found, except the unchanged pages (they are only counted). */
export function usePageChanges(jobId: string | undefined): PageVersionRecord[] | undefined {
  return useLiveQuery(
    async () => (jobId ? db.pageVersions.where('[jobId+change]').anyOf(['changed', 'removed', 'restored', 'minor', 'failed'].map((c) => [jobId, c])).toArray() : []),
    [jobId],
  );
}
