/**
 * The page pipeline, assembled once for every runtime. A page goes
 *
 *   runner (lib/crawl/) ── ProcessRequest ─▶ fetchStep ─▶ convert ─▶ finishPage ─▶ rendering ─▶ outcome ─▶ runner's writer
 *
 * fetchStep (steps.ts) fetches with the runtime's fetch and releases the host's request slot
 * once the body is read; conversion runs either in the calling thread (a DOM adapter: the CLI)
 * or on a conversion queue of lanes elsewhere (Web Workers, the offscreen document's parser);
 * finishPage takes the Markdown twin and the stored form; the rendering step (rendering.ts)
 * decides what a client-rendered shell becomes. The runtimes differ only in PipelineRuntime:
 * chromium.ts and firefox.ts (through browser.ts) and node.ts fill it in.
 */
import type { DomAdapter } from '../convert/dom';
import type { CrawlProcessor, PageProcessor, ProcessRequest, ProcessResult } from '../crawl/processor';
import type { Renderer } from '../render/tab-renderer';
import { createScope } from '../url/scope';
import { renderingStep } from './rendering';
import { convertBody, convertJobOf, fetchStep, finishPage, type ConvertedBody, type ConvertJob } from './steps';

/**
 * A page of more HTML than this converts apart from its place in the write order (ProcessRequest.later):
 * it takes about a second or more to convert, and in its place it held every later page's write.
 * The Python docs' `contents.html` (2.5 MB, at depth 1, linking every page) left the crawl with
 * nothing to request for seconds while it converted.
 *
 * Counted in the body's bytes: the HTML is decoded only by its converter, after this choice. A
 * page that big is big for its markup (tags, attributes, links), which is ASCII: one byte a
 * character in UTF-8 and every single-byte or ASCII-compatible charset. Only text in a multi-byte
 * charset counts more (a CJK character: three bytes in UTF-8), and a UTF-16 page counts double;
 * such a page is taken for big a little sooner, which moves where it is written, never what.
 */
const BIG_PAGE_BYTES = 1_000_000;

/** Conversion lanes away from the calling thread, as the pipeline uses them (a ConversionQueue fits). */
export interface ConversionLanes {
  /** `taken`: called when a converter takes the page (see ProcessRequest.converting). */
  convert(job: ConvertJob, signal?: AbortSignal, taken?: () => void): Promise<ConvertedBody & { ms: number }>;
  /** Pages converted at once: the runner bounds its backlog of fetched pages by it. */
  readonly capacity: number;
}

/** What a runtime brings: the only place the Chromium, Firefox and Node pipelines differ. */
export interface PipelineRuntime {
  /** Pages are requested with it: the browser's own (the user's cookies, the network rules), or Node's guarded fetch. */
  fetch: typeof fetch;
  /** Where HTML converts: in this thread with a DOM adapter, or on lanes elsewhere. */
  convert: { dom: DomAdapter } | { lanes: ConversionLanes };
  /**
   * The rendering step (shells, docsify sites): `renderer` reads a page in a tab, null where the
   * runtime has none (the shell is kept as fetched, with the reason); `dom` parses rendered HTML.
   * Left out, pages are stored as fetched and converted.
   */
  rendering?: { renderer: Renderer | null; dom: DomAdapter };
  /** A job ended: close what it still holds (render tabs). */
  ended?(jobId: string): Promise<void>;
}

/** The page processor for the runtime: see the module comment. */
export function createPagePipeline(runtime: PipelineRuntime): CrawlProcessor {
  const scopeOf = scopeCache();
  const { convert } = runtime;
  const fetchAndConvert: PageProcessor = async (request, signal) => {
    const { entry, timeoutMs, slot } = request;
    const timings = { fetch: 0, convert: 0 };
    const ctx = { fetch: runtime.fetch, scope: scopeOf(request), signal, timeoutMs, timings, slot };
    const step = await fetchStep(entry, ctx).finally(() => slot?.release());
    if (step.kind === 'outcome') return { ...step.outcome, ms: timings };
    const { res } = step;
    const job = convertJobOf(entry, res);
    const convertAndFinish = async (): Promise<ProcessResult> => {
      let body: ConvertedBody;
      if ('lanes' in convert) {
        const converted = await convert.lanes.convert(job, signal, request.converting);
        timings.convert += converted.ms;
        body = converted;
      } else {
        request.converting?.();
        const t0 = Date.now();
        body = convertBody(job, convert.dom);
        timings.convert += Date.now() - t0;
      }
      const outcome = await finishPage(entry, res, body, ctx);
      return { ...outcome, ms: timings };
    };
    return job.bytes.byteLength > BIG_PAGE_BYTES && request.later ? request.later(convertAndFinish, 'deeper') : convertAndFinish();
  };
  const process = runtime.rendering ? renderingStep(fetchAndConvert, { ...runtime.rendering, fetch: runtime.fetch, scopeOf }) : fetchAndConvert;
  return {
    process,
    converters: () => ('lanes' in convert ? convert.lanes.capacity : 1),
    ...(runtime.ended ? { ended: runtime.ended } : {}),
  };
}

/** The job's scope (redirects are judged by it), made once per job's settings. */
function scopeCache(): (request: ProcessRequest) => (url: string) => string | null {
  const scopes = new Map<string, (url: string) => string | null>();
  return ({ startUrl, settings, boundary }) => {
    const key = JSON.stringify([startUrl, settings.scope, settings.include, settings.exclude, boundary?.roots]);
    let scope = scopes.get(key);
    if (!scope) scopes.set(key, (scope = createScope({ startUrl, mode: settings.scope, include: settings.include, exclude: settings.exclude, ...(boundary ? { boundary } : {}) })));
    return scope;
  };
}
