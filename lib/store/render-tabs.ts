/**
 * The tabs Scout opened to render client-rendered pages (`renderTabs`, lib/render/tab-store.ts):
 * a row is written the moment a tab exists and deleted when it is closed, so a worker start can
 * close what a stopped worker left open.
 */
import type { RenderTabRecord } from './db';
import * as memRenderTabs from './memory/render-tabs';
import { inMemory, type Store } from './store';

export async function recordTab(store: Store, tab: RenderTabRecord): Promise<void> {
  if (inMemory(store)) return memRenderTabs.recordTab(store, tab);
  const db = store;
  await db.renderTabs.put(tab);
}

export async function forgetTab(store: Store, tabId: number): Promise<void> {
  if (inMemory(store)) return memRenderTabs.forgetTab(store, tabId);
  const db = store;
  await db.renderTabs.delete(tabId);
}

/** The recorded tabs of one job, or of every job when `jobId` is undefined. */
export function recordedTabs(store: Store, jobId?: string): Promise<RenderTabRecord[]> {
  if (inMemory(store)) return memRenderTabs.recordedTabs(store, jobId);
  const db = store;
  return jobId === undefined ? db.renderTabs.toArray() : db.renderTabs.where('jobId').equals(jobId).toArray();
}
