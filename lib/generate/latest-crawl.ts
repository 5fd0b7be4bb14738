import type { JobRecord, ScoutDb } from '../db';

/** The crawl whose pages feed the outputs: the site's newest crawl that stored any page. */
export async function latestCrawlWithPages(db: ScoutDb, origin: string): Promise<JobRecord | undefined> {
  const crawls = await db.jobs.where('[origin+createdAt]').between([origin, 0], [origin, Infinity]).reverse().filter((j) => j.kind === 'crawl').toArray();
  for (const job of crawls) {
    if ((await db.pages.where('[jobId+state]').equals([job.id, 'stored']).count()) > 0) return job;
  }
  return undefined;
}
