/**
 * The page's steps, in the order a page takes them: fetchStep (the network, until the body is
 * read), convertBody (CPU only, wherever a DOM adapter runs: a worker too), finishPage (the
 * Markdown twin, script navigation, the stored form and its fingerprint). page-pipeline.ts runs them.
 */
import type { FrontierRecord } from '../store/db';
import { convertHtml, type ConvertedPage, type NavLink } from '../convert/convert-page';
import type { PageTypeSignals } from '../convert/metadata';
import type { FetchedPage, PageOutcome } from '../crawl/processor';
import type { DomAdapter } from '../convert/dom';
import { titleFromUrl } from '../convert/page-text';
import { fetchPage, fetchPageBody, type HtmlBodyResult, type PageBodyResult, type PageFetchResult } from '../fetch/page-fetcher';
import { decodeBody, type HtmlBody } from '../fetch/body';
import { contentFingerprint } from '../hash';
import { credentialsFor } from '../url/credentials';
import { normalizeUrl } from '../url/normalize';
import { createNetworkGuard } from '../url/private-network';
import { shellOf, type ShellVerdict } from '../shell/detect';
import { markdownDescription, markdownLinks, markdownTitle } from '../crawl/markdown-meta';
import { MAX_NAV_SCRIPT_CHARS, navFromScript } from '../convert/script-nav';
import { fetchText } from '../fetch/fetch-text';

/** What the network steps need. */
export interface FetchContext {
  fetch: typeof fetch;
  /** null when in scope, else why not. */
  scope: (url: string) => string | null;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Time spent per step, for the benchmark's time split. */
  timings?: Record<'fetch' | 'convert', number>;
  /** The host's request slot, when the runner freed it after the fetch: taken again for the Markdown twin. */
  slot?: { reacquire(): Promise<() => void>; slowDown?(waitMs: number): void };
}

/** An HTML response waiting for conversion, its body undecoded: what the fetch step hands the convert step. */
export type HtmlResponse = HtmlBodyResult;

/** The fetch step's result: either the entry's outcome already (failed, skipped, not modified, a Markdown page), or HTML to convert. */
export type FetchStepResult = { kind: 'outcome'; outcome: PageOutcome } | { kind: 'html'; res: HtmlResponse };

/**
 * What a converter needs: plain data, so it can be posted to a worker. The body travels as its
 * bytes and is decoded by the converter (convertBody): posted to another thread, its buffer is
 * transferred, not copied (convert-port.ts), and the crawl's thread never decodes it.
 */
export interface ConvertJob extends HtmlBody {
  finalUrl: string;
  /** The start page's own contents may be the site's table of contents (read only there). */
  startPage: boolean;
}

/** What a converter returns: plain data, so it can come back from a worker. */
export interface ConvertedBody {
  converted: ConvertedPage;
  /** Set for a thin page: whether it is a client-rendered shell, and why (lib/render/ decides what to do). */
  shell?: ShellVerdict;
}

/**
 * The network part: fetch (Markdown twin first for llms-listed pages, retries and Retry-After
 * waits included) and the scope check on the final URL. Ends once the body is read.
 */
export async function fetchStep(entry: FrontierRecord, ctx: FetchContext): Promise<FetchStepResult> {
  const t0 = Date.now();
  // Each redirect hop is scope-checked before it is requested (where the runtime shows hops),
  // so a page that redirects to another site never sends that site a request.
  // The scope (createScope) includes the private-network guard, so a hop into the user's network is refused here too.
  const checkRedirect = (target: string) => redirectScopeReason(entry.url, target, ctx.scope);
  // Cookies go to the crawled site only; the entry is in scope, so its site is the crawl's.
  const credentials = credentialsFor(entry.url, entry.url);
  // A 429 or 503 with Retry-After is the host asking for a pause: the whole host waits, not only this URL.
  const onRetry = ({ status, retryAfter, waitMs }: { status?: number; retryAfter: boolean; waitMs: number }) => {
    if (retryAfter && (status === 429 || status === 503)) ctx.slot?.slowDown?.(waitMs);
  };
  const res = await fetchPageBody(entry.url, { fetch: ctx.fetch, tryMarkdownTwin: entry.preferMarkdown, signal: ctx.signal, timeoutMs: ctx.timeoutMs, checkRedirect, credentials, conditional: entry.conditional, onRetry });
  if (ctx.timings) ctx.timings.fetch += Date.now() - t0;
  const retries = 'retries' in res ? res.retries : 0;
  const done = (outcome: PageOutcome): FetchStepResult => ({ kind: 'outcome', outcome });
  if (res.kind === 'failed') return done({ state: 'failed', reason: res.reason, retries, status: res.status });
  if (res.kind === 'skipped') return done({ state: 'skipped', reason: res.reason, retries, status: res.status });
  if (res.kind === 'not-modified') return done({ state: 'not-modified', retries });

  // Still needed: browsers follow redirects without showing the hops.
  const outOfScope = redirectScopeReason(entry.url, res.finalUrl, ctx.scope);
  if (outOfScope) return done({ state: 'skipped', reason: outOfScope, retries });

  if (res.kind === 'markdown') return done({ state: 'done', page: await fromMarkdown(res, res.markdown, entry.url), links: markdownLinks(res.markdown, res.finalUrl), nav: [], retries });
  return { kind: 'html', res };
}

