import type { FrontierRecord } from '../store/db';
import type { DomAdapter } from '../convert/dom';
import type { DocsBoundary } from '../url/boundary';
import { createScope } from '../url/scope';
import { ConversionQueue } from './conversion-queue';
import { convertBody, convertJobOf, fetchStep, finishPage, type PageOutcome } from './process-page';
import type { CrawlSettings } from './settings';

/**
 * The runner's hold on the entry's host (one of its per-host request slots). The processor
 * releases it the moment the response is read, so the host's next request goes out while this
 * page converts; a later request for the same page (its Markdown twin) takes a slot again.
 */
export interface HostSlot {
  release(): void;
  /** Waits for a free slot of the host and takes it; call the returned function when the request is done. */
  reacquire(): Promise<() => void>;
  /** The host asked for a pause (Retry-After): no new request to it starts for `waitMs`. */
  slowDown(waitMs: number): void;
}

/** One URL to fetch and convert, with what is needed to judge redirects (the job's scope). */
export interface ProcessRequest {
  entry: FrontierRecord;
  startUrl: string;
  settings: CrawlSettings;
  /** The documentation's boundary, for a `docs` crawl (its scope judges redirects too). */
  boundary?: DocsBoundary;
  timeoutMs?: number;
  /** Given by the crawl runner; without it (a refresh, a test) nothing is released early. */
  slot?: HostSlot;
}

export type ProcessResult = PageOutcome & { ms: { fetch: number; convert: number } };

/**
 * Where pages are fetched and converted. The runner only schedules and stores,
 * so this step can run in the worker (linkedom) or hand conversion to other threads.
 */
export type PageProcessor = (request: ProcessRequest, signal?: AbortSignal) => Promise<ProcessResult>;

/**
 * Fetches pages with the given fetch in the calling context, and converts them either right
 * here with a DOM adapter, or on a conversion queue (Web Workers, an offscreen document).
 * Between the two steps the host's request slot is released (see HostSlot).
 */
export function createLocalProcessor(fetchFn: typeof fetch, converter: DomAdapter | ConversionQueue): PageProcessor {
  const scopes = new Map<string, (url: string) => string | null>();
  return async ({ entry, startUrl, settings, boundary, timeoutMs, slot }, signal) => {
    const key = JSON.stringify([startUrl, settings.scope, settings.include, settings.exclude, boundary?.roots]);
    let scope = scopes.get(key);
    if (!scope) scopes.set(key, (scope = createScope({ startUrl, mode: settings.scope, include: settings.include, exclude: settings.exclude, ...(boundary ? { boundary } : {}) })));
    const timings = { fetch: 0, convert: 0 };
    const ctx = { fetch: fetchFn, scope, signal, timeoutMs, timings, slot };
    const step = await fetchStep(entry as FrontierRecord, ctx).finally(() => slot?.release());
    if (step.kind === 'outcome') return { ...step.outcome, ms: timings };
    const job = convertJobOf(entry, step.res);
    let body: ReturnType<typeof convertBody>;
    if (converter instanceof ConversionQueue) {
      const converted = await converter.convert(job, signal);
      timings.convert += converted.ms;
      body = converted;
    } else {
      const t0 = Date.now();
      body = convertBody(job, converter);
      timings.convert += Date.now() - t0;
    }
    const outcome = await finishPage(entry, step.res, body, ctx);
    return { ...outcome, ms: timings };
  };
}
