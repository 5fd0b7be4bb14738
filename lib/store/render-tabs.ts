/**
 * The tabs Scout opened to render client-rendered pages (`renderTabs`, lib/render/tab-store.ts):
 * a row is written the moment a tab exists and deleted when it is closed, so a worker start can
 * close what a stopped worker left open.
 */
import type { RenderTabRecord, ScoutDb } from './db';

export async function recordTab(db: ScoutDb, tab: RenderTabRecord): Promise<void> {
  await db.renderTabs.put(tab);
}

export async function forgetTab(db: ScoutDb, tabId: number): Promise<void> {
  await db.renderTabs.delete(tabId);
}

/** The recorded tabs of one job, or of every job when `jobId` is undefined. */
export function recordedTabs(db: ScoutDb, jobId?: string): Promise<RenderTabRecord[]> {
  return jobId === undefined ? db.renderTabs.toArray() : db.renderTabs.where('jobId').equals(jobId).toArray();
}
