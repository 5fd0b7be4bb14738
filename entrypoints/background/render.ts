import type { ScoutDb } from '@/lib/store/db';
import type { WxtBrowser } from 'wxt/browser';
import { browserTabs } from '@/lib/render/browser-tabs';
import { createTabRenderer, type TabRenderer } from '@/lib/render/tab-renderer';
import { TabStore } from '@/lib/render/tab-store';

/** This browser session's marker for render-tab rows: storage.session is emptied when the browser restarts. */
async function sessionMarker(browser: WxtBrowser): Promise<string> {
  const area = browser.storage.session;
  const { renderSession } = await area.get('renderSession');
  if (typeof renderSession === 'string') return renderSession;
  const fresh = crypto.randomUUID();
  await area.set({ renderSession: fresh });
  return fresh;
}

/**
 * The tab renderer for client-rendered pages (lib/render/), or null where the browser offers no
 * scripting API. Creating it closes the render tabs an earlier worker left open.
 */
export function setUpRendering({ db, browser }: { db: ScoutDb; browser: WxtBrowser }): TabRenderer | null {
  if (!browser.scripting?.executeScript || !browser.tabs?.create) return null;
  return createTabRenderer({ browser: browserTabs(browser), store: new TabStore(db, sessionMarker(browser)) });
}
