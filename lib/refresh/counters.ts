import type { PageChange, RefreshCounters } from '../store/db';

/** A refresh's progress and result, per kind of change: defined with the job it belongs to (lib/store/db.ts). */
export type { RefreshCounters };

export const emptyRefreshCounters = (): RefreshCounters => ({ total: 0, checked: 0, bytes: 0, unchanged: 0, minor: 0, changed: 0, removed: 0, restored: 0, failed: 0 });

/** Page changes that make new outputs. */
export const CHANGED_ENOUGH: PageChange[] = ['changed', 'removed', 'restored'];

export function changedEnough(c: Partial<RefreshCounters>): number {
  return CHANGED_ENOUGH.reduce((sum, k) => sum + (c[k] ?? 0), 0);
}

const n = (v: number) => v.toLocaleString('en');

/** The refresh in words, for the header, the history and the notification. */
export function refreshMessage(c: RefreshCounters, phase: 'running' | 'done'): string {
  if (phase === 'running') return `Refreshing · ${n(c.checked)} / ${n(c.total)} pages checked`;
  const parts = [`${n(c.checked)} checked`, `${n(c.unchanged)} unchanged`, `${n(c.changed)} changed`, `${n(c.removed)} removed`];
  if (c.minor) parts.push(`${n(c.minor)} with minor changes`);
  if (c.restored) parts.push(`${n(c.restored)} back online`);
  parts.push(`${n(c.failed)} failed`);
  return `Refreshed: ${parts.join(' · ')}`;
}
