import type { CrawlJob } from '@/lib/store/db';
import type { CrawlSettings } from '@/lib/crawl/settings';
import type { DocsRoot } from '@/lib/url/boundary';
import { siteInfo } from '@/lib/url/site';

/** The scope choices, the documentation first: it is the default and the one to recommend. */
export const SCOPE_CHOICES: ReadonlyArray<{ value: CrawlSettings['scope']; label: string }> = [
  { value: 'docs', label: 'The documentation (recommended)' },
  { value: 'host', label: 'This host only' },
  { value: 'path', label: 'Under this page’s folder' },
  { value: 'site', label: 'This site and its subdomains' },
];

/** A root as a person reads an address: "docs.acme.test/en/stable/" (host, port when not the default, folder). */
export function rootLabel(root: DocsRoot): string {
  return `${new URL(root.origin).host}${root.path}`;
}

/** The folder a `path` crawl stays under: the start page's directory. */
function folderOf(url: URL): string {
  return url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1);
}

/**
 * A crawl's scope in one line for its card: "The documentation: docs.acme.test/en/stable/ + 1 more",
 * "This host only: docs.acme.test".
 */
export function scopeLine(job: Pick<CrawlJob, 'startUrl' | 'settings' | 'boundary' | 'state'>): string {
  const start = new URL(job.startUrl);
  switch (job.settings.scope) {
    case 'docs': {
      const [first, ...more] = job.boundary?.roots ?? [];
      if (!first) return job.state === 'running' ? 'The documentation (finding where it is…)' : `The documentation on ${start.host}`;
      return `The documentation: ${rootLabel(first)}${more.length > 0 ? ` + ${more.length} more` : ''}`;
    }
    case 'host':
      return `This host only: ${start.host}`;
    case 'path':
      return `Under this page’s folder: ${start.host}${folderOf(start)}`;
    default:
      return `This site and its subdomains: ${siteInfo(job.startUrl).site}`;
  }
}
