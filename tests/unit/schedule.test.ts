import { describe, expect, it } from 'vitest';
import type { SiteRecord } from '@/lib/store/db';
import { afterRun, dueSites, nextWake, withMonitor } from '@/lib/refresh/schedule';

const HOUR = 3_600_000;
const site = (origin: string, monitor?: SiteRecord['monitor']): SiteRecord => ({ origin, host: origin, site: origin, firstOpenedAt: 0, lastOpenedAt: 0, openCount: 1, monitor });

describe('refresh schedule', () => {
  it('is off by default and first due one interval after it is turned on', () => {
    expect(withMonitor(undefined, { everyHours: 0, threshold: 0.9 }, 1000)).toEqual({ everyHours: 0, threshold: 0.9 });
    expect(withMonitor(undefined, { everyHours: 24, threshold: 0.9 }, 1000)).toEqual({ everyHours: 24, threshold: 0.9, nextAt: 1000 + 24 * HOUR });
    // Changing only the threshold keeps the due time; changing the interval restarts it.
    const on = { everyHours: 24, threshold: 0.9, nextAt: 5 };
    expect(withMonitor(on, { everyHours: 24, threshold: 0.8 }, 1000)).toEqual({ everyHours: 24, threshold: 0.8, nextAt: 5 });
    expect(withMonitor(on, { everyHours: 6, threshold: 0.8 }, 1000).nextAt).toBe(1000 + 6 * HOUR);
    expect(withMonitor(on, { everyHours: 6, threshold: 7 }, 1000).threshold).toBe(1);
  });

  it('picks due sites oldest first, wakes for the earliest, and does not make up missed runs', () => {
    const sites = [site('a', { everyHours: 24, threshold: 0.9, nextAt: 300 }), site('b', { everyHours: 6, threshold: 0.9, nextAt: 100 }), site('c', { everyHours: 0, threshold: 0.9 }), site('d'), site('e', { everyHours: 24, threshold: 0.9, nextAt: 900 })];
    expect(dueSites(sites, 500).map((s) => s.origin)).toEqual(['b', 'a']);
    expect(nextWake(sites)).toBe(100);
    expect(nextWake([site('c', { everyHours: 0, threshold: 0.9 })])).toBeNull();
    expect(afterRun({ everyHours: 6, threshold: 0.9, nextAt: 100 }, 10 * HOUR).nextAt).toBe(16 * HOUR);
  });
});
