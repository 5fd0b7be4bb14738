import { db } from '@/lib/db';
import { failDiscoveryJob, runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { failInterrupted } from '@/lib/queries';
import { browserFetch } from '@/lib/fetch/browser-fetch';
import { onCommand } from './on-command';
import { siteJobs } from './site-jobs';

/** Discovery runs in the worker; the panel only starts it and watches Dexie. */
export function setUpDiscovery(): void {
  void failInterrupted(db, 'discovery');
  const start = siteJobs('discovery');
  onCommand('startDiscovery', (data) =>
    start(data.url, {
      run: (jobId) => runDiscoveryJob(db, { jobId, pageUrl: data.url, fetch: browserFetch }),
      fail: (jobId, error) => failDiscoveryJob(db, { jobId, pageUrl: data.url }, error),
    }),
  );
}
