/**
 * The few tab operations rendering needs, over the extension APIs (tabs, scripting,
 * declarativeNetRequest). lib/ uses no extension API by itself: the background passes its
 * `browser` in, and unit tests pass a fake with the same shape.
 */
import { readRenderedDom, type RenderedDom } from './read-dom';
import type { TabRule } from './tab-rules';

interface ListenerSet<T extends (...args: never[]) => void> {
  addListener(listener: T): void;
  removeListener(listener: T): void;
}

type UpdatedListener = (tabId: number, info: { status?: string }) => void;
type RemovedListener = (tabId: number) => void;

/** The subset of the extension API used here (Chrome MV3 and Firefox MV2 alike). */
export interface ExtensionApis {
  tabs: {
    create(props: { url: string; active: boolean }): Promise<{ id?: number }>;
    update(tabId: number, props: { url: string }): Promise<unknown>;
    remove(tabId: number): Promise<void>;
    onUpdated: ListenerSet<UpdatedListener>;
    onRemoved: ListenerSet<RemovedListener>;
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
      return tab.id;
    },
    async closeTab(tabId) {
      await api.tabs.remove(tabId).catch(() => undefined);
    },
    load(tabId, url, signal) {
      return new Promise<void>((resolve, reject) => {
        // The blank tab's own "complete" may still arrive: only a load that started after the
        // navigation counts.
        let navigating = false;
        const finish = (error?: Error) => {
          api.tabs.onUpdated.removeListener(onUpdated);
          api.tabs.onRemoved.removeListener(onRemoved);
          signal.removeEventListener('abort', onAbort);
          if (error) reject(error);
          else resolve();
        };
        const onUpdated: UpdatedListener = (id, info) => {
          if (id !== tabId) return;
          if (info.status === 'loading') navigating = true;
          else if (info.status === 'complete' && navigating) finish();
        };
        const onRemoved: RemovedListener = (id) => {
          if (id === tabId) finish(new Error('The tab the page was rendering in was closed'));
        };
        const onAbort = () => finish(new Error('Cancelled'));
        if (signal.aborted) return onAbort();
        api.tabs.onUpdated.addListener(onUpdated);
        api.tabs.onRemoved.addListener(onRemoved);
        signal.addEventListener('abort', onAbort);
        api.tabs.update(tabId, { url }).catch((error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
      });
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
