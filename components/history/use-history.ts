import { useLiveQuery } from 'dexie-react-hooks';
import { db, type ArtifactRecord, type JobRecord, type PageVersionRecord } from '@/lib/store/db';
import { versionsNewestFirst } from '@/lib/store/artifacts';
import { recentJobs } from '@/lib/store/history';
import { versionsWithChange } from '@/lib/store/page-versions';

const JOBS_SHOWN = 30;

/** The site's jobs, newest first (crawls, refreshes, discovery runs). */
export function useJobs(origin: string): JobRecord[] | undefined {
  return useLiveQuery(() => recentJobs(db, origin, JOBS_SHOWN), [origin]);
}

/** Stored versions of one output, newest first. */
export function useVersions(origin: string, kind: ArtifactRecord['kind']): ArtifactRecord[] | undefined {
  return useLiveQuery(() => versionsNewestFirst(db, origin, kind), [origin, kind]);
}

/** What a refresh found, except the unchanged pages (they are only counted). */
export function usePageChanges(jobId: string | undefined): PageVersionRecord[] | undefined {
  return useLiveQuery(
    async () => (jobId ? versionsWithChange(db, jobId, ['changed', 'removed', 'restored', 'minor', 'failed']) : []),
    [jobId],
  );
}
