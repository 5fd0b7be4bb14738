/**
 * The pipeline's rendering step (page-pipeline.ts): after fetch and convert, per the
 * job's render setting, reads a page the way the user would see it. A docsify site's pages are
 * read from the Markdown docsify renders; other shells are rendered in a tab of the user's
 * browser and the rendered DOM goes through the same converter. Fetched HTML is still never
 * executed by Scout: the rendering is the site's own page in a normal tab.
 */
import { convertHtml } from '../convert/convert-page';
import type { DomAdapter } from '../convert/dom';
import type { PageOutcome, PageProcessor, ProcessRequest, ProcessResult } from '../crawl/processor';
import { normalizeUrl } from '../url/normalize';
import { hostnameOf, privateHostReason } from '../url/private-network';
import { siteInfo } from '../url/site';
import { docsifyPage } from '../render/docsify-page';
import { shellUrlOf } from '../render/docsify';
import type { DocsifyConfig } from '../shell/docsify-config';
import { routesByHash } from '../render/hash-routing';
import type { RenderedDom } from '../render/read-dom';
import type { Renderer } from '../render/tab-renderer';
import { htmlPage, typeOf } from './steps';

export interface RenderingDeps {
  /** Renders in tabs; null where the browser cannot (shells are then kept as fetched, with the reason). */
  renderer: Renderer | null;
  /** Parses rendered HTML for the converter. */
  dom: DomAdapter;
  fetch: typeof fetch;
  /** The job's scope, as the pipeline made it: a rendered page that moved out of it is skipped. */
  scopeOf: (request: ProcessRequest) => (url: string) => string | null;
}

/** Thin pages on a site with this many shells are shells too, even without their own evidence. */
const SITE_SHELLS = 2;
/** The fetcher's page-size cap, for rendered documents too. */
const MAX_HTML_CHARS = 5 * 1024 * 1024;

type Done = Extract<PageOutcome, { state: 'done' }>;

