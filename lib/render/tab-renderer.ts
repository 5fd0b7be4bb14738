/**
 * Renders pages in tabs of the user's own browser: an inactive tab per page (the user's focus
 * stays where it is), at most a couple at once, each with a deadline, each recorded in
 * IndexedDB while it is open and closed whatever happens — done, failed, timed out, cancelled.
 * Tabs a stopped worker left behind are closed when the next one starts (see TabStore).
 */
import type { RenderBrowser } from './browser-tabs';
import type { RenderedDom } from './read-dom';
import { THIN_CHARS } from '../shell/detect';
import type { TabStore } from './tab-store';
import { slotRuleIds, tabRules, TAB_RULE_BASE, TAB_RULE_END } from './tab-rules';

/** One page to render. */
export interface RenderRequest {
  url: string;
  jobId: string;
  /** The crawl's registrable domain: the tab may not navigate its top frame off it. */
  site: string;
  /** A private host the user started on (their intranet docs), which the tab may reach. */
  allowHost?: string;
  signal?: AbortSignal;
}

export type RenderResult = { ok: true; dom: RenderedDom; ms: number } | { ok: false; reason: string };
export type Renderer = (request: RenderRequest) => Promise<RenderResult>;

export interface TabRendererOptions {
  browser: RenderBrowser;
  store: TabStore;
  /** Tabs open at once (default 2): each is a whole page with its scripts, on the user's machine. */
  tabs?: number;
  /** Per page, from opening the tab to reading it (default 30 s). */
  timeoutMs?: number;
  /** DOM quiet this long counts as settled (default 500 ms). */
  quietMs?: number;
  /** Read the DOM after this long even if it keeps changing (default 10 s). */
  settleMs?: number;
}

export interface TabRenderer {
  render: Renderer;
  /** Closes recorded tabs no render of this worker is using (all of them, or one job's). */
  sweep(jobId?: string): Promise<number>;
  /** Resolves once the start-up sweep has closed what an earlier worker left. */
  ready: Promise<unknown>;
}

/** An error's message in words for the page list. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/error page/i.test(message)) return 'The page did not load in the tab (it failed, or went to an address Scout does not open: off the crawl’s site or on your network)';
  if (/cannot access|permission|host/i.test(message)) return 'Scout may not read the rendered page (it moved to a site Scout has no access to)';
  return `Could not render the page: ${message}`;
}

/** A renderer over `browser`, sweeping leftovers from an earlier worker before its first tab. */
export function createTabRenderer(options: TabRendererOptions): TabRenderer {
  const { browser, store } = options;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const slots: boolean[] = Array.from({ length: Math.max(1, options.tabs ?? 2) }, () => false);
  const waiting: Array<() => void> = [];
  /** Tabs this worker is rendering in right now: never swept. */
  const owned = new Set<number>();

  const sweep = (jobId?: string) => store.sweep((id) => browser.closeTab(id), owned, jobId);
  const stale = Array.from({ length: TAB_RULE_END - TAB_RULE_BASE }, (_, i) => TAB_RULE_BASE + i);
  const ready = Promise.all([sweep(), browser.setRules([], stale)]).catch((error: unknown) => console.warn('Scout could not sweep render tabs', error));

  const acquire = async (signal?: AbortSignal): Promise<number> => {
    for (;;) {
      if (signal?.aborted) throw new Error('Cancelled');
      const free = slots.indexOf(false);
      if (free >= 0) {
        slots[free] = true;
        return free;
      }
      // The signal is the crawl's: the listener goes when the wait ends, not with the crawl.
      await new Promise<void>((resolve) => {
        const done = () => {
          signal?.removeEventListener('abort', done);
          resolve();
        };
        waiting.push(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  };
  const release = (slot: number) => {
    slots[slot] = false;
    waiting.shift()?.();
  };

  const render: Renderer = async (request) => {
    await ready;
    let slot: number;
    try {
      slot = await acquire(request.signal);
    } catch {
      return { ok: false, reason: 'Cancelled' };
    }
    const started = Date.now();
    const stop = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop.abort();
    }, timeoutMs);
    const onAbort = () => stop.abort();
    request.signal?.addEventListener('abort', onAbort);
    const aborted = new Promise<never>((_, reject) => stop.signal.addEventListener('abort', () => reject(new Error('Cancelled')), { once: true }));
    aborted.catch(() => undefined);
    let tabId: number | undefined;
    /** What the render was doing, for the reason when the deadline passes. */
    let phase = 'opening a tab';
    try {
      // Not raced against the deadline: a tab opened after giving up on it would be nobody's to close.
      tabId = await browser.openTab();
      owned.add(tabId);
      // Recorded before anything else happens to it: a worker stopped from here on leaves a row behind, not a stray tab.
      await store.record(tabId, request.jobId, request.url);
      if (stop.signal.aborted) throw new Error('Cancelled');
      await Promise.race([browser.setRules(tabRules(slot, tabId, request.site, request.allowHost), slotRuleIds(slot)), aborted]);
      phase = 'loading';
      await browser.load(tabId, request.url, stop.signal);
      phase = 'reading';
      const settleMs = Math.max(1000, Math.min(options.settleMs ?? 10_000, timeoutMs - (Date.now() - started) - 1000));
      const dom = await Promise.race([browser.read(tabId, options.quietMs ?? 500, settleMs, THIN_CHARS), aborted]);
      return { ok: true, dom, ms: Date.now() - started };
    } catch (error) {
      if (timedOut) return { ok: false, reason: `Not rendered within ${Math.round(timeoutMs / 1000)} s: ${phase === 'reading' ? 'the page gave no answer when read' : phase === 'loading' ? 'the page did not finish loading in its tab' : 'the browser opened no tab'}` };
      if (request.signal?.aborted) return { ok: false, reason: 'Cancelled' };
      return { ok: false, reason: reasonOf(error) };
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      if (tabId !== undefined) {
        await browser.closeTab(tabId);
        await store.forget(tabId).catch(() => undefined);
        owned.delete(tabId);
      }
      await browser.setRules([], slotRuleIds(slot)).catch(() => undefined);
      release(slot);
    }
  };

  return { render, sweep, ready };
}
