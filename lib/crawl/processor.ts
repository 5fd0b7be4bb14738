import type { FrontierRecord } from '../db';
import type { DomAdapter } from '../convert/dom';
import { createScope } from '../url/scope';
import { processPage, type PageOutcome } from './process-page';
import type { CrawlSettings } from './settings';

/** One URL to fetch and convert, with what is needed to judge redirects (the job's scope). */
export interface ProcessRequest {
  entry: FrontierRecord;
  startUrl: string;
  settings: CrawlSettings;
  timeoutMs?: number;
}

export type ProcessResult = PageOutcome & { ms: { fetch: number; convert: number } };

/**
 * Where pages are fetched and converted. The runner only schedules and stores,
 * so this step can run in the worker (linkedom) or in an offscreen document
 * with the browser's native parser, on another thread.
 */
export type PageProcessor = (request: ProcessRequest, signal?: AbortSignal) => Promise<ProcessResult>;

/** Processes pages in the calling context with the given fetch and DOM adapter. */
export function createLocalProcessor(fetchFn: typeof fetch, dom: DomAdapter): PageProcessor {
  const scopes = new Map<string, (url: string) => string | null>();
  return async ({ entry, startUrl, settings, timeoutMs }, signal) => {
    const key = JSON.stringify([startUrl, settings.scope, settings.include, settings.exclude]);
    let scope = scopes.get(key);
    if (!scope) scopes.set(key, (scope = createScope({ startUrl, mode: settings.scope, include: settings.include, exclude: settings.exclude })));
    const timings = { fetch: 0, convert: 0 };
    const outcome = await processPage(entry as FrontierRecord, { fetch: fetchFn, dom, scope, signal, timeoutMs, timings });
    return { ...outcome, ms: timings };
  };
}
