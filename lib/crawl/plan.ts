/**
 * What a crawl from a start page would cover, worked out before it starts: the documentation's
 * boundary (lib/url/boundary.ts) and the pages the site's sitemaps and llms.txt files list inside
 * and outside it. The Generate tab shows it before the user presses Generate, the command line
 * prints it, and a `docs` crawl takes its scope from it.
 *
 * It costs the start page (fetched once, with the crawl's cookie rules) and the site's sitemaps
 * (fetched once: the crawl then seeds from the plan's list); the llms.txt files come from the
 * site's discovery, which is not repeated.
 */
import { convertHtml } from '../convert/convert-page';
import type { DomAdapter } from '../convert/dom';
import { readHeadMetadata } from '../convert/metadata';
import type { PlanRecord } from '../store/db';
import type { Store } from '../store/store';
import { fetchPage } from '../fetch/page-fetcher';
import { latestJob } from '../store/queries';
import { planFor, savePlan } from '../store/plans';
import { inferBoundary, type BoundaryEvidence } from '../url/boundary';
import { credentialsFor } from '../url/credentials';
import { createScope } from '../url/scope';
import { markdownLinks, markdownTitle } from './markdown-meta';
import { discoveredRows, discoveryEnded, llmsFiles, sitemapPageUrls } from './seeds';

export interface PlanDeps {
  fetch: typeof fetch;
  dom: DomAdapter;
  signal?: AbortSignal;
  now?: () => number;
  /** Per request (10 s by default, as the crawl). */
  timeoutMs?: number;
}

export interface PlanOptions {
  /** Make it again even when a plan from the site's current discovery exists. */
  again?: boolean;
  /** Sitemap page URLs kept at most (DEFAULT_PLAN_SITEMAP_URLS). */
  maxSitemapUrls?: number;
}

/** The plan's words while it runs; the crawl card shows them too when a crawl makes its own plan. */
export const PLAN_RUNNING_MESSAGE = 'Finding where the documentation is…';

/**
 * Sitemap URLs a plan keeps: four times the default page limit is what a default crawl seeds
 * from, and enough to say whether the limit covers the docs; a crawl that wants more reads the
 * sitemaps itself.
 */
export const DEFAULT_PLAN_SITEMAP_URLS = 5_000;

// One plan per database and start page at a time: the panel and a crawl asking together share it.
const running = new WeakMap<Store, Map<string, Promise<PlanRecord>>>();

/**
 * Works out the plan for `startUrl` and stores it on the `plans` table (running, then done or
 * failed with the reason in words), and returns it. Waits for the site's running discovery; a
 * plan already made from the current discovery is returned as it is unless `again`. Never throws
 * for what the site does: a start page that cannot be read is a failed plan.
 */
export function planCrawl(db: Store, startUrl: string, deps: PlanDeps, options: PlanOptions = {}): Promise<PlanRecord> {
  let plans = running.get(db);
  if (!plans) running.set(db, (plans = new Map()));
  const joined = plans.get(startUrl);
  if (joined) return joined;
  const work = makePlan(db, startUrl, deps, options).finally(() => plans.delete(startUrl));
  plans.set(startUrl, work);
  return work;
}

async function makePlan(db: Store, startUrl: string, deps: PlanDeps, options: PlanOptions): Promise<PlanRecord> {
  const now = deps.now ?? Date.now;
  const origin = new URL(startUrl).origin;
  await discoveryEnded(db, origin, deps.signal);
  const discovery = await latestJob(db, origin, 'discovery', 'done');
  const existing = await planFor(db, startUrl);
  if (!options.again && existing?.state === 'done' && existing.discoveryJobId === discovery?.id) return existing;

  const base = { startUrl, origin, createdAt: now(), ...(discovery ? { discoveryJobId: discovery.id } : {}) };
  await savePlan(db, { ...base, state: 'running', message: PLAN_RUNNING_MESSAGE });
  const fail = async (message: string): Promise<PlanRecord> => {
    const plan: PlanRecord = { ...base, state: 'failed', message };
    await savePlan(db, plan);
    return plan;
  };
  try {
    const page = await readStartPage(startUrl, deps);
    if ('failure' in page) return await fail(page.failure);
    const rows = discovery ? await discoveredRows(db, discovery) : [];
    const limit = Math.max(1, options.maxSitemapUrls ?? DEFAULT_PLAN_SITEMAP_URLS);
    const sitemapUrls = await sitemapPageUrls(rows, startUrl, deps.fetch, limit);
    if (deps.signal?.aborted) return await fail(`Stopped before it was done: ${reasonOf(deps.signal.reason)}`);
    const boundary = inferBoundary({ ...page, llms: llmsFiles(rows), sitemapUrls });
    const plan: PlanRecord = { ...base, state: 'done', boundary, sitemapUrls, sitemapLimit: limit };
    await savePlan(db, plan);
    return plan;
  } catch (error) {
    return fail(`Scout could not work out where the documentation is: ${reasonOf(error)}`);
  }
}

type StartPage = Omit<BoundaryEvidence, 'llms' | 'sitemapUrls'>;