/** The convert step's input for a fetched entry. */
export function convertJobOf(entry: FrontierRecord, res: HtmlResponse): ConvertJob {
  return { bytes: res.body, contentType: res.contentType, finalUrl: res.finalUrl, startPage: entry.depth === 0 };
}

/**
 * The CPU part, no I/O: the body decoded (its charset by BOM, Content-Type, `<meta>`), HTML to
 * Markdown, and the shell check of a thin page. Runs wherever a DomAdapter does (a worker too).
 */
export function convertBody(job: ConvertJob, dom: DomAdapter): ConvertedBody {
  const html = decodeBody(job.bytes, job.contentType, true);
  const converted = convertHtml(html, job.finalUrl, dom, { startPage: job.startPage });
  // A thin page may be an empty client-rendered shell; lib/render/ decides what to do with it.
  const shell = shellOf(html, converted.markdown, dom);
  return shell ? { converted, shell } : { converted };
}

/**
 * After conversion: the Markdown twin a page names (one more request, inside the host's slot
 * again when the runner gives one), then the stored form.
 */
export async function finishPage(entry: FrontierRecord, res: HtmlResponse, body: ConvertedBody, ctx: FetchContext): Promise<PageOutcome> {
  const { converted, shell } = body;
  const retries = res.retries;
  // A page that names its own Markdown twin (rel=alternate) gets it used when the llms.txt listed it.
  // The twin may live on another site (it is not scope-checked, only guarded): that site gets
  // no cookies, and an address on the user's own network gets no request at all.
  const twinUrl = converted.markdownAlternates[0];
  if (entry.preferMarkdown && twinUrl && createNetworkGuard(entry.url)(twinUrl) === null) {
    const twinCredentials = credentialsFor(twinUrl, entry.url);
    const checkRedirect = (target: string) => redirectScopeReason(entry.url, target, ctx.scope);
    const release = ctx.slot ? await ctx.slot.reacquire() : () => undefined;
    let twin: PageFetchResult;
    try {
      twin = await fetchPage(twinUrl, { fetch: ctx.fetch, signal: ctx.signal, timeoutMs: ctx.timeoutMs, checkRedirect, credentials: twinCredentials });
    } finally {
      release();
    }
    if (twin.kind === 'markdown') {
      const page = await fromMarkdown({ ...res, etag: twin.etag, lastModified: twin.lastModified }, twin.markdown, entry.url);
      return { state: 'done', page: { ...page, title: converted.title || page.title, twinUrl: twin.finalUrl }, links: converted.links, nav: converted.navLinks, retries, ...typeOf(converted) };
    }
  }
  const page: FetchedPage = { ...(await htmlPage(entry.url, res.finalUrl, converted, res.bytes)), etag: res.etag, lastModified: res.lastModified };
  // A client-rendered shell's scripts are its app (rendered in a tab, or read from its Markdown): no menu to read there.
  const scripted = converted.navScripts && !shell?.shell ? await scriptNav(entry, res.finalUrl, converted.navScripts, ctx) : [];
  const nav = scripted.length ? scripted : converted.navLinks;
  const links = scripted.length ? [...new Set([...converted.links, ...scripted.map((link) => link.url).filter(Boolean)])] : converted.links;
  return { state: 'done', page, links, nav, retries, ...typeOf(converted), ...(shell ? { shell } : {}) };
}

/**
 * A start page without a navigation tree of its own may load one as data (Doxygen's tabs from
 * menudata.js): its same-site scripts are fetched, in scope and within the host's slot, and the
 * first that holds a tree of the site's pages is the page's navigation. Read as data, never run.
 */
