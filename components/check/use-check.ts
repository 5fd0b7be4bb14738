import { useLiveQuery } from 'dexie-react-hooks';
import { db, type CheckJob } from '@/lib/store/db';
import { countPages, latestCrawlWithPages, latestJob } from '@/lib/store/queries';

export interface CheckState {
  /** The newest check of the site (running, done or failed); null when none ran yet. */
  job?: CheckJob | null;
  /** Pages the latest crawl stored: the coverage check can add them. */
  crawledPages: number;
  loaded: boolean;
}

/** The site's newest check job and its crawl, live from Dexie. */
export function useCheck(origin: string): CheckState {
  const rows = useLiveQuery(async () => {
    const job = (await latestJob(db, origin, 'check')) ?? null;
    const crawl = await latestCrawlWithPages(db, origin);
    return { job, crawledPages: crawl ? await countPages(db, crawl.id, 'stored') : 0 };
  }, [origin]);
  return { job: rows?.job, crawledPages: rows?.crawledPages ?? 0, loaded: rows !== undefined };
}