/** The start page, fetched once as the crawl would (its cookie rules, redirects checked), read for what the boundary needs. */
async function readStartPage(startUrl: string, deps: PlanDeps): Promise<StartPage | { failure: string }> {
  // A redirect may go anywhere on the site (to the docs' version folder, another subdomain), as the crawl's site scope allows, and never off it or into the user's network.
  const scope = createScope({ startUrl, mode: 'site', otherVariants: true });
  const checkRedirect = (target: string): string | null => scope(target);
  const res = await fetchPage(startUrl, { fetch: deps.fetch, credentials: credentialsFor(startUrl, startUrl), signal: deps.signal, timeoutMs: deps.timeoutMs, checkRedirect, maxRetries: 1 });
  if (res.kind === 'failed' || res.kind === 'skipped') return { failure: `The start page could not be read: ${res.reason}` };
  if (res.kind === 'not-modified') return { failure: 'The start page could not be read: the server answered 304 to a plain request' };
  const page: StartPage = { startUrl, finalUrl: res.finalUrl, nav: [] };
  if (res.kind === 'markdown') {
    const title = markdownTitle(res.markdown);
    return title ? { ...page, title } : page;
  }
  const converted = convertHtml(res.html, res.finalUrl, deps.dom, { startPage: true });
  // The title as written ("Install — Acme 4.2 documentation"): the converter's drops the site's part, which names the docs.
  let title: string | undefined = converted.title;
  let alternates: Array<{ url: string; lang: string }> = [];
  try {
    const document = deps.dom.parse(res.html);
    const head = readHeadMetadata(document, res.finalUrl);
    title = head.title ?? title;
    alternates = translationsOf(document, head.baseUrl ?? res.finalUrl);
  } catch {
    // Unparseable twice over: the converter's title and no translations.
  }
  // The site's header, menus and footer: every link of the page but its docs navigation and its content's.
  const inTree = new Set(converted.navLinks.map((n) => n.url));
  for (const url of markdownLinks(converted.markdown, res.finalUrl)) inTree.add(url.split('#')[0] ?? url);
  const chromeLinks = converted.links.filter((url) => !inTree.has(url));
  return {
    ...page,
    alternates,
    chromeLinks,
    nav: converted.navLinks.map((n) => ({ url: n.url, title: n.title, depth: n.depth })),
    ...(converted.canonical ? { canonical: converted.canonical } : {}),
    ...(title ? { title } : {}),
    ...(converted.siteName ? { siteName: converted.siteName } : {}),
  };
}

/** The page's translations: `<link rel=alternate hreflang>` and `<a hreflang>`, absolute. */
function translationsOf(document: Document, baseUrl: string): Array<{ url: string; lang: string }> {
  const found: Array<{ url: string; lang: string }> = [];
  for (const element of document.querySelectorAll('[hreflang]')) {
    const lang = element.getAttribute('hreflang')?.trim();
    const href = element.getAttribute('href');
    if (!lang || !href) continue;
    try {
      found.push({ url: new URL(href, baseUrl).href, lang });
    } catch {
      // Not an address: no translation to leave out.
    }
  }
  return found;
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return error === undefined ? 'cancelled' : String(error);
}

/**
 * The plan in plain words, as the command line prints it before the crawl: what will be crawled,
 * why, how many pages the site's sitemaps and llms.txt files list inside, and whether the page
 * limit covers them.
 */
export function planSummary(plan: PlanRecord, maxPages: number): string[] {
  const host = new URL(plan.startUrl).host;
  if (plan.state === 'running') return [plan.message ?? PLAN_RUNNING_MESSAGE];
  if (plan.state === 'failed' || !plan.boundary) return [`${plan.message ?? 'Scout could not work out where the documentation is'}. The crawl keeps to ${host}.`];
  const { boundary } = plan;
  const roots = boundary.roots.map((r) => `${new URL(r.origin).host}${r.path}`);
  const lines = [`Scout will crawl the documentation${boundary.name ? ` (${boundary.name})` : ''}: ${roots.join(', ')}`, ...boundary.why.map((w) => `  · ${w}`)];
  const { inside, outside, fromSitemaps, fromLlms } = boundary.listed;
  if (fromSitemaps || fromLlms) {
    const what = fromSitemaps && fromLlms ? 'sitemaps and llms.txt files list' : fromSitemaps ? 'sitemaps list' : 'llms.txt files list';
    const cut = plan.sitemapLimit !== undefined && (plan.sitemapUrls?.length ?? 0) >= plan.sitemapLimit ? ' at least' : '';
    lines.push(`The site's ${what}${cut} ${countOf(inside, 'documentation page')}${outside ? ` (${countOf(outside, 'other page')} of the site left out)` : ''}.`);
    if (inside > 0) lines.push(inside <= maxPages ? `The page limit of ${countOf(maxPages, 'page')} covers them.` : `The page limit of ${countOf(maxPages, 'page')} does not cover them: ${inside.toLocaleString('en')} would.`);
  }
  return lines;
}

const countOf = (n: number, word: string) => `${n.toLocaleString('en')} ${n === 1 ? word : `${word}s`}`;
