import type { Store } from '../store/store';
import { generateForSite } from '../generate/run-generate';
import { getJob, updateJob } from '../store/queries';
import { changedEnough } from './counters';

/**
 * New llms.txt and llms-full.txt after a refresh — only when a page changed enough,
 * was removed or came back. An unchanged site keeps its current version, so the
 * version list shows real changes only.
 */
export async function outputsAfterRefresh(db: Store, jobId: string, now = new Date(), descriptionsBy: string | null = null): Promise<{ version: number } | null> {
  const job = await getJob(db, jobId, 'refresh');
  if (job?.state !== 'done' || changedEnough(job.counters) === 0) return null;
  const result = await generateForSite(db, job.origin, now, { refreshJobId: jobId, descriptionsBy });
  if (!result) return null;
  await updateJob(db, jobId, 'refresh', { counters: { ...job.counters, version: result.version } });
  return { version: result.version };
}
