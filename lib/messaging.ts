import { defineExtensionMessaging } from '@webext-core/messaging';
import type { CrawlSettings } from './crawl/settings';
import type { Curation } from './generate/types';

/** What any panel command may answer instead of its result: the handler failed, in words for the user. */
export interface CommandFailure {
  error: string;
}

/**
 * Every command the side panel can send to the background worker.
 * Commands return at once (MV3 ends an event after 5 minutes, so no handler
 * awaits long work); results flow back through Dexie live queries.
 */
interface PanelCommands {
  /** Health check; returns the extension version. */
  ping(): { version: string };
  /** The panel is showing this page: records the site (when first opened, how often). Sends no request; discovery is startDiscovery. */
  openSite(data: { url: string }): { origin: string };
  /**
   * Runs discovery for the page's site (or joins the run already going for it). With `visit`
   * (the panel opened on, or followed the reader to, a page), a site discovered before is not
   * discovered again: only the page's own links and headers and the llms locations in its folders
   * not looked at yet are read, and added to the site's discovery. Answers the site's discovery
   * job, or `no-access` when the site's host permission is missing.
   */
  startDiscovery(data: { url: string; visit?: boolean }): { jobId: string } | { error: 'no-access' };
  /**
   * Runs the agent-readiness check from the page (discovery, sampled pages, twins, links), with the
   * pages of the site's latest crawl when `crawl` is set; the report lands on a `check` job.
   */
  startCheck(data: { url: string; crawl: boolean }): { jobId: string } | { error: 'no-access' };
  /**
   * Works out what a crawl from the page would cover (lib/crawl/plan.ts): the documentation's
   * boundary and how many pages its sitemaps and llms.txt files list. The plan lands on the
   * `plans` table; one already made from the site's current discovery is kept, unless `again`.
   */
  planCrawl(data: { url: string; again?: boolean }): { ok: true } | { error: 'no-access' };
  /** Starts a crawl from the page with these settings (defaults fill the rest). */
  startCrawl(data: { url: string; settings: Partial<CrawlSettings> }): { jobId: string } | { error: string };
  /** Refreshes the site's latest crawl: its pages re-checked with conditional requests. */
  startRefresh(data: { origin: string }): { jobId: string } | { error: string };
  /** Saves how the site is kept current (schedule, change threshold) and re-arms the schedule. */
  setMonitor(data: { origin: string; everyHours: number; threshold: number }): { nextAt?: number };
  /**
   * Writes AI descriptions for the site's stored pages with the saved provider, then regenerates.
   * `consent` when the user has not yet agreed to send page text to this endpoint.
   */
  startDescribe(data: { origin: string }): { jobId: string } | { error: string; consent?: true };
  cancelDescribe(data: { jobId: string }): { ok: boolean };
  /** Pause, resume and cancel work on crawls and refreshes alike. */
  pauseCrawl(data: { jobId: string }): { ok: boolean };
  resumeCrawl(data: { jobId: string }): { ok: boolean };
  cancelCrawl(data: { jobId: string }): { ok: boolean };
  /** Restarts runners for crawls marked running that no runner is driving (the worker was stopped). */
  wakeCrawls(): { resumed: number };
  /**
   * Deletes the site's old crawls now, keeping only the ones in use (a paused crawl, the one the
   * outputs come from) — what the storage-full pause offers. Answers how many crawls and rows went.
   */
  deleteOldCrawls(data: { origin: string }): { crawls: number; rows: number };
  /** Deletes every row of the site (refused while one of its jobs runs). Answers the rows deleted. */
  deleteSiteData(data: { origin: string }): { rows: number } | { error: string };
  /** Regenerates the site's llms.txt and llms-full.txt from its latest crawl, saving the curation first when given. */
  generate(data: { origin: string; curation?: Curation }): { version: number } | { error: string };
}

/**
 * The panel's commands as the worker registers them (entrypoints/background/on-command.ts): each
 * answers its result or, when its handler throws, a CommandFailure, so the panel can say what
 * went wrong instead of only that the message failed.
 */
export type PanelCommandMap = {
  [K in keyof PanelCommands]: PanelCommands[K] extends (...args: infer A) => infer R ? (...args: A) => R | CommandFailure : never;
};

/** Messages between Scout's own contexts, never sent by the panel. */
interface InternalMessages {
  /**
   * Internal, worker → offscreen document: start `workers` conversion workers (and serve the native
   * parser when `native`) and post a MessagePort to each to the service worker, marked with
   * `request`; answers their names.
   */
  connectConverters(data: { workers: number; native: boolean; request: number }): { lanes: string[] };
  /**
   * Internal, worker → offscreen document: start conversion worker `index` again (ending the one
   * there) and post a MessagePort to it to the service worker, marked with `request`.
   */
  startConverter(data: { index: number; request: number }): { lane: string };
  /** Internal, worker → offscreen document: end conversion worker `index` (a page held it over the time limit). */
  endConverter(data: { index: number }): void;
}

export type ProtocolMap = PanelCommandMap & InternalMessages;

export const { sendMessage, onMessage, removeAllListeners } = defineExtensionMessaging<ProtocolMap>();