/** The rendering step over `inner` (fetch and convert): decides what a shell becomes. */
export function renderingStep(inner: PageProcessor, deps: RenderingDeps): PageProcessor {
  /** Shell page URL → docsify config, so later routes of the site skip fetching the shell again. */
  const docsifySites = new Map<string, DocsifyConfig>();
  /** Origin → shell pages seen: the per-site half of the verdict. */
  const shellsPerSite = new Map<string, number>();
  const { scopeOf } = deps;

  return async (request, signal) => {
    const mode = request.settings.render ?? 'auto';
    const { entry } = request;
    const shellUrl = shellUrlOf(entry.url);
    const fetchCtx = { fetch: deps.fetch, signal, timeoutMs: request.timeoutMs };
    const known = mode === 'always' ? undefined : docsifySites.get(shellUrl);
    if (known) return timed(() => docsifyPage(entry, shellUrl, known, fetchCtx));

    const result = await inner(request, signal);
    if (result.state !== 'done') return result;
    const verdict = result.shell;
    if (!verdict) return mode === 'always' ? renderSoon(request, result, undefined, signal) : result;
    const origin = new URL(entry.url).origin;
    if (verdict.shell) shellsPerSite.set(origin, (shellsPerSite.get(origin) ?? 0) + 1);
    if (verdict.shell && verdict.docsify && mode !== 'always') {
      docsifySites.set(shellUrl, verdict.docsify);
      const config = verdict.docsify;
      return timed(() => docsifyPage(entry, shellUrl, config, fetchCtx), result.ms);
    }
    const byTheSite = !verdict.shell && (shellsPerSite.get(origin) ?? 0) >= SITE_SHELLS;
    if (!verdict.shell && !byTheSite) return mode === 'always' ? renderSoon(request, result, undefined, signal) : result;
    const why = byTheSite ? `${verdict.reason} · the site's other pages are client-rendered shells` : verdict.reason;
    const page = { ...result.page, shell: why };
    if (mode === 'never') return { ...result, page, reason: `${why} — kept as fetched (rendering is set to Never)` };
    if (!deps.renderer) return { ...result, page, reason: `${why} — kept as fetched (this browser cannot render pages for Scout)` };
    return renderSoon(request, result, why, signal);
  };

  /** The render, through the runner's `later` when it gives one (see ProcessRequest). */
  function renderSoon(request: ProcessRequest, fetched: Done & { ms: ProcessResult['ms'] }, why: string | undefined, signal?: AbortSignal): Promise<ProcessResult> {
    const { renderer } = deps;
    if (!renderer || fetched.page.format !== 'html') return Promise.resolve(fetched);
    const run = () => render(renderer, request, fetched, why, signal);
    return request.later ? request.later(run, 'idle') : run();
  }

  async function render(renderer: Renderer, request: ProcessRequest, fetched: Done & { ms: ProcessResult['ms'] }, why: string | undefined, signal?: AbortSignal): Promise<ProcessResult> {
    const { entry, startUrl } = request;
    const startHost = hostnameOf(startUrl);
    const allowHost = startHost && privateHostReason(startHost) !== null ? startHost : undefined;
    const rendered = await renderer({ url: entry.url, jobId: entry.jobId, site: siteInfo(startUrl).site, allowHost, signal });
    const ms = { fetch: fetched.ms.fetch + (rendered.ok ? rendered.ms : 0), convert: fetched.ms.convert };
    if (!rendered.ok) return { state: 'failed', reason: why ? `${rendered.reason} (${why})` : rendered.reason, retries: fetched.retries, ms };
    const t0 = Date.now();
    const outcome = await fromRendered(rendered.dom, request, fetched, why);
    return { ...outcome, ms: { ...ms, convert: ms.convert + Date.now() - t0 } };
  }

  async function fromRendered(dom: RenderedDom, request: ProcessRequest, fetched: Done, why: string | undefined): Promise<PageOutcome> {
    const { entry } = request;
    const normalized = normalizeUrl(dom.url, undefined, { keepHashRoute: true });
    if ('skip' in normalized) return { state: 'skipped', reason: `The rendered page moved to ${dom.url}: ${normalized.skip}`, retries: fetched.retries };
    // The tab may have been sent elsewhere by the page's scripts; such a page is not this crawl's.
    const outside = scopeOf(request)(normalized.url);
    if (outside) return { state: 'skipped', reason: `The rendered page moved out of scope to ${dom.url} (${outside})`, retries: fetched.retries };
    if (dom.html.length > MAX_HTML_CHARS) return { state: 'skipped', reason: 'Larger than 5 MB once rendered', retries: fetched.retries };
    const converted = convertHtml(dom.html, dom.url, deps.dom);
    const hashRouted = routesByHash(dom.url, dom.links);
    const note = why ?? 'rendering is set to Always';
    return {
      state: 'done',
      // No validators: the shell's ETag says nothing about the text its scripts fetch, so a refresh renders again.
      page: { ...(await htmlPage(entry.url, normalized.url, converted, dom.html.length)), rendered: true, shell: note },
      links: dom.links,
      // Navigation trees are read without fragments; on a hash-routed site they would all be the shell.
      nav: hashRouted ? [] : converted.navLinks,
      ...typeOf(converted),
      retries: fetched.retries,
      reason: `Rendered in a tab${dom.settled ? '' : ' (still changing when read)'}: ${note}`,
      ...(hashRouted ? { routing: 'hash' as const } : {}),
    };
  }
}

async function timed(run: () => Promise<PageOutcome>, before: ProcessResult['ms'] = { fetch: 0, convert: 0 }): Promise<ProcessResult> {
  const t0 = Date.now();
  const outcome = await run();
  return { ...outcome, ms: { fetch: before.fetch + Date.now() - t0, convert: before.convert } };
}