async function scriptNav(entry: FrontierRecord, pageUrl: string, scripts: string[], ctx: FetchContext): Promise<NavLink[]> {
  const release = ctx.slot ? await ctx.slot.reacquire() : () => undefined;
  try {
    for (const url of scripts) {
      if (ctx.signal?.aborted) return [];
      if (ctx.scope(url) !== null) continue;
      const checkRedirect = (target: string) => redirectScopeReason(entry.url, target, ctx.scope);
      try {
        const res = await fetchText(url, { fetch: ctx.fetch, timeoutMs: ctx.timeoutMs ?? 10_000, maxBytes: MAX_NAV_SCRIPT_CHARS, accept: '*/*', credentials: (target) => credentialsFor(target, entry.url), checkRedirect });
        if (res.status !== 200 || res.truncated) continue;
        const nav = navFromScript(res.text, pageUrl);
        if (nav.length) return nav;
      } catch {
        // A script that cannot be fetched holds no navigation for us; the page stands without it.
      }
    }
    return [];
  } finally {
    release();
  }
}

/** What the page says it is, for the writer's not-documentation judgement (lib/crawl/not-docs.ts). */
export function typeOf(converted: ConvertedPage): { pageType?: PageTypeSignals } {
  return converted.pageType ? { pageType: converted.pageType } : {};
}

/** The stored form of a converted HTML page; the caller adds what it knows of the response (validators, rendering). */
export async function htmlPage(url: string, finalUrl: string, converted: ConvertedPage, bytes: number): Promise<FetchedPage> {
  return {
    url,
    finalUrl,
    title: converted.title,
    description: converted.description,
    siteName: converted.siteName,
    markdown: converted.markdown,
    format: 'html',
    contentHash: await pageFingerprint(converted.markdown, [url, finalUrl]),
    bytes,
  };
}

async function fromMarkdown(res: Extract<PageBodyResult, { kind: 'markdown' | 'html' }>, markdown: string, url: string): Promise<FetchedPage> {
  const twinUrl = res.kind === 'markdown' ? res.twinUrl : undefined;
  return {
    url,
    finalUrl: res.finalUrl,
    title: markdownTitle(markdown) ?? titleFromUrl(url),
    description: markdownDescription(markdown),
    markdown,
    format: 'markdown',
    twinUrl,
    contentHash: await pageFingerprint(markdown, [url, res.finalUrl]),
    bytes: res.bytes,
    etag: res.etag,
    lastModified: res.lastModified,
  };
}

/**
 * The fingerprint duplicates are told by (the crawl's dedupe, a refresh's change check): the
 * Markdown's text with links to the page itself reduced to their fragment. One file served at two
 * addresses (`/` and `/index.html`) resolves its in-page links (a table of contents, heading
 * anchors) to each address, so its two copies differ only there; reduced, they are one page.
 */
export async function pageFingerprint(markdown: string, pageUrls: string[]): Promise<string> {
  return contentFingerprint(withoutSelfLinks(markdown, pageUrls));
}

/**
 * `markdown` with every link target naming one of `pageUrls` (fragment aside) written as its
 * fragment alone: `[Install](https://x.test/#install)` on https://x.test/ becomes `[Install](#install)`.
 * A folder and its index file (`/a/` and `/a/index.html`) are one address here, as static hosts serve them.
 */
export function withoutSelfLinks(markdown: string, pageUrls: string[]): string {
  let text = markdown;
  // Each form is replaced only where the target ends right after it (a fragment, the closing
  // parenthesis, a title), so `](https://x.test/` never cuts into `](https://x.test/guide.html)`.
  for (const self of new Set(pageUrls.flatMap(addressForms))) {
    if (!text.includes(`](${self}`)) continue;
    text = text.split(`](${self}#`).join('](#').split(`](${self})`).join('](#)').split(`](${self} "`).join('](# "');
  }
  return text;
}

/** The page's address without its fragment, and the other name of the same file when it is a folder's index. */
function addressForms(url: string): string[] {
  const cut = url.indexOf('#');
  const bare = cut === -1 ? url : url.slice(0, cut);
  if (bare.endsWith('/')) return [bare, `${bare}index.html`];
  for (const index of ['/index.html', '/index.htm']) if (bare.endsWith(index)) return [bare, bare.slice(0, -index.length + 1)];
  return [bare];
}

function redirectScopeReason(url: string, finalUrl: string, scope: (u: string) => string | null): string | null {
  if (finalUrl === url) return null;
  const normalized = normalizeUrl(finalUrl);
  if ('skip' in normalized) return `Redirected to ${finalUrl}: ${normalized.skip}`;
  const reason = scope(normalized.url);
  return reason ? `Redirected out of scope to ${finalUrl} (${reason})` : null;
}
