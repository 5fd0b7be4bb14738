import type { Browser } from 'puppeteer-core';

/**
 * Firefox's own window (the parent process), reached over WebDriver BiDi's `moz:scope: chrome`
 * (needs --remote-allow-system-access). It holds what no web page can: the add-on's
 * moz-extension host, the toolbar button and the sidebar. These are Firefox internals, so
 * each use is one short expression here, easy to fix when Firefox renames something.
 */
type Bidi = { connection: { send(method: string, params: object): Promise<{ result: unknown }> } };

/** Evaluates `expression` in the first browser window (awaited when a promise); primitives only come back. */
export async function chromeEval<T>(browser: Browser, expression: string): Promise<T> {
  const send = (method: string, params: object) => (browser as unknown as Bidi).connection.send(method, params);
  const { result: tree } = (await send('browsingContext.getTree', { 'moz:scope': 'chrome', maxDepth: 0 })) as { result: { contexts: Array<{ context: string }> } };
  const context = tree.contexts[0]?.context;
  if (!context) throw new Error('Firefox reported no browser window');
  const { result } = (await send('script.evaluate', { expression, target: { context }, awaitPromise: true, resultOwnership: 'none' })) as {
    result: { type: string; result?: { value?: unknown }; exceptionDetails?: { text: string } };
  };
  if (result.type === 'exception') throw new Error(`In Firefox's window: ${result.exceptionDetails?.text ?? 'an exception'}\n${expression}`);
  // BiDi sends null and undefined as a bare type with no value.
  return (result.result?.value ?? null) as T;
}

/** The add-on's moz-extension:// host (a per-profile UUID, not the add-on id). */
export function extensionHost(browser: Browser, addonId: string): Promise<string> {
  return chromeEval(browser, `WebExtensionPolicy.getByID(${JSON.stringify(addonId)}).mozExtensionHostname`);
}

/**
 * Clicks Scout's toolbar button as a person would, minus the pixels: Firefox's own handler
 * grants activeTab on the selected tab and fires browserAction.onClicked, inside a user
 * input (sidebarAction.toggle() is only allowed there).
 */
export function clickToolbarButton(browser: Browser, addonId: string): Promise<void> {
  return chromeEval(browser, `(async () => {
    const { ExtensionParent } = ChromeUtils.importESModule('resource://gre/modules/ExtensionParent.sys.mjs');
    const { ExtensionCommon } = ChromeUtils.importESModule('resource://gre/modules/ExtensionCommon.sys.mjs');
    const extension = WebExtensionPolicy.getByID(${JSON.stringify(addonId)}).extension;
    ExtensionCommon.withHandlingUserInput(window, () => ExtensionParent.apiManager.global.browserActionFor(extension).triggerAction(window));
  })()`);
}

/** Which sidebar is open, and the page it shows (null when closed). */
export function sidebarPage(browser: Browser): Promise<string | null> {
  return chromeEval(browser, `(async () => {
    await SidebarController.promiseInitialized;
    if (!SidebarController.isOpen) return null;
    const inner = SidebarController.browser.contentDocument?.getElementById('webext-panels-browser');
    return inner?.currentURI.spec ?? SidebarController.browser.currentURI.spec;
  })()`);
}

/** Closes the sidebar (Firefox opens an add-on's sidebar by itself when it is installed). */
export function closeSidebar(browser: Browser): Promise<void> {
  return chromeEval(browser, `(async () => { await SidebarController.promiseInitialized; SidebarController.hide(); })()`);
}
