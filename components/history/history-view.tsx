import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '@/lib/store/db';
import { useLatestJob } from '../crawl/use-crawl';
import { JobHistory } from './job-history';
import { MonitorForm } from './monitor-form';
import { PageChanges } from './page-changes';
import { RefreshCard } from './refresh-card';
import { VersionsCard } from './versions-card';
import { StorageCard } from '../storage/storage-card';
import { hasEndedCrawlWithPages } from '@/lib/store/history';
import { siteByOrigin } from '@/lib/store/sites';

/** The History tab: refresh now or on a schedule, what changed, the versions and a diff, every job. */
export function HistoryView({ origin }: { origin: string }) {
  const site = useLiveQuery(() => siteByOrigin(db, origin), [origin]);
  const refresh = useLatestJob(origin, 'refresh');
  // A crawl that stored pages, even one stopped early, can be refreshed (the worker picks the newest such crawl).
  const crawled = useLiveQuery(() => hasEndedCrawlWithPages(db, origin), [origin]);
  if (refresh === undefined || crawled === undefined) return null;
  return (
    <div className="history" data-testid="history">
      <RefreshCard origin={origin} refresh={refresh ?? undefined} crawled={crawled} />
      {refresh && <PageChanges jobId={refresh.id} origin={origin} />}
      <VersionsCard origin={origin} />
      <MonitorForm origin={origin} monitor={site?.monitor} />
      <JobHistory origin={origin} />
      <StorageCard origin={origin} />
    </div>
  );
}
