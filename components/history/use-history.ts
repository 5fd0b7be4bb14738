import { useLiveQuery } from 'dexie-react-hooks';
import { db, type ArtifactRecord, type JobRecord, type PageVersionRecord } from '@/lib/store/db';
import { artifactVersions, jobsNewestFirst, pageChanges } from '@/lib/store/queries';

const JOBS_SHOWN = 30;

/** The site's jobs, newest first (crawls, refreshes, discovery runs). */
export function useJobs(origin: string): JobRecord[] | undefined {
  return useLiveQuery(() => jobsNewestFirst(db, origin).limit(JOBS_SHOWN).toArray(), [origin]);
}

/** Stored versions of one output, newest first. */
export function useVersions(origin: string, kind: ArtifactRecord['kind']): ArtifactRecord[] | undefined {
  return useLiveQuery(() => artifactVersions(db, origin, kind).reverse().toArray(), [origin, kind]);
}

/** What a refresh found, except the unchanged pages (they are only counted). */
export function usePageChanges(jobId: string | undefined): PageVersionRecord[] | undefined {
  return useLiveQuery(
    async () => (jobId ? pageChanges(db, jobId, ['changed', 'removed', 'restored', 'minor', 'failed']).toArray() : []),
    [jobId],
  );
}
