/**
 * One page of a docsify site, read without rendering: the Markdown file its hash route shows,
 * fetched as the page's Markdown twin. The home page brings the sidebar along: its links feed
 * the frontier and its nested list is the site's navigation (sections in llms.txt).
 */
import type { FrontierRecord } from '../store/db';
import { markdownDescription, markdownTitle } from '../crawl/markdown-meta';
import type { PageOutcome } from '../crawl/processor';
import { fetchPage, type PageFetchResult } from '../fetch/page-fetcher';
import { contentFingerprint } from '../hash';
import { credentialsFor } from '../url/credentials';
import { createNetworkGuard } from '../url/private-network';
import { docsifyLinks, markdownUrlFor, parseSidebar, routeOf, sidebarUrlFor } from './docsify';
import type { DocsifyConfig } from '../shell/docsify-config';

export interface DocsifyContext {
  fetch: typeof fetch;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The last route segment, de-slugged: `/guide/getting-started` → "Getting started"; `/` → the config's name. */
function titleOfRoute(route: string, config: DocsifyConfig): string {
  const segment = route.split('/').filter(Boolean).pop();
  if (!segment) return config.name ?? 'Home';
  const words = decodeURIComponent(segment).replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Fetches a Markdown file docsify would fetch: cookies only on the crawl's own site, never a private address from a public one. */
async function fetchMarkdown(url: string, entry: FrontierRecord, ctx: DocsifyContext): Promise<PageFetchResult | { kind: 'refused'; reason: string }> {
  const guard = createNetworkGuard(entry.url);
  const refused = guard(url);
  if (refused) return { kind: 'refused', reason: refused };
  // Redirect hops too: a README that redirects into the user's network is not followed (where the runtime shows hops).
  return fetchPage(url, { fetch: ctx.fetch, signal: ctx.signal, timeoutMs: ctx.timeoutMs, credentials: credentialsFor(url, entry.url), conditional: entry.conditional, checkRedirect: guard });
}

/** The outcome for `entry` on the docsify site whose shell page is `shellUrl`. */
export async function docsifyPage(entry: FrontierRecord, shellUrl: string, config: DocsifyConfig, ctx: DocsifyContext): Promise<PageOutcome> {
  const route = routeOf(entry.url);
  const file = markdownUrlFor(shellUrl, route, config);
  const res = await fetchMarkdown(file, entry, ctx);
  const retries = 'retries' in res ? res.retries : 0;
  if (res.kind === 'refused') return { state: 'skipped', reason: `docsify's Markdown at ${file}: ${res.reason}`, retries };
  if (res.kind === 'not-modified') return { state: 'not-modified', retries };
  if (res.kind === 'failed' || res.kind === 'skipped') return { state: res.kind, reason: `docsify's Markdown ${file}: ${res.reason}`, retries, status: res.status };
  // A server that answers every path with the shell (an SPA fallback) has no such file: docsify would show its 404 page.
  if (res.kind !== 'markdown') return { state: 'failed', reason: `docsify's Markdown ${file}: not found (the server sent a web page)`, retries };

  const links = docsifyLinks(res.markdown, route, shellUrl, config);
  let nav: Extract<PageOutcome, { state: 'done' }>['nav'] = [];
  const sidebar = route === '/' ? sidebarUrlFor(shellUrl, config) : undefined;
  if (sidebar) {
    const side = await fetchMarkdown(sidebar, entry, ctx);
    if (side.kind === 'markdown') {
      nav = parseSidebar(side.markdown, shellUrl, config);
      links.push(...nav.map((item) => item.url).filter(Boolean));
    }
  }
  const relative = new URL(res.finalUrl).pathname;
  return {
    state: 'done',
    page: {
      url: entry.url,
      finalUrl: entry.url,
      title: markdownTitle(res.markdown) ?? nav.find((item) => item.url === entry.url)?.title ?? titleOfRoute(route, config),
      description: markdownDescription(res.markdown),
      markdown: res.markdown,
      format: 'markdown',
      twinUrl: res.finalUrl,
      contentHash: await contentFingerprint(res.markdown),
      bytes: res.bytes,
      etag: res.etag,
      lastModified: res.lastModified,
      shell: `docsify site: the Markdown it renders (${relative}) read directly`,
    },
    links,
    nav,
    retries,
    reason: `docsify: ${relative} read directly, no tab`,
    routing: 'hash',
  };
}
