import type { Page } from '@playwright/test';
import type { CrawlJob, FrontierRecord, JobRecord, LinkBlockRecord } from '@/lib/store/db';
import { rowAt } from '@/lib/store/link-blocks';

/**
 * Every row of one store of the extension's IndexedDB. Runs inside an extension page (passed to
 * Playwright's or Puppeteer's `page.evaluate`), so the Chromium and Firefox suites read the same way.
 */
export async function rowsInPage(name: string): Promise<unknown[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open('llms-txt-scout');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  try {
    return await new Promise<unknown[]>((resolve, reject) => {
      const req = db.transaction(name).objectStore(name).getAll();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  } finally {
    db.close();
  }
}

/**
 * Every row of one store, read from one of the extension's pages (a side panel tab). Tests read
 * what the worker wrote, not what the UI shows.
 */
export async function readStore<T>(page: Page, store: string): Promise<T[]> {
  return page.evaluate(rowsInPage, store) as Promise<T[]>;
}

/** The newest crawl job and the paths of the pages it stored. */
export async function latestCrawl(page: Page): Promise<{ job?: CrawlJob; paths: string[]; pages: Array<{ finalUrl: string; bytes: number }> }> {
  const job = (await readStore<JobRecord>(page, 'jobs')).filter((j): j is CrawlJob => j.kind === 'crawl').sort((a, b) => b.createdAt - a.createdAt)[0];
  const pages = (await readStore<{ jobId: string; url: string; finalUrl: string; bytes: number; state: string }>(page, 'pages')).filter((p) => p.jobId === job?.id && p.state === 'stored');
  return { job, paths: pages.map((p) => new URL(p.url).pathname).sort(), pages };
}

/**
 * A job's queue as the panel lists it: its frontier rows, and the rows its blocks of skipped links
 * stand for (a page's skipped links are one record; lib/crawl/link-blocks.ts), each with its reason.
 */
export async function readQueue(page: Page, jobId: string | undefined): Promise<FrontierRecord[]> {
  const rows = (await readStore<FrontierRecord>(page, 'frontier')).filter((r) => r.jobId === jobId);
  const blocks = (await readStore<LinkBlockRecord>(page, 'linkBlocks')).filter((b) => b.jobId === jobId && b.state === 'skipped');
  return [...rows, ...blocks.flatMap((b) => b.urls.map((_, i) => rowAt(b, b.seq + i, 'skipped', b.createdAt)))];
}
