/**
 * What the side panel should show for a tab: a site it can work on, a page it
 * cannot (browser pages, the web store, files), or a tab whose address the
 * extension may not read (no host access yet and no activeTab grant).
 */
export type PanelTarget =
  | { kind: 'site'; url: string }
  | { kind: 'unsupported'; url: string; reason: string }
  | { kind: 'unknown'; reason: string };

// The stores block extensions by policy even though they are https pages.
const STORE_HOSTS = ['chromewebstore.google.com', 'chrome.google.com', 'addons.mozilla.org', 'microsoftedge.microsoft.com'];

/** Classifies a tab's URL (undefined when the browser hides it from the extension). */
export function classifyTarget(url: string | undefined): PanelTarget {
  if (!url) {
    return {
      kind: 'unknown',
      reason: 'Scout can’t read this tab’s address. Open a documentation site and click the Scout button in the toolbar.',
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'unsupported', url, reason: 'This is not a valid web address.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    const what = parsed.protocol === 'file:' ? 'a local file' : parsed.protocol === 'about:' ? 'an empty tab' : 'a browser page';
    return { kind: 'unsupported', url, reason: `This tab shows ${what}. Scout works on http and https websites.` };
  }
  if (STORE_HOSTS.includes(parsed.hostname)) {
    return { kind: 'unsupported', url, reason: 'Browsers don’t let extensions work on their add-on stores.' };
  }
  return { kind: 'site', url: parsed.href };
}

/** The subset of the tabs API the watcher needs, so it runs against a fake browser in tests. */
export interface TabsLike {
  query(q: { active: true; currentWindow: true }): Promise<Array<{ id?: number; url?: string }>>;
  onActivated: { addListener(cb: () => void): void; removeListener(cb: () => void): void };
  onUpdated: {
    addListener(cb: (tabId: number, change: { url?: string; status?: string }) => void): void;
    removeListener(cb: (tabId: number, change: { url?: string; status?: string }) => void): void;
  };
}

/**
 * Calls `onChange` with the active tab's target now and whenever the user
 * switches tabs or the active tab navigates. `ownTabId` is the panel's own tab
 * when it runs as a full tab; that tab is never its own target.
 * Returns an unsubscribe function.
 */
export function watchActiveTab(tabs: TabsLike, onChange: (t: PanelTarget) => void, ownTabId?: number): () => void {
  let activeId: number | undefined;
  let last = '';
  const emit = (t: PanelTarget) => {
    const key = JSON.stringify(t);
    if (key !== last) {
      last = key;
      onChange(t);
    }
  };
  const refresh = async () => {
    const [tab] = await tabs.query({ active: true, currentWindow: true });
    if (!tab || tab.id === ownTabId) return;
    activeId = tab.id;
    emit(classifyTarget(tab.url));
  };
  const onUpdated = (tabId: number, change: { url?: string; status?: string }) => {
    if (tabId === activeId && (change.url || change.status === 'complete')) void refresh();
  };
  tabs.onActivated.addListener(refresh);
  tabs.onUpdated.addListener(onUpdated);
  void refresh();
  return () => {
    tabs.onActivated.removeListener(refresh);
    tabs.onUpdated.removeListener(onUpdated);
  };
}
