/**
 * The render tabs Scout has open, kept in IndexedDB so that none outlives its render: a tab is
 * recorded the moment it exists and forgotten when it is closed. When the browser stops Scout's
 * worker mid-render, the tab stays open with its row; the next worker start closes it.
 *
 * Tab ids are unique only within one browser session (they restart with the browser), so each
 * row carries the session it was opened in, and a row from an earlier session is dropped without
 * closing anything: its id may now belong to one of the user's own tabs.
 */
import type { Store } from '../store/store';
import { forgetTab, recordTab, recordedTabs } from '../store/render-tabs';

/** What the store needs from the browser: closing a tab (resolving when it is already gone). */
export type CloseTab = (tabId: number) => Promise<void>;

export class TabStore {
  constructor(
    private readonly db: Store,
    /** This browser session's marker (kept in storage.session, which the browser clears on restart). */
    private readonly session: Promise<string>,
  ) {}

  async record(tabId: number, jobId: string, url: string): Promise<void> {
    await recordTab(this.db, { tabId, jobId, url, openedAt: Date.now(), session: await this.session });
  }

  async forget(tabId: number): Promise<void> {
    await forgetTab(this.db, tabId);
  }

  /**
   * Closes every recorded tab of this session except `keep` (the tabs this worker is rendering
   * in), and drops the rows of earlier sessions. Returns how many tabs it closed.
   */
  async sweep(close: CloseTab, keep: ReadonlySet<number> = new Set(), jobId?: string): Promise<number> {
    const session = await this.session;
    const rows = await recordedTabs(this.db, jobId);
    let closed = 0;
    for (const row of rows) {
      if (keep.has(row.tabId)) continue;
      if (row.session === session) {
        await close(row.tabId);
        closed++;
      }
      await forgetTab(this.db, row.tabId);
    }
    return closed;
  }
}
