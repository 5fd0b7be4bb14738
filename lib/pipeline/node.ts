/**
 * The Node runtime (the CLI, the quality bench, tests): pages fetched with the given fetch and
 * converted in this thread with linkedom. Node has no tabs: with `rendering`, docsify sites are
 * read from their Markdown and other client-rendered shells are kept as fetched, with the reason.
 */
import { linkedomAdapter } from '../convert/dom';
import type { CrawlProcessor } from '../crawl/processor';
import { createPagePipeline } from './page-pipeline';

export function nodePipeline({ fetch: fetchFn, rendering = false }: { fetch: typeof globalThis.fetch; rendering?: boolean }): CrawlProcessor {
  return createPagePipeline({ fetch: fetchFn, convert: { dom: linkedomAdapter }, ...(rendering ? { rendering: { renderer: null, dom: linkedomAdapter } } : {}) });
}
