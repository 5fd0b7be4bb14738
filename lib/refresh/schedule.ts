import type { MonitorSettings, SiteRecord } from '../store/db';
import { DEFAULT_THRESHOLD } from './similarity';

const HOUR = 3_600_000;

/** Schedule choices offered in the panel (hours; 0 = off). */
export const SCHEDULE_CHOICES = [0, 6, 24, 168] as const;

/** A site's monitor settings with the given changes; a schedule turned on is first due one interval from now. */
export function withMonitor(current: MonitorSettings | undefined, change: { everyHours: number; threshold: number }, now = Date.now()): MonitorSettings {
  const everyHours = Math.max(0, Math.min(24 * 30, Math.round(change.everyHours)));
  const threshold = Number.isFinite(change.threshold) ? Math.max(0, Math.min(1, change.threshold)) : (current?.threshold ?? DEFAULT_THRESHOLD);
  const keepNext = current?.everyHours === everyHours && current.nextAt !== undefined;
  return { everyHours, threshold, ...(everyHours > 0 ? { nextAt: keepNext ? current.nextAt : now + everyHours * HOUR } : {}) };
}

/** Sites whose scheduled refresh is due, oldest due first. */
export function dueSites(sites: SiteRecord[], now = Date.now()): SiteRecord[] {
  return sites.filter((s) => (s.monitor?.everyHours ?? 0) > 0 && (s.monitor?.nextAt ?? Infinity) <= now).sort((a, b) => (a.monitor?.nextAt ?? 0) - (b.monitor?.nextAt ?? 0));
}

/** When the schedule alarm should next fire, or null when no site has a schedule. */
export function nextWake(sites: SiteRecord[]): number | null {
  const times = sites.flatMap((s) => ((s.monitor?.everyHours ?? 0) > 0 && s.monitor?.nextAt !== undefined ? [s.monitor.nextAt] : []));
  return times.length ? Math.min(...times) : null;
}

/** The next due time after a scheduled refresh starts: one interval from now (missed runs are not made up). */
export function afterRun(monitor: MonitorSettings, now = Date.now()): MonitorSettings {
  return { ...monitor, nextAt: now + monitor.everyHours * HOUR };
}
