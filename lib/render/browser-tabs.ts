/**
 * The few tab operations rendering needs, over the extension APIs (tabs, scripting,
 * declarativeNetRequest). lib/ uses no extension API by itself: the background passes its
 * `browser` in, and unit tests pass a fake with the same shape.
 */
import { readRenderedDom, type RenderedDom } from './read-dom';
import type { TabRule } from './tab-rules';

/** How often a loading tab is looked at. */
const LOAD_POLL_MS = 100;
/** A tab still blank this long after being sent to its page has dropped the navigation (see load). */
const RENAVIGATE_MS = 2000;

/** The subset of the extension API used here (Chrome MV3 and Firefox MV2 alike). */
export interface ExtensionApis {
  tabs: {
    create(props: { url: string; active: boolean }): Promise<{ id?: number }>;
    update(tabId: number, props: { url: string }): Promise<unknown>;
    remove(tabId: number): Promise<void>;
    get(tabId: number): Promise<{ status?: string; url?: string; pendingUrl?: string }>;
  };
  scripting: {
    executeScript(injection: { target: { tabId: number }; func: typeof readRenderedDom; args: [number, number, number] }): Promise<Array<{ result?: unknown }>>;
  };
  declarativeNetRequest?: {
    updateSessionRules(options: { addRules?: TabRule[]; removeRuleIds?: number[] }): Promise<void>;
  };
}

/** Tab operations for the renderer; each one says in words what went wrong. */
export interface RenderBrowser {
  /** An inactive tab on about:blank (the user's focus stays where it is); its id. */
  openTab(): Promise<number>;
  /** Closes a tab; resolves when it is gone or was already gone. */
  closeTab(tabId: number): Promise<void>;
  /** Navigates the tab and resolves when the new document has loaded; rejects if the tab closes or `signal` aborts. */
  load(tabId: number, url: string, signal: AbortSignal): Promise<void>;
  /** Injects the reader (read-dom.ts) and returns the rendered document. */
  read(tabId: number, quietMs: number, settleMs: number, minText: number): Promise<RenderedDom>;
  /** Adds and removes session rules; false when the browser has no declarativeNetRequest. */
  setRules(add: TabRule[], remove: number[]): Promise<boolean>;
}

/** The render operations over real extension APIs. */
export function browserTabs(api: ExtensionApis): RenderBrowser {
  return {
    async openTab() {
      const tab = await api.tabs.create({ url: 'about:blank', active: false });
      if (tab.id === undefined) throw new Error('The browser opened no tab');
      // Measured in Chromium: navigating a new tab before its blank page has settled could leave it
      // "unloaded" for good. Wait for the blank page first (bounded: a few hundred ms at most in practice).
      for (let i = 0; i < 50; i++) {
        const blank = await api.tabs.get(tab.id).catch(() => null);
        if (!blank || blank.status === 'complete') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return tab.id;
    },
    async closeTab(tabId) {
      await api.tabs.remove(tabId).catch(() => undefined);
    },
    async load(tabId, url, signal) {
      // Polled rather than followed through tabs.onUpdated: measured in Chromium, a background
      // tab's "complete" was missed often enough to leave renders waiting for their deadline.
      await api.tabs.update(tabId, { url });
      let asked = Date.now();
      for (;;) {
        if (signal.aborted) throw new Error('Cancelled');
        const tab = await api.tabs.get(tabId).catch(() => null);
        if (!tab) throw new Error('The tab the page was rendering in was closed');
        // The URL is visible for sites Scout may access; the blank tab's own "complete" does not count.
        if (tab.status === 'complete' && !tab.pendingUrl && tab.url && tab.url !== 'about:blank') return;
        // The quirk openTab waits out can outlast its wait on a busy machine: the navigation is
        // dropped and the tab stays blank until the deadline. Still blank with nothing pending: ask again.
        if (Date.now() - asked >= RENAVIGATE_MS && !tab.pendingUrl && (tab.status === 'unloaded' || (tab.url === 'about:blank' && tab.status !== 'loading'))) {
          await api.tabs.update(tabId, { url });
          asked = Date.now();
        }
        await new Promise((resolve) => setTimeout(resolve, LOAD_POLL_MS));
      }
    },
    async read(tabId, quietMs, settleMs, minText) {
      const [first] = await api.scripting.executeScript({ target: { tabId }, func: readRenderedDom, args: [quietMs, settleMs, minText] });
      const result = first?.result as RenderedDom | undefined;
      if (!result || typeof result.html !== 'string') throw new Error('The page gave nothing back');
      return result;
    },
    async setRules(add, remove) {
      if (!api.declarativeNetRequest) return false;
      await api.declarativeNetRequest.updateSessionRules({ addRules: add, removeRuleIds: remove });
      return true;
    },
  };
}
