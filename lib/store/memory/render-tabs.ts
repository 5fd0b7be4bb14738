/** The memory bodies of render-tabs.ts: tabs by id. */
import type { RenderTabRecord } from '../db';
import { copy, type MemoryStore } from './store';

export async function recordTab(store: MemoryStore, tab: RenderTabRecord): Promise<void> {
  store.renderTabs.set(tab.tabId, copy(tab));
}

export async function forgetTab(store: MemoryStore, tabId: number): Promise<void> {
  store.renderTabs.delete(tabId);
}

/** In tab id order, as the table and its `jobId` index give them. */
export async function recordedTabs(store: MemoryStore, jobId?: string): Promise<RenderTabRecord[]> {
  return [...store.renderTabs.values()]
    .filter((t) => jobId === undefined || t.jobId === jobId)
    .sort((a, b) => a.tabId - b.tabId)
    .map(copy);
}
