import { DEFAULT_SETTINGS } from '@/lib/crawl/settings';
import { db, type PageRecord } from '@/lib/store/db';

/** A finished crawl of `origin` with `count` stored pages, each with a little text to describe. */
export async function crawledSite(origin: string, count: number): Promise<void> {
  await db.jobs.add({ id: 'c1', origin, kind: 'crawl', state: 'done', createdAt: 1, startUrl: `${origin}/`, settings: DEFAULT_SETTINGS, counters: {} });
  const pages: PageRecord[] = Array.from({ length: count }, (_, i) => ({ jobId: 'c1', key: `${origin}/p${i}`, url: `${origin}/p${i}`, finalUrl: `${origin}/p${i}`, state: 'stored', depth: 1, title: `Page ${i}`, markdown: `# Page ${i}\n\nText about part ${i} of the project at some length.`, format: 'html', contentHash: `hash-${i}`, bytes: 100, fetchedAt: 0 }));
  await db.pages.bulkAdd(pages);
}

/** What a describe test leaves in the database. */
export const clearDescribeRows = () => Promise.all([db.jobs.clear(), db.pages.clear(), db.descriptions.clear()]);
