import type { CrawlCounters } from '../store/db';

/** What the side panel shows about a crawl: defined with the job it belongs to (lib/store/db.ts). */
export type { CrawlCounters };

const n = (v: number) => v.toLocaleString('en');

/** The job's state in words, for the header and the history. */
export function progressMessage(c: CrawlCounters, phase: 'running' | 'done', maxPages: number): string {
  if (phase === 'running') return `Crawling · depth ${c.depth} · ${n(c.stored)} / ${n(maxPages)} pages`;
  const parts = [`${n(c.stored)} ${c.stored === 1 ? 'page' : 'pages'} stored`];
  if (c.rendered) parts.push(`${n(c.rendered)} rendered in a tab`);
  if (c.empty) parts.push(`${n(c.empty)} empty (no text, left out of the files)`);
  if (c.notDocs) parts.push(`${n(c.notDocs)} not documentation (left out of the files)`);
  if (c.duplicates) parts.push(`${n(c.duplicates)} duplicate${c.duplicates === 1 ? '' : 's'}`);
  if (c.failed) parts.push(`${n(c.failed)} failed`);
  if (c.skipped) parts.push(`${n(c.skipped)} skipped`);
  const stoppedAtLimit = c.stored >= maxPages && c.pending > 0;
  return `${stoppedAtLimit ? `Stopped at the ${n(maxPages)}-page limit` : 'Done'}: ${parts.join(' · ')}${stoppedAtLimit ? ` · ${n(c.pending)} queued URLs not crawled` : ''}`;
}
